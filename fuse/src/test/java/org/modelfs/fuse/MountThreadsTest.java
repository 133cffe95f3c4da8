package org.modelfs.fuse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;

/**
 * The mount's requests are served on JVM threads ({@link RequestLoop}, docs/MOUNT.md "Threads"):
 * a request is a plain call into the JVM, never a native thread attached for it and detached
 * again, and requests are served in parallel. One read-only mount of an 8 MiB parameter (64 read
 * requests of 128 KiB) and eight small ones.
 */
class MountThreadsTest {
  @TempDir
  static Path tmp;
  static KernelMount mount;
  static byte[] bytes;

  @BeforeAll
  static void mount() throws Exception {
    KernelMount.assumeFuse();
    bytes = new byte[8 << 20];
    new Random(7).nextBytes(bytes);
    Path model = tmp.resolve("m.sdnb");
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("create", "true"))) {
      Files.write(fs.getPath("/params/big"), bytes);
      for (int i = 0; i < 8; i++) {
        Files.write(fs.getPath("/params/small" + i), Arrays.copyOfRange(bytes, i * 4096, (i + 1) * 4096));
      }
    }
    mount = new KernelMount(model, tmp.resolve("m"), "--read-only");
  }

  @AfterAll
  static void unmount() throws Exception {
    if (mount != null) {
      mount.close();
    }
  }

  /**
   * Reading 8 MiB (64 read requests of 128 KiB) starts no thread per request in the mounting JVM.
   * jnr's callback attaches a thread libfuse made and detaches it on return, and the JVM counts
   * every attach as a thread started: 71 for this read when libfuse's own loop served it
   * (measured), at most the few workers {@link RequestLoop} adds now. The JVM's own counter
   * {@code java.threads.started}, read with {@code jcmd}, before and after.
   */
  @Test
  void aReadRequestStartsNoThread() throws Exception {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Assumptions.assumeTrue(Files.isExecutable(jcmd), "no jcmd in " + jcmd.getParent());
    long before = threadsStarted(jcmd);
    // the file's pages dropped from the mount's cache first, so that every read reaches the mount
    mount.run("dd if=m/params/big iflag=nocache count=0 status=none && cat m/params/big > big.out").ok();
    long started = threadsStarted(jcmd) - before;
    assertArrayEquals(bytes, Files.readAllBytes(tmp.resolve("big.out")));
    assertTrue(started < 16, started + " threads started in the mounting JVM for 64 read requests: one per request?");
  }

  private static long threadsStarted(Path jcmd) {
    String out = KernelMount.sh("'" + jcmd + "' " + mount.pid() + " PerfCounter.print").ok().out();
    return out.lines().filter(l -> l.startsWith("java.threads.started="))
        .mapToLong(l -> Long.parseLong(l.substring(l.indexOf('=') + 1).trim())).findFirst()
        .orElseThrow(() -> new AssertionError("no java.threads.started in jcmd's output:\n" + out));
  }

  /** Sixteen readers at once, each gets its own file's bytes. */
  @Test
  void parallelReadersEachGetTheirBytes() throws Exception {
    Files.createDirectories(tmp.resolve("par"));
    StringBuilder script = new StringBuilder("{ ");
    for (int r = 0; r < 2; r++) {
      for (int i = 0; i < 8; i++) {
        script.append("(cat m/params/small").append(i).append(" > par/s").append(i).append('.').append(r).append(" || echo failed) & ");
      }
    }
    KernelMount.Result r = mount.run(script + "(cat m/params/big > par/big || echo failed) & wait; }").ok();
    assertEquals("", r.out() + r.err());
    for (int k = 0; k < 2; k++) {
      for (int i = 0; i < 8; i++) {
        assertArrayEquals(Arrays.copyOfRange(bytes, i * 4096, (i + 1) * 4096), Files.readAllBytes(tmp.resolve("par/s" + i + "." + k)));
      }
    }
    assertArrayEquals(bytes, Files.readAllBytes(tmp.resolve("par/big")));
  }
}
