package org.modelfs.fuse.fuse3;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.modelfs.ModelFileSystems;
import org.modelfs.fuse.FuseMain;

/**
 * Side by side, in one run (docs/PERFORMANCE.md "FUSE 3, an experiment"): the same 256 MiB
 * parameter and the same 20,000-parameter tree as plain files, through squashfuse (C, libfuse 3)
 * on an uncompressed squashfs image, through the product's jnr-fuse mount (FUSE 2) and through the
 * FUSE 3 prototype ({@link Fuse3Main}) — {@code cat} first read after mounting (a new mount each
 * time), first read with the JVM warm ({@code dd iflag=nocache count=0} drops the mount's pages),
 * repeated read (the mount's page cache), and {@code ls -lR} / {@code find} of the tree. Uses
 * MountBench's files ({@code fuse/target/mount-bench}: {@code big.sdnb}, {@code big.bin}, {@code
 * many.sdnb}, {@code many-plain}), making them when missing; the mounting JVMs run from a private
 * copy of the class path's jars (another build replacing a jar in {@code ~/.m2} cannot kill them).
 *
 * <pre>
 * mvn -q -o -pl core install -DskipTests
 * mvn -q -o -Pbench -DskipTests -pl fuse test-compile org.codehaus.mojo:exec-maven-plugin:3.5.0:exec \
 *   -Dexec.args="-cp %classpath org.modelfs.fuse.fuse3.Fuse3Bench --rounds 5"
 * </pre>
 *
 * Also prints, per FUSE 3 way, the read requests its mount served and the largest (from its log).
 */
public final class Fuse3Bench {
  private static final long BIG = 256L << 20;
  private static final int MANY = 20_000;

  /** One way to reach the bytes: a mount command (null: the plain files) and what it mounts. */
  private record Way(String name, String big, String many, List<String> mount) {}

  private Fuse3Bench() {}

  public static void main(String[] args) throws Exception {
    int rounds = 5;
    Path work = Path.of("target/mount-bench");
    boolean readBuf = true;
    boolean checkOnly = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--rounds" -> rounds = Integer.parseInt(args[++i]);
        case "--no-read-buf" -> readBuf = false;
        case "--check-only" -> checkOnly = true;
        default -> work = Path.of(args[i]);
      }
    }
    work = Files.createDirectories(work).toAbsolutePath();
    String before = load();
    System.out.println(Fuse3Layout.check(Path.of("src/bench/c/fuse3_layout.c"), Files.createDirectories(work.resolve("fuse3-layout")))
        + " struct offsets checked against /usr/include/fuse3");
    Path big = makeBig(work);
    Path many = makeMany(work);
    Path images = squashfs(work);
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String cp = privateClassPath(work);
    for (String fixture : List.of("mlp_adam.fb", "dtypes.fb")) {
      same(work, Path.of("../core/src/test/resources/fixtures/dl4j-1.0.0-M2.1", fixture).toAbsolutePath(), java, cp);
    }
    if (checkOnly) {
      return;
    }
    List<Way> ways = new ArrayList<>();
    ways.add(new Way("plain files", work.resolve("big.bin").toString(), work.resolve("many-plain").toString(), null));
    ways.add(new Way("squashfuse", "big.bin", ".", List.of("squashfuse", "-o", "ro")));
    ways.add(new Way("jnr-fuse (FUSE 2)", "params/big", ".", List.of(java, "-cp", cp, FuseMain.class.getName(), "mount", "--read-only")));
    ways.add(new Way("FUSE 3 prototype", "params/big", ".", List.of(java, "-cp", cp, Fuse3Main.class.getName())));
    ways.add(new Way("FUSE 3 + ACL cache", "params/big", ".", List.of(java, "-cp", cp, Fuse3Main.class.getName(), "--acl-cache")));
    ways.add(new Way("FUSE 3 + 1 MiB readahead + EOPNOTSUPP", "params/big", ".",
        List.of(java, "-cp", cp, Fuse3Main.class.getName(), "--readahead-kb", "1024", "--enotsup")));
    if (readBuf) {
      ways.add(new Way("same + read_buf", "params/big", ".",
          List.of(java, "-cp", cp, Fuse3Main.class.getName(), "--readahead-kb", "1024", "--enotsup", "--read-buf")));
    }
    String plainBig = work.resolve("big.bin").toString();
    sh("cat '" + big + "' '" + plainBig + "' '" + images.resolve("big.squashfs") + "' '" + images.resolve("many.squashfs") + "' > /dev/null");
    List<String[]> rows = new ArrayList<>();
    String[] first = row("`cat` 256 MiB, first read after mounting (median of " + Math.max(1, rounds / 2) + " mounts)");
    String[] warm = row("same, JVM warm, the mount's pages dropped (median of " + rounds + ")");
    String[] again = row("same, repeated (median of " + rounds + ")");
    String[] ls = row("`ls -lR` over 20,000 parameters (median of " + rounds + ")");
    String[] find = row("`find` over the same (median of " + rounds + ")");
    rows.addAll(List.of(first, warm, again, ls, find));
    double[][] base = new double[5][];
    for (int w = 0; w < ways.size(); w++) {
      Way way = ways.get(w);
      double[][] t = measure(way, work, big, many, images, rounds);
      for (int r = 0; r < 5; r++) {
        if (w == 0) {
          base[r] = t[r];
        }
        rows.get(r)[w + 1] = cell(t[r], base[r], r >= 3);
      }
    }
    System.out.println();
    StringBuilder head = new StringBuilder("| measure |");
    ways.forEach(x -> head.append(' ').append(x.name).append(" |"));
    System.out.println(head);
    System.out.println("|---|" + "---|".repeat(ways.size()));
    rows.forEach(r -> System.out.println("| " + String.join(" | ", Arrays.copyOf(r, ways.size() + 1)) + " |"));
    System.out.println();
    String workName = work.toString();
    for (Way w : ways) {
      Path log = log(work, w);
      if (w.mount != null && Files.exists(log)) {
        Files.readAllLines(log).stream().filter(l -> l.startsWith("fuse3 init") || l.matches(".*: [1-9][0-9]* read requests.*"))
            .distinct().forEach(l -> System.out.println(w.name + ": " + l.replace(workName, "WORK")));
      }
    }
    System.out.println("load average before: " + before + "; after: " + load() + " (" + Runtime.getRuntime().availableProcessors() + " cores)");
  }

  private static String[] row(String what) {
    String[] r = new String[10];
    r[0] = what;
    return r;
  }

  /** {first after mount, warm dropped, repeated, ls -lR, find} times of one way, in ms. */
  private static double[][] measure(Way way, Path work, Path bigModel, Path manyModel, Path images, int rounds) throws Exception {
    double[][] t = new double[5][];
    if (way.mount == null) {
      String cat = "cat '" + way.big + "' > /dev/null";
      t[0] = times(rounds, cat);
      t[1] = t[0];
      t[2] = t[0];
      t[3] = times(rounds, "ls -lR '" + way.many + "' > /dev/null");
      t[4] = times(rounds, "find '" + way.many + "' > /dev/null");
      return t;
    }
    boolean squash = way.mount.get(0).equals("squashfuse");
    Path dir = Files.createDirectories(work.resolve("mnt-fuse3-bench"));
    Path bigSource = squash ? images.resolve("big.squashfs") : bigModel;
    Path manySource = squash ? images.resolve("many.squashfs") : manyModel;
    Path log = log(work, way);
    Files.deleteIfExists(log);
    String file = dir.resolve(way.big).toString();
    String cat = "cat '" + file + "' > /dev/null";
    String drop = "dd if='" + file + "' iflag=nocache count=0 status=none";
    t[0] = new double[Math.max(1, rounds / 2)];
    for (int i = 0; i < t[0].length; i++) {
      Process p = mount(way, bigSource, dir, log);
      try {
        t[0][i] = time(cat);
        if (i == 0) {
          t[1] = new double[rounds];
          for (int r = 0; r < rounds; r++) {
            sh(drop);
            t[1][r] = time(cat);
          }
          t[2] = times(rounds, cat);
          sh("cmp '" + work.resolve("big.bin") + "' '" + file + "'");
        }
      } finally {
        unmount(dir, p);
      }
    }
    Process p = mount(way, manySource, dir, log);
    try {
      String root = squash ? dir.toString() : dir.resolve("tags/default/params").toString();
      sh("ls -lR '" + root + "/layer0' > /dev/null");
      t[3] = times(rounds, "ls -lR '" + root + "' > /dev/null");
      t[4] = times(rounds, "find '" + root + "' > /dev/null");
      if (status("test $(find '" + root + "' -type f | wc -l) -eq " + MANY) != 0) {
        throw new IllegalStateException(way.name + ": the mount at " + dir + " does not show every parameter");
      }
    } finally {
      unmount(dir, p);
    }
    return t;
  }

  /**
   * Correctness, differentially: {@code model} mounted by the product's jnr-fuse mount and by the
   * FUSE 3 prototype (with and without read_buf) shows the same bytes ({@code diff -r}), the same
   * {@code ls -lR} and the same {@code getfattr -R -d}.
   */
  private static void same(Path work, Path model, String java, String cp) throws Exception {
    Path a = Files.createDirectories(work.resolve("mnt-fuse3-check-2"));
    Path b = Files.createDirectories(work.resolve("mnt-fuse3-check-3"));
    Way fuse2 = new Way("check jnr-fuse", "", "", List.of(java, "-cp", cp, FuseMain.class.getName(), "mount", "--read-only"));
    Process p2 = mount(fuse2, model, a, work.resolve("fuse3-check.log"));
    try {
      for (List<String> opts : List.of(List.<String>of(), List.of("--read-buf", "--acl-cache", "--enotsup"))) {
        List<String> cmd = new ArrayList<>(List.of(java, "-cp", cp, Fuse3Main.class.getName()));
        cmd.addAll(opts);
        Process p3 = mount(new Way("check FUSE 3", "", "", cmd), model, b, work.resolve("fuse3-check.log"));
        try {
          sh("bash -c \"diff -r '" + a + "' '" + b + "' && diff <(cd '" + a + "' && ls -lR) <(cd '" + b + "' && ls -lR)"
              + " && diff <(cd '" + a + "' && getfattr -R -d . 2>&1) <(cd '" + b + "' && getfattr -R -d . 2>&1)\"");
          System.out.println("same through jnr-fuse and FUSE 3 " + opts + ": " + model.getFileName()
              + " (diff -r, ls -lR, getfattr -R -d)");
        } finally {
          unmount(b, p3);
        }
      }
    } finally {
      unmount(a, p2);
    }
  }

  private static Path log(Path work, Way way) {
    return work.resolve("fuse3-bench-" + way.name.replaceAll("[^A-Za-z0-9]+", "-") + ".log");
  }

  private static String cell(double[] t, double[] base, boolean lowerIsGoal) {
    double m = median(t);
    double b = median(base);
    double[] s = t.clone();
    Arrays.sort(s);
    String range = String.format("%.0f ms (%.0f–%.0f)", m, s[0], s[s.length - 1]);
    return t == base ? range : range + String.format(lowerIsGoal ? " **%.2f×**" : " **%.2f×**", lowerIsGoal ? m / b : b / m);
  }

  private static double median(double[] t) {
    double[] s = t.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }

  /** The 256 MiB parameter: random bytes as a plain file, copied into a one-parameter SDNB. */
  private static Path makeBig(Path work) throws IOException {
    Path model = work.resolve("big.sdnb");
    Path plain = work.resolve("big.bin");
    if (!Files.exists(model)) {
      Files.deleteIfExists(plain);
      Random r = new Random(1);
      byte[] b = new byte[1 << 20];
      try (OutputStream out = Files.newOutputStream(plain)) {
        for (long i = 0; i < BIG; i += b.length) {
          r.nextBytes(b);
          out.write(b);
        }
      }
      try (FileSystem fs = ModelFileSystems.open(model, Map.of("create", "true"))) {
        Files.copy(plain, fs.getPath("/params/big"));
      }
    }
    return model;
  }

  /** 20,000 parameters of 16 bytes in 200 directories of 100, and the same tree as plain files. */
  private static Path makeMany(Path work) throws IOException {
    Path model = work.resolve("many.sdnb");
    Path plain = work.resolve("many-plain/tags/default/params");
    if (!Files.exists(model)) {
      byte[] b = new byte[16];
      try (FileSystem fs = ModelFileSystems.open(model, Map.of("create", "true"))) {
        for (int i = 0; i < MANY; i++) {
          String name = "layer" + (i / 100) + "/w" + (i % 100);
          Files.write(Files.createDirectories(plain.resolve(name).getParent()).resolve("w" + (i % 100)), b);
          Files.write(fs.getPath("/params/" + name), b);
        }
      }
    }
    return model;
  }

  /** Uncompressed squashfs images of big.bin and of the many-parameter tree (the anchor's input). */
  private static Path squashfs(Path work) throws Exception {
    Path images = Files.createDirectories(work.resolve("squashfs"));
    if (!Files.exists(images.resolve("big.squashfs"))) {
      Path one = Files.createDirectories(work.resolve("squashfs/big"));
      Files.deleteIfExists(one.resolve("big.bin"));
      Files.createLink(one.resolve("big.bin"), work.resolve("big.bin"));
      sh("mksquashfs '" + one + "' '" + images.resolve("big.squashfs") + "' -noI -noD -noF -noX -quiet -no-progress > /dev/null");
    }
    if (!Files.exists(images.resolve("many.squashfs"))) {
      sh("mksquashfs '" + work.resolve("many-plain/tags/default/params") + "' '" + images.resolve("many.squashfs")
          + "' -noI -noD -noF -noX -quiet -no-progress > /dev/null");
    }
    return images;
  }

  /** The class path's jars and directories copied under {@code work/fuse3-cp}, as a class path. */
  private static String privateClassPath(Path work) throws Exception {
    Path dir = Files.createDirectories(work.resolve("fuse3-cp"));
    List<String> out = new ArrayList<>();
    int i = 0;
    for (String e : System.getProperty("java.class.path").split(":")) {
      Path src = Path.of(e);
      if (Files.isRegularFile(src)) {
        Path dst = dir.resolve((i++) + "-" + src.getFileName());
        Files.copy(src, dst, StandardCopyOption.REPLACE_EXISTING);
        out.add(dst.toString());
      } else if (Files.isDirectory(src)) {
        Path dst = dir.resolve((i++) + "-dir");
        sh("rm -rf '" + dst + "' && cp -r '" + src + "' '" + dst + "'");
        out.add(dst.toString());
      }
    }
    return String.join(":", out);
  }

  private static Process mount(Way way, Path source, Path dir, Path log) throws Exception {
    List<String> cmd = new ArrayList<>(way.mount);
    if (way.mount.get(0).equals("squashfuse")) {
      cmd.add(1, "-f");
    }
    cmd.add(source.toString());
    cmd.add(dir.toString());
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    for (long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); System.nanoTime() < end; Thread.sleep(50)) {
      if (Files.readAllLines(Path.of("/proc/self/mounts")).stream().anyMatch(l -> l.split(" ")[1].equals(dir.toString()))) {
        return p;
      }
      if (!p.isAlive()) {
        break;
      }
    }
    p.destroy();
    throw new IllegalStateException(way.name + " did not mount " + source + " at " + dir + " (see " + log + ")");
  }

  private static void unmount(Path dir, Process p) throws Exception {
    sh("umount '" + dir + "'");
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroy();
    }
  }

  /** Wall times in ms of {@code rounds} runs of {@code cmd}, each to its end. */
  private static double[] times(int rounds, String cmd) throws Exception {
    double[] t = new double[rounds];
    int done = 0;
    while (done < rounds) {
      t[done++] = time(cmd);
    }
    return t;
  }

  private static double time(String cmd) throws Exception {
    long start = System.nanoTime();
    int exit = status(cmd);
    double ms = (System.nanoTime() - start) / 1e6;
    if (exit != 0) {
      throw new IllegalStateException("exit " + exit + ": " + cmd);
    }
    return ms;
  }

  private static void sh(String cmd) throws Exception {
    time(cmd);
  }

  /** {@code sh -c cmd} with this process's output; its exit status. */
  private static int status(String cmd) throws Exception {
    return new ProcessBuilder("sh", "-c", cmd).inheritIO().start().waitFor();
  }

  private static String load() throws IOException {
    return String.join(" ", Arrays.copyOf(Files.readString(Path.of("/proc/loadavg")).split(" "), 3));
  }
}
