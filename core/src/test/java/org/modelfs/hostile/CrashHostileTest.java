package org.modelfs.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.hostile.HostileSupport.io;
import static org.modelfs.hostile.HostileSupport.uniform;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.hostile.HostileSupport.Problems;
import org.modelfs.testing.SlowRuns;

/**
 * A child JVM commits a sharded model again and again (commit k writes the value k into every
 * param); this JVM kills it (fault 5) or opens the model meanwhile (fault 9).
 */
class CrashHostileTest {
  private static final int PARAMS = 32;
  private static final int FLOATS = 4_096; // 16 KiB a param
  private static final long SHARD = FLOATS * 4L; // one param a shard: 33 shards
  private static final long SEED = Long.getLong("hostile.seed", System.nanoTime());

  @TempDir Path tmp;

  /**
   * The value every param holds (they must agree, none missing), or a description of what is
   * wrong, on a mount of {@code m}.
   */
  private static String generation(FileSystem fs) throws IOException {
    return generation(fs, PARAMS);
  }

  private static String generation(FileSystem fs, int count) throws IOException {
    Map<String, byte[]> ps = HostileSupport.params(fs);
    if (ps.size() != count) {
      return "params missing: " + ps.keySet();
    }
    Map<Float, List<String>> byValue = new TreeMap<>();
    for (Map.Entry<String, byte[]> e : ps.entrySet()) {
      byValue.computeIfAbsent(uniform(e.getValue()), k -> new ArrayList<>()).add(e.getKey());
    }
    if (byValue.size() != 1 || byValue.containsKey(Float.NaN)) {
      return "mixed generations: " + byValue;
    }
    return "gen " + byValue.keySet().iterator().next();
  }

  /** Deletes every {@code *.tmp} file in {@code dir} (what a tmp cleaner does). */
  private static List<String> cleanTmp(Path dir) throws IOException {
    List<String> gone = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : s.toList()) {
        if (p.getFileName().toString().endsWith(".tmp") && Files.isRegularFile(p)) {
          Files.deleteIfExists(p);
          gone.add(p.getFileName().toString());
        }
      }
    }
    return gone;
  }

  /**
   * Fault 5: recovery never deletes (or mixes) a sharded model, even when a tmp cleaner ran
   * after the crash. 15 SIGKILLs of a committing child: every other one at a random moment,
   * the others as soon as a file named {@code *modelfs-commit} (today's roll-forward record)
   * is there and the number of *.tmp files has dropped (a rename has happened), or after 2 s. After each: delete every *.tmp, open read-only,
   * then as a writer: all 32 params of one generation (33 shards).
   * FAILS TODAY: the record-timed kills (odd ones) leave the record plus some unrenamed
   * temporaries; the cleaner deletes those, recovery treats a missing temporary as "already
   * renamed", and the model stays MIXED for good, e.g. w0,w1 of the new generation and w2..w31
   * of the old (in each of 3 recorded runs 1 to 3 timed kills did this; a mix, once made, is seen
   * by every later open). The random kills alone rarely hit the sub-millisecond rename window:
   * with random kills only (first version of this test) it passed.
   */
  @Test
  void fault5_killedShardedCommitsPlusTmpCleanerLeaveOneGeneration() throws Exception {
    Path m = HostileSupport.sharded(tmp, PARAMS, FLOATS, 0f);
    Random rnd = new Random(SEED);
    Problems pr = new Problems();
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(45);
    int kills = 0;
    List<String> outcomes = new ArrayList<>();
    for (int i = 0; i < 15 && System.nanoTime() < end; i++) {
      Process child = HostileSupport.child("loop", m.toString(), "1000000", Long.toString(SHARD));
      BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
      try {
        String first = out.readLine(); // "COMMIT 1": the child is committing
        if (first == null || !first.startsWith("COMMIT")) {
          pr.add("kill " + i + ": child said " + first);
          continue;
        }
        long delayNanos = TimeUnit.MILLISECONDS.toNanos(rnd.nextInt(300));
        long t0 = System.nanoTime();
        if (i % 2 == 1) { // wait until a roll-forward record is there and a temporary has been renamed
          int withRecord = -1; // *.tmp files when the record was first seen
          while (System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(2)) {
            int[] st = recordAndTmps(tmp);
            if (st[0] == 0) {
              withRecord = -1;
            } else if (withRecord < 0) {
              withRecord = st[1];
            } else if (st[1] < withRecord) {
              break;
            }
          }
        } else {
          TimeUnit.NANOSECONDS.sleep(delayNanos);
        }
      } finally {
        child.destroyForcibly();
        child.waitFor(30, TimeUnit.SECONDS);
        out.close();
      }
      kills++;
      List<String> cleaned = cleanTmp(tmp);
      int k = i;
      pr.check("kill " + k + " (cleaner deleted " + cleaned.size() + " *.tmp): read-only open", () -> {
        try (FileSystem fs = ModelFileSystems.open(m, Map.of("readOnly", true))) {
          String g = generation(fs);
          outcomes.add(g);
          assertTrue(g.startsWith("gen "), g);
        }
      });
      pr.check("kill " + k + ": writer open", () -> {
        String[] g = new String[1];
        IOException e = io(() -> {
          try (FileSystem fs = ModelFileSystems.open(m)) {
            Files.write(fs.getPath("/params/w0"), Files.readAllBytes(fs.getPath("/params/w0"))); // take the lock
            g[0] = generation(fs);
            ((JournaledFileSystem) fs).rollback();
          }
        });
        assertEquals(null, e);
        assertTrue(g[0].startsWith("gen "), g[0]);
      });
    }
    System.out.println("fault5 seed " + SEED + ": " + kills + " kills, read-only generations seen: " + outcomes);
    pr.assertNone();
    assertTrue(kills >= 10, "only " + kills + " kills in the time limit");
  }

  /** {records named *modelfs-commit, *.tmp files} in {@code dir} now. */
  private static int[] recordAndTmps(Path dir) {
    int[] r = new int[2];
    try (Stream<Path> s = Files.list(dir)) {
      s.forEach(p -> {
        String n = p.getFileName().toString();
        if (n.contains(".modelfs-commit")) {
          r[0]++;
        } else if (n.endsWith(".tmp")) {
          r[1]++;
        }
      });
    } catch (IOException e) {
      // a file vanished while listing
    }
    return r;
  }

  /**
   * Fault 9: a reader never sees mixed generations. A child commits the sharded model 200 times;
   * this JVM opens it read-only again and again: each open throws an IOException or shows every
   * param with the same value (8 params, 9 shards: 200 commits take ~15 s on 2 shared cores).
   * FAILS TODAY: in the recorded runs 35 of 31,664 opens (and 6 of 18,744 when the reader
   * slept between opens), none refused, showed two generations at once, e.g. w0..w2 at 28 and
   * w3..w7 at 29: a read-only open reads the shards one by one while the writer renames them.
   */
  @Test
  void fault9_readersNeverSeeMixedGenerations() throws Exception {
    int params = 8; // 9 shards: 200 commits of 33 shards would take ~30 s
    Path m = HostileSupport.sharded(tmp, params, FLOATS, 0f);
    // 60 commits by default (about a third of the opens of a 200-commit run), 200 under -Pslow
    String commits = Integer.toString(SlowRuns.count("hostile.commits", 60, 200));
    Process child = HostileSupport.child("loop", m.toString(), commits, Long.toString(SHARD));
    List<String> lines = new ArrayList<>();
    Thread reader = HostileSupport.collectLines(child, lines);
    int opens = 0;
    int refused = 0;
    List<String> mixed = new ArrayList<>();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    try {
      while (child.isAlive() && System.nanoTime() < deadline) {
        opens++;
        String[] g = new String[1];
        IOException e = io(() -> {
          try (FileSystem fs = ModelFileSystems.open(m, Map.of("readOnly", true))) {
            g[0] = generation(fs, params);
          }
        });
        if (e != null) {
          refused++;
        } else if (!g[0].startsWith("gen ")) {
          mixed.add(g[0]);
        }
      }
    } finally {
      child.destroyForcibly();
      child.waitFor(30, TimeUnit.SECONDS);
      reader.join();
    }
    long gens;
    List<String> fails;
    synchronized (lines) {
      gens = lines.stream().filter(l -> l.startsWith("GEN")).count();
      fails = lines.stream().filter(l -> l.startsWith("FAIL") || l.startsWith("ERROR")).toList();
    }
    System.out.println("fault9: " + opens + " opens, " + refused + " IOExceptions, " + mixed.size() + " mixed, child commits "
        + gens + ", failed " + fails);
    assertTrue(mixed.isEmpty(), mixed.size() + " of " + opens + " opens showed a mix (" + refused + " refused, "
        + gens + " child commits), e.g. " + mixed.subList(0, Math.min(3, mixed.size())));
  }
}
