package org.modelfs.bench;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.spi.FileSystemProvider;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.modelfs.ModelFileSystems;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Item 2: one whole sequential read of the 256 MiB parameter {@code large/w0} of model
 * {@code read256} (page cache warm). {@code target} is {@code <format>/<reader>}:
 * {@code ours-channel} ({@code Files.newByteChannel} on the mount, 1 MiB direct buffer),
 * {@code ours-map} ({@code FileChannel.map} of the mount's file, every long read),
 * {@code ours-map-first} (fb: a fresh mount each time, so the first map's little-endian copy is
 * paid), {@code ours-map-stored} (fb: a mount with {@code byteOrder=stored}, whose map() is of the
 * container's own big-endian pages), {@code raw-channel} / {@code raw-map} (a plain {@code FileChannel} over the same byte
 * range of the container file, same buffer / same loop), {@code zipfs} (jdk.zipfs reading the
 * same bytes of the {@code model.sdnb} entry through {@code newInputStream}, 1 MiB array).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
public class SequentialReadBench {
  /** The parameter every read benchmark reads. */
  static final String PARAM = "large/w0";

  @Param({"sdnb/ours-channel", "sdnb/raw-channel", "sdnb/ours-map", "sdnb/raw-map",
      "sdz/ours-channel", "sdz/raw-channel", "sdz/ours-map", "sdz/raw-map", "sdz/zipfs",
      "sdz-deflate/ours-channel", "sdz-deflate/ours-map", "sdz-deflate/zipfs",
      "fb/ours-channel", "fb/raw-channel", "fb/ours-map", "fb/ours-map-first", "fb/ours-map-stored", "fb/raw-map",
      "zip-tags/ours-channel", "zip-tags/raw-channel", "zip-tags/ours-map", "zip-tags/raw-map",
      "container/ours-channel", "container/raw-channel", "container/ours-map", "container/raw-map",
      "container-deflate/ours-channel"})
  public String target;

  private String reader;
  private Path model;
  private FileSystem mount;
  private FileSystem zipfs;
  private Path param;
  private Path entry;
  private RawRange range;
  private final ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
  private final byte[] array = new byte[1 << 20];

  @Setup
  public void setup() throws Exception {
    String format = target.substring(0, target.indexOf('/'));
    reader = target.substring(target.indexOf('/') + 1);
    model = BenchModels.ensure("read256", format);
    range = RawRange.of(model, PARAM);
    if (!format.equals("sdz-deflate")) {
      range.warm(); // the stored bytes in the page cache before anything is timed
    }
    mount = ModelFileSystems.open(model, reader.equals("ours-map-stored")
        ? Map.of("readOnly", "true", "byteOrder", "stored") : Map.of("readOnly", "true"));
    param = mount.getPath("/params/" + PARAM);
    if (reader.equals("zipfs")) {
      zipfs = zipProvider().newFileSystem(model, Map.of());
      entry = zipfs.getPath("/model.sdnb");
    }
  }

  @TearDown
  public void tearDown() throws Exception {
    mount.close();
    if (zipfs != null) {
      zipfs.close();
    }
  }

  static FileSystemProvider zipProvider() {
    for (FileSystemProvider p : FileSystemProvider.installedProviders()) {
      if (p.getScheme().equals("jar")) {
        return p;
      }
    }
    throw new IllegalStateException("no jdk.zipfs provider");
  }

  /** Reads the whole parameter once; returns a value derived from the bytes read. */
  @Benchmark
  public long read() throws Exception {
    switch (reader) {
      case "ours-channel": {
        long total = 0;
        try (SeekableByteChannel ch = Files.newByteChannel(param)) {
          int n;
          while ((n = ch.read(buf.clear())) > 0) {
            total += n;
          }
        }
        return check(total);
      }
      case "raw-channel": {
        long total = 0;
        try (FileChannel ch = FileChannel.open(range.file())) {
          ch.position(range.offset());
          while (total < range.length()) {
            buf.clear().limit((int) Math.min(buf.capacity(), range.length() - total));
            int n = ch.read(buf);
            if (n < 0) {
              break;
            }
            total += n;
          }
        }
        return check(total);
      }
      case "ours-map":
      case "ours-map-stored": {
        try (FileChannel ch = FileChannel.open(param)) {
          return consume(ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size()));
        }
      }
      case "ours-map-first": {
        try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"));
            FileChannel ch = FileChannel.open(fs.getPath("/params/" + PARAM))) {
          return consume(ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size()));
        }
      }
      case "raw-map": {
        try (FileChannel ch = FileChannel.open(range.file())) {
          return consume(ch.map(FileChannel.MapMode.READ_ONLY, range.offset(), range.length()));
        }
      }
      case "zipfs": {
        long total = 0;
        try (InputStream in = Files.newInputStream(entry)) {
          in.skipNBytes(range.entryOffset());
          while (total < range.length()) {
            int n = in.read(array, 0, (int) Math.min(array.length, range.length() - total));
            if (n < 0) {
              break;
            }
            total += n;
          }
        }
        return check(total);
      }
      default:
        throw new IllegalArgumentException(target);
    }
  }

  private long check(long total) {
    if (total != range.length()) {
      throw new IllegalStateException(target + ": read " + total + " of " + range.length() + " bytes");
    }
    return total;
  }

  /** Reads every long of the mapping (the same loop for ours and raw). */
  static long consume(MappedByteBuffer m) {
    long s = 0;
    for (int i = 0, end = m.limit() - 7; i < end; i += 8) {
      s += m.getLong(i);
    }
    return s;
  }
}
