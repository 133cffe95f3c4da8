package org.modelfs.fuse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;

/**
 * The mount's requests are served on JVM threads ({@link RequestLoop}, docs/MOUNT.md "Threads"):
 * a request is a plain call into the JVM, never a native thread attached for it and detached
 * again, and requests are served in parallel. One read-only mount of an 8 MiB parameter (64 read
 * requests of 128 KiB) and eight small ones.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MountThreadsTest {
  @TempDir
  static Path tmp;
  static KernelMount mount;
  static byte[] bytes;
  static Path model;

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
      Files.write(fs.getPath("/params/late"), Arrays.copyOfRange(bytes, 0, 1 << 20));
    }
    MountThreadsTest.model = model;
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
  @Order(1)
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
  @Order(2)
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

  /**
   * A parameter stored as it is shown (SDNB) is read with splice(2) from the container's own
   * descriptor ({@link StoredFile}): the mounting JVM makes no pread of it, and the bytes are its.
   */
  @Test
  @Order(3)
  void aStoredFileIsSplicedFromTheContainer() throws Exception {
    Assumptions.assumeTrue(KernelMount.sh("command -v strace").exit() == 0, "strace missing: apt-get install strace");
    Path trace = tmp.resolve("splice.strace");
    Process strace = new ProcessBuilder("strace", "-f", "-e", "trace=splice,pread64", "-o", trace.toString(),
        "-p", String.valueOf(mount.pid())).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    try (BufferedReader err = new BufferedReader(new InputStreamReader(strace.getErrorStream(), StandardCharsets.UTF_8))) {
      String line = err.readLine(); // "strace: Process N attached with M threads": every thread traced from here
      assertTrue(line != null && line.contains("attached"), "strace did not attach: " + line);
      mount.run("dd if=m/params/big iflag=nocache count=0 status=none && cat m/params/big > spliced.out").ok();
      strace.destroy();
      assertTrue(strace.waitFor(30, TimeUnit.SECONDS), "strace did not end");
    }
    assertArrayEquals(bytes, Files.readAllBytes(tmp.resolve("spliced.out")));
    List<String> calls = Files.readAllLines(trace);
    assertTrue(calls.stream().filter(l -> l.contains("splice(")).count() >= 64, "splices: " + calls.size() + " calls traced");
    assertEquals(0, calls.stream().filter(l -> l.contains("pread64(")).count(), "the JVM read the bytes itself");
  }

  /**
   * Another process commits the model — a new file renamed over its path — while the mount
   * shows the old one: a file first opened after that shows the old generation's bytes, never
   * the new file's bytes at the old file's offsets (the descriptor opened by path is checked
   * against the model's own file, and the model's channel reads instead).
   */
  @Test
  @Order(4)
  void aCommitBesideTheMountNeverMixesFiles() throws Exception {
    byte[] old = Arrays.copyOfRange(bytes, 0, 1 << 20);
    byte[] changed = new byte[old.length];
    Arrays.fill(changed, (byte) 0x5a);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Files.write(fs.getPath("/params/late"), changed);
      Files.write(fs.getPath("/params/small0"), Arrays.copyOfRange(changed, 0, 4096));
    }
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      assertArrayEquals(changed, Files.readAllBytes(fs.getPath("/params/late")), "the commit did not land");
    }
    mount.run("cat m/params/late > late.out").ok();
    assertArrayEquals(old, Files.readAllBytes(tmp.resolve("late.out")));
    mount.run("dd if=m/params/big iflag=nocache count=0 status=none && cat m/params/big > big2.out").ok();
    assertArrayEquals(bytes, Files.readAllBytes(tmp.resolve("big2.out")));
  }
}
