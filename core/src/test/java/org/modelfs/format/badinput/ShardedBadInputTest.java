package org.modelfs.format.badinput;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.format.badinput.BadInput.assertFormatError;
import static org.modelfs.format.badinput.BadInput.assertRefused;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.model.ModelFormat;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.DType;
import org.modelfs.model.Model;
import org.modelfs.model.Variable;

/**
 * Sharded SDNB (docs/FORMATS.md §6) under hostile input: missing shards, shards disagreeing on N,
 * shards of another model, inconsistent shapes, truncated shard 0, and broken shard files.
 * Opening by the base name, by shard 0 and by another shard must all refuse.
 */
class ShardedBadInputTest {
  /** Shard limit that packs w1 alone and w2 + b together: N = 3. */
  static final long LIMIT = 1_500_000;
  static final String S0 = "model.shard0-of-3.sdnb";
  static final String S1 = "model.shard1-of-3.sdnb";
  static final String S2 = "model.shard2-of-3.sdnb";

  @TempDir Path root;
  /** Holds only the shards of the model under test. */
  Path dir;

  @BeforeEach
  void writeShards() throws IOException {
    dir = Files.createDirectories(root.resolve("model"));
    Path work = Files.createDirectories(root.resolve("work"));
    List<Path> files = Samples.writeSynthetic(work, dir.resolve("model.sdnb"),
        WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(LIMIT));
    assertEquals(List.of(S0, S1, S2), files.stream().map(p -> p.getFileName().toString()).toList());
  }

  /** Every name that may appear in a message about this model. */
  private List<String> names() throws IOException {
    List<String> out = new ArrayList<>(List.of("model.sdnb", "model.shard"));
    try (Stream<Path> s = Files.list(dir)) {
      s.forEach(p -> out.add(p.getFileName().toString()));
    }
    return out;
  }

  /** Base name, shard 0 and shard 2: all three ways in must refuse. */
  private void assertAllWaysInRefused(String what) throws IOException {
    List<String> names = names();
    for (String way : new String[] {"model.sdnb", S0, S2}) {
      Path p = dir.resolve(way);
      if (!way.equals("model.sdnb") && !Files.exists(p)) {
        continue;
      }
      assertRefused(p, what + " (opened as " + way + ")", names);
    }
  }

  /** Writes the synthetic model's variant as shards in a fresh directory; returns its shard files. */
  private List<Path> otherModel(String name, String prefix, long[] w1Shape, DType w1Type) throws IOException {
    Path other = Files.createDirectories(root.resolve(name));
    return Samples.writeSynthetic(root.resolve("work"), other.resolve("model.sdnb"),
        WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(LIMIT), prefix, w1Shape, w1Type);
  }

  // ---- baseline ----------------------------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(strings = {"model.sdnb", S0, S1, S2})
  void validShardsOpenByAnyName(String way) {
    assertNull(BadInput.openTimed(dir.resolve(way), "valid shards opened as " + way));
  }

  // ---- the set of shard files ----------------------------------------------------------------------

  @Test
  void missingMiddleShard() throws IOException {
    Files.delete(dir.resolve(S1));
    assertAllWaysInRefused("shard 1 of 3 missing");
    assertTrue(assertFormatError(dir.resolve("model.sdnb"), "shard 1 missing", names()).getMessage()
        .contains("shard1-of-3"), "the message names the missing shard");
  }

  @Test
  void missingLastShard() throws IOException {
    Files.delete(dir.resolve(S2));
    assertAllWaysInRefused("shard 2 of 3 missing");
  }

  @Test
  void missingShardZero() throws IOException {
    Files.delete(dir.resolve(S0));
    assertRefused(dir.resolve("model.sdnb"), "shard 0 missing (base name)", names());
    assertRefused(dir.resolve(S1), "shard 0 missing (shard 1)", names());
  }

  @Test
  void extraShardFileWithAnotherCount() throws IOException {
    Files.copy(dir.resolve(S1), dir.resolve("model.shard1-of-4.sdnb"));
    assertAllWaysInRefused("shards say 3 and 4");
  }

  @Test
  void shardRenamedToAnotherCount() throws IOException {
    Files.move(dir.resolve(S2), dir.resolve("model.shard2-of-4.sdnb"));
    assertAllWaysInRefused("shard 2 says 4 shards, the others 3");
  }

  /** A lone file claiming to be shard 0 of 0 shards. */
  @Test
  void shardZeroOfZero() throws IOException {
    Path p = dir.resolve("zero.shard0-of-0.sdnb");
    Files.copy(dir.resolve(S0), p);
    assertRefused(p, "shard 0 of 0");
  }

  /** Shard k of N with k ≥ N and nothing else. */
  @Test
  void loneShardWithIndexBeyondCount() throws IOException {
    Path p = dir.resolve("lone.shard5-of-2.sdnb");
    Files.copy(dir.resolve(S1), p);
    assertRefused(p, "shard 5 of 2", List.of("lone.shard"));
  }

  // ---- content of the shards -----------------------------------------------------------------------

  @Test
  void weightShardOfAnotherModel() throws IOException {
    List<Path> other = otherModel("other", "other/", new long[] {512, 512}, DType.FLOAT);
    Files.copy(other.get(1), dir.resolve(S1), StandardCopyOption.REPLACE_EXISTING);
    assertAllWaysInRefused("shard 1 from a model with other variable names");
  }

  @Test
  void weightShardWhoseShapeDiffersFromShardZero() throws IOException {
    List<Path> other = otherModel("reshaped", "", new long[] {1024, 256}, DType.FLOAT);
    Files.copy(other.get(1), dir.resolve(S1), StandardCopyOption.REPLACE_EXISTING);
    assertAllWaysInRefused("w1 is [1024, 256] in shard 1 but [512, 512] in shard 0");
  }

  @Test
  void weightShardWhoseRankDiffersFromShardZero() throws IOException {
    List<Path> other = otherModel("flat", "", new long[] {Samples.BIG}, DType.FLOAT);
    Files.copy(other.get(1), dir.resolve(S1), StandardCopyOption.REPLACE_EXISTING);
    assertAllWaysInRefused("w1 is [262144] in shard 1 but [512, 512] in shard 0");
  }

  /**
   * w1 is FLOAT in shard 0 and INT32 (same shape and size) in shard 1. Refusing is fine; if the
   * model opens, the variable must not claim one type while its array holds another (a later
   * conversion would write the INT bits under the FLOAT type).
   */
  @Test
  void weightShardWhoseTypeDiffersFromShardZero() throws IOException {
    List<Path> other = otherModel("retyped", "", new long[] {512, 512}, DType.INT32);
    Files.copy(other.get(1), dir.resolve(S1), StandardCopyOption.REPLACE_EXISTING);
    Path base = dir.resolve("model.sdnb");
    IOException e = BadInput.openTimed(base, "w1 INT32 in shard 1, FLOAT in shard 0");
    if (e != null) {
      BadInput.assertGoodMessage(e, "w1 retyped", names());
      return;
    }
    try (Model m = Models.open(base)) {
      for (Variable v : m.newest().variables()) {
        if (v.array() != null) {
          assertEquals(v.dtype(), v.array().dtype(), "variable '" + v.name()
              + "' was accepted with declared type " + v.dtype() + " but an array of type " + v.array().dtype());
        }
      }
    }
  }

  @Test
  void sameWeightShardTwice() throws IOException {
    Files.copy(dir.resolve(S1), dir.resolve(S2), StandardCopyOption.REPLACE_EXISTING);
    assertAllWaysInRefused("shard 1 copied over shard 2 (w1 in two shards, w2 in none)");
  }

  @Test
  void weightShardInPlaceOfShardZero() throws IOException {
    Files.copy(dir.resolve(S2), dir.resolve(S0), StandardCopyOption.REPLACE_EXISTING);
    assertAllWaysInRefused("shard 2 copied over shard 0");
  }

  @Test
  void graphShardInPlaceOfWeightShard() throws IOException {
    Files.copy(dir.resolve(S0), dir.resolve(S1), StandardCopyOption.REPLACE_EXISTING);
    IOException e = BadInput.openTimed(dir.resolve("model.sdnb"), "shard 0 copied over shard 1");
    if (e != null) {
      BadInput.assertGoodMessage(e, "shard 0 copied over shard 1", names());
    }
  }

  static Stream<Integer> shardZeroCuts() {
    return Stream.of(0, 1, 3, 4, 16, 31, 32, 33, 100, -100, -2, -1);
  }

  /** Opening by base name (and by shard 1) when shard 0 is truncated. */
  @ParameterizedTest
  @MethodSource("shardZeroCuts")
  void truncatedShardZero(int cut) throws IOException {
    Path s0 = dir.resolve(S0);
    byte[] b = Files.readAllBytes(s0);
    int n = cut >= 0 ? cut : b.length + cut;
    Files.write(s0, Arrays.copyOf(b, n));
    assertRefused(dir.resolve("model.sdnb"), "shard 0 cut to " + n + " bytes (base name)", names());
    assertRefused(dir.resolve(S1), "shard 0 cut to " + n + " bytes (shard 1)", names());
  }

  @ParameterizedTest
  @MethodSource("shardZeroCuts")
  void truncatedWeightShard(int cut) throws IOException {
    Path s1 = dir.resolve(S1);
    byte[] b = Files.readAllBytes(s1);
    int n = cut >= 0 ? cut : b.length + cut;
    Files.write(s1, Arrays.copyOf(b, n));
    assertAllWaysInRefused("shard 1 cut to " + n + " bytes");
  }

  @Test
  void weightShardThatIsNotSdnb() throws IOException {
    Files.write(dir.resolve(S1), BadInput.fixture("tf-import/pad_1D.fb"));
    assertAllWaysInRefused("shard 1 is an fb file");
  }

  @Test
  void weightShardIsADirectory() throws IOException {
    Files.delete(dir.resolve(S1));
    Files.createDirectory(dir.resolve(S1));
    assertRefused(dir.resolve("model.sdnb"), "shard 1 is a directory", names());
  }

  /** SDNB-level damage inside a weight shard (its manifest) is reported for that shard. */
  @Test
  void weightShardWithForeignManifestClass() throws IOException {
    Path s1 = dir.resolve(S1);
    Files.write(s1, BadInput.replaceAll(Files.readAllBytes(s1), "java.util.LinkedHashMap".getBytes(),
        "java.util.LinkedHashMaq".getBytes()));
    IOException e = assertFormatError(dir.resolve("model.sdnb"), "shard 1 manifest names LinkedHashMaq", names());
    assertTrue(e.getMessage().contains(S1), "the message names shard 1: " + e.getMessage());
  }
}
