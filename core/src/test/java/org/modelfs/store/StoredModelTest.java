package org.modelfs.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What an object store holds of one model: its generation, its newest time, its objects as paths. */
class StoredModelTest {
  record Obj(String key, String etag, long size, Instant lastModified, Map<String, String> metadata)
      implements StoredObject {}

  private static Obj obj(String key, String etag, String time) {
    return new Obj(key, etag, 1, time == null ? null : Instant.parse(time), Map.of());
  }

  @Test
  void aModelObjectOrAPlainShardSet() {
    StoredModel<Obj> single = new StoredModel<>(obj("d/m.fb", "e1", "2026-01-01T00:00:00Z"), List.of());
    assertEquals(new Generation(List.of("d/m.fb@e1")), single.generation());
    assertNotEquals(single.generation(), new StoredModel<>(obj("d/m.fb", "e2", null), List.of()).generation());
    assertEquals(List.of(Path.of("/d/m.fb")), single.files(Path.of("/")));
    assertFalse(single.none());

    StoredModel<Obj> plain = new StoredModel<>(null, List.of(obj("d/m.shard0-of-2.sdnb", "a", "2026-01-01T00:00:00Z"),
        obj("d/m.shard1-of-2.sdnb", "b", "2026-02-01T00:00:00Z")));
    assertEquals(new Generation(List.of("d/m.shard0-of-2.sdnb@a", "d/m.shard1-of-2.sdnb@b")), plain.generation());
    assertEquals(Instant.parse("2026-02-01T00:00:00Z"), plain.newest());
    assertEquals(List.of(Path.of("/d/m.shard0-of-2.sdnb"), Path.of("/d/m.shard1-of-2.sdnb")), plain.files(Path.of("/")));

    StoredModel<Obj> none = new StoredModel<>(null, List.of());
    assertTrue(none.none());
    assertNull(none.newest());
    assertEquals(new Generation(List.of()), none.generation());
  }
}
