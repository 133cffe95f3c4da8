package org.modelfs.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.container.Models;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.WriteOptions;
import org.modelfs.format.sdnb.ShardNames;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;
import org.modelfs.testing.ModelTsv;
import org.modelfs.testing.Sidecars;
import org.modelfs.testing.SyntheticModels;

/** {@link ModelFiles}: whole-model writes through the store round-trip through {@link Models#open}. */
class ModelFilesTest {
  private static final int ELEMENTS = 32;

  @TempDir Path tmp;
  private Path dir;
  private SyntheticModels.Synthetic three;
  private SyntheticModels.Synthetic two;

  @BeforeEach
  void setUp() throws IOException {
    dir = Files.createDirectory(tmp.toRealPath().resolve("models"));
    three = SyntheticModels.floats(tmp.resolve("three.bin"), 3, ELEMENTS);
    two = SyntheticModels.floats(tmp.resolve("two.bin"), 2, ELEMENTS);
  }

  @AfterEach
  void tearDown() throws IOException {
    three.data().close();
    two.data().close();
  }

  private static Tag named(Tag t, String name) {
    return new Tag(name, t.graph(), t.variables(), t.updater(), t.trainingConfig(), t.metadata());
  }

  private List<String> names() throws IOException {
    return SafeDir.names(dir).stream().sorted().toList();
  }

  @Test
  void writeRoundTripsInEveryFormat() throws IOException {
    for (ModelFormat f : List.of(ModelFormat.FB, ModelFormat.SDNB, ModelFormat.SDZ, ModelFormat.ZIP_TAGS,
        ModelFormat.CONTAINER)) {
      Path out = dir.resolve("m." + f.token());
      List<Path> files = ModelFiles.write(three.tag(), out, WriteOptions.of(f));
      assertEquals(List.of(out), files, f.toString());
      try (Model m = Models.open(out)) {
        assertEquals(f, m.format());
        assertEquals(1, m.tags().size());
        assertEquals(ModelTsv.of(three.tag()), ModelTsv.of(m.newest()), f.toString());
      }
      try (Model m = ModelFiles.open(out)) {
        assertEquals(ModelTsv.of(three.tag()), ModelTsv.of(m.newest()), f.toString());
      }
      assertEquals(List.of(), Sidecars.of(out), f + ": nothing left beside the model");
    }
  }

  @Test
  void writeReplacesAModel() throws IOException {
    Path out = dir.resolve("m.fb");
    ModelFiles.write(three.tag(), out, WriteOptions.of(ModelFormat.FB));
    ModelFiles.write(two.tag(), out, WriteOptions.of(ModelFormat.FB));
    try (Model m = Models.open(out)) {
      assertEquals(ModelTsv.of(two.tag()), ModelTsv.of(m.newest()));
    }
    assertEquals(List.of("m.fb"), names());
  }

  @Test
  void aShardSetAndItsSingleFileReplaceEachOther() throws IOException {
    Path out = dir.resolve("m.sdnb");
    ModelFiles.write(three.tag(), out, WriteOptions.of(ModelFormat.SDNB));
    List<Path> shards = ModelFiles.write(two.tag(), out,
        WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(4L * ELEMENTS));
    List<Path> want = List.of(dir.resolve(ShardNames.name("m", 0, 3)), dir.resolve(ShardNames.name("m", 1, 3)),
        dir.resolve(ShardNames.name("m", 2, 3)));
    assertEquals(want, shards);
    assertEquals(want.stream().map(p -> p.getFileName().toString()).toList(), names());
    try (Model m = Models.open(out)) {
      assertEquals(ModelFormat.SHARDED_SDNB, m.format());
      assertEquals(ModelTsv.of(two.tag()), ModelTsv.of(m.newest()));
    }
    try (Model m = ModelFiles.open(dir.resolve("m"))) {
      assertEquals(ModelTsv.of(two.tag()), ModelTsv.of(m.newest()));
    }
    assertEquals(List.of(out), ModelFiles.write(three.tag(), out, WriteOptions.of(ModelFormat.SDNB)));
    assertEquals(List.of("m.sdnb"), names());
    try (Model m = Models.open(out)) {
      assertEquals(ModelFormat.SDNB, m.format());
      assertEquals(ModelTsv.of(three.tag()), ModelTsv.of(m.newest()));
    }
  }

  /**
   * {@code m.SDNB} and {@code m.sdnb} are one model (one key, one lock): writing the shard set of
   * {@code m.sdnb} replaces the single file {@code m.SDNB}, as it replaces {@code m.sdnb}.
   */
  @Test
  void anUpperCaseSingleFileIsReplacedByItsShardSet() throws IOException {
    Path upper = dir.resolve("m.SDNB");
    ModelFiles.write(three.tag(), dir.resolve("m.sdnb"), WriteOptions.of(ModelFormat.SDNB));
    Files.move(dir.resolve("m.sdnb"), upper); // written by another tool under this name
    assertEquals(List.of("m.SDNB"), names());
    assertEquals(ModelId.of(upper), ModelId.of(dir.resolve("m.sdnb")));
    ModelFiles.write(two.tag(), dir.resolve("m.sdnb"),
        WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(4L * ELEMENTS));
    assertEquals(List.of(ShardNames.name("m", 0, 3), ShardNames.name("m", 1, 3), ShardNames.name("m", 2, 3)), names());
  }

  @Test
  void writeTagsRoundTripsEveryTagInOrder() throws IOException {
    List<Tag> tags = List.of(named(two.tag(), "older"), named(three.tag(), "newest"));
    for (ModelFormat f : List.of(ModelFormat.SDZ, ModelFormat.ZIP_TAGS, ModelFormat.CONTAINER)) {
      Path out = dir.resolve("tags." + f.token());
      assertEquals(List.of(out), ModelFiles.writeTags(tags, out, WriteOptions.of(f)));
      try (Model m = Models.open(out)) {
        assertEquals(List.of("older", "newest"), m.tags().stream().map(Tag::name).toList(), f.toString());
        assertEquals(ModelTsv.of(two.tag()), ModelTsv.of(m.tag("older")), f.toString());
        assertEquals(ModelTsv.of(three.tag()), ModelTsv.of(m.tag("newest")), f.toString());
      }
    }
  }

  @Test
  void aFormatThatCannotHoldTheTagsWritesNothing() throws IOException {
    Path out = dir.resolve("m.fb");
    ModelFiles.write(three.tag(), out, WriteOptions.of(ModelFormat.FB));
    byte[] before = Files.readAllBytes(out);
    List<Tag> tags = List.of(named(two.tag(), "older"), named(three.tag(), "newest"));
    assertThrows(ModelFormatException.class, () -> ModelFiles.writeTags(tags, out, WriteOptions.of(ModelFormat.FB)));
    assertEquals(List.of("m.fb"), names());
    Assertions.assertArrayEquals(before, Files.readAllBytes(out));
  }
}
