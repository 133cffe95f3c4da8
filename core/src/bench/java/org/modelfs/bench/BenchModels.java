package org.modelfs.bench;

import java.util.Comparator;
import org.modelfs.store.ModelFiles;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.modelfs.model.ModelFormat;
import org.modelfs.container.ModelWriter;
import org.modelfs.format.WriteOptions;
import org.modelfs.io.ChannelSource;
import org.modelfs.model.ArrayData;
import org.modelfs.model.DType;
import org.modelfs.model.Tag;
import org.modelfs.model.VarKind;
import org.modelfs.model.Variable;

/**
 * Generates the benchmark models on first use and keeps them in {@link #dir()} (default
 * {@code target/bench-models}) for later trials: FLOAT parameters with a fixed value pattern,
 * a few large arrays {@code large/w<i>} and many small ones {@code small/g<k>/p<j>}, written
 * with {@link ModelWriter} in every format (a graph of variables only, no ops).
 */
public final class BenchModels {
  /** Size of each small array of the {@code a<N>-<size>} models: 256 FLOATs. */
  static final int SMALL_BYTES = 1024;
  /** Shard size of the sharded SDNB models. */
  static final long SHARD_BYTES = 256L << 20;
  /**
   * Shard size of the {@code -1g} shard sets (issue 18 item 3): 1.1 GiB, so that a 1 GiB array
   * and the small arrays of {@code a100-4GiB} share the last weight shard.
   */
  static final long SHARD_1G = 1126L << 20;
  /** The formats every open benchmark runs on: the {@code format} parameter's values. */
  static final List<String> FORMATS = List.of("fb", "sdnb", "sdnb-sharded", "sdz", "sdz-deflate", "zip-tags",
      "container", "container-deflate");

  private static final Pattern SIZED = Pattern.compile("a(\\d+)-(\\d+)(MiB|GiB)");

  private BenchModels() {}

  /**
   * What a named model holds.
   *
   * @param large number of large arrays {@code large/w<i>}
   * @param largeBytes bytes of each large array
   * @param small number of small arrays {@code small/g<i/100>/p<i%100>}
   * @param smallBytes bytes of each small array
   */
  record Spec(int large, long largeBytes, int small, int smallBytes) {
    long totalBytes() {
      return large * largeBytes + (long) small * smallBytes;
    }
  }

  /**
   * The layout of a model name: {@code a<N>-<size>} is N arrays totalling size (4 large ones
   * share what the N-4 small 1 KiB ones leave); {@code read256} one 256 MiB array and 99 small
   * ones; {@code walk20k} 20,000 arrays of 16 bytes; {@code heap2g} one 2 GiB array (for
   * {@code fb}, which must stay below 2 GiB, 2,000,000,000 bytes).
   */
  static Spec spec(String name, String format) {
    Matcher m = SIZED.matcher(name);
    if (m.matches()) {
      int arrays = Integer.parseInt(m.group(1));
      long total = Long.parseLong(m.group(2)) << (m.group(3).equals("MiB") ? 20 : 30);
      int large = Math.min(4, arrays);
      int small = arrays - large;
      long each = (total - (long) small * SMALL_BYTES) / large / 4 * 4;
      return new Spec(large, each, small, SMALL_BYTES);
    }
    return switch (name) {
      case "read256" -> new Spec(1, 256L << 20, 99, SMALL_BYTES);
      case "walk20k" -> new Spec(0, 0, 20_000, 16);
      case "heap2g" -> new Spec(1, format.equals("fb") ? 2_000_000_000L : 2L << 30, 0, 0);
      default -> throw new IllegalArgumentException("unknown benchmark model " + name);
    };
  }

  /** Where models are kept: {@code -Dbench.dir}, default {@code target/bench-models}. */
  public static Path dir() {
    return Path.of(System.getProperty("bench.dir", "target/bench-models")).toAbsolutePath();
  }

  /** The file to mount for a model and format (for sharded SDNB the base name). */
  public static Path path(String name, String format) {
    return dir().resolve(switch (format) {
      case "fb" -> name + ".fb";
      case "sdnb" -> name + ".sdnb";
      case "sdnb-sharded" -> name + "-sharded.sdnb";
      case "sdnb-sharded-1g" -> name + "-sharded1g.sdnb";
      case "container-sharded-1g" -> name + "-sharded1g.sdmc";
      case "sdz" -> name + ".sdz";
      case "sdz-deflate" -> name + "-deflate.sdz";
      case "zip-tags" -> name + ".zip";
      case "container" -> name + ".sdmc";
      case "container-deflate" -> name + "-deflate.sdmc";
      default -> throw new IllegalArgumentException("unknown format " + format);
    });
  }

  /** The files a model consists of (one, or every shard of a sharded one). */
  public static List<Path> files(String name, String format) throws IOException {
    Path p = path(name, format);
    if (!format.contains("sharded")) {
      return List.of(p);
    }
    List<Path> out = new ArrayList<>();
    String prefix = name + (format.endsWith("-1g") ? "-sharded1g.shard" : "-sharded.shard");
    String ext = p.getFileName().toString().substring(p.getFileName().toString().lastIndexOf('.'));
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir(), prefix + "*" + ext)) {
      ds.forEach(out::add);
    }
    return out;
  }

  /** The model, generated now unless a previous trial left it (a {@code .done} marker). */
  public static synchronized Path ensure(String name, String format) throws IOException {
    Path model = path(name, format);
    Path done = model.resolveSibling(model.getFileName() + ".done");
    if (Files.exists(done)) {
      return model;
    }
    Files.createDirectories(dir());
    long t0 = System.nanoTime();
    Spec spec = spec(name, format);
    Path data = dir().resolve(name + "." + format + ".data");
    try (ChannelSource src = writeData(data, spec)) {
      ModelFiles.write(tag(spec, src), model, options(format));
    } finally {
      Files.deleteIfExists(data);
    }
    Files.writeString(done, "");
    System.err.printf(Locale.ROOT, "[bench] generated %s (%s, %d arrays, %.1f MiB) in %.1f s%n", model.getFileName(),
        format, spec.large() + spec.small(), spec.totalBytes() / 1048576.0, (System.nanoTime() - t0) / 1e9);
    return model;
  }

  static WriteOptions options(String format) {
    return switch (format) {
      case "fb" -> WriteOptions.of(ModelFormat.FB);
      case "sdnb" -> WriteOptions.of(ModelFormat.SDNB);
      case "sdnb-sharded" -> WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(SHARD_BYTES);
      case "sdnb-sharded-1g" -> WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(SHARD_1G);
      case "container-sharded-1g" -> WriteOptions.of(ModelFormat.SHARDED_CONTAINER).withMaxShardBytes(SHARD_1G);
      case "sdz" -> WriteOptions.of(ModelFormat.SDZ);
      case "sdz-deflate" -> WriteOptions.of(ModelFormat.SDZ).withDeflate(true);
      case "zip-tags" -> WriteOptions.of(ModelFormat.ZIP_TAGS);
      case "container" -> WriteOptions.of(ModelFormat.CONTAINER);
      case "container-deflate" -> WriteOptions.of(ModelFormat.CONTAINER).withDeflate(true);
      default -> throw new IllegalArgumentException("unknown format " + format);
    };
  }

  /** The name of large array {@code i}. */
  public static String largeName(int i) {
    return "large/w" + i;
  }

  /** The name of small array {@code i}. */
  public static String smallName(int i) {
    return "small/g" + i / 100 + "/p" + i % 100;
  }

  /** Element {@code j} of array {@code i} (large arrays first, then small ones). */
  static float value(int i, long j) {
    return i + (j % 1_000_000) * 1e-3f;
  }

  private static ChannelSource writeData(Path data, Spec spec) throws IOException {
    try (FileChannel ch = FileChannel.open(data, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
      int arrays = spec.large() + spec.small();
      for (int i = 0; i < arrays; i++) {
        long elements = (i < spec.large() ? spec.largeBytes() : spec.smallBytes()) / 4;
        for (long j = 0; j < elements; ) {
          buf.clear();
          FloatBuffer f = buf.asFloatBuffer();
          while (f.hasRemaining() && j < elements) {
            f.put(value(i, j++));
          }
          buf.limit(f.position() * 4);
          while (buf.hasRemaining()) {
            ch.write(buf);
          }
        }
      }
    }
    return ChannelSource.open(data);
  }

  private static Tag tag(Spec spec, ChannelSource src) {
    List<Variable> vars = new ArrayList<>();
    long offset = 0;
    for (int i = 0; i < spec.large() + spec.small(); i++) {
      boolean large = i < spec.large();
      long len = large ? spec.largeBytes() : spec.smallBytes();
      ArrayData a = new ArrayData(DType.FLOAT, new long[] {len / 4}, 'c', false, src, offset, len, false,
          ArrayData.Storage.RAW);
      vars.add(new Variable(large ? largeName(i) : smallName(i - spec.large()), VarKind.VARIABLE, DType.FLOAT,
          new long[] {len / 4}, a, -1));
      offset += len;
    }
    return new Tag("default", null, vars, List.of(), null, Map.of());
  }

  /** Deletes every generated model. */
  public static void deleteAll() throws IOException {
    if (!Files.isDirectory(dir())) {
      return;
    }
    try (var s = Files.walk(dir())) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
