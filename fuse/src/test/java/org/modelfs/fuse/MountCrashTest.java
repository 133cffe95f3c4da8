package org.modelfs.fuse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;

/**
 * The end of a mount that does not go as planned (docs/MOUNT.md): the mounting JVM killed with
 * SIGKILL while it commits leaves a dead mount that {@code fusermount -u} removes and a model
 * that is old or new; a commit refused at unmount says so, exits 1, keeps the model unchanged and
 * copies the changed files out where it says.
 */
class MountCrashTest {
  @TempDir
  Path tmp;

  @BeforeAll
  static void fuse() {
    KernelMount.assumeFuse();
  }

  @Test
  void sigkillMidCommitLeavesOldOrNewAndAnUnmountableMountPoint() throws Exception {
    Path model = KernelMount.sdzModel(tmp);
    byte[] old = Files.readAllBytes(model);
    byte[] big = new byte[8 << 20];
    new Random(3).nextBytes(big);
    Files.write(tmp.resolve("big.bin"), big);
    for (int delay : new int[] {30, 150}) {
      KernelMount m = new KernelMount(model, tmp.resolve("m"));
      try {
        m.run("cp big.bin m/params/big && echo v > m/metadata/k").ok();
        // the commit runs in the mounting JVM; kill it while that runs (or just before / after)
        Process commit = new ProcessBuilder("setfattr", "-n", "user.modelfs.commit", "-v", "1", m.dir.toString()).start();
        Thread.sleep(delay);
        KernelMount.sh("kill -9 " + m.pid()).ok();
        m.process().waitFor(30, TimeUnit.SECONDS);
        commit.waitFor(30, TimeUnit.SECONDS);
        assertTrue(KernelMount.sh("ls '" + m.dir + "'").err().contains("Transport endpoint is not connected"),
            "a dead mount after SIGKILL");
        KernelMount.sh("fusermount -u '" + m.dir + "'").ok();
        assertFalse(MountPoints.isMounted(m.dir));
        assertEquals("", KernelMount.sh("ls -A '" + m.dir + "'").ok().out(), "the mount point is an empty directory again");
      } finally {
        m.close();
      }
      byte[] now = Files.readAllBytes(model);
      if (!Arrays.equals(old, now)) {
        try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
          assertArrayEquals(big, Files.readAllBytes(fs.getPath("/params/big")), "new: whole");
          assertEquals("v\n", Files.readString(fs.getPath("/metadata/k")));
        }
        old = now;
      } else {
        try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
          assertFalse(Files.exists(fs.getPath("/params/big")), "old: untouched");
        }
      }
      // the next mount of the model works (the dead writer's journal and lock are recovered)
      try (KernelMount again = new KernelMount(model, tmp.resolve("m"), "--read-only")) {
        again.run("ls m/params").ok();
      }
    }
  }

  @Test
  void commitRefusedAtUnmountKeepsTheChangesAndSaysWhere() throws Exception {
    Path model = tmp.resolve("mlp.fb");
    Files.copy(KernelMount.fixture("mlp_adam.fb"), model);
    byte[] old = Files.readAllBytes(model);
    try (KernelMount m = new KernelMount(model, tmp.resolve("m"))) {
      // an fb file holds one tag: the write is accepted, the commit is refused
      m.run("mkdir -p m/tags/v2/metadata && echo kept > m/tags/v2/metadata/note").ok();
      assertEquals(1, m.unmount());
      String log = m.logText();
      assertTrue(log.contains("the commit at unmount was refused"), log);
      assertTrue(log.contains("is unchanged"), log);
      Matcher where = Pattern.compile("copied to (\\S+)").matcher(log);
      assertTrue(where.find(), log);
      Path saved = Path.of(where.group(1));
      try {
        assertEquals("kept\n", Files.readString(saved.resolve("tags/v2/metadata/note")));
      } finally {
        KernelMount.sh("rm -rf '" + saved + "'");
      }
    }
    assertArrayEquals(old, Files.readAllBytes(model));
  }

  @Test
  void fullDiskIsENOSPCAtCloseAndTheMountGoesOn() throws Exception {
    Path small = tmp.resolve("small");
    Files.createDirectories(small);
    Assumptions.assumeTrue(KernelMount.sh("mount -t tmpfs -o size=1m tmpfs '" + small + "'").exit() == 0,
        "ENOSPC test skipped: cannot mount a 1 MiB tmpfs here (needs root)");
    try {
      Path model = KernelMount.sdzModel(small);
      byte[] old = Files.readAllBytes(model);
      Files.write(tmp.resolve("big.bin"), new byte[2 << 20]);
      try (KernelMount m = new KernelMount(model, tmp.resolve("m"))) {
        // the bytes are staged in $TMPDIR; the journal beside the model has no room for them
        KernelMount.Result cp = m.run("cp big.bin m/params/big");
        assertTrue(cp.exit() != 0 && cp.err().contains("No space left on device"), cp.err());
        assertTrue(m.logText().contains("StorageFullException"), m.logText());
        m.run("echo ok > m/metadata/small && cat m/metadata/small").ok();
        assertFalse(m.run("ls m/params").ok().out().contains("big"));
        assertEquals(0, m.unmount(), m.logText());
      }
      try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
        assertEquals("ok\n", Files.readString(fs.getPath("/metadata/small")));
        assertFalse(Files.exists(fs.getPath("/params/big")));
      }
      assertTrue(old.length > 0);
    } finally {
      KernelMount.sh("umount '" + small + "'");
    }
  }
}
