package org.modelfs.s3;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * The object-store benchmark of docs/PERFORMANCE.md ("Object stores"): a model of about 340 MB
 * (two 100 MiB parameters, 24 of 4 MiB, 2,000 of 16 KiB) in S3Proxy in this JVM on 127.0.0.1,
 * read
 * <ul>
 *   <li>(A) from the store: mount, read one 4 MiB parameter, unmount;
 *   <li>(B) after downloading the whole object (one plain GET with the SDK into a local file):
 *       download, mount the file, read the same parameter, unmount, delete the file;
 *   <li>(C) one 100 MiB parameter through the mount, with one big read ({@code readAllBytes})
 *       and with {@code Files.copy}'s 8 KiB buffer;
 *   <li>the open (mount + walk + attributes of every node) of the model as sdnb, sharded SDNB
 *       (64 MiB shards) and SDZ.
 * </ul>
 * Rounds alternate the order of A and B; the table gives medians and interquartile ranges of the
 * times, and the bytes and requests the server counted. Block size and fetch limit are the
 * system properties {@code modelfs.s3.block-size} / {@code modelfs.s3.max-fetch}.
 *
 * <p>{@code mvn -Pbench -DskipTests test-compile exec:exec -pl s3 -Ds3bench.args="--rounds 9"} from the
 * repository root (after {@code mvn install -pl core -DskipTests}); {@code -Ds3bench.jvmArgs} replaces the JVM
 * options (default {@code -Xmx8g}: the server keeps every object in the heap).
 */
public final class ObjectStoreMain {
  static final int MIB = 1 << 20;
  static final String ONE = "/params/mid/w7";
  static final String BIG = "/params/big/p100";

  private ObjectStoreMain() {}

  public static void main(String[] args) throws Exception {
    int rounds = 9;
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--rounds")) {
        rounds = Integer.parseInt(args[++i]);
      } else {
        throw new IllegalArgumentException("unknown option " + args[i] + " (--rounds N)");
      }
    }
    Path dir = Files.createTempDirectory("modelfs-s3-bench-");
    try (S3TestServer s3 = S3TestServer.start(); S3AsyncClient sdk = client(s3)) {
      System.out.printf("block %d bytes, max fetch %d bytes; JVM %s %s; %d processors; max heap %d MiB%n",
          ObjectSource.BLOCK, ObjectSource.MAX_FETCH, System.getProperty("java.vm.name"),
          System.getProperty("java.runtime.version"), Runtime.getRuntime().availableProcessors(),
          Runtime.getRuntime().maxMemory() / MIB);
      Path sdnb = build(dir);
      long size = Files.size(sdnb);
      s3.upload(sdnb, "bench/m.sdnb");
      Map<String, String> opens = new LinkedHashMap<>();
      opens.put("sdnb", "bench/m.sdnb");
      Path sdz = dir.resolve("m.sdz");
      try (var model = ModelFiles.open(sdnb)) {
        Files.createDirectory(dir.resolve("sh"));
        for (Path shard : ModelFiles.writeTags(model.tags(), dir.resolve("sh").resolve("m.sdnb"),
            WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(64L * MIB))) {
          s3.upload(shard, "bench/sh/" + shard.getFileName());
        }
        ModelFiles.writeTags(model.tags(), sdz, WriteOptions.of(ModelFormat.SDZ));
      }
      opens.put("sharded SDNB (64 MiB shards)", "bench/sh/m.sdnb");
      s3.upload(sdz, "bench/m.sdz");
      opens.put("SDZ (stored)", "bench/m.sdz");
      deleteTree(dir.resolve("sh"));
      Files.delete(sdz);
      byte[] one;
      byte[] big;
      try (FileSystem fs = ModelFileSystems.open(sdnb, Map.of("readOnly", "true"))) {
        one = Files.readAllBytes(fs.getPath(ONE));
        big = Files.readAllBytes(fs.getPath(BIG));
      }
      Files.delete(sdnb);
      System.out.printf("model: %d bytes (%.1f MB) in the store as bench/m.sdnb; parameter %s %d bytes, %s %d bytes%n",
          size, size / 1e6, ONE, one.length, BIG, big.length);

      Map<String, Stats> rows = new LinkedHashMap<>();
      for (int r = -1; r < rounds; r++) { // round -1: warm-up, not counted
        boolean record = r >= 0;
        Runnable[] order = new Runnable[2];
        order[0] = () -> measure(rows, record, "A mount from the store + read " + ONE, s3,
            () -> check(one, mountAndRead(s3.path("bench/m.sdnb"), ONE)));
        order[1] = () -> measure(rows, record, "B download the object + mount locally + read " + ONE, s3, () -> {
          Path local = download(sdk, dir.resolve("download.sdnb"));
          try {
            check(one, mountAndRead(local, ONE));
          } finally {
            Files.delete(local);
          }
        });
        if (r % 2 != 0) {
          order = new Runnable[] {order[1], order[0]};
        }
        for (Runnable run : order) {
          run.run();
        }
        measure(rows, record, "C1 mount + read " + BIG + " (one readAllBytes)", s3,
            () -> check(big, mountAndRead(s3.path("bench/m.sdnb"), BIG)));
        measure(rows, record, "C2 mount + read " + BIG + " (Files.copy, 8 KiB buffer)", s3, () -> {
          try (FileSystem fs = ModelFileSystems.open(s3.path("bench/m.sdnb"), Map.of("readOnly", "true"))) {
            if (Files.copy(fs.getPath(BIG), OutputStream.nullOutputStream()) != big.length) {
              throw new IllegalStateException("short copy");
            }
          }
        });
        measure(rows, record, "C3 download the whole object (one GET)", s3,
            () -> Files.delete(download(sdk, dir.resolve("download.sdnb"))));
        for (Map.Entry<String, String> o : opens.entrySet()) {
          measure(rows, record, "open " + o.getKey() + " (mount + walk + attributes)", s3, () -> {
            try (FileSystem fs = ModelFileSystems.open(s3.path(o.getValue()), Map.of("readOnly", "true"));
                Stream<Path> s = Files.walk(fs.getPath("/"))) {
              for (Path p : (Iterable<Path>) s::iterator) {
                Files.readAttributes(p, "samediff:*");
              }
            }
          });
        }
      }
      System.out.println();
      System.out.println("| what | median ms | IQR ms | bytes fetched | requests |");
      System.out.println("|---|---:|---:|---:|---:|");
      for (Map.Entry<String, Stats> e : rows.entrySet()) {
        Stats s = e.getValue();
        System.out.printf("| %s | %.1f | %.1f | %,d | %d |%n", e.getKey(), s.median(), s.iqr(), s.bytes, s.requests);
      }
      System.out.println();
      ratio(rows, "B download the object + mount locally + read " + ONE, "A mount from the store + read " + ONE);
      ratio(rows, "C3 download the whole object (one GET)", "C1 mount + read " + BIG + " (one readAllBytes)");
      ratio(rows, "C3 download the whole object (one GET)", "C2 mount + read " + BIG + " (Files.copy, 8 KiB buffer)");
      System.out.printf("(%d rounds)%n", rounds);
    } finally {
      deleteTree(dir);
    }
  }

  /** A measured step. */
  interface Step {
    void run() throws Exception;
  }

  /** Times of one step over the rounds, and the bytes and requests of its last run. */
  static final class Stats {
    final List<Double> ms = new ArrayList<>();
    long bytes;
    long requests;

    double median() {
      return quantile(0.5);
    }

    double iqr() {
      return quantile(0.75) - quantile(0.25);
    }

    private double quantile(double q) {
      double[] s = ms.stream().mapToDouble(Double::doubleValue).sorted().toArray();
      double pos = q * (s.length - 1);
      int lo = (int) Math.floor(pos);
      int hi = (int) Math.ceil(pos);
      return s[lo] + (s[hi] - s[lo]) * (pos - lo);
    }
  }

  /** Prints the median and IQR of the per-round time ratios {@code slow ÷ fast}, and their bytes' ratio. */
  private static void ratio(Map<String, Stats> rows, String slow, String fast) {
    Stats s = rows.get(slow);
    Stats f = rows.get(fast);
    Stats r = new Stats();
    for (int i = 0; i < s.ms.size(); i++) {
      r.ms.add(s.ms.get(i) / f.ms.get(i));
    }
    System.out.printf("%s ÷ %s: time ratio %.2f× (IQR %.2f), bytes ratio %.2f×%n", slow.substring(0, slow.indexOf(' ')),
        fast.substring(0, fast.indexOf(' ')), r.median(), r.iqr(), (double) s.bytes / f.bytes);
  }

  private static void measure(Map<String, Stats> rows, boolean record, String what, S3TestServer s3, Step step) {
    s3.resetCounts();
    long t0 = System.nanoTime();
    try {
      step.run();
    } catch (Exception e) {
      throw new IllegalStateException(what + ": " + e, e);
    }
    double ms = (System.nanoTime() - t0) / 1e6;
    if (record) {
      Stats s = rows.computeIfAbsent(what, k -> new Stats());
      s.ms.add(ms);
      s.bytes = s3.bytesServed();
      s.requests = s3.requests();
    }
  }

  private static byte[] mountAndRead(Path model, String param) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      return Files.readAllBytes(fs.getPath(param));
    }
  }

  private static void check(byte[] want, byte[] got) {
    if (!Arrays.equals(want, got)) {
      throw new IllegalStateException("wrong bytes");
    }
  }

  /** The whole object, one plain GET with the SDK, into {@code to}. */
  private static Path download(S3AsyncClient sdk, Path to) throws Exception {
    sdk.getObject(g -> g.bucket(S3TestServer.BUCKET).key("bench/m.sdnb"), AsyncResponseTransformer.toFile(to)).get();
    return to;
  }

  private static S3AsyncClient client(S3TestServer s3) {
    return S3AsyncClient.builder().endpointOverride(URI.create("http://" + s3.endpoint())).forcePathStyle(true)
        .region(Region.US_EAST_1).responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(S3TestServer.ACCESS,
            S3TestServer.SECRET))).build();
  }

  /** Writes the model as {@code dir/m.sdnb}: its arrays' bytes are generated into a data file first. */
  private static Path build(Path dir) throws IOException {
    List<long[]> groups = List.of(new long[] {2, 25L * MIB}, new long[] {24, MIB}, new long[] {2000, 4096});
    String[] names = {"big/p", "mid/w", "small/s"};
    Path data = dir.resolve("data.bin");
    List<Variable> vars = new ArrayList<>();
    long total = 0;
    for (long[] g : groups) {
      total += g[0] * g[1] * 4;
    }
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
    try (ChannelSource src = ChannelSource.open(data)) {
      long offset = 0;
      for (int k = 0; k < groups.size(); k++) {
        long[] g = groups.get(k);
        for (int i = 0; i < g[0]; i++) {
          String name = names[k] + (k == 0 && i == 0 ? "100" : k == 0 ? "100b" : String.valueOf(i));
          ArrayData a = new ArrayData(DType.FLOAT, new long[] {g[1]}, 'c', false, src, offset, g[1] * 4, false,
              ArrayData.Storage.RAW);
          vars.add(new Variable(name, VarKind.VARIABLE, DType.FLOAT, null, a, -1));
          offset += g[1] * 4;
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
