package org.modelfs.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.ModelFileSystems;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.testing.Fixtures;

/**
 * A file named like a shard ({@code <base>.shard<k>-of-<N>.sdnb|sdmc}) is a shard of the model
 * {@code <base>} only if it starts as one: a model of its own under such a name is that model, and
 * a commit of {@code <base>} never replaces or deletes a file of that name that holds something
 * else (found by review: both were lost).
 */
class ShardNamedFilesTest {
  @TempDir Path tmp;

  private List<String> names() throws IOException {
    try (Stream<Path> s = Files.list(tmp)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sdnb", "sdmc"})
  void anFbModelNamedLikeAShardIsCommittedWhereItIsAndItsNeighbourKept(String ext) throws IOException {
    Path mine = tmp.resolve("notes.shard0-of-2." + ext);
    Path other = tmp.resolve("notes.shard1-of-2." + ext);
    Files.copy(Fixtures.get("mlp_adam.fb"), mine);
    Files.writeString(other, "an unrelated file of the user's");
    String param;
    try (Model m = Models.open(mine)) {
      assertEquals(ModelFormat.FB, m.format());
      param = m.newest().arrays().get(0).name();
    }
    assertEquals(ModelId.of(mine).key(), "notes.shard0-of-2." + ext, "the model is the file itself");
    try (FileSystem fs = ModelFileSystems.open(mine)) {
      Path p = fs.getPath("/tags/default/params/" + param);
      byte[] b = Files.readAllBytes(p);
      ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putFloat(0, 42.5f);
      Files.write(p, b);
    }
    assertEquals(List.of("notes.shard0-of-2." + ext, "notes.shard1-of-2." + ext), names());
    assertEquals("an unrelated file of the user's", Files.readString(other));
    try (FileSystem fs = ModelFileSystems.open(mine)) {
      assertEquals(42.5f, ByteBuffer.wrap(Files.readAllBytes(fs.getPath("/tags/default/params/" + param)))
          .order(ByteOrder.LITTLE_ENDIAN).getFloat(0));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"sdnb", "sdmc"})
  void aCommitRefusesToReplaceOrDeleteAFileNamedLikeItsShard(String ext) throws IOException {
    Path user = tmp.resolve("m.shard0-of-1." + ext);
    Files.writeString(user, "not a shard");
    ModelFormat single = ext.equals("sdnb") ? ModelFormat.SDNB : ModelFormat.CONTAINER;
    ModelFormat sharded = ext.equals("sdnb") ? ModelFormat.SHARDED_SDNB : ModelFormat.SHARDED_CONTAINER;
    try (Model src = Models.open(Fixtures.get("mlp_adam.fb"))) {
      IOException e = assertThrows(IOException.class,
          () -> ModelFiles.write(src.newest(), tmp.resolve("m." + ext), WriteOptions.of(single)));
      assertTrue(e.getMessage().contains("m.shard0-of-1." + ext) && e.getMessage().contains("not one"), e.getMessage());
      assertThrows(IOException.class, () -> ModelFiles.write(src.newest(), tmp.resolve("m." + ext),
          WriteOptions.of(sharded).withMaxShardBytes(1L << 30)));
    }
    assertEquals(List.of("m.shard0-of-1." + ext), names(), "nothing written, nothing deleted");
    assertEquals("not a shard", Files.readString(user));
    assertFalse(Files.exists(tmp.resolve("m." + ext)));
  }
}
