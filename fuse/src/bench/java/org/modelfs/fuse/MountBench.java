package org.modelfs.fuse;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.modelfs.ModelFileSystems;

/**
 * The mount's benchmark (docs/PERFORMANCE.md "FUSE mount"), not run by any build: sequential
 * {@code cat} of a 256 MiB parameter through a read-only mount ÷ {@code cat} of the same bytes in
 * a plain file (page cache warm), first and best repeated read; {@code ls -lR} and {@code find}
 * over 20,000 parameters ÷ the same tree as plain files; and the bytes the mounting process reads
 * ({@code rchar} of /proc/PID/io) while {@code du -sb} and {@code stat} visit every file.
 *
 * <p>{@code mvn -q -o -Pbench -pl fuse test-compile} then {@code java -cp "$(cat cp.txt)"
 * org.modelfs.fuse.MountBench [WORKDIR]} with the test class path (see docs/PERFORMANCE.md).
 */
public final class MountBench {
  private MountBench() {}

  public static void main(String[] args) throws Exception {
    Path work = Files.createDirectories(Path.of(args.length > 0 ? args[0] : "target/mount-bench"));
    bigFile(work);
    manyFiles(work);
  }

  private static void bigFile(Path work) throws Exception {
    Path model = work.resolve("big.sdnb");
    Path plain = work.resolve("big.bin");
    long size = 256L << 20;
    if (!Files.exists(model)) {
      Files.deleteIfExists(plain);
      try (FileSystem fs = ModelFileSystems.open(model, Map.of("create", "true"));
           SeekableByteChannel out = Files.newByteChannel(fs.getPath("/params/big"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
           SeekableByteChannel copy = Files.newByteChannel(plain, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        Random r = new Random(1);
        byte[] b = new byte[1 << 20];
        for (long i = 0; i < size; i += b.length) {
          r.nextBytes(b);
          out.write(ByteBuffer.wrap(b));
          copy.write(ByteBuffer.wrap(b));
        }
      }
    }
    Path dir = Files.createDirectories(work.resolve("mnt-big"));
    Process p = mount(model, dir);
    try {
      sh("cat '" + model + "' > /dev/null; cat '" + plain + "' > /dev/null; cat '" + plain + "' > /dev/null");
      double plainBest = best(5, "cat '" + plain + "' > /dev/null");
      double first = time("cat '" + dir + "/params/big' > /dev/null");
      double again = best(5, "cat '" + dir + "/params/big' > /dev/null");
      sh("cmp '" + plain + "' '" + dir + "/params/big'");
      System.out.printf("cat of a 256 MiB parameter: plain file %.0f ms (%.0f MB/s); mount first read %.0f ms (%.2fx), repeated best of 5 %.0f ms (%.2fx)%n",
          plainBest, size / plainBest / 1e3, first, plainBest / first, again, plainBest / again);
    } finally {
      unmount(dir, p);
    }
  }

  private static void manyFiles(Path work) throws Exception {
    int n = 20_000;
    Path model = work.resolve("many.sdnb");
    Path plain = work.resolve("many-plain");
    if (!Files.exists(model)) {
      try (FileSystem fs = ModelFileSystems.open(model, Map.of("create", "true"))) {
        byte[] b = new byte[16];
        for (int i = 0; i < n; i++) {
          String name = "layer" + (i / 100) + "/w" + (i % 100);
          Files.write(fs.getPath("/params/" + name), b);
          Path f = plain.resolve("tags/default/params/" + name);
          Files.createDirectories(f.getParent());
          Files.write(f, b);
        }
      }
    }
    Path dir = Files.createDirectories(work.resolve("mnt-many"));
    Process p = mount(model, dir);
    try {
      long pid = p.pid();
      // warm-up in one directory (the mount's classes load), then every file once: the bytes
      // the mounting process reads meanwhile (rchar counts every read(2), page cache or not)
      sh("du -sb '" + dir + "/tags/default/params/layer0' > /dev/null; stat '" + dir + "/tags/default/params/layer0/w0' > /dev/null");
      String fd = modelFd(pid, model);
      Path trace = work.resolve("du-stat.strace");
      Process strace = new ProcessBuilder("strace", "-f", "-p", String.valueOf(pid), "-e", "trace=read,pread64,readv,preadv,preadv2",
          "-o", trace.toString()).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      Thread.sleep(2000);
      long before = rchar(pid);
      String params = dir + "/tags/default/params";
      sh("du -sb '" + params + "' > /dev/null; find '" + params + "' -type f -exec stat -c %s {} + > /dev/null");
      long rchar = rchar(pid) - before;
      strace.destroy();
      strace.waitFor();
      long calls = 0;
      long bytes = 0;
      for (String l : Files.readAllLines(trace)) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("p?readv?2?\\(" + fd + ",.*= (\\d+)$").matcher(l);
        if (m.find()) {
          calls++;
          bytes += Long.parseLong(m.group(1));
        }
      }
      System.out.printf("du -sb and stat of every parameter (%d array bytes): reads of the model file (fd %s, strace) %d calls, %d bytes; "
          + "the mounting process's rchar %d bytes (the FUSE requests it reads from /dev/fuse)%n", n * 16L, fd, calls, bytes, rchar);
      double lsPlain = best(3, "ls -lR '" + plain + "' > /dev/null");
      double lsMount = best(3, "ls -lR '" + dir + "' > /dev/null");
      double findPlain = best(3, "find '" + plain + "' > /dev/null");
      double findMount = best(3, "find '" + dir + "' > /dev/null");
      System.out.printf("%d parameters: ls -lR plain %.0f ms, mount %.0f ms (%.2fx); find plain %.0f ms, mount %.0f ms (%.2fx)%n",
          n, lsPlain, lsMount, lsMount / lsPlain, findPlain, findMount, findMount / findPlain);
    } finally {
      unmount(dir, p);
    }
  }

  /** The descriptor number through which process {@code pid} holds {@code model}. */
  private static String modelFd(long pid, Path model) throws IOException {
    Path real = model.toRealPath();
    try (java.util.stream.Stream<Path> s = Files.list(Path.of("/proc/" + pid + "/fd"))) {
      for (Path f : (Iterable<Path>) s::iterator) {
        try {
          if (Files.readSymbolicLink(f).equals(real)) {
            return f.getFileName().toString();
          }
        } catch (IOException e) {
          // closed meanwhile
        }
      }
    }
    throw new IllegalStateException("the mount holds no descriptor of " + real);
  }

  private static long rchar(long pid) throws IOException {
    for (String l : Files.readAllLines(Path.of("/proc/" + pid + "/io"))) {
      if (l.startsWith("rchar:")) {
        return Long.parseLong(l.substring(6).trim());
      }
    }
    return -1;
  }

  private static Process mount(Path model, Path dir) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), FuseMain.class.getName(), "mount", "--read-only",
        model.toString(), dir.toString()));
    Process p = new ProcessBuilder(cmd).inheritIO().start();
    if (!MountPoints.await(dir.toAbsolutePath().normalize(), p, 60_000)) {
      throw new IllegalStateException("not mounted: " + dir);
    }
    return p;
  }

  private static void unmount(Path dir, Process p) throws Exception {
    sh("fusermount -u '" + dir + "'");
    p.waitFor(60, TimeUnit.SECONDS);
  }

  private static double best(int rounds, String cmd) throws Exception {
    double b = Double.MAX_VALUE;
    for (int i = 0; i < rounds; i++) {
      b = Math.min(b, time(cmd));
    }
    return b;
  }

  private static double time(String cmd) throws Exception {
    long t = System.nanoTime();
    sh(cmd);
    return (System.nanoTime() - t) / 1e6;
  }

  private static void sh(String cmd) throws Exception {
    Process p = new ProcessBuilder("sh", "-c", cmd).inheritIO().start();
    if (p.waitFor() != 0) {
      throw new IllegalStateException("failed: " + cmd);
    }
  }
}
