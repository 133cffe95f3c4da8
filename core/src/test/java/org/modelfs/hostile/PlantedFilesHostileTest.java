package org.modelfs.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.hostile.HostileSupport.cli;
import static org.modelfs.hostile.HostileSupport.create;
import static org.modelfs.hostile.HostileSupport.fill;
import static org.modelfs.hostile.HostileSupport.io;
import static org.modelfs.hostile.HostileSupport.snapshot;
import static org.modelfs.hostile.HostileSupport.uniform;
import static org.modelfs.hostile.HostileSupport.uniformParams;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.hostile.HostileSupport.Problems;

/**
 * Things planted beside a model under the names ModelFS uses or used: journal, commit record,
 * lock file, and neighbours' temporary files. ModelFS must neither follow them nor delete what
 * is not its own.
 *
 * <p>RESULTS ON TODAY'S CODE (branch hostile, base 0688043) — see each test's comment.
 */
class PlantedFilesHostileTest {
  @TempDir Path tmp;

  /** A model dir and a victim dir beside it (outside the model dir). */
  private Path modelDir() throws IOException {
    return Files.createDirectories(tmp.resolve("models"));
  }

  private Path victimDir() throws IOException {
    Path v = Files.createDirectories(tmp.resolve("victim"));
    Files.writeString(v.resolve("precious.txt"), "do not delete me");
    Files.write(v.resolve("data.bin"), new byte[] {1, 2, 3, 4});
    Files.createDirectories(v.resolve("sub"));
    Files.writeString(v.resolve("sub/deep.txt"), "deep");
    return v;
  }

  /**
   * Runs the three uses of fault 1 on {@code m}: read-only mount, CLI tree, writer mount that
   * writes w0 = 7 and commits; then checks the model shows 7.
   */
  private static void useModel(Problems pr, String what, Path m) {
    pr.check(what + ": read-only mount", () -> {
      try (FileSystem fs = ModelFileSystems.open(m, Map.of("readOnly", true))) {
        Files.readAllBytes(fs.getPath("/params/w0"));
      }
    });
    pr.check(what + ": CLI tree", () -> {
      HostileSupport.Cli r = cli("tree", m.toString());
      assertEquals(0, r.code(), r.toString());
    });
    pr.check(what + ": writer mount write + commit", () -> {
      IOException e = io(() -> {
        try (FileSystem fs = ModelFileSystems.open(m)) {
          Files.write(fs.getPath("/params/w0"), fill(4, 7f));
        }
      });
      assertNull(e, "write/commit failed: " + e);
      try (FileSystem fs = ModelFileSystems.open(m, Map.of("readOnly", true))) {
        assertEquals(7f, uniform(Files.readAllBytes(fs.getPath("/params/w0"))), "the committed value");
      }
    });
  }

  /**
   * Fault 1: a planted journal path. FAILS TODAY (8 problems). Symlink to the victim dir: even
   * the READ-ONLY mount runs recovery, follows the link and deletes the victim's files
   * (precious.txt, data.bin gone), then fails with DirectoryNotEmptyException on victim/sub;
   * CLI tree exits 1; the writer fails the same way. Regular file at the journal path: read-only
   * and tree work, the write fails with FileAlreadyExistsException. Real directory holding
   * a subdirectory: read-only mount, tree and writer all fail with DirectoryNotEmptyException
   * (whether the planted files are deleted first depends on the directory listing order).
   */
  @Test
  void fault1_plantedJournalPathIsNeverFollowedNorDeleted() throws Exception {
    Problems pr = new Problems();
    Path dir = modelDir();
    Path victim = victimDir();
    Map<String, String> victimBefore = snapshot(victim);

    // (a) symlink to a victim directory outside
    Path m = create(dir.resolve("m.fb"), Map.of(), uniformParams(2, 4, 1f));
    Path journal = dir.resolve(".m.fb.modelfs-journal");
    Files.createSymbolicLink(journal, victim);
    useModel(pr, "journal symlink", m);
    pr.check("journal symlink: victim dir unchanged", () -> assertEquals(victimBefore, snapshot(victim)));
    pr.check("journal symlink: link left", () -> assertTrue(Files.isSymbolicLink(journal)));

    // (b) regular file at the journal path
    Path dir2 = Files.createDirectories(tmp.resolve("models2"));
    Path m2 = create(dir2.resolve("m.fb"), Map.of(), uniformParams(2, 4, 1f));
    Path journal2 = dir2.resolve(".m.fb.modelfs-journal");
    Files.writeString(journal2, "a regular file of someone else");
    useModel(pr, "journal regular file", m2);
    pr.check("journal regular file: unchanged", () ->
        assertEquals("a regular file of someone else", Files.readString(journal2)));

    // (c) a real directory holding files and a subdirectory
    Path dir3 = Files.createDirectories(tmp.resolve("models3"));
    Path m3 = create(dir3.resolve("m.fb"), Map.of(), uniformParams(2, 4, 1f));
    Path journal3 = dir3.resolve(".m.fb.modelfs-journal");
    Files.createDirectories(journal3.resolve("sub"));
    Files.writeString(journal3.resolve("notes.txt"), "mine");
    Files.writeString(journal3.resolve("sub/more.txt"), "mine too");
    Map<String, String> j3 = snapshot(journal3);
    useModel(pr, "journal real dir with subdir", m3);
    pr.check("journal real dir: unchanged", () -> assertEquals(j3, snapshot(journal3)));
    pr.assertNone();
  }

  /**
   * Fault 2 (symlinks at fixed names). FAILS TODAY (2 problems): links planted while the writer
   * holds the lock (after its first write): the commit writes its record through
   * {@code .m.modelfs-commit.tmp} (today's base of {@code m.sdnb} is {@code m}), overwriting the
   * victim file with the record; links planted before the mount are deleted (not followed) by
   * recovery. The dangling {@code .m.fb.modelfs-lock} link's target is created by the lock
   * (FileChannel.open CREATE follows the link); the commit itself succeeds.
   */
  @Test
  @SuppressWarnings("unchecked")
  void fault2_symlinksAtFixedNamesAreNotWrittenThrough() throws Exception {
    Problems pr = new Problems();
    Path dir = modelDir();
    Path victim = victimDir();
    Path m = HostileSupport.sharded(dir, 4, 256, 1f);
    // the base of m.sdnb is "m" today (record .m.modelfs-commit); plant both spellings, once before
    // the mount and once after its first write (when recovery has run and the lock is held)
    Map<String, String>[] before = new Map[1];
    for (int round = 0; round < 2; round++) {
      boolean afterWrite = round == 1;
      pr.check("sharded write + commit, links planted " + (afterWrite ? "after the first write" : "before the mount"), () -> {
        IOException e = io(() -> {
          if (!afterWrite) {
            plantRecordLinks(dir, victim);
            before[0] = snapshot(victim);
          }
          try (FileSystem fs = ModelFileSystems.open(m)) {
            Files.write(fs.getPath("/params/w0"), fill(256, 5f));
            if (afterWrite) {
              plantRecordLinks(dir, victim);
              before[0] = snapshot(victim);
            }
            Files.write(fs.getPath("/params/w1"), fill(256, 5f));
          }
        });
        if (e != null) {
          pr.add("note: sharded commit with planted record links failed: " + e);
        }
      });
      pr.check("victim files unchanged after sharded commit, round " + round, () -> assertEquals(before[0], snapshot(victim)));
    }


    // dangling lock link
    Path fbDir = Files.createDirectories(tmp.resolve("fbdir"));
    Path fb = create(fbDir.resolve("m.fb"), Map.of(), uniformParams(2, 4, 1f));
    Path target = victim.resolve("created-by-lock");
    Files.deleteIfExists(fbDir.resolve(".m.fb.modelfs-lock")); // today's creating mount leaves its lock file
    Files.createSymbolicLink(fbDir.resolve(".m.fb.modelfs-lock"), target);
    pr.check("write + commit with a dangling lock link", () -> {
      IOException e = io(() -> {
        try (FileSystem fs = ModelFileSystems.open(fb)) {
          Files.write(fs.getPath("/params/w0"), fill(4, 5f));
        }
      });
      if (e != null) {
        assertTrue(String.valueOf(e.getMessage()).contains("modelfs-lock"), "IOException must name the lock: " + e);
      }
    });
    pr.check("the lock link's target is not created", () ->
        assertFalse(Files.exists(target, LinkOption.NOFOLLOW_LINKS), target + " was created through the lock link"));
    pr.assertNone();
  }

  private static void plantRecordLinks(Path dir, Path victim) throws IOException {
    int i = 0;
    for (String base : List.of("m", "m.sdnb")) {
      for (String suffix : List.of(".modelfs-commit", ".modelfs-commit.tmp")) {
        Path v = victim.resolve("record-victim-" + i++);
        Files.writeString(v, "victim of " + base + suffix);
        Path link = dir.resolve("." + base + suffix);
        Files.deleteIfExists(link);
        Files.createSymbolicLink(link, v);
      }
    }
  }

  /**
   * Fault 2 (commit temporaries are random and recognisable). FAILS TODAY: the temporary is
   * {@code .m.fb.<hex of System.nanoTime()>.tmp} (time based, no {@code modelfs-} marker).
   */
  @Test
  void fault2_commitTemporariesAreNamedModelfsRandom() throws Exception {
    Path dir = modelDir();
    Map<String, byte[]> params = new LinkedHashMap<>();
    for (int i = 0; i < 4; i++) {
      params.put("w" + i, HostileSupport.pattern(1_000_000, i)); // 4 MB each
    }
    Path m = create(dir.resolve("m.fb"), Map.of(), params);
    Path sh = Files.createDirectories(tmp.resolve("sharded"));
    Path sm = HostileSupport.sharded(sh, 4, 500_000, 1f);
    Set<String> seen = new ConcurrentSkipListSet<>();
    for (Path d : List.of(dir, sh)) {
      AtomicBoolean stop = new AtomicBoolean();
      try (WatchService ws = d.getFileSystem().newWatchService()) {
        d.register(ws, StandardWatchEventKinds.ENTRY_CREATE);
        Thread poller = new Thread(() -> { // a polling thread as well, in case events overflow
          while (!stop.get()) {
            try {
              seen.addAll(HostileSupport.names(d));
            } catch (IOException ignored) {
              // a file vanished while listing
            }
          }
        });
        poller.start();
        for (int round = 0; round < 2; round++) {
          try (FileSystem fs = ModelFileSystems.open(d.resolve(d == dir ? "m.fb" : "m.sdnb"))) {
            for (String p : List.of("w0", "w1", "w2", "w3")) {
              Path pp = fs.getPath("/params/" + p);
              Files.write(pp, fill((int) (Files.size(pp) / 4), 10f + round));
            }
          }
        }
        stop.set(true);
        poller.join();
        WatchKey k;
        while ((k = ws.poll(200, TimeUnit.MILLISECONDS)) != null) {
          for (WatchEvent<?> ev : k.pollEvents()) {
            if (ev.context() instanceof Path p) {
              seen.add(p.toString());
            }
          }
          k.reset();
        }
      }
    }
    Pattern ok = Pattern.compile("\\.(.+)\\.modelfs-[0-9a-f]{32}\\.tmp");
    List<String> bad = new ArrayList<>();
    List<String> tmps = new ArrayList<>();
    for (String n : seen) {
      if (n.endsWith(".tmp")) {
        tmps.add(n);
        Matcher mm = ok.matcher(n);
        if (!mm.matches() || !(mm.group(1).equals("m.fb") || mm.group(1).matches("m(\\.shard\\d+-of-\\d+)?\\.sdnb"))) {
          bad.add(n);
        }
      }
    }
    assertFalse(tmps.isEmpty(), "no temporary seen at all: " + seen);
    assertTrue(bad.isEmpty(), "temporaries not named .<target>.modelfs-<32 hex>.tmp: " + bad + " (all seen: " + seen + ")");
    try (FileSystem fs = ModelFileSystems.open(sm, Map.of("readOnly", true))) {
      assertEquals(11f, uniform(Files.readAllBytes(fs.getPath("/params/w3"))));
    }
    try (FileSystem fs = ModelFileSystems.open(m, Map.of("readOnly", true))) {
      assertEquals(11f, uniform(Files.readAllBytes(fs.getPath("/params/w3"))));
    }
  }

  /**
   * Fault 10: neighbours' temporaries. FAILS TODAY: opening m.fb deletes
   * {@code .m.fb.sdz.1a2b3c4d.tmp}, opening a deletes {@code .a.b.deadbeef.tmp}, opening bert.fb
   * deletes {@code .bert.fb.v2.0ff1ce.tmp} (recovery matches any {@code .<name>.*.tmp}).
   */
  @Test
  void fault10_neighboursTemporariesAreLeftAlone() throws Exception {
    Path dir = modelDir();
    create(dir.resolve("m.fb"), Map.of(), uniformParams(2, 4, 1f));
    create(dir.resolve("a"), Map.of("format", "fb"), uniformParams(2, 4, 1f));
    create(dir.resolve("bert.fb"), Map.of(), uniformParams(2, 4, 1f));
    List<String> planted = List.of(".m.fb.sdz.1a2b3c4d.tmp", ".m.fb.sdz.modelfs-0123456789abcdef0123456789abcdef.tmp",
        ".a.b.deadbeef.tmp", ".bert.fb.v2.0ff1ce.tmp");
    for (String n : planted) {
      Files.writeString(dir.resolve(n), "neighbour " + n);
    }
    Problems pr = new Problems();
    for (String model : List.of("m.fb", "a", "bert.fb")) {
      pr.check(model + " read-only", () -> {
        try (FileSystem fs = ModelFileSystems.open(dir.resolve(model), Map.of("readOnly", true))) {
          Files.readAllBytes(fs.getPath("/params/w0"));
        }
      });
      pr.check(model + " writer", () -> {
        try (FileSystem fs = ModelFileSystems.open(dir.resolve(model))) {
          Files.write(fs.getPath("/params/w0"), fill(4, 3f));
        }
      });
      for (String n : planted) {
        pr.check("after " + model + ": " + n, () -> assertEquals("neighbour " + n, Files.readString(dir.resolve(n))));
      }
    }
    pr.assertNone();
  }
}
