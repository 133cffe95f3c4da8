package org.modelfs.testing;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.modelfs.ModelFileSystems;
import org.modelfs.format.WriteOptions;
import org.modelfs.io.ChannelSource;
import org.modelfs.model.ArrayData;
import org.modelfs.model.DType;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;
import org.modelfs.model.VarKind;
import org.modelfs.model.Variable;
import org.modelfs.store.ModelFiles;

/**
 * Issue 34's store benchmark (docs/PERFORMANCE.md, "Stores at 20 ms RTT"), for any {@link Store}:
 * a 1 GiB model (256 parameters of 4 MiB, 1,000 of 4 KiB) in a store's server on 127.0.0.1, as one
 * object and as a shard set of 64 MiB shards, reached through a {@link DelayProxy} that counts the
 * bytes on the wire each way and, at 20 ms RTT, delays them (or, where {@link Netem} works, inside
 * a network namespace with netem on its loopback). At 0 and 20 ms RTT, side by side:
 * <ul>
 *   <li>(a) mount + read one 4 MiB parameter vs download the whole model with the SDK (one GET per
 *       object), time and ratio;
 *   <li>(b) bytes uploaded by the commit of a 1 KiB change (the first commit of a model not written
 *       by ModelFS, then the next one);
 *   <li>(c) bytes downloaded by open + walk + attributes + one 4 MiB parameter.
 * </ul>
 * The stores' mains (s3's {@code StoreBench}, azure's {@code BlobStoreBench}) give the store; their
 * 1 GiB of temporary files live under the module's {@code target/storebench-*} and are removed.
 */
public final class StoreBenchRun {
  static final int MIB = 1 << 20;
  static final int PARAMS = 256;
  static final String ONE = "/params/big/w100";
  static final Map<String, String> READ = Map.of("readOnly", "true");
  static final Map<String, String> SHARDED = Map.of("format", "sdnb-sharded", "maxShardBytes",
      String.valueOf(64L * MIB));
  static final long[] RTTS = {0, 20};

  /** A store's server, its plain SDK, and where the benchmark puts and finds the model. */
  public interface Store extends AutoCloseable {
    /** The table's name of the store, e.g. "S3 (S3Proxy)". */
    String name();

    /** The server's port on 127.0.0.1 (the proxy forwards to it). */
    int port();

    /** The path that mounts {@code key} through a server at {@code port}. */
    Path path(int port, String key) throws IOException;

    /** Stores {@code local} as {@code key}, not through the proxy. */
    void put(Path local, String key) throws IOException;

    /** The bytes the server itself counted as sent since the last call, or -1 where it counts none. */
    default long servedSinceLast() {
      return -1;
    }

    /**
     * The proxies of the store's other ports (HDFS's DataNode beside its NameNode), which it made
     * with {@link DelayProxy#between}: delayed and counted with the benchmark's own.
     */
    default List<DelayProxy> sideProxies() {
      return List.of();
    }

    /** Downloads {@code key} whole into {@code to} with the store's plain SDK through {@code port}. */
    void get(int port, String key, Path to) throws Exception;
  }

  /** Starts a store (after the benchmark has moved into its network namespace). */
  public interface Starter {
    Store start() throws Exception;
  }

  private static String only = "";
  /** {@code --reads-only}: rows (a) and (c), no commits. */
  private static boolean readsOnly;

  private final Store store;

  private StoreBenchRun(Store store) {
    this.store = store;
  }

  /** The benchmark with {@code main}'s {@code args} ({@code --rounds N}, {@code --commits-only}, {@code --reads-only}, {@code --layout one|shards}); {@code main} is re-executed in a namespace. */
  public static void run(Class<?> main, Starter starter, String[] args) throws Exception {
    int rounds = 3;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--rounds")) {
        rounds = Integer.parseInt(args[++i]);
      } else if (args[i].equals("--commits-only")) {
        rounds = 0;
      } else if (args[i].equals("--reads-only")) {
        readsOnly = true;
      } else if (args[i].equals("--layout")) {
        only = args[++i]; // "one" or "shards": a store too small for both layouts' commits
      } else {
        throw new IllegalArgumentException("unknown option " + args[i] + " (--rounds N, --commits-only, --reads-only, "
            + "--layout one|shards)");
      }
    }
    if (!Netem.inside()) {
      String ns = Netem.create();
      if (ns != null) {
        Thread hook = new Thread(() -> Netem.delete(ns));
        Runtime.getRuntime().addShutdownHook(hook);
        try {
          System.exit(Netem.reexec(ns, main.getName(), args));
        } finally {
          Netem.delete(ns);
        }
      }
    }
    try (Store store = starter.start()) {
      new StoreBenchRun(store).run(rounds);
    }
  }

  private final Map<String, Map<Long, String>> table = new LinkedHashMap<>();

  private void cell(String row, long rtt, String value) {
    table.computeIfAbsent(row, k -> new TreeMap<>()).put(rtt, value);
    System.out.printf("  %s @ %d ms RTT: %s%n", row, rtt, value);
  }

  private void run(int rounds) throws Exception {
    Path dir = Files.createDirectories(Path.of("target").toAbsolutePath())
        .resolve("storebench-" + ProcessHandle.current().pid());
    Files.createDirectory(dir);
    System.out.printf("JVM %s; %d processors; max heap %d MiB; load average %.1f; delay by %s%n",
        System.getProperty("java.runtime.version"), Runtime.getRuntime().availableProcessors(),
        Runtime.getRuntime().maxMemory() / MIB, ManagementFactory.getOperatingSystemMXBean()
            .getSystemLoadAverage(), Netem.inside() ? "netem in network namespace " + System.getProperty(Netem.INSIDE)
            : "the benchmark's delaying proxy");
    try (DelayProxy proxy = new DelayProxy(store.port())) {
      Path single = build(dir);
      long size = Files.size(single);
      if (!only.equals("shards")) {
        store.put(single, "bench/m.sdnb");
      }
      List<String> shards = new ArrayList<>();
      try (var model = ModelFiles.open(single)) {
        Files.createDirectory(dir.resolve("sh"));
        for (Path shard : ModelFiles.writeTags(model.tags(), dir.resolve("sh").resolve("m.sdnb"),
            WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(64L * MIB))) {
          if (!only.equals("one")) {
            store.put(shard, "bench/sh/" + shard.getFileName());
          }
          shards.add("bench/sh/" + shard.getFileName());
          Files.delete(shard);
        }
      }
      byte[] one;
      try (FileSystem fs = ModelFileSystems.open(single, READ)) {
        one = Files.readAllBytes(fs.getPath(ONE));
      }
      Files.delete(single);
      System.out.printf("%s: model of %,d bytes as one object bench/m.sdnb and as %d shard objects bench/sh/*; %s %,d bytes%n",
          store.name(), size, shards.size(), ONE, one.length);
      Map<String, List<String>> layouts = new LinkedHashMap<>();
      if (!only.equals("shards")) {
        layouts.put("one object", List.of("bench/m.sdnb"));
      }
      if (!only.equals("one")) {
        layouts.put("shard set", shards);
      }
      for (long rtt : rounds > 0 ? RTTS : new long[0]) {
        delay(proxy, rtt);
        for (Map.Entry<String, List<String>> l : layouts.entrySet()) {
          Path model = store.path(proxy.port(), l.getKey().equals("shard set") ? "bench/sh/m.sdnb"
              : "bench/m.sdnb");
          readRows(l.getKey(), rtt, rounds, proxy, model, l.getValue(), dir, one);
        }
      }
      for (long rtt : readsOnly ? new long[0] : RTTS) {
        delay(proxy, rtt);
        if (layouts.containsKey("one object")) {
          commitRow("one object", rtt, proxy, store.path(proxy.port(), "bench/m.sdnb"), Map.of());
        }
        if (layouts.containsKey("shard set")) {
          commitRow("shard set", rtt, proxy, store.path(proxy.port(), "bench/sh/m.sdnb"), SHARDED);
        }
      }
      delay(proxy, 0);
      print();
    } finally {
      deleteTree(dir);
    }
  }

  private void delay(DelayProxy proxy, long rtt) throws IOException {
    if (Netem.inside()) {
      Netem.delay(rtt / 2);
    } else {
      proxy.oneWayDelayMillis(rtt / 2);
      for (DelayProxy p : store.sideProxies()) {
        p.oneWayDelayMillis(rtt / 2);
      }
    }
  }

  private void resetCounts(DelayProxy proxy) {
    proxy.resetCounts();
    for (DelayProxy p : store.sideProxies()) {
      p.resetCounts();
    }
  }

  /** Bytes down (or up) through the benchmark's proxy and the store's side proxies. */
  private long wire(DelayProxy proxy, boolean down) {
    long n = down ? proxy.down.get() : proxy.up.get();
    for (DelayProxy p : store.sideProxies()) {
      n += down ? p.down.get() : p.up.get();
    }
    return n;
  }

  /** (a) and (c) for one layout at one RTT: A and B alternate over the rounds; medians. */
  private void readRows(String layout, long rtt, int rounds, DelayProxy proxy, Path model, List<String> keys,
      Path dir, byte[] one) throws Exception {
    List<Double> a = new ArrayList<>();
    List<Double> b = new ArrayList<>();
    long aBytes = 0;
    long bBytes = 0;
    for (int r = 0; r < rounds; r++) {
      for (int k = 0; k < 2; k++) {
        boolean doA = (k == 0) == (r % 2 == 0);
        resetCounts(proxy);
        long t0 = System.nanoTime();
        if (doA) {
          try (FileSystem fs = ModelFileSystems.open(model, READ)) {
            check(one, Files.readAllBytes(fs.getPath(ONE)));
          }
          a.add((System.nanoTime() - t0) / 1e6);
          aBytes = wire(proxy, true);
        } else {
          for (String key : keys) {
            Path to = dir.resolve("download");
            store.get(proxy.port(), key, to);
            Files.delete(to);
          }
          b.add((System.nanoTime() - t0) / 1e6);
          bBytes = wire(proxy, true);
        }
      }
    }
    double ma = median(a);
    double mb = median(b);
    cell(store.name() + " " + layout + ": (a) A mount + read one 4 MiB parameter, ms (MiB down)", rtt,
        String.format("%.0f (%.2f)", ma, aBytes / (double) MIB));
    cell(store.name() + " " + layout + ": (a) B download the whole model with the SDK, ms (MiB down)", rtt,
        String.format("%.0f (%.0f)", mb, bBytes / (double) MIB));
    cell(store.name() + " " + layout + ": (a) A ÷ B (goal ≤ 1/20 = 0.05 at 20 ms)", rtt, String.format("%.4f (1/%.0f)", ma / mb,
        mb / ma));
    resetCounts(proxy);
    store.servedSinceLast();
    long t0 = System.nanoTime();
    int nodes = 0;
    try (FileSystem fs = ModelFileSystems.open(model, READ); Stream<Path> s = Files.walk(fs.getPath("/"))) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Files.readAttributes(p, BasicFileAttributes.class);
        nodes++;
      }
      check(one, Files.readAllBytes(fs.getPath(ONE)));
    }
    cell(store.name() + " " + layout + ": (c) open + walk + attributes + one 4 MiB parameter, MiB down beside the parameter"
        + " (goal ≤ 1), ms", rtt, String.format("%.3f, %.0f ms (%d nodes)", (wire(proxy, true) - one.length)
        / (double) MIB, (System.nanoTime() - t0) / 1e6, nodes) + served(one.length));
  }

  /** (b): a 1 KiB change at byte 1 MiB of one 4 MiB parameter, committed; bytes up and time. */
  private void commitRow(String layout, long rtt, DelayProxy proxy, Path model, Map<String, String> env)
      throws Exception {
    FileSystem fs = ModelFileSystems.open(model, env);
    try (FileChannel ch = FileChannel.open(fs.getPath("/params/big/w" + (3 + rtt)), StandardOpenOption.WRITE)) {
      byte[] b = new byte[1024];
      Arrays.fill(b, (byte) (7 + rtt));
      ch.write(ByteBuffer.wrap(b), MIB);
    }
    resetCounts(proxy);
    long t0 = System.nanoTime();
    fs.close();
    cell(store.name() + " " + layout + ": (b) commit of a 1 KiB change, MiB up (ms); at 0 ms the first commit of a model"
        + " not written by ModelFS, at 20 ms the next", rtt, String.format("%.2f (%.0f ms)",
        wire(proxy, false) / (double) MIB, (System.nanoTime() - t0) / 1e6));
  }

  /** The server's own count beside the wire's, where the store has one. */
  private String served(long beside) {
    long served = store.servedSinceLast();
    return served < 0 ? "" : String.format("; the server's count of bodies sent: %.3f", (served - beside) / (double) MIB);
  }

  private void print() {
    System.out.println();
    System.out.print("| what |");
    for (long rtt : RTTS) {
      System.out.print(" " + rtt + " ms RTT |");
    }
    System.out.println();
    System.out.println("|---|---:|---:|");
    for (Map.Entry<String, Map<Long, String>> e : table.entrySet()) {
      System.out.print("| " + e.getKey() + " |");
      for (long rtt : RTTS) {
        System.out.print(" " + e.getValue().getOrDefault(rtt, "") + " |");
      }
      System.out.println();
    }
  }

  private static double median(List<Double> v) {
    double[] s = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  private static void check(byte[] want, byte[] got) {
    if (!Arrays.equals(want, got)) {
      throw new IllegalStateException("wrong bytes");
    }
  }

  /** The 1 GiB model as {@code dir/m.sdnb}: its arrays' bytes are generated into a data file first. */
  private static Path build(Path dir) throws IOException {
    long[][] groups = {{PARAMS, MIB}, {1000, 1024}}; // floats per parameter
    String[] names = {"big/w", "small/s"};
    long total = 0;
    for (long[] g : groups) {
      total += g[0] * g[1] * 4;
    }
    Path data = dir.resolve("data.bin");
    try (FileChannel ch = FileChannel.open(data, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ByteBuffer buf = ByteBuffer.allocate(MIB).order(ByteOrder.LITTLE_ENDIAN);
      for (long i = 0; i < total / 4; i++) {
        if (!buf.hasRemaining()) {
          write(ch, buf);
        }
        buf.putInt((int) (i * 2654435761L)); // bytes that differ everywhere
      }
      write(ch, buf);
    }
    Path out = dir.resolve("m.sdnb");
    List<Variable> vars = new ArrayList<>();
    try (ChannelSource src = ChannelSource.open(data)) {
      long offset = 0;
      for (int k = 0; k < groups.length; k++) {
        for (int i = 0; i < groups[k][0]; i++) {
          long n = groups[k][1];
          ArrayData a = new ArrayData(DType.FLOAT, new long[] {n}, 'c', false, src, offset, n * 4, false,
              ArrayData.Storage.RAW);
          vars.add(new Variable(names[k] + i, VarKind.VARIABLE, DType.FLOAT, null, a, -1));
          offset += n * 4;
        }
      }
      ModelFiles.write(new Tag("default", null, vars, List.of(), null, Map.of()), out,
          WriteOptions.of(ModelFormat.SDNB));
    }
    Files.delete(data);
    return out;
  }

  private static void write(FileChannel ch, ByteBuffer buf) throws IOException {
    buf.flip();
    while (buf.hasRemaining()) {
      ch.write(buf);
    }
    buf.clear();
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
