package org.modelfs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.modelfs.ModelFileSystems;
import org.modelfs.container.Models;
import org.modelfs.format.JsonText;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.ModelFormat;
import org.modelfs.testing.Fixtures;
import org.modelfs.testing.VerifyModels;
import org.modelfs.testing.VerifyModels.Format;
import org.modelfs.verify.Report;
import org.modelfs.verify.Verifier;

/**
 * {@code modelfs verify} through {@link Main#run}: sound models exit 0 and print nothing, each
 * kind of damage exits 1 with its line, usage mistakes and missing files exit 2 (docs/CLI.md).
 */
class VerifyCommandTest {
  @TempDir Path tmp;

  private static MainTest.Result run(String... args) {
    return MainTest.run(args);
  }

  /** The problem lines of a run that found problems. */
  private static List<String> problems(MainTest.Result r) {
    assertEquals(1, r.code(), r.out() + r.err());
    return r.out().lines().toList();
  }

  @ParameterizedTest
  @EnumSource(Format.class)
  void aSoundModelExitsZeroAndPrintsNothing(Format format) throws Exception {
    Path m = VerifyModels.write(tmp, format);
    MainTest.Result r = run("verify", "--finite", "--quiet", m.toString());
    assertEquals(0, r.code(), r.out() + r.err());
    assertEquals("", r.out());
    assertEquals("", r.err(), "--quiet: no progress");
  }

  @Test
  void everyFixtureIsSound() throws Exception {
    for (Path f : Fixtures.all()) {
      MainTest.Result r = run("verify", "--finite", f.toString());
      assertEquals(0, r.code(), f + ": " + r.out() + r.err());
    }
  }

  @Test
  void jsonHasOneDocumentedShape() throws Exception {
    Path m = VerifyModels.write(tmp, Format.SDZ);
    MainTest.Result ok = run("verify", "--json", m.toString());
    assertEquals(0, ok.code(), ok.err());
    @SuppressWarnings("unchecked")
    Map<String, Object> j = (Map<String, Object>) JsonText.parse(ok.out(), 8, true);
    assertEquals(List.of("model", "problems", "arrays", "bytes"), List.copyOf(j.keySet()));
    assertEquals(m.toString(), j.get("model"));
    assertEquals(List.of(), j.get("problems"));
    Report lib = Verifier.verify(m, Verifier.Options.defaults());
    assertTrue(lib.arrays() > 0 && lib.bytes() > 0, lib.toString());
    assertEquals(lib.arrays(), ((Number) j.get("arrays")).longValue(), j.toString());
    assertEquals(lib.bytes(), ((Number) j.get("bytes")).longValue(), j.toString());
    VerifyModels.flip(m, VerifyModels.arrayOffset(m, "layer0/W"), 0x01);
    MainTest.Result bad = run("verify", "--json", m.toString());
    assertEquals(1, bad.code(), bad.err());
    @SuppressWarnings("unchecked")
    Map<String, Object> b = (Map<String, Object>) JsonText.parse(bad.out(), 8, true);
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> ps = (List<Map<String, Object>>) b.get("problems");
    assertEquals(1, ps.size(), b.toString());
    assertEquals(List.of("path", "message"), List.copyOf(ps.get(0).keySet()));
    assertEquals("m.sdz!model.sdnb", ps.get(0).get("path"));
  }

  @Test
  void aFlippedByteInAStoredSdzEntryIsACrcMismatch() throws Exception {
    Path m = VerifyModels.write(tmp, Format.SDZ);
    VerifyModels.flip(m, VerifyModels.arrayOffset(m, "layer0/W"), 0x01);
    List<String> lines = problems(run("verify", m.toString()));
    assertEquals(1, lines.size(), lines.toString());
    assertTrue(lines.get(0).matches("m\\.sdz!model\\.sdnb: CRC-32 of its \\d+ bytes is [0-9a-f]{8}, but the central"
        + " directory says [0-9a-f]{8} \\(data at offset \\d+\\)"), lines.get(0));
  }

  @Test
  void aTruncatedModelIsAProblemNamingFileAndOffset() throws Exception {
    for (Format f : List.of(Format.FB, Format.SDNB, Format.SDZ)) {
      Path m = VerifyModels.write(tmp, f);
      byte[] b = Files.readAllBytes(m);
      Files.write(m, Arrays.copyOf(b, b.length - 100));
      List<String> lines = problems(run("verify", m.toString()));
      assertTrue(lines.get(0).startsWith(m.getFileName() + ": ") || lines.get(0).startsWith(m + ": "), lines.toString());
      assertTrue(lines.get(0).matches(".*at offset \\d+.*"), lines.toString());
    }
  }

  @Test
  void decreasingUtf8OffsetsAreAProblem() throws Exception {
    Path m = VerifyModels.withUtf8(tmp, "u.sdnb", WriteOptions.of(ModelFormat.SDNB), new long[] {0, 4, 2}, "abcdef");
    assertEquals(List.of("/tags/default/params/strings: UTF8 offset 2 is 2, less than the one before (4);"
        + " DL4J could not read the array"), problems(run("verify", m.toString())));
  }

  @Test
  void aMissingShardIsAProblem() throws Exception {
    Path base = VerifyModels.write(tmp, Format.SHARDED);
    List<Path> shards = Models.findShards(base);
    Files.delete(shards.get(2));
    int n = shards.size();
    assertEquals(List.of("m_sharded.shard2-of-" + n + ".sdnb: shard 2 of " + n
        + " of 'm_sharded' is missing (its parameters are lost)"), problems(run("verify", base.toString())));
  }

  @Test
  void anOpInputNamingNoVariableIsAProblem() throws Exception {
    VerifyModels.Patched p = VerifyModels.withDanglingInput(tmp);
    List<String> lines = problems(run("verify", p.model().toString()));
    assertEquals(1, lines.size(), lines.toString());
    assertTrue(lines.get(0).startsWith("/tags/default/graph: op '" + p.op() + "' ("), lines.get(0));
    assertTrue(lines.get(0).contains(") input 0 is the id (99999, "), lines.get(0));
  }

  @Test
  void updaterStateOfTheWrongShapeIsAProblem() throws Exception {
    Path m = VerifyModels.withStateShape(tmp, "s.fb", WriteOptions.of(ModelFormat.FB), new long[] {8, 4});
    assertEquals(List.of("/tags/default/updater/layer0/W/M: shape [8, 4] differs from its parameter's [4, 8]"
        + " (params/layer0/W)"), problems(run("verify", m.toString())));
  }

  @ParameterizedTest
  @EnumSource(value = Format.class, names = {"FB", "SDNB", "SDZ", "ZIP_TAGS"})
  void finiteReportsNanAndInfinityWrittenThroughTheFileSystem(Format format) throws Exception {
    Path m = VerifyModels.write(tmp, format);
    ByteBuffer w = ByteBuffer.allocate(128).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < 32; i++) {
      w.putFloat(i == 3 || i == 17 ? Float.NaN : i == 5 ? Float.POSITIVE_INFINITY : i == 30 ? Float.NEGATIVE_INFINITY : i);
    }
    ByteBuffer v = ByteBuffer.allocate(128).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < 32; i++) {
      v.putFloat(i == 0 ? Float.POSITIVE_INFINITY : 0.5f);
    }
    try (FileSystem fs = ModelFileSystems.open(m)) {
      Files.write(fs.getPath("/params/layer0/W"), w.array());
      Files.write(fs.getPath("/updater/layer0/W/V"), v.array());
    }
    assertEquals(0, run("verify", m.toString()).code(), "without --finite: a sound model");
    assertEquals(List.of(
        "/tags/default/params/layer0/W: 2 NaN, 1 +Inf, 1 -Inf of 32 values",
        "/tags/default/updater/layer0/W/V: 1 +Inf of 32 values"), problems(run("verify", "--finite", m.toString())));
  }

  @Test
  void exitCodes() throws Exception {
    Path junk = Files.writeString(tmp.resolve("junk.bin"), "hello, this is not a model at all");
    MainTest.Result r = run("verify", junk.toString());
    assertEquals(1, r.code(), "not a model: a problem found");
    assertTrue(r.out().startsWith(junk + ": model file at offset 0: not a SameDiff model"), r.out());
    assertEquals(2, run("verify", tmp.resolve("none.fb").toString()).code(), "no such file");
    assertEquals(2, run("verify", tmp.toString()).code(), "a directory");
    assertEquals(2, run("verify").code());
    assertEquals(2, run("verify", "a.fb", "b.fb").code());
    assertEquals(2, run("verify", "--wat", junk.toString()).code());
    MainTest.Result help = run("verify", "--help");
    assertEquals(0, help.code());
    assertTrue(help.out().startsWith("usage: modelfs verify MODEL [--finite] [--json]"), help.out());
    assertTrue(help.out().contains("example:"), help.out());
    assertTrue(run("help").out().contains("  verify "), "listed by modelfs help");
  }
}
