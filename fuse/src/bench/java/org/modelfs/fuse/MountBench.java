package org.modelfs.fuse;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.modelfs.ModelFileSystems;

/**
 * The mount's benchmark (docs/PERFORMANCE.md "FUSE mount"), not run by any build: sequential
 * {@code cat} of a 256 MiB parameter through a read-only mount ÷ {@code cat} of the same bytes in
 * a plain file (page cache warm), first read after mounting and repeated; {@code ls -lR} and
 * {@code find} over 20,000 parameters ÷ the same tree as plain files; and the bytes of the model
 * file the mounting process reads (strace of its descriptor) while {@code du -sb} and {@code
 * stat} visit every file. Prints a side-by-side table with the load average before and after.
 * Checks that each mount was still up with every file after it was measured (cmp, find).
 *
 * <pre>
 * mvn -q -o -pl core install -DskipTests
 * mvn -q -o -Pbench -DskipTests -pl fuse test-compile exec:exec [-Dmountbench.args="--rounds 5 WORKDIR"]
 * </pre>
 */
public final class MountBench {
  private static final long BIG = 256L << 20;
  private static final int MANY = 20_000;
  private static final List<String[]> rows = new ArrayList<>();

  private MountBench() {}

  public static void main(String[] args) throws Exception {
    int rounds = 5;
    Path work = Path.of("target/mount-bench");
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--rounds")) {
        rounds = Integer.parseInt(args[++i]);
      } else {
        work = Path.of(args[i]);
      }
    }
    Files.createDirectories(work);
    String before = load();
    bigFile(work, rounds);
    manyFiles(work, rounds);
    System.out.println();
    System.out.println("| measure | plain files | through the mount | ratio | squashfuse (anchor, this run), ratio | goal |");
    System.out.println("|---|---|---|---|---|---|");
    rows.forEach(r -> System.out.println("| " + String.join(" | ", r) + " |"));
    System.out.println();
    System.out.println("load average before: " + before + "; after: " + load() + " (" + Runtime.getRuntime().availableProcessors() + " cores)");
  }

  private static void bigFile(Path work, int rounds) throws Exception {
    Path model = work.resolve("big.sdnb");
    Path plain = work.resolve("big.bin");
    if (!Files.exists(model)) {
      Files.deleteIfExists(plain);
      try (FileSystem fs = ModelFileSystems.open(model, Map.of("create", "true"));
           SeekableByteChannel out = Files.newByteChannel(fs.getPath("/params/big"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
           SeekableByteChannel copy = Files.newByteChannel(plain, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        Random r = new Random(1);
        byte[] b = new byte[1 << 20];
        for (long i = 0; i < BIG; i += b.length) {
          r.nextBytes(b);
          out.write(ByteBuffer.wrap(b));
          copy.write(ByteBuffer.wrap(b));
        }
      }
    }
    Path dir = Files.createDirectories(work.resolve("mnt-big"));
    String catPlain = "cat '" + plain + "' > /dev/null";
    String catMount = "cat '" + dir + "/params/big' > /dev/null";
    sh("cat '" + model + "' > /dev/null; " + catPlain + "; " + catPlain);
    double[] plainTimes = times(rounds, catPlain);
    // the first read after mounting: a new mount each round (its page cache starts empty, and so
    // does the mounting JVM's compiled code); then, in the first mount, the first read of the file
    // with the JVM warm: the file's pages dropped from the mount's cache before each round
    double[] first = new double[Math.max(1, rounds / 2)];
    double[] warm = null;
    double[] again = null;
    for (int i = 0; i < first.length; i++) {
      Process p = mount(model, dir);
      try {
        first[i] = time(catMount);
        if (i == 0) {
          again = times(rounds, catMount);
          warm = dropped(rounds, dir + "/params/big");
        }
        sh("cmp '" + plain + "' '" + dir + "/params/big'");
      } finally {
        unmount(dir, p);
      }
    }
    Squashfuse anchor = Squashfuse.of(work, plain.getParent(), "big.bin", rounds);
    row("`cat` of a 256 MiB parameter, first read after mounting (median of " + first.length + ")", plainTimes, first,
        anchor == null ? null : anchor.first, "≥ 0.25×");
    row("same, first read of the file in a mount that has served reads (median of " + rounds + ")", plainTimes, warm,
        anchor == null ? null : anchor.warm, "≥ 0.25×");
    row("same, repeated (median of " + rounds + ")", plainTimes, again, anchor == null ? null : anchor.again, "≥ 0.9×");
  }

  /**
   * {@code cat} of {@code file} {@code rounds} times, each after its pages are dropped from the page
   * cache ({@code dd iflag=nocache count=0}: posix_fadvise DONTNEED of the whole file).
   */
  static double[] dropped(int rounds, String file) throws Exception {
    double[] t = new double[rounds];
    for (int i = 0; i < rounds; i++) {
      sh("dd if='" + file + "' iflag=nocache count=0 status=none");
      t[i] = time("cat '" + file + "' > /dev/null");
    }
    return t;
  }

  /**
   * The anchor measured in the same run: squashfuse (C, libfuse 3) on an uncompressed squashfs
   * image of the plain files, or {@code null} with a message when squashfuse or mksquashfs is
   * missing (apt-get install squashfuse squashfs-tools).
   */
  private record Squashfuse(double[] first, double[] warm, double[] again) {
    static Squashfuse of(Path work, Path plainDir, String file, int rounds) throws Exception {
      Path image = image(work, plainDir, "big.sqfs", file);
      if (image == null) {
        return null;
      }
      Path dir = Files.createDirectories(work.resolve("mnt-squash"));
      String cat = "cat '" + dir + "/" + file + "' > /dev/null";
      double[] first = new double[Math.max(1, rounds / 2)];
      double[] warm = null;
      double[] again = null;
      for (int i = 0; i < first.length; i++) {
        sh("squashfuse '" + image + "' '" + dir + "'");
        try {
          first[i] = time(cat);
          if (i == 0) {
            again = times(rounds, cat);
            warm = dropped(rounds, dir + "/" + file);
          }
        } finally {
          sh("fusermount -u '" + dir + "'");
        }
      }
      return new Squashfuse(first, warm, again);
    }

    /** An uncompressed squashfs image of {@code files} (a file or a directory under {@code dir}). */
    static Path image(Path work, Path dir, String name, String files) throws Exception {
      if (KernelShell.status("command -v squashfuse && command -v mksquashfs") != 0) {
        System.out.println("squashfuse or mksquashfs missing (apt-get install squashfuse squashfs-tools): no anchor column");
        return null;
      }
      Path image = work.resolve(name);
      if (!Files.exists(image)) {
        sh("mksquashfs '" + dir + "/" + files + "' '" + image + "' -noI -noD -noF -noX -no-progress -quiet");
      }
      return image;
    }
  }

  private static void manyFiles(Path work, int rounds) throws Exception {
    Path model = work.resolve("many.sdnb");
    Path plain = work.resolve("many-plain");
    if (!Files.exists(model)) {
      try (FileSystem fs = ModelFileSystems.open(model, Map.of("create", "true"))) {
        byte[] b = new byte[16];
        for (int i = 0; i < MANY; i++) {
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
      String params = dir + "/tags/default/params";
      // warm-up in one directory (the mount's classes load), then every file once while strace
      // counts the reads of the model's descriptor
      sh("du -sb '" + params + "/layer0' > /dev/null; stat '" + params + "/layer0/w0' > /dev/null");
      long[] read = modelReads(p.pid(), model, work, "du -sb '" + params + "' > /dev/null; find '" + params
          + "' -type f -exec stat -c %s {} + > /dev/null");
      rows.add(new String[] {"`du -sb` + `stat` of every parameter (" + MANY * 16L + " array bytes): reads of the model file",
          "", read[0] + " calls, " + read[1] + " bytes (strace of the mounting JVM)", "", "", "0 bytes"});
      String ls = "ls -lR '%s' > /dev/null";
      String find = "find '%s' > /dev/null";
      double[] lsMount = times(rounds, ls.formatted(dir));
      double[] findMount = times(rounds, find.formatted(dir));
      alive(dir, p);
      double[] lsPlain = times(rounds, ls.formatted(plain));
      double[] findPlain = times(rounds, find.formatted(plain));
      double[][] anchor = squashfuseListing(work, plain, rounds, ls, find);
      row(MANY + " parameters: `ls -lR` (median of " + rounds + ")", lsPlain, lsMount, anchor == null ? null : anchor[0], "≤ 3×");
      row(MANY + " parameters: `find` (median of " + rounds + ")", findPlain, findMount, anchor == null ? null : anchor[1], "≤ 3×");
    } finally {
      unmount(dir, p);
    }
  }

  /** {@code ls} and {@code find} times over squashfuse's mount of the plain tree (after one warm-up walk), or null. */
  private static double[][] squashfuseListing(Path work, Path plain, int rounds, String ls, String find) throws Exception {
    Path image = Squashfuse.image(work, plain.getParent(), "many.sqfs", plain.getFileName().toString());
    if (image == null) {
      return null;
    }
    Path dir = Files.createDirectories(work.resolve("mnt-squash-many"));
    sh("squashfuse '" + image + "' '" + dir + "'");
    try {
      sh(find.formatted(dir) + "; " + ls.formatted(dir));
      return new double[][] {times(rounds, ls.formatted(dir)), times(rounds, find.formatted(dir))};
    } finally {
      sh("fusermount -u '" + dir + "'");
    }
  }

  /**
   * Fails unless the mount is still up and shows every parameter: a mount that went away meanwhile
   * (its JVM's jars replaced under it, a crash) leaves an empty directory that tools list in no time.
   */
  private static void alive(Path dir, Process p) throws Exception {
    if (!p.isAlive() || !MountPoints.isMounted(dir.toAbsolutePath().normalize())
        || KernelShell.status("test $(find '" + dir + "' -type f -name 'w*' | wc -l) -eq " + MANY) != 0) {
      throw new IllegalStateException("the mount at " + dir + " went away or lost files during the measurement");
    }
  }

  /** Runs {@code cmd} while strace counts process {@code pid}'s reads of {@code model}: {calls, bytes}. */
  private static long[] modelReads(long pid, Path model, Path work, String cmd) throws Exception {
    if (KernelShell.status("command -v strace") != 0) {
      throw new IllegalStateException("strace is missing (apt-get install strace): the byte count needs it");
    }
    String fd = modelFd(pid, model);
    Path trace = work.resolve("du-stat.strace");
    Process strace = new ProcessBuilder("strace", "-f", "-p", String.valueOf(pid), "-e", "trace=read,pread64,readv,preadv,preadv2",
        "-o", trace.toString()).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    Thread.sleep(2000);
    sh(cmd);
    strace.destroy();
    strace.waitFor();
    long[] n = new long[2];
    Pattern call = Pattern.compile("p?readv?2?\\(" + fd + ",.*= (\\d+)$");
    for (String l : Files.readAllLines(trace)) {
      Matcher m = call.matcher(l);
      if (m.find()) {
        n[0]++;
        n[1] += Long.parseLong(m.group(1));
      }
    }
    return n;
  }

  private static void row(String what, double[] plain, double[] mount, double[] anchor, String goal) {
    boolean lower = goal.startsWith("≤");
    rows.add(new String[] {what, ms(plain), ms(mount), "**" + ratio(plain, mount, lower) + "**",
        anchor == null ? "" : ms(anchor) + ", " + ratio(plain, anchor, lower), goal});
  }

  /** plain ÷ side for a speed, side ÷ plain for a time (goals "≤"), of the medians. */
  private static String ratio(double[] plain, double[] side, boolean lower) {
    return String.format("%.2f×", lower ? median(side) / median(plain) : median(plain) / median(side));
  }

  private static String ms(double[] t) {
    double[] s = t.clone();
    Arrays.sort(s);
    return String.format("%.0f ms (%.0f–%.0f)", median(t), s[0], s[s.length - 1]);
  }

  private static double median(double[] t) {
    double[] s = t.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }

  /** The descriptor number through which process {@code pid} holds {@code model}. */
  private static String modelFd(long pid, Path model) throws IOException {
    Path real = model.toRealPath();
    try (Stream<Path> s = Files.list(Path.of("/proc/" + pid + "/fd"))) {
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

  private static String load() throws IOException {
    return String.join(" ", Arrays.copyOf(Files.readString(Path.of("/proc/loadavg")).split(" "), 3));
  }

  private static Process mount(Path model, Path dir) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), FuseMain.class.getName(), "mount", "--read-only",
        model.toString(), dir.toString()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    if (!MountPoints.await(dir.toAbsolutePath().normalize(), p, 60_000)) {
      throw new IllegalStateException("not mounted: " + dir);
    }
    return p;
  }

  private static void unmount(Path dir, Process p) throws Exception {
    sh("fusermount -u '" + dir + "'");
    p.waitFor(60, TimeUnit.SECONDS);
  }

  private static double[] times(int rounds, String cmd) throws Exception {
    double[] t = new double[rounds];
    for (int i = 0; i < rounds; i++) {
      t[i] = time(cmd);
    }
    return t;
  }

  private static double time(String cmd) throws Exception {
    long t = System.nanoTime();
    sh(cmd);
    return (System.nanoTime() - t) / 1e6;
  }

  private static void sh(String cmd) throws Exception {
    if (KernelShell.status(cmd) != 0) {
      throw new IllegalStateException("failed: " + cmd);
    }
  }

  /** {@code sh -c}, its output to this process's. */
  private static final class KernelShell {
    static int status(String cmd) throws Exception {
      return new ProcessBuilder("sh", "-c", cmd).inheritIO().start().waitFor();
    }
  }
}
