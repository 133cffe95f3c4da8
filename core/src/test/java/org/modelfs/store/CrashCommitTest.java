package org.modelfs.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ModelFormat;
import org.modelfs.container.ModelWriter;
import org.modelfs.format.WriteOptions;
import org.modelfs.format.sdnb.ShardNames;
import org.modelfs.testing.SyntheticModels;

/**
 * Crash safety of commits: a child JVM ({@link CrashCommitMain}) commits a 40 MB model (SDNB,
 * sharded SDNB, SDZ, fb) while this test kills it with SIGKILL ({@link Process#destroyForcibly()})
 * at randomized moments spread evenly (a shuffled slot each, a random point in it) over
 * [0, 2 × the longest of two measured commits] after it announced the commit; the child stays alive after
 * its commit, so every kill hits a live writer. After every kill, the next mount (which
 * recovers) must show exactly the old or exactly the new generation of every array, checked
 * element by element, and of the metadata — never an error, never a mix — and nothing but the
 * model and its lock file may be left beside it: no temporary file, journal or commit record.
 * Both outcomes must occur for every format, or the kills tested nothing.
 *
 * <p>{@code -Dcrash.kills=K} sets the kills per format of the default run (else 8 for each of the
 * seven layouts and the two partial-commit runs: 72 in all);
 * {@code -Dcrash.seed=S} repeats a run (the seed is printed with each format's summary). The
 * {@code slow} test ({@code mvn -Pslow verify}) runs {@code -Dcrash.slowKills}
 * (default 100) more per format.
 */
class CrashCommitTest {
  private static final int ARRAYS = 8;
  private static final int ELEMENTS = 1_250_000; // 8 × 5 MB = 40 MB of FLOAT
  private static final long SHARD_SMALL = 2 * 4L * ELEMENTS; // one array a weight shard: 9 shards
  private static final long SHARD_LARGE = 3 * 4L * ELEMENTS; // two arrays a weight shard: 5 shards
  private static final long SEED = Long.getLong("crash.seed", System.nanoTime());
  /**
   * Kills per format in the default run: the slots are spread evenly over 2 × the commit, so the
   * first ones land before the commit point and the last ones after it (both outcomes) even when a
   * loaded machine makes one commit half as fast again as the measured ones; each kill is a child
   * JVM, whose start is most of its cost;
   * the {@code slow} run adds 100 per format.
   */
  private static final int DEFAULT_KILLS = 8;

  @TempDir Path tmp;

  /** A model layout under test. */
  enum Kind {
    SDNB("m.sdnb", true),
    SHARDED("m.sdnb", true),
    SDZ("m.sdz", true),
    ZIP_TAGS("m.zip", true),
    FB("m.fb", false),
    CONTAINER("m.sdmc", true),
    CONTAINER_SHARDED("m.sdmc", true);

    final String file;
    final boolean metadata;

    Kind(String file, boolean metadata) {
      this.file = file;
      this.metadata = metadata;
    }

    /** Whether the model is a shard set (whose shard count changes every other commit). */
    boolean sharded() {
      return this == SHARDED || this == CONTAINER_SHARDED;
    }
  }

  @Test
  void killedSdnbCommitsLeaveOldOrNewModel() throws Exception {
    crashLoop(Kind.SDNB, kills(Kind.SDNB));
  }

  @Test
  void killedShardedSdnbCommitsLeaveOldOrNewModel() throws Exception {
    crashLoop(Kind.SHARDED, kills(Kind.SHARDED));
  }

  @Test
  void killedSdzCommitsLeaveOldOrNewModel() throws Exception {
    crashLoop(Kind.SDZ, kills(Kind.SDZ));
  }

  @Test
  void killedZipTagsCommitsLeaveOldOrNewModel() throws Exception {
    crashLoop(Kind.ZIP_TAGS, kills(Kind.ZIP_TAGS));
  }

  @Test
  void killedFbCommitsLeaveOldOrNewModel() throws Exception {
    crashLoop(Kind.FB, kills(Kind.FB));
  }

  @Test
  void killedContainerCommitsLeaveOldOrNewModel() throws Exception {
    crashLoop(Kind.CONTAINER, kills(Kind.CONTAINER));
  }

  @Test
  void killedShardedContainerCommitsLeaveOldOrNewModel() throws Exception {
    crashLoop(Kind.CONTAINER_SHARDED, kills(Kind.CONTAINER_SHARDED));
  }

  /**
   * Commits that keep the weight shards they did not change (docs/FILESYSTEM.md §7.4): each
   * generation rewrites one array (in turn) and the metadata, so a commit writes the graph shard
   * and one weight shard of nine and keeps seven — checked on the undisturbed commits — and a
   * SIGKILL at any moment leaves the old or the new model: every array of the generation the
   * metadata says, element by element, nothing stray after the next mount.
   */
  @Test
  void killedPartialShardCommitsLeaveOldOrNewModel() throws Exception {
    for (Kind kind : List.of(Kind.SHARDED, Kind.CONTAINER_SHARDED)) {
      crashLoop(kind, Integer.getInteger("crash.kills", DEFAULT_KILLS), true);
    }
  }

  private static int verifyAny(Path model, Kind kind, int old, boolean partial) throws IOException {
    return partial ? verifyPartial(model, kind, old) : verify(model, kind, old);
  }

  /** Each shard file's file key, size and modification time. */
  private static Map<String, String> shardIdentities(Path model) throws IOException {
    Map<String, String> out = new TreeMap<>();
    for (String n : shardFilesAny(model.toAbsolutePath().getParent())) {
      var a = Files.readAttributes(model.resolveSibling(n), BasicFileAttributes.class);
      out.put(n, a.fileKey() + "/" + a.size() + "/" + a.lastModifiedTime().toMillis());
    }
    return out;
  }

  private static List<String> shardFilesAny(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).filter(n -> ShardNames.parseAny(n) != null).sorted().toList();
    }
  }

  /**
   * Mounts the model after a kill of a {@code partial} commit: {@code /metadata/generation} must
   * say {@code old} or {@code old + 1}, and every array must hold, element by element, the
   * generation that last rewrote it up to that one (0 if none did); nothing stray is left.
   * Returns the generation.
   */
  private static int verifyPartial(Path model, Kind kind, int old) throws IOException {
    return verifyPartial(model, kind, old, ELEMENTS);
  }

  private static int verifyPartial(Path model, Kind kind, int old, int elements) throws IOException {
    int gen;
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Path m = fs.getPath("/metadata/generation");
      gen = Files.exists(m) ? Integer.parseInt(Files.readString(m).trim()) : 0;
      if (gen != old && gen != old + 1) {
        fail(kind + ": the metadata says generation " + gen + ", expected " + old + " or " + (old + 1));
      }
      ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
      for (int i = 0; i < ARRAYS; i++) {
        int want = 0;
        for (int h = gen; h >= 1; h--) {
          if (CrashCommitMain.arrayOf(h, ARRAYS) == i) {
            want = h;
            break;
          }
        }
        checkArray(fs.getPath("/params/big/w" + i), kind, i, want, elements, buf, "generation " + gen
            + " (metadata) means the values of generation " + want + " here");
      }
      assertClean(model, kind, "while mounted after the crash");
    }
    assertClean(model, kind, "after the mount was closed");
    return gen;
  }

  /**
   * Reads {@code p} (array {@code i}) whole and checks it has {@code elements} elements, each
   * the value of generation {@code want}; {@code why} says in a failure why that one.
   */
  private static void checkArray(Path p, Kind kind, int i, int want, int elements, ByteBuffer buf, String why)
      throws IOException {
    assertEquals(4L * elements, Files.size(p), kind + ": size of " + p);
    try (SeekableByteChannel ch = Files.newByteChannel(p)) {
      long j = 0;
      while (j < elements) {
        buf.clear();
        while (buf.hasRemaining() && ch.read(buf) > 0) {
          // fill the buffer
        }
        buf.flip();
        if (buf.remaining() < 4) {
          fail(kind + ": " + p + " ends early at element " + j);
        }
        while (buf.remaining() >= 4) {
          int got = buf.getInt();
          if (got != Float.floatToRawIntBits(CrashCommitMain.value(want, i, j))) {
            fail(kind + ": " + p + " element " + j + " is " + Float.intBitsToFloat(got) + "; " + why
                + " has " + CrashCommitMain.value(want, i, j));
          }
          j++;
        }
      }
    }
  }

  /** Kills of the default run: 26 each for SDNB and sharded SDNB, 13 each for SDZ, zip-tags, fb and both containers (117). */
  private static int kills(Kind kind) {
    return Integer.getInteger("crash.kills", DEFAULT_KILLS);
  }

  @Test
  @Tag("slow")
  void manyKilledCommitsInEveryFormat() throws Exception {
    int kills = Integer.getInteger("crash.slowKills", 100);
    for (Kind k : Kind.values()) {
      crashLoop(k, kills);
    }
  }

  @Test
  void killWhileWritingTheJournalLeavesTheOldModel() throws Exception {
    Random rnd = new Random(SEED);
    for (Kind kind : List.of(Kind.SDNB, Kind.SHARDED)) {
      Path model = create(kind);
      for (int k = 0; k < 4; k++) {
        Child c = Child.start(tmp, model, 1, "journal", 0, kind.metadata);
        try {
          c.await("WRITING");
          Path journal = journalOf(model);
          assertTrue(journal != null && Files.isDirectory(journal), kind + ": the child writes into a journal beside " + model);
          if (k == 3) {
            c.await("WRITTEN"); // every array journaled, nothing committed
          } else {
            sleepNanos(rnd.nextInt(150_000_000));
          }
        } finally {
          c.kill();
        }
        assertEquals(0, verify(model, kind, 0), kind + ": a killed writer that never committed changes nothing");
        assertEquals(null, journalOf(model), kind + ": the next mount removes the stale journal");
      }
    }
  }

  /**
   * Every state a kill can leave a sharded commit of a mount in, made by hand so that each is
   * certainly reached (a random kill lands in the few milliseconds between the forced record and
   * the last rename only by luck): with a complete record, any number of shards renamed and of
   * stale shards deleted rolls forward to the new model; without a record (temporary shards
   * only, a record cut off before its {@code end} line, a record still under its temporary
   * name) the old model stays. Both a commit that changes the shard count (9 → 5: old shards are
   * deleted) and one that keeps it (9 → 9: shards replaced in place, old and new mixed mid-way).
   * A crashed mount always leaves its lock file, so every state here has one.
   */
  @Test
  void everyInterruptedStateOfAShardedCommitRecovers() throws Exception {
    List<String> problems = interruptedStates(true, true);
    assertTrue(problems.isEmpty(), String.join("\n", problems));
  }

  /**
   * The same roll-forward states, left by {@code modelfs convert IN m.sdnb --max-shard-bytes N}
   * over an existing shard set: {@link ModelWriter#write} commits through the same record, but
   * takes no writer lock, so no lock file exists beside the model.
   */
  @Test
  void anInterruptedShardedConvertIsFinishedByTheNextMount() throws Exception {
    List<String> problems = interruptedStates(false, false);
    assertTrue(problems.isEmpty(), String.join("\n", problems));
  }

  /**
   * Runs the interrupted states of a sharded commit 9 → 5 and 9 → 9 shards ({@code all}: every
   * number of renames and deletes, and the states without a record; otherwise only the states
   * mid-rename), with or without the lock file a mount leaves. Returns what went wrong.
   */
  private List<String> interruptedStates(boolean lockFile, boolean all) throws IOException {
    int elements = 250_000; // 1 MB arrays
    Path pristine = tmp.resolve("pristine");
    create(Kind.SHARDED, pristine, elements); // generation 0, 9 shards
    List<String> oldShards = shardFiles(pristine);
    assertEquals(9, oldShards.size());
    List<String> problems = new ArrayList<>();
    int scenario = 0;
    // a commit that keeps seven of the nine shards: only the graph shard and w1's are renamed
    Path partial = tmp.resolve("next-partial");
    copyShards(pristine, partial);
    try (FileSystem fs = ModelFileSystems.open(partial.resolve("m.sdnb"), Map.of("maxShardBytes",
        Long.toString(2 * 4L * elements)))) {
      CrashCommitMain.writeOne(fs, 1);
    }
    List<String> changedShards = new ArrayList<>();
    for (String n : shardFiles(partial)) {
      if (Files.mismatch(pristine.resolve(n), partial.resolve(n)) >= 0) {
        changedShards.add(n);
      }
    }
    assertEquals(2, changedShards.size(), "the partial commit rewrote " + changedShards);
    States ps = new States(pristine, partial, changedShards, new ArrayList<>(), lockFile, elements, true);
    for (int renamed = all ? 0 : 1; renamed <= changedShards.size() - (all ? 0 : 1); renamed++) {
      problems.add(interrupted(ps, "complete", renamed, 0, 1, "9 -> 9 shards, 2 rewritten", scenario++));
    }
    if (all) {
      for (String record : List.of("none", "cut", "lost-one", "lost-all")) {
        problems.add(interrupted(ps, record, 0, 0, 0, "9 -> 9 shards, 2 rewritten", scenario++));
      }
    }
    for (long limit : List.of(3 * 4L * elements, 2 * 4L * elements)) {
      Path next = tmp.resolve("next-" + limit);
      copyShards(pristine, next);
      try (FileSystem fs = ModelFileSystems.open(next.resolve("m.sdnb"), Map.of("maxShardBytes", Long.toString(limit)))) {
        CrashCommitMain.writeGeneration(fs, 1, true, () -> { });
      } // closing commits
      States st = new States(pristine, next, shardFiles(next), new ArrayList<>(oldShards), lockFile, elements, false);
      st.stale.removeAll(st.newShards);
      String what = oldShards.size() + " -> " + st.newShards.size() + " shards";
      for (int renamed = all ? 0 : 1; renamed <= st.newShards.size() - (all ? 0 : 1); renamed++) {
        problems.add(interrupted(st, "complete", renamed, 0, 1, what, scenario++));
      }
      if (all) {
        for (int deleted = 1; deleted <= st.stale.size(); deleted++) {
          problems.add(interrupted(st, "complete", st.newShards.size(), deleted, 1, what, scenario++));
        }
        problems.add(interrupted(st, "none", 0, 0, 0, what, scenario++));
        problems.add(interrupted(st, "cut", 0, 0, 0, what, scenario++));
        problems.add(interrupted(st, "lost-one", 0, 0, 0, what, scenario++));
        problems.add(interrupted(st, "lost-all", 0, 0, 0, what, scenario++));
      }
    }
    problems.removeIf(x -> x == null);
    return problems;
  }

  /**
   * Where the interrupted states are built from: generation 0 and the shards of generation 1 —
   * or, {@code partial}, of generation 1 written as one array's change ({@link CrashCommitMain#writeOne}).
   */
  private record States(Path pristine, Path next, List<String> newShards, List<String> stale, boolean lockFile,
      int elements, boolean partial) {}

  /**
   * Builds one interrupted state in a fresh directory — the old shards, the new ones under
   * temporary names, a record ({@code complete}, {@code cut} off, only its {@code tmp}, or
   * {@code none}), {@code renamed} shards renamed and {@code deleted} stale ones deleted — then
   * mounts it and expects generation {@code expected}. Returns what went wrong, or null.
   */
  private String interrupted(States st, String record, int renamed, int deleted, int expected, String what,
      int scenario) throws IOException {
    Path dir = tmp.resolve("state-" + scenario);
    copyShards(st.pristine(), dir);
    ModelId id = ModelId.of(dir.resolve("m.sdnb"));
    if (st.lockFile()) {
      Files.createFile(dir.resolve(SidecarNames.lock(id.key()))); // what a killed writer leaves
    }
    List<String> tmps = new ArrayList<>();
    List<CommitRecord.Rename> renames = new ArrayList<>();
    for (String n : st.newShards()) {
      String t = SidecarNames.newTemp(n);
      Files.copy(st.next().resolve(n), dir.resolve(t));
      tmps.add(t);
      renames.add(new CommitRecord.Rename(t, n, Durable.stamp(dir.resolve(t)).key()));
    }
    switch (record) {
      case "complete", "lost-one", "lost-all" -> CommitRecord.write(id, new CommitRecord.Content(renames, List.of(), st.stale()));
      case "cut" -> {
        Path recordPath = CommitRecord.write(id, new CommitRecord.Content(renames, List.of(), st.stale()));
        byte[] b = Files.readAllBytes(recordPath);
        Files.write(recordPath, Arrays.copyOf(b, b.length - 7)); // a crash while it was written
      }
      default -> { }
    }
    if (record.equals("lost-one")) {
      Files.delete(dir.resolve(tmps.get(tmps.size() - 1))); // a tmp cleaner, before any rename
    } else if (record.equals("lost-all")) {
      for (String t : tmps) {
        Files.delete(dir.resolve(t));
      }
    }
    for (int i = 0; i < renamed; i++) {
      Files.move(dir.resolve(tmps.get(i)), dir.resolve(st.newShards().get(i)), StandardCopyOption.REPLACE_EXISTING);
    }
    for (int i = 0; i < deleted; i++) {
      Files.delete(dir.resolve(st.stale().get(i)));
    }
    String label = what + ", record " + record + ", " + renamed + " renamed, " + deleted + " deleted";
    try {
      // recovery is reached through every spelling of the shard set (one identity, one lock)
      String spelling = switch (scenario % 4) {
        case 0 -> "m.sdnb";
        case 1 -> "m";
        case 2 -> "m.SDNB";
        default -> st.newShards().get(0);
      };
      int found = st.partial() ? verifyPartial(dir.resolve(spelling), Kind.SHARDED, 0, st.elements()) : verify(dir.resolve(spelling), Kind.SHARDED, 0, st.elements());
      if (found != expected) {
        return label + ": generation " + found + ", expected " + expected;
      }
    } catch (IOException | RuntimeException e) {
      return label + ": the next mount fails: " + e;
    } catch (AssertionError e) {
      return label + ": " + e.getMessage();
    }
    deleteTree(dir);
    return null;
  }

  /**
   * Recovery is scoped by a model's lock file, so mounting one model must never touch the files
   * of another model's live commit. Here a sharded commit of {@code m.sdnb} (9 → 5 shards, and
   * 9 → 9) runs while another model in the same directory, {@code m.fb}, that was written
   * before (so it has its own lock file), is mounted read-only;
   * the writer mounts with {@code commitOnClose=false}, so that a failed commit is not retried
   * by its close.
   */
  @Test
  void mountingASiblingModelLeavesALiveShardedCommitAlone() throws Exception {
    List<String> problems = new ArrayList<>();
    for (long limit : List.of(SHARD_LARGE, SHARD_SMALL)) {
      Path dir = tmp.resolve("live-" + limit);
      Path model = create(Kind.SHARDED, dir, ELEMENTS);
      Files.move(create(Kind.FB, tmp.resolve("sibling-" + limit), 4), dir.resolve("m.fb"));
      try (FileSystem fs = ModelFileSystems.open(dir.resolve("m.fb"))) {
        Files.write(fs.getPath("/params/big/w0"), new byte[16]); // the sibling has been written before
      }
      String what = "commit 9 -> " + (limit == SHARD_LARGE ? 5 : 9) + " shards";
      ExecutorService pool = Executors.newSingleThreadExecutor();
      try {
        Future<?> commit = pool.submit(() -> {
          try (FileSystem fs = ModelFileSystems.open(model,
              Map.of("maxShardBytes", Long.toString(limit), "commitOnClose", "false"))) {
            CrashCommitMain.writeGeneration(fs, 1, true, () -> { });
            ((JournaledFileSystem) fs).commit();
          }
          return null;
        });
        boolean sawTmp = false;
        while (!commit.isDone() && !sawTmp) {
          try (Stream<Path> s = Files.list(dir)) {
            sawTmp = s.anyMatch(p -> p.getFileName().toString().matches("\\.m\\.shard.*\\.tmp"));
          }
        }
        assertTrue(sawTmp, what + ": the commit writes temporary shards");
        try (FileSystem fs = ModelFileSystems.open(dir.resolve("m.fb"), Map.of("readOnly", "true"))) {
          assertTrue(Files.exists(fs.getPath("/params/big/w0")));
        }
        String error = null;
        try {
          commit.get(2, TimeUnit.MINUTES);
        } catch (ExecutionException e) {
          error = String.valueOf(e.getCause());
        }
        String outcome = what + ": commit " + (error == null ? "succeeded" : "failed (" + error + ")");
        try {
          int found = verify(model, Kind.SHARDED, 0);
          if (error != null || found != 1) {
            problems.add(outcome + ", model shows generation " + found);
          }
        } catch (IOException | RuntimeException | AssertionError e) {
          problems.add(outcome + ", then the model is broken: " + e.getMessage() + "; files: " + shardFiles(dir));
        }
      } finally {
        pool.shutdownNow();
      }
    }
    assertTrue(problems.isEmpty(), String.join("\n", problems));
  }

  private static List<String> shardFiles(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).filter(n -> ShardNames.parse(n) != null).sorted().toList();
    }
  }

  private static void copyShards(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    for (String n : shardFiles(from)) {
      Files.copy(from.resolve(n), to.resolve(n));
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : s.toList()) {
        Files.delete(p);
      }
    }
    Files.delete(dir);
  }

  // ---- the crash loop ------------------------------------------------------------------------

  private void crashLoop(Kind kind, int kills) throws Exception {
    crashLoop(kind, kills, false);
  }

  /**
   * The crash loop; {@code partial}: each commit rewrites one array ({@link CrashCommitMain#writeOne})
   * under a fixed shard limit, and the undisturbed ones must write two of the nine shards.
   */
  private void crashLoop(Kind kind, int kills, boolean partial) throws Exception {
    long started = System.nanoTime();
    Path model = create(kind);
    int g = 0;
    String mode = partial ? "partial" : "commit";
    // calibration: two undisturbed commits (killed only after DONE) give the commit time
    long commitNanos = 0;
    for (int i = 0; i < 2; i++) {
      Map<String, String> before = shardIdentities(model);
      Child c = Child.start(tmp, model, g + 1, mode, partial ? SHARD_SMALL : shardBytes(kind, g + 1), kind.metadata);
      long t0;
      long t1;
      try {
        c.await("COMMITTING");
        t0 = System.nanoTime();
        c.await("DONE");
        t1 = System.nanoTime();
      } finally {
        c.kill();
      }
      commitNanos = Math.max(commitNanos, t1 - t0);
      if (partial) {
        Map<String, String> after = shardIdentities(model);
        assertEquals(before.keySet(), after.keySet(), kind + ": the same nine shards");
        long changed = after.entrySet().stream().filter(e -> !e.getValue().equals(before.get(e.getKey()))).count();
        assertEquals(2, changed, kind + ": a commit that changed one array writes the graph shard and its shard only");
      }
      assertEquals(g + 1, verifyAny(model, kind, g, partial), kind + ": an undisturbed commit gives the new model");
      g++;
    }
    Random rnd = new Random(SEED ^ (kind.ordinal() + (partial ? 100 : 0)));
    List<Integer> slots = new ArrayList<>();
    for (int i = 0; i < kills; i++) {
      slots.add(i);
    }
    Collections.shuffle(slots, rnd);
    long range = commitNanos * 2; // the last kills after the commit, even when a loaded machine slows it
    int older = 0;
    int newer = 0;
    StringBuilder log = new StringBuilder();
    Map<String, Integer> states = new TreeMap<>();
    for (int i = 0; i < kills; i++) {
      long delay = (long) (range * ((slots.get(i) + rnd.nextDouble()) / kills));
      Child c = Child.start(tmp, model, g + 1, mode, partial ? SHARD_SMALL : shardBytes(kind, g + 1), kind.metadata);
      try {
        c.await("COMMITTING");
        sleepNanos(delay);
      } finally {
        c.kill();
      }
      String state = crashState(model);
      states.merge(state, 1, Integer::sum);
      int found = verifyAny(model, kind, g, partial);
      if (found == g) {
        older++;
      } else {
        newer++;
      }
      log.append(String.format(" %.0fms:%s:%s", delay / 1e6, state, found == g ? "old" : "new"));
      g = found;
    }
    String summary = String.format(
        "%s" + (partial ? " partial" : "") + ": %d kills over [0, %d ms] (commit %d ms), %d old, %d new, left after the kill %s, %.1f s, seed %d;%s",
        kind, kills, range / 1_000_000, commitNanos / 1_000_000, older, newer, states,
        (System.nanoTime() - started) / 1e9, SEED, log);
    System.out.println("[CrashCommitTest] " + summary);
    assertTrue(older > 0 && newer > 0, "both outcomes must occur, or the kills test nothing: " + summary);
  }

  /**
   * What the killed child left before the next mount recovers: {@code record} (a commit record:
   * roll forward), {@code tmp} (temporary files: dropped), {@code journal} (only the journal),
   * {@code none}.
   */
  private static String crashState(Path model) throws IOException {
    if (!CommitRecord.all(ModelId.of(model)).isEmpty()) {
      return "record";
    }
    try (Stream<Path> s = Files.list(model.toAbsolutePath().getParent())) {
      if (s.anyMatch(p -> p.getFileName().toString().endsWith(".tmp"))) {
        return "tmp";
      }
    }
    return journalOf(model) != null ? "journal" : "none";
  }

  /** The shard limit a commit to {@code generation} uses: the shard count changes every other commit. */
  private static long shardBytes(Kind kind, int generation) {
    if (!kind.sharded()) {
      return 0;
    }
    return (generation / 2) % 2 == 0 ? SHARD_SMALL : SHARD_LARGE;
  }

  private static void sleepNanos(long nanos) {
    long end = System.nanoTime() + nanos;
    for (long left = nanos; left > 0; left = end - System.nanoTime()) {
      LockSupport.parkNanos(left);
    }
  }

  /**
   * Writes generation 0 of the model in its own directory. Every model is opened by the name
   * {@code m.sdnb} (or {@code m.fb}), which for a shard set is its base name: the name its lock
   * file, journal and commit record are derived from.
   */
  private Path create(Kind kind) throws IOException {
    return create(kind, tmp.resolve(kind.name().toLowerCase()), ELEMENTS);
  }

  private Path create(Kind kind, Path directory, int elements) throws IOException {
    Path dir = Files.createDirectories(directory);
    Path data = tmp.resolve(kind + "-data.bin");
    SyntheticModels.Synthetic s = SyntheticModels.floats(data, ARRAYS, elements);
    Path model = dir.resolve(kind.file);
    try (var src = s.data()) {
      WriteOptions o = switch (kind) {
        case SDNB -> WriteOptions.of(ModelFormat.SDNB);
        case SHARDED -> WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(2 * 4L * elements);
        case SDZ -> WriteOptions.of(ModelFormat.SDZ);
        case ZIP_TAGS -> WriteOptions.of(ModelFormat.ZIP_TAGS);
        case FB -> WriteOptions.of(ModelFormat.FB);
        case CONTAINER -> WriteOptions.of(ModelFormat.CONTAINER);
        case CONTAINER_SHARDED -> WriteOptions.of(ModelFormat.SHARDED_CONTAINER).withMaxShardBytes(2 * 4L * elements);
      };
      ModelFiles.write(s.tag(), model, o);
    }
    Files.delete(data);
    return model;
  }

  // ---- checks ------------------------------------------------------------------------------

  /**
   * Mounts the model (the mount recovers), checks that every array and the metadata hold one
   * generation, {@code old} or {@code old + 1}, in full, and that nothing but the model and its
   * lock file is left in its directory (while mounted and after). Returns the generation.
   */
  private static int verify(Path model, Kind kind, int old) throws IOException {
    return verify(model, kind, old, ELEMENTS);
  }

  private static int verify(Path model, Kind kind, int old, int elements) throws IOException {
    int gen = -1;
    try (FileSystem fs = ModelFileSystems.open(model)) {
      ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
      for (int i = 0; i < ARRAYS; i++) {
        Path p = fs.getPath("/params/big/w" + i);
        int gi;
        try (SeekableByteChannel ch = Files.newByteChannel(p)) {
          ByteBuffer first = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
          ch.read(first);
          gi = CrashCommitMain.generationOf(i, first.getFloat(0));
        }
        if (gi != old && gi != old + 1) {
          fail(kind + ": " + p + " holds generation " + gi + ", expected " + old + " or " + (old + 1));
        }
        if (gen < 0) {
          gen = gi;
        } else if (gi != gen) {
          fail(kind + ": mixed generations: w0 holds " + gen + ", " + p + " holds " + gi);
        }
        checkArray(p, kind, i, gen, elements, buf, "generation " + gen);
      }
      assertFalse(Files.exists(fs.getPath("/params/big/w" + ARRAYS)), kind + ": no extra array");
      if (kind.metadata) {
        Path m = fs.getPath("/metadata/generation");
        int meta = Files.exists(m) ? Integer.parseInt(Files.readString(m).trim()) : 0;
        assertEquals(gen, meta, kind + ": /metadata/generation agrees with the arrays");
      }
      assertClean(model, kind, "while mounted after the crash");
    }
    assertClean(model, kind, "after the mount was closed");
    return gen;
  }

  /** The journal directory a writer of {@code model} has (or left) beside it, or null. */
  static Path journalOf(Path model) throws IOException {
    ModelId id = ModelId.of(model);
    for (String n : SafeDir.names(id.dir())) {
      if (SidecarNames.isJournal(id.key(), n)) {
        return id.dir().resolve(n);
      }
    }
    return null;
  }

  /** Only the model's file(s) and its lock file are left: no .tmp, journal or commit record. */
  private static void assertClean(Path model, Kind kind, String when) throws IOException {
    Path dir = model.toAbsolutePath().getParent();
    TreeSet<String> names = new TreeSet<>();
    try (Stream<Path> s = Files.list(dir)) {
      s.forEach(p -> names.add(p.getFileName().toString()));
    }
    String lock = SidecarNames.lock(ModelId.of(model).key());
    List<String> stray = new ArrayList<>();
    int shards = -1;
    for (String n : names) {
      if (n.equals(lock) || n.equals("m.fb") && kind != Kind.FB || n.equals(".m.fb.modelfs-lock")) {
        continue; // m.fb: the sibling model of mountingASiblingModelLeavesALiveShardedCommitAlone
      }
      if (kind.sharded()) {
        ShardNames.Shard s = ShardNames.parseAny(n);
        if (s != null && s.base().equals("m") && (shards < 0 || shards == s.count())) {
          shards = s.count();
          continue;
        }
      } else if (n.equals(kind.file)) {
        continue;
      }
      stray.add(n);
    }
    assertTrue(stray.isEmpty(), kind + ": left beside the model " + when + ": " + stray + " (all: " + names + ")");
    if (kind.sharded()) {
      assertEquals(shards, names.stream().filter(n -> ShardNames.parseAny(n) != null).count(),
          kind + ": one complete shard set " + when + ": " + names);
    }
  }

  // ---- the child JVM ------------------------------------------------------------------------

  /** A running {@link CrashCommitMain}, its stdout read line by line. */
  static final class Child {
    private static final String EOF = "\u0000EOF";
    private final Process process;
    private final Path log;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    private Child(Process process, Path log) {
      this.process = process;
      this.log = log;
      Thread t = new Thread(() -> {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
          for (String l; (l = r.readLine()) != null; ) {
            lines.add(l);
          }
        } catch (IOException e) {
          // the process died
        } finally {
          lines.add(EOF);
        }
      }, "crash-child-stdout");
      t.setDaemon(true);
      t.start();
    }

    static Child start(Path tmp, Path model, int generation, String mode, long maxShardBytes, boolean metadata)
        throws IOException {
      Path log = tmp.resolve("child-stderr.log");
      Process p = new ProcessBuilder(
              Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
              "-cp", System.getProperty("java.class.path"), CrashCommitMain.class.getName(),
              model.toString(), Integer.toString(generation), mode, Long.toString(maxShardBytes),
              Boolean.toString(metadata))
          .redirectError(log.toFile()).start();
      return new Child(p, log);
    }

    /** Waits for a line starting with {@code word}; fails when the child ends or takes too long. */
    String await(String word) throws Exception {
      long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
      while (true) {
        String l = lines.poll(Math.max(1, end - System.nanoTime()), TimeUnit.NANOSECONDS);
        if (l == null || l.equals(EOF)) {
          process.destroyForcibly().waitFor(1, TimeUnit.MINUTES);
          fail("child " + (l == null ? "timed out" : "ended (exit " + process.exitValue() + ")") + " before "
              + word + ": " + Files.readString(log));
        }
        if (l.startsWith(word)) {
          return l;
        }
      }
    }

    /** SIGKILL: the child gets no chance to clean up. It must still be running. */
    void kill() throws Exception {
      boolean alive = process.isAlive();
      process.destroyForcibly();
      assertTrue(process.waitFor(1, TimeUnit.MINUTES), "killed child did not end");
      if (!alive) {
        fail("child ended by itself (exit " + process.exitValue() + "): " + Files.readString(log));
      }
    }
  }
}
