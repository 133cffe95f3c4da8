package org.modelfs.verify;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.format.sdnb.SdnbFormat;
import org.modelfs.io.ChannelSource;
import org.modelfs.model.ArrayData;
import org.modelfs.model.DType;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.Variable;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.Fixtures;
import org.modelfs.testing.VerifyModels;
import org.modelfs.testing.VerifyModels.Format;

/** The library side of {@code modelfs verify}: {@link Verifier} on sound and broken models. */
class VerifierTest {
  @TempDir Path tmp;

  private static Report verify(Path p) throws IOException {
    return Verifier.verify(p, new Verifier.Options(true));
  }

  /** The number of arrays and their bytes, read through the index. */
  private static long[] arraysAndBytes(Path p) throws IOException {
    long n = 0;
    long bytes = 0;
    try (Model m = Models.open(p)) {
      for (Tag t : m.tags()) {
        for (Variable v : t.arrays()) {
          n++;
          bytes += v.array().length();
        }
        for (UpdaterState u : t.updater()) {
          for (ArrayData a : u.arrays().values()) {
            n++;
            bytes += a.length();
          }
        }
      }
    }
    return new long[] {n, bytes};
  }

  static List<Path> fixtures() throws IOException {
    return Fixtures.all();
  }

  @ParameterizedTest
  @MethodSource("fixtures")
  void everyDl4jFixtureIsSound(Path fixture) throws IOException {
    Report r = verify(fixture);
    assertEquals(List.of(), r.problems(), fixture.toString());
    assertArrayEquals(arraysAndBytes(fixture), new long[] {r.arrays(), r.bytes()});
  }

  @ParameterizedTest
  @EnumSource(Format.class)
  void theExampleIsSoundInEveryFormat(Format format) throws IOException {
    Path m = VerifyModels.write(tmp, format);
    AtomicLong progress = new AtomicLong();
    try (Verifier v = Verifier.open(m, new Verifier.Options(true))) {
      Report r = v.run(progress::addAndGet);
      assertEquals(List.of(), r.problems());
      assertTrue(r.ok());
      assertArrayEquals(arraysAndBytes(m), new long[] {r.arrays(), r.bytes()});
      assertEquals(v.totalBytes(), progress.get(), "progress reaches the total");
      assertTrue(v.totalBytes() >= r.bytes());
    }
  }

  @Test
  void arraysTwoTagsShareAreReadOnce() throws IOException {
    Path zip = VerifyModels.writeTwoTags(tmp, "two.zip", WriteOptions.of(ModelFormat.ZIP_TAGS));
    Path sdz = VerifyModels.writeTwoTags(tmp, "two.sdz", WriteOptions.of(ModelFormat.SDZ));
    Report z = verify(zip);
    Report s = verify(sdz);
    assertEquals(List.of(), z.problems());
    assertEquals(List.of(), s.problems());
    long arrays = arraysAndBytes(VerifyModels.EXAMPLE)[0];
    assertEquals(arrays, z.arrays(), "zip-tags stores the second tag's arrays once");
    assertEquals(2 * arrays, s.arrays(), "an SDZ stores each tag whole");
  }

  @Test
  void anArrayCutShortAfterOpeningIsReportedWithItsOffset() throws IOException {
    Path m = VerifyModels.write(tmp, Format.SDNB);
    long w = VerifyModels.arrayOffset(m, "layer1/W");
    try (Verifier v = Verifier.open(m, Verifier.Options.defaults())) {
      try (FileChannel ch = FileChannel.open(m, StandardOpenOption.WRITE)) {
        ch.truncate(w + 10);
      }
      Report r = v.run(n -> {});
      assertTrue(r.problems().contains(new Problem("/tags/default/params/layer1/W",
          "stored at offset " + w + " of m.sdnb: only 10 of its 96 bytes are there")), r.problems().toString());
    }
  }

  @Test
  void decreasingUtf8OffsetsAreReported() throws IOException {
    for (ModelFormat f : List.of(ModelFormat.FB, ModelFormat.SDNB, ModelFormat.ZIP_TAGS, ModelFormat.CONTAINER)) {
      Path m = VerifyModels.withUtf8(tmp, "utf8-" + f.token(), WriteOptions.of(f), new long[] {0, 4, 2}, "abcdef");
      assertEquals(List.of(new Problem("/tags/default/params/strings",
          "UTF8 offset 2 is 2, less than the one before (4); DL4J could not read the array")), verify(m).problems(), f.token());
      Path ok = VerifyModels.withUtf8(tmp, "utf8-ok-" + f.token(), WriteOptions.of(f), new long[] {0, 4, 6}, "abcdef");
      assertEquals(List.of(), verify(ok).problems(), f.token());
    }
    Path past = VerifyModels.withUtf8(tmp, "past.fb", WriteOptions.of(ModelFormat.FB), new long[] {0, 3, 9}, "abcdef");
    assertEquals(List.of(new Problem("/tags/default/params/strings",
        "UTF8 offset 2 is 9, past the 6 bytes of strings; DL4J could not read the array")), verify(past).problems());
    Path first = VerifyModels.withUtf8(tmp, "first.fb", WriteOptions.of(ModelFormat.FB), new long[] {1, 3, 6}, "abcdef");
    // in an fb file a first offset other than 0 is neither UTF8 layout (docs/FORMATS.md §3.8): reading it fails
    List<Problem> got = verify(first).problems();
    assertEquals(1, got.size(), got.toString());
    assertEquals("/tags/default/params/strings", got.get(0).path());
    assertTrue(got.get(0).message().contains("a UTF8 buffer in no layout DL4J reads: its first offset is 1, not 0"),
        got.get(0).message());
  }

  @Test
  void updaterStateOfTheWrongShapeIsReported() throws IOException {
    for (ModelFormat f : List.of(ModelFormat.FB, ModelFormat.SDNB, ModelFormat.SDZ, ModelFormat.ZIP_TAGS,
        ModelFormat.CONTAINER)) {
      Path m = VerifyModels.withStateShape(tmp, "shape." + f.token(), WriteOptions.of(f), new long[] {2, 16});
      assertEquals(List.of(new Problem("/tags/default/updater/layer0/W/M",
          "shape [2, 16] differs from its parameter's [4, 8] (params/layer0/W)")), verify(m).problems(), f.token());
    }
  }

  @Test
  void anOpInputThatNamesNoVariableIsReported() throws IOException {
    VerifyModels.Patched p = VerifyModels.withDanglingInput(tmp);
    List<Problem> got = verify(p.model()).problems();
    assertEquals(1, got.size(), got.toString());
    assertEquals("/tags/default/graph", got.get(0).path());
    assertTrue(got.get(0).message().matches("op '" + Pattern.quote(p.op())
        + "' \\(\\w+\\) input 0 is the id \\(99999, \\d+\\), which no variable has: DL4J wires inputs by id and cannot"
        + " load the graph \\(docs/FORMATS.md §3.10\\)"), got.get(0).message());
  }

  @Test
  void everyMissingShardIsReported() throws IOException {
    Path base = VerifyModels.write(tmp, Format.SHARDED);
    List<Path> shards = Models.findShards(base);
    assertTrue(shards.size() >= 4, shards.toString());
    int n = shards.size();
    Files.delete(shards.get(1));
    Files.delete(shards.get(3));
    List<Problem> want = List.of(
        new Problem("m_sharded.shard1-of-" + n + ".sdnb", "shard 1 of " + n + " of 'm_sharded' is missing (its parameters are lost)"),
        new Problem("m_sharded.shard3-of-" + n + ".sdnb", "shard 3 of " + n + " of 'm_sharded' is missing (its parameters are lost)"));
    assertEquals(want, verify(base).problems());
    assertEquals(want, verify(shards.get(0)).problems(), "named by one of its shards");
    Files.delete(shards.get(0));
    assertEquals("shard 0 of " + n + " of 'm_sharded' is missing (it holds the graph)",
        verify(base).problems().get(0).message());
  }

  @Test
  void shardsThatDisagreeOnTheirNumberAreReported() throws IOException {
    Path base = VerifyModels.write(tmp, Format.SHARDED);
    List<Path> shards = Models.findShards(base);
    int n = shards.size();
    Files.move(shards.get(1), tmp.resolve("m_sharded.shard1-of-" + (n + 1) + ".sdnb"));
    List<Problem> got = verify(base).problems();
    assertTrue(got.get(0).message().startsWith("the shards of 'm_sharded' disagree on their number: " + n + " in ["), got.toString());
  }

  @Test
  void aVariableNoShardHoldsIsReported() throws IOException {
    // a shard set whose weight shard is replaced by the same-numbered shard of a model without
    // one parameter: every shard is there, but one parameter's bytes are not
    Path base = VerifyModels.write(tmp, Format.SHARDED);
    List<Path> shards = Models.findShards(base);
    Path other = tmp.resolve("other");
    Files.createDirectory(other);
    String lost;
    try (Model m = Models.open(VerifyModels.EXAMPLE)) {
      Tag t = m.newest();
      // the largest parameter is alone in shard 1 (largest first)
      Variable largest = null;
      for (Variable v : t.arrays()) {
        if (largest == null || v.array().length() > largest.array().length()) {
          largest = v;
        }
      }
      lost = largest.name();
    }
    try (ChannelSource s1 = ChannelSource.open(shards.get(1))) {
      Tag alone = SdnbFormat.read(s1, "shard1");
      assertTrue(alone.variable(lost) != null && alone.variable(lost).array() != null, "the largest parameter is in shard 1");
    }
    // an empty weight shard: the SDNB of a tag without variables
    Path empty = tmp.resolve("empty.sdnb");
    ModelFiles.write(new Tag("default", null, List.of(), List.of(), null, Map.of()), empty,
        WriteOptions.of(ModelFormat.SDNB));
    Files.copy(empty, shards.get(1), StandardCopyOption.REPLACE_EXISTING);
    List<Problem> got = verify(base).problems();
    assertTrue(got.contains(new Problem("/tags/default/params/" + lost, "VARIABLE has no array: no weight shard holds it")),
        got.toString());
  }

  @Test
  void aFlippedByteInAStoredEntryIsACrcMismatch() throws IOException {
    Path m = VerifyModels.write(tmp, Format.SDZ);
    VerifyModels.flip(m, VerifyModels.arrayOffset(m, "layer0/W"), 0x01);
    List<Problem> got = verify(m).problems();
    assertEquals(1, got.size(), got.toString());
    assertEquals("m.sdz!model.sdnb", got.get(0).path());
    assertTrue(got.get(0).message().matches(
        "CRC-32 of its \\d+ bytes is [0-9a-f]{8}, but the central directory says [0-9a-f]{8} \\(data at offset \\d+\\)"),
        got.get(0).message());
  }

  @Test
  void aWrongCrcOfADeflatedEntryIsReported() throws IOException {
    Path m = VerifyModels.write(tmp, Format.ZIP_TAGS_DEFLATED);
    byte[] z = Files.readAllBytes(m);
    // the central directory record of the first entry: CRC-32 at +16
    int cd = lastIndexOf(z, new byte[] {'P', 'K', 5, 6});
    int first = ByteBuffer.wrap(z).order(ByteOrder.LITTLE_ENDIAN).getInt(cd + 16);
    z[first + 16] ^= 0x40;
    Files.write(m, z);
    List<Problem> got = verify(m).problems();
    assertTrue(got.size() >= 1 && got.get(0).message().startsWith("CRC-32 of its "), got.toString());
    assertTrue(got.stream().anyMatch(p -> p.message().startsWith("the local header says CRC-32 ")), got.toString());
  }

  private static int lastIndexOf(byte[] b, byte[] what) {
    outer:
    for (int i = b.length - what.length; i >= 0; i--) {
      for (int j = 0; j < what.length; j++) {
        if (b[i + j] != what[j]) {
          continue outer;
        }
      }
      return i;
    }
    throw new IllegalStateException("not found");
  }

  @Test
  void aModelTheReadersRefuseIsOneProblemNamingTheOffset() throws IOException {
    Path m = VerifyModels.write(tmp, Format.FB);
    byte[] b = Files.readAllBytes(m);
    Files.write(m, Arrays.copyOf(b, b.length / 2));
    List<Problem> got = verify(m).problems();
    assertEquals(1, got.size(), got.toString());
    assertEquals(m.toString(), got.get(0).path());
    assertTrue(got.get(0).message().matches("model file at offset \\d+: not a SameDiff model: .*FlatGraph.* at offset \\d+: .*"),
        got.get(0).message());
  }

  @Test
  void noFileOrADirectoryIsAnException() {
    assertThrows(NoSuchFileException.class, () -> verify(tmp.resolve("none.fb")));
    assertThrows(FileSystemException.class, () -> verify(tmp));
  }

  @Test
  void nonFiniteElementsAreCountedPerType() {
    long[] n = new long[3];
    ByteBuffer f = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
    f.putFloat(Float.NaN).putFloat(Float.POSITIVE_INFINITY).putFloat(Float.NEGATIVE_INFINITY).putFloat(1f)
        .putFloat(Float.intBitsToFloat(0xFFC00001)).putFloat(Float.MAX_VALUE).flip();
    ArrayCheck.count(f, DType.FLOAT, n);
    assertArrayEquals(new long[] {2, 1, 1}, n);
    n = new long[3];
    ByteBuffer d = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
    d.putDouble(Double.NaN).putDouble(Double.NEGATIVE_INFINITY).putDouble(-0.0).putDouble(Double.MIN_VALUE).flip();
    ArrayCheck.count(d, DType.DOUBLE, n);
    assertArrayEquals(new long[] {1, 0, 1}, n);
    n = new long[3];
    ByteBuffer h = ByteBuffer.allocate(10).order(ByteOrder.LITTLE_ENDIAN);
    h.putShort((short) 0x7C00).putShort((short) 0xFC00).putShort((short) 0x7E00).putShort((short) 0x7BFF)
        .putShort((short) 0x3C00).flip();
    ArrayCheck.count(h, DType.HALF, n);
    assertArrayEquals(new long[] {1, 1, 1}, n);
    n = new long[3];
    ByteBuffer bf = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
    bf.putShort((short) 0x7F80).putShort((short) 0x7FC0).putShort((short) 0xFF81).putShort((short) 0x7F7F).flip();
    ArrayCheck.count(bf, DType.BFLOAT16, n);
    assertArrayEquals(new long[] {2, 1, 0}, n);
    assertEquals("3 NaN, 1 +Inf of 4096 values", new ArrayCheck.Outcome(0, null, null, 3, 1, 0, 4096).nonFinite());
    assertEquals("1 -Inf of 2 values", new ArrayCheck.Outcome(0, null, null, 0, 0, 1, 2).nonFinite());
    assertNull(new ArrayCheck.Outcome(0, null, null, 0, 0, 0, 2).nonFinite());
  }
}
