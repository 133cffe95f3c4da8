package org.modelfs.hostile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.hostile.HostileSupport.cli;
import static org.modelfs.hostile.HostileSupport.create;
import static org.modelfs.hostile.HostileSupport.fill;
import static org.modelfs.hostile.HostileSupport.io;
import static org.modelfs.hostile.HostileSupport.uniform;
import static org.modelfs.hostile.HostileSupport.uniformParams;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.hostile.HostileSupport.Problems;

/**
 * Fault 4: a commit must never write a model ModelFS cannot open. Fault 7: a change of
 * representation (single file ↔ shard set) leaves exactly one, the new one.
 */
class CommitValidityHostileTest {
  @TempDir Path tmp;

  private static List<String> tags(Path m) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(m, Map.of("readOnly", true));
        Stream<Path> s = Files.list(fs.getPath("/tags"))) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /**
   * {@code action} must fail with an IOException (a RuntimeException is a fault too); the model
   * file stays byte-identical and still opens with the same tags.
   */
  private static void assertRefusedAndUnchanged(Problems pr, String what, Path m, Executable action) throws IOException {
    byte[] before = Files.readAllBytes(m);
    List<String> tagsBefore = tags(m);
    pr.check(what + ": refused with an IOException", () -> assertNotNull(io(action), "the commit was not refused"));
    pr.check(what + ": model file byte-identical", () -> assertArrayEquals(before, Files.readAllBytes(m),
        "the model file was replaced (" + Files.size(m) + " bytes, was " + before.length + ")"));
    pr.check(what + ": still opens with all tags", () -> assertEquals(tagsBefore, tags(m)));
  }

  /** A writer mount of {@code m}; runs {@code change}, then commit(); always rolls back and closes. */
  private static Executable commitOf(Path m, Map<String, ?> env, FsChange change) {
    return () -> {
      FileSystem fs = ModelFileSystems.open(m, env);
      try {
        change.apply(fs);
        ((JournaledFileSystem) fs).commit();
      } finally {
        try {
          ((JournaledFileSystem) fs).rollback();
        } finally {
          fs.close();
        }
      }
    };
  }

  interface FsChange {
    void apply(FileSystem fs) throws IOException;
  }

  private static long[] ones(int rank) {
    long[] s = new long[rank];
    Arrays.fill(s, 1);
    return s;
  }

  /**
   * Fault 4a: a 33-dim shape. FAILS TODAY for fb, sdnb and sdz (6 problems): commit() writes
   * and renames the model, then throws while remounting it (fb: "rank 33 out of range", sdnb/sdz:
   * "33 elements, at most 32 expected"): the model file is replaced by one that no longer opens.
   */
  @Test
  void fault4a_shapeOfRank33IsRefusedBeforeWriting() throws Exception {
    Problems pr = new Problems();
    for (String name : List.of("m.fb", "m.sdnb", "m.sdz")) {
      Path dir = Files.createDirectories(tmp.resolve(name + ".d"));
      Path m = create(dir.resolve(name), Map.of(), Map.of("w0", fill(1, 1f), "w1", fill(4, 1f)));
      assertRefusedAndUnchanged(pr, name, m, commitOf(m, Map.of(),
          fs -> {
            try {
              Files.setAttribute(fs.getPath("/params/w0"), "samediff:shape", ones(33));
            } catch (IllegalArgumentException e) {
              // Files.setAttribute's own contract for "a value of the right type that is inappropriate"
              throw new IOException("refused by setAttribute: " + e.getMessage(), e);
            }
          }));
    }
    pr.assertNone();
  }

  /**
   * Fault 4b: CLI cp with a 33-dim --shape. FAILS TODAY: exit code 1, but the 916-byte fb it
   * renamed over the 404-byte model no longer opens ("rank 33 out of range"); the CLI's
   * rollback comes after the rename.
   */
  @Test
  void fault4b_cliCpWithRank33ShapeLeavesTheModel() throws Exception {
    Problems pr = new Problems();
    Path m = create(tmp.resolve("m.fb"), Map.of(), Map.of("w0", fill(1, 1f), "w1", fill(4, 1f)));
    Path bin = Files.write(tmp.resolve("w.bin"), fill(1, 2f));
    String shape = Arrays.stream(ones(33)).mapToObj(Long::toString).collect(Collectors.joining(","));
    assertRefusedAndUnchanged(pr, "cp --shape (33 dims)", m, () -> {
      HostileSupport.Cli r = cli("cp", bin.toString(), m + ":/params/w0", "--shape", shape);
      if (r.code() != 0) {
        throw new IOException("cli refused: " + r);
      }
    });
    pr.assertNone();
  }

  /**
   * Fault 4c: 1,000 new tags (every 100th with a param) in sdz and zip-tags. FAILS TODAY for both: the
   * commit succeeds and writes a model its own reader refuses — sdz: "ZIP central directory ...
   * at least 1001 entries, more than the 1000 an SDZ may hold"; zip-tags: "'tags.txt' ... lists
   * 1001 tags (1 to 1000 allowed)".
   */
  @Test
  void fault4c_thousandTagsAreRefusedOrReadable() throws Exception {
    Problems pr = new Problems();
    for (String[] f : List.of(new String[] {"m.sdz", "sdz"}, new String[] {"m.zip", "zip-tags"},
        new String[] {"m.sdmc", "container"})) {
      Path dir = Files.createDirectories(tmp.resolve(f[1]));
      Path m = create(dir.resolve(f[0]), Map.of("format", f[1]), Map.of("w0", fill(4, 1f)));
      assertRefusedAndUnchanged(pr, f[1] + " + 1000 tags", m, commitOf(m, Map.of(), fs -> {
        for (int i = 0; i < 1000; i++) {
          Files.createDirectory(fs.getPath("/tags/t" + i));
          if (i % 100 == 0) { // a param in some of them (one in each makes the commit take ~10 s)
            Files.write(fs.getPath("/tags/t" + i + "/params/w0"), fill(4, i));
          }
        }
      }));
    }
    pr.assertNone();
  }

  /**
   * Fault 4d: metadata keys "k\uD800" and "k\uDC00" (they differ only in an unpaired surrogate;
   * both encode to the same UTF-8). FAILS TODAY for sdnb and sdz: commit() throws
   * {@code com.google.flatbuffers.Utf8Safe$UnpairedSurrogateException}, a RuntimeException, not an
   * IOException (the model file itself stays byte-identical and opens). Since issue 15 the
   * paths themselves are refused ({@code InvalidPathException}), so nothing reaches a commit.
   */
  @Test
  void fault4d_metadataKeysDifferingOnlyInAnUnpairedSurrogate() throws Exception {
    Problems pr = new Problems();
    for (String name : List.of("m.sdnb", "m.sdz")) {
      Path dir = Files.createDirectories(tmp.resolve(name + ".d"));
      Path m = create(dir.resolve(name), Map.of(), Map.of("w0", fill(4, 1f)));
      assertRefusedAndUnchanged(pr, name, m, commitOf(m, Map.of(), fs -> {
        // since issue 15 such a name is refused when its path is made (docs/FILESYSTEM.md §2)
        assertThrows(InvalidPathException.class, () -> fs.getPath("/metadata/k\uD800"));
        assertThrows(InvalidPathException.class, () -> fs.getPath("/metadata/k\uDC00"));
        throw new IOException("both paths refused: nothing to commit");
      }));
    }
    pr.assertNone();
  }

  /**
   * Fault 4e: the DL4J example mounted with format=zip-tags; a metadata change and a param change
   * are committed. Either refused with the model unchanged, or the written model opens and shows
   * every updater state file (and param) with the same bytes. PASSES TODAY: both commits
   * succeed and the zip-tags model written under the name mlp_adam.fb opens with every updater
   * file byte-identical.
   */
  @Test
  void fault4e_exampleCommittedAsZipTagsKeepsUpdaterState() throws Exception {
    Problems pr = new Problems();
    for (String change : List.of("metadata", "param")) {
      Path m = Files.copy(Path.of("src/test/resources/fixtures/dl4j-1.0.0-M2.1/mlp_adam.fb"), Files.createDirectories(tmp.resolve(change)).resolve("mlp_adam.fb"));
      byte[] before = Files.readAllBytes(m);
      Map<String, byte[]> upd;
      Map<String, byte[]> params;
      try (FileSystem fs = ModelFileSystems.open(m, Map.of("readOnly", true))) {
        upd = HostileSupport.files(fs, "/updater");
        params = HostileSupport.params(fs);
      }
      assertTrue(upd.size() >= 4, "the example has updater state: " + upd.keySet());
      String firstParam = params.keySet().iterator().next();
      IOException e = io(commitOf(m, Map.of("format", "zip-tags"), fs -> {
        if (change.equals("metadata")) {
          Files.writeString(fs.getPath("/metadata/note"), "hello");
        } else {
          byte[] b = Files.readAllBytes(fs.getPath(firstParam));
          b[0] ^= 1;
          Files.write(fs.getPath(firstParam), b);
        }
      }));
      System.out.println("fault4e " + change + ": " + (e == null ? "committed" : "refused: " + e));
      if (e != null) {
        pr.check(change + ": refused, model unchanged (" + e + ")", () -> assertArrayEquals(before, Files.readAllBytes(m)));
        continue;
      }
      pr.check(change + ": committed model opens with the same updater state", () -> {
        try (FileSystem fs = ModelFileSystems.open(m, Map.of("readOnly", true))) {
          Map<String, byte[]> after = HostileSupport.files(fs, "/updater");
          assertEquals(upd.keySet(), after.keySet(), "updater files");
          List<String> diff = new ArrayList<>();
          for (String k : upd.keySet()) {
            if (!Arrays.equals(upd.get(k), after.get(k))) {
              diff.add(k);
            }
          }
          assertTrue(diff.isEmpty(), "updater files with other bytes: " + diff);
          Map<String, byte[]> p2 = HostileSupport.params(fs);
          assertEquals(params.keySet(), p2.keySet(), "params");
        }
      });
    }
    pr.assertNone();
  }

  /**
   * Fault 4f: convert a 1,200-param sdz with --max-shard-bytes 1 to a new sdz: non-zero exit and
   * no output, or exit 0 and an output with all 1,200 params. FAILS TODAY: exit 0, and out.sdz
   * does not open: "ZIP central directory ... at least 1001 entries, more than the 1000 an SDZ
   * may hold".
   */
  @Test
  void fault4f_convertTo1200ShardsIsRefusedOrComplete() throws Exception {
    Map<String, byte[]> ps = new LinkedHashMap<>();
    for (int i = 0; i < 1200; i++) {
      ps.put("p" + i, fill(1, i));
    }
    Path in = create(tmp.resolve("in.sdz"), Map.of(), ps);
    Path out = tmp.resolve("out.sdz");
    HostileSupport.Cli r = cli("convert", in.toString(), out.toString(), "--max-shard-bytes", "1");
    if (r.code() != 0) {
      assertFalse(Files.exists(out), "a failed convert left " + out + " (" + r + ")");
      return;
    }
    try (FileSystem fs = ModelFileSystems.open(out, Map.of("readOnly", true))) {
      Map<String, byte[]> got = HostileSupport.params(fs);
      assertEquals(1200, got.size(), "params in the converted model");
      assertEquals(77f, uniform(got.get("/params/p77")));
    } catch (IOException e) {
      throw new AssertionError("convert exited 0 but its output does not open: " + e, e);
    }
  }

  /**
   * Fault 7: single file → shard set and back. FAILS TODAY (3 problems): the old representation
   * stays beside the new one. sdnb → sharded: shards are written but the single m.sdnb remains,
   * and opening m.sdnb shows the OLD value (1.0; opening m or a shard shows 5.0). sharded →
   * sdnb: m.sdnb holds the new value but all 5 old shards remain.
   */
  @Test
  void fault7_representationChangeLeavesOnlyTheNewOne() throws Exception {
    Problems pr = new Problems();
    // single file m.sdnb committed as a shard set
    Path d1 = Files.createDirectories(tmp.resolve("toSharded"));
    Path m1 = create(d1.resolve("m.sdnb"), Map.of(), uniformParams(4, 256, 1f));
    pr.check("sdnb -> sharded: commit", () -> {
      try (FileSystem fs = ModelFileSystems.open(m1, Map.of("format", "sdnb-sharded", "maxShardBytes", 1024L))) {
        Files.write(fs.getPath("/params/w0"), fill(256, 5f));
      }
    });
    List<Path> shards = HostileSupport.shards(d1, "m");
    pr.check("sdnb -> sharded: shards written", () -> assertTrue(shards.size() >= 2, "shards: " + HostileSupport.names(d1)));
    List<Path> spellings = new ArrayList<>(List.of(m1, d1.resolve("m")));
    if (!shards.isEmpty()) {
      spellings.add(shards.get(0));
    }
    for (Path p : spellings) {
      pr.check("sdnb -> sharded: open " + p.getFileName() + " shows the new value", () -> {
        try (FileSystem fs = ModelFileSystems.open(p, Map.of("readOnly", true))) {
          assertEquals(5f, uniform(Files.readAllBytes(fs.getPath("/params/w0"))));
        }
      });
    }
    pr.check("sdnb -> sharded: no single file m.sdnb remains", () ->
        assertFalse(Files.isRegularFile(m1), "left: " + HostileSupport.names(d1)));

    // shard set committed as a single file
    Path d2 = Files.createDirectories(tmp.resolve("toSingle"));
    Path m2 = HostileSupport.sharded(d2, 4, 256, 1f);
    pr.check("sharded -> sdnb: commit", () -> {
      try (FileSystem fs = ModelFileSystems.open(m2, Map.of("format", "sdnb"))) {
        Files.write(fs.getPath("/params/w0"), fill(256, 6f));
      }
    });
    pr.check("sharded -> sdnb: m.sdnb is a file with the new value", () -> {
      assertTrue(Files.isRegularFile(m2), "no file m.sdnb: " + HostileSupport.names(d2));
      try (FileSystem fs = ModelFileSystems.open(m2, Map.of("readOnly", true))) {
        assertEquals(6f, uniform(Files.readAllBytes(fs.getPath("/params/w0"))));
      }
    });
    pr.check("sharded -> sdnb: no shard files remain", () ->
        assertEquals(List.of(), HostileSupport.shards(d2, "m")));
    pr.assertNone();
  }
}
