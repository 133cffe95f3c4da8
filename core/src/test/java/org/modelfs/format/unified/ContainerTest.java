package org.modelfs.format.unified;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.container.Models;
import org.modelfs.format.FixtureRoundTripTest;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.WriteOptions;
import org.modelfs.io.HeapSource;
import org.modelfs.model.ArrayData;
import org.modelfs.model.DType;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;
import org.modelfs.model.VarKind;
import org.modelfs.model.Variable;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.Fixtures;
import org.modelfs.testing.ModelTsv;

/** The container (docs/FORMATS.md §13): several tags, shard sets, a mount's commit, mapping. */
class ContainerTest {
  @TempDir Path tmp;

  private static Tag adam() throws Exception {
    try (Model m = Models.open(Fixtures.get("mlp_adam.fb"))) {
      return m.newest();
    }
  }

  private static List<Tag> twoTags(Model m) {
    Tag t = m.newest();
    return List.of(new Tag("first", t.graph(), t.variables(), t.updater(), t.trainingConfig(), Map.of("who", "a")),
        new Tag("second", t.graph(), t.variables(), List.of(), null, Map.of("who", "b", "more", "x")));
  }

  @Test
  void severalTagsKeepTheirNamesMetadataArraysAndUpdaterState() throws Exception {
    for (WriteOptions o : List.of(WriteOptions.of(ModelFormat.CONTAINER),
        WriteOptions.of(ModelFormat.CONTAINER).withDeflate(true))) {
      Path out = tmp.resolve(o.deflate() ? "d.sdmc" : "s.sdmc");
      try (Model src = Models.open(Fixtures.get("mlp_adam.fb"))) {
        List<Tag> tags = twoTags(src);
        ModelFiles.writeTags(tags, out, o);
        try (Model back = Models.open(out)) {
          assertEquals(ModelFormat.CONTAINER, back.format());
          assertEquals(List.of("first", "second"), back.tags().stream().map(Tag::name).toList());
          for (int i = 0; i < 2; i++) {
            assertEquals(ModelTsv.of(tags.get(i)), ModelTsv.of(back.tags().get(i)), out + " tag " + i);
            assertEquals(tags.get(i).metadata(), back.tags().get(i).metadata());
            assertEquals(tags.get(i).trainingConfig(), back.tags().get(i).trainingConfig());
          }
          assertFalse(back.tags().get(0).updater().isEmpty(), "the first tag's updater state");
          assertTrue(back.tags().get(1).updater().isEmpty());
        }
      }
    }
  }

  @Test
  void storedArraysMapInPlaceAndDeflatedOnesDoNot() throws Exception {
    Tag t = adam();
    try (Model src = Models.open(Fixtures.get("mlp_adam.fb"))) {
      ModelFiles.write(src.newest(), tmp.resolve("s.sdmc"), WriteOptions.of(ModelFormat.CONTAINER));
      ModelFiles.write(src.newest(), tmp.resolve("d.sdmc"), WriteOptions.of(ModelFormat.CONTAINER).withDeflate(true));
    }
    String name = t.arrays().get(0).name();
    try (Model s = Models.open(tmp.resolve("s.sdmc")); Model d = Models.open(tmp.resolve("d.sdmc"))) {
      ArrayData a = s.newest().variable(name).array();
      assertNotNull(a.source().mappable(0), "a stored array is mapped from the container's own pages");
      assertEquals(0, a.source().mappable(0).position() % ContainerLayout.DATA_ALIGN, "64-byte aligned");
      assertNull(d.newest().variable(name).array().source().mappable(0));
      assertEquals(ArrayData.Storage.DEFLATED, d.newest().variable(name).array().storage());
    }
  }

  @Test
  void aShardSetOpensByAnyOfItsNamesAndReplacesTheSingleFile() throws Exception {
    Path m = tmp.resolve("m.sdmc");
    String expected;
    try (Model src = Models.open(Fixtures.get("mlp_adam.fb"))) {
      expected = ModelTsv.of(src.newest());
      ModelFiles.write(src.newest(), m, WriteOptions.of(ModelFormat.CONTAINER));
      List<Path> shards = ModelFiles.write(src.newest(), m, WriteOptions.of(ModelFormat.SHARDED_CONTAINER)
          .withMaxShardBytes(300));
      assertTrue(shards.size() >= 3, "shards: " + shards);
      assertFalse(Files.exists(m), "the single file a shard set replaces is gone");
    }
    for (Path p : List.of(m, tmp.resolve("m"), tmp.resolve("m.shard1-of-" + files("m.shard").size() + ".sdmc"))) {
      try (Model back = Models.open(p)) {
        assertEquals(ModelFormat.SHARDED_CONTAINER, back.format(), p.toString());
        assertEquals(expected, ModelTsv.of(back.newest()), p.toString());
      }
    }
    try (Model src = Models.open(m)) {
      ModelFiles.write(src.newest(), m, WriteOptions.of(ModelFormat.CONTAINER));
    }
    assertEquals(List.of(), files("m.shard"), "the shards the single file replaces are gone");
    try (Model back = Models.open(m)) {
      assertEquals(expected, ModelTsv.of(back.newest()));
    }
  }

  /** (A shard set's base name is no file: the JDK's probing form asks zipfs first; see FileSystemsEntryPointsTest.) */
  @Test
  void aMountCommitsIntoAShardSetAndReplacesItsShards() throws Exception {
    Path m = tmp.resolve("m.sdmc");
    String param;
    try (Model src = Models.open(Fixtures.get("mlp_adam.fb"))) {
      param = src.newest().arrays().get(0).name();
      ModelFiles.write(src.newest(), m, WriteOptions.of(ModelFormat.SHARDED_CONTAINER).withMaxShardBytes(300));
    }
    int before = files("m.shard").size();
    byte[] written;
    try (FileSystem fs = ModelFileSystems.open(m)) {
      Path p = fs.getPath("/tags/default/params/" + param);
      byte[] old = Files.readAllBytes(p);
      written = old.clone();
      ByteBuffer.wrap(written).order(ByteOrder.LITTLE_ENDIAN).putFloat(0, 42.5f);
      Files.write(p, written);
    }
    // without a limit the set keeps its packing (FILESYSTEM.md §7.4): the same shards, one of them new
    assertTrue(before > 2, "written as " + before + " shards");
    assertEquals(before, files("m.shard").size());
    assertFalse(Files.exists(m));
    // a commit that keeps no weight shard (every array changed) packs the set again by the limit:
    // one weight shard now, none of the old ones left
    try (FileSystem fs = ModelFileSystems.open(m, Map.of("maxShardBytes", Long.toString(1L << 30)))) {
      try (Stream<Path> params = Files.walk(fs.getPath("/tags/default/params"))) {
        for (Path q : params.filter(Files::isRegularFile).toList()) {
          byte[] b = Files.readAllBytes(q);
          if (b.length >= 4) {
            ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putFloat(0, 43.5f);
            Files.write(q, b);
          }
        }
      }
    }
    assertEquals(List.of("m.shard0-of-2.sdmc", "m.shard1-of-2.sdmc"), files("m.shard"));
    assertFalse(Files.exists(m));
    try (FileSystem fs = ModelFileSystems.open(m)) {
      assertEquals(43.5f, ByteBuffer.wrap(Files.readAllBytes(fs.getPath("/tags/default/params/" + param)))
          .order(ByteOrder.LITTLE_ENDIAN).getFloat(0));
    }
  }

  /** convert to and from every other format: each target written from a container, and a container written from it. */
  @Test
  void convertsToAndFromEveryOtherFormat() throws Exception {
    String expected = ModelTsv.read(Fixtures.expected(Fixtures.get("mlp_adam.fb")));
    List<WriteOptions> containers = List.of(WriteOptions.of(ModelFormat.CONTAINER),
        WriteOptions.of(ModelFormat.CONTAINER).withDeflate(true).withLevel(1),
        WriteOptions.of(ModelFormat.SHARDED_CONTAINER).withMaxShardBytes(300));
    int n = 0;
    for (WriteOptions c : containers) {
      Path from = tmp.resolve("from" + n + ".sdmc");
      try (Model src = Models.open(Fixtures.get("mlp_adam.fb"))) {
        ModelFiles.write(src.newest(), from, c);
      }
      for (Object[] t : FixtureRoundTripTest.targets()) {
        Path dir = Files.createDirectory(tmp.resolve("c" + n + "-" + t[0]));
        Path other = dir.resolve((String) t[2]);
        try (Model m = Models.open(from)) {
          ModelFiles.write(m.newest(), other, (WriteOptions) t[1]);
        }
        Path back = dir.resolve("back.sdmc");
        try (Model m = Models.open(other)) {
          assertEquals(expected, ModelTsv.of(m.newest()), c.format() + " → " + t[0]);
          ModelFiles.write(m.newest(), back, c);
        }
        try (Model m = Models.open(back)) {
          assertEquals(expected, ModelTsv.of(m.newest()), c.format() + " → " + t[0] + " → container");
        }
      }
      n++;
    }
  }

  /** A weight shard holding a graph would have it ignored: refused instead. */
  @Test
  void aWeightShardWithAGraphIsRefused() throws Exception {
    try (Model src = Models.open(Fixtures.get("mlp_adam.fb"))) {
      List<Tag> tags = List.of(src.newest());
      try (FileChannel ch = FileChannel.open(tmp.resolve("m.shard0-of-2.sdmc"),
          StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
          StandardOpenOption.READ)) {
        ContainerWriter.writeShard(tags, ContainerWriter.Part.GRAPH, Set.of(),
            new ContainerWriter.Shard(0, 2, "m"), ch, "m.shard0-of-2.sdmc", 0);
      }
      try (FileChannel ch = FileChannel.open(tmp.resolve("m.shard1-of-2.sdmc"),
          StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
          StandardOpenOption.READ)) {
        ContainerWriter.writeShard(tags, ContainerWriter.Part.WHOLE, Set.of(),
            new ContainerWriter.Shard(1, 2, "m"), ch, "m.shard1-of-2.sdmc", 0);
      }
    }
    ModelFormatException e = Assertions.assertThrows(
        ModelFormatException.class, () -> Models.open(tmp.resolve("m.sdmc")).close());
    assertTrue(e.getMessage().contains("m.shard1-of-2.sdmc") && e.getMessage().contains("GRAPH section")
        && e.getMessage().contains("belong in shard 0"), e.getMessage());
  }

  /** Shards must be what their names say: swapped, a missing one, a foreign one, or disagreeing tags are refused. */
  @Test
  void shardsThatAreNotWhatTheirNamesSayAreRefused() throws Exception {
    List<Path> shards;
    try (Model src = Models.open(Fixtures.get("mlp_adam.fb"))) {
      shards = ModelFiles.writeTags(twoTags(src), tmp.resolve("m.sdmc"),
          WriteOptions.of(ModelFormat.SHARDED_CONTAINER).withMaxShardBytes(300));
    }
    int n = shards.size();
    assertTrue(n >= 3, shards.toString());
    Path m = tmp.resolve("m.sdmc");
    try (Model back = Models.open(m)) {
      assertEquals(List.of("first", "second"), back.tags().stream().map(Tag::name).toList());
    }
    byte[] one = Files.readAllBytes(shards.get(1));
    byte[] two = Files.readAllBytes(shards.get(2));
    Files.write(shards.get(1), two);
    Files.write(shards.get(2), one);
    refused(m, "found as shard 1 of " + n);
    Files.write(shards.get(1), one);
    Files.write(shards.get(2), two);
    // a weight shard of another model (one tag) in place of ours
    Files.delete(shards.get(1));
    try (Model src = Models.open(Fixtures.get("mlp_adam.fb"));
        FileChannel ch = FileChannel.open(shards.get(1),
            StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
            StandardOpenOption.READ)) {
      ContainerWriter.writeShard(List.of(src.newest()), ContainerWriter.Part.WEIGHTS,
          Set.of(src.newest().arrays().get(0).name()), new ContainerWriter.Shard(1, n, "m"), ch,
          shards.get(1).getFileName().toString(), 0);
    }
    refused(m, "but shard 0 lists");
    Files.write(shards.get(1), one);
    Files.delete(shards.get(n - 1));
    refused(m, "is missing");
  }

  private static void refused(Path model, String says) {
    ModelFormatException e = Assertions.assertThrows(
        ModelFormatException.class, () -> Models.open(model).close(), says);
    assertTrue(e.getMessage().contains(says), e.getMessage());
  }


  /** An index a reader would refuse (over 256 MiB) is refused before anything is written. */
  @Test
  void anIndexTooLargeToReadIsRefusedBeforeWriting() throws Exception {
    // 4 TiB in one FLOAT array: 16 Mi deflated chunks, 20 bytes each in the index; no byte is read
    ArrayData huge = new ArrayData(DType.FLOAT, new long[] {1L << 40}, 'c', false,
        new HeapSource("none", new byte[0]), 0, 4L << 40, false, ArrayData.Storage.RAW);
    Tag t = new Tag("default", null, List.of(new Variable("w", VarKind.VARIABLE,
        DType.FLOAT, new long[] {1L << 40}, huge, -1)), List.of(), null, Map.of());
    ModelFormatException e = Assertions.assertThrows(
        ModelFormatException.class, () -> ModelFiles.write(t, tmp.resolve("huge.sdmc"),
            WriteOptions.of(ModelFormat.CONTAINER).withDeflate(true)));
    assertTrue(e.getMessage().contains("ARRAYS index"), e.getMessage());
    assertEquals(List.of(), files("huge"), "nothing written");
  }

  private List<String> files(String prefix) throws Exception {
    try (Stream<Path> s = Files.list(tmp)) {
      return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(prefix)).sorted().toList();
    }
  }
}
