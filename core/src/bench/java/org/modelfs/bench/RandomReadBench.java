package org.modelfs.bench;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.State;

/**
 * Item 3: one positional 4 KiB read ({@code FileChannel.read(dst, pos)}, direct buffer) at a
 * random offset of the 256 MiB FLOAT parameter {@code large/w0} of {@code read256} (page cache
 * warm): {@code ours} on the mounted file, {@code raw} on the container file at the same bytes.
 * The offsets are one fixed pseudo-random sequence of 65,536 element (4-byte) boundaries, not
 * page-aligned. The parameter's stored bytes are read once before timing, so both sides read
 * from the page cache.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
public class RandomReadBench {
  private static final int READ = 4096;

  @Param({"sdnb/ours", "sdnb/raw", "sdz/ours", "sdz/raw", "sdz-deflate/ours", "fb/ours", "fb/raw", "zip-tags/ours", "zip-tags/raw",
      "container/ours", "container/raw", "container-deflate/ours"})
  public String target;

  private FileSystem mount;
  private FileChannel channel;
  private long base;
  private final long[] offsets = new long[1 << 16];
  private int next;
  private final ByteBuffer buf = ByteBuffer.allocateDirect(READ);

  @Setup
  public void setup() throws Exception {
    String format = target.substring(0, target.indexOf('/'));
    Path model = BenchModels.ensure("read256", format);
    RawRange range = RawRange.of(model, SequentialReadBench.PARAM);
    if (!format.equals("sdz-deflate")) {
      range.warm(); // (deflated: the mount inflates it into a fresh temporary file, in the cache)
    }
    if (target.endsWith("/raw")) {
      channel = FileChannel.open(range.file());
      base = range.offset();
    } else {
      mount = ModelFileSystems.open(model, Map.of("readOnly", "true"));
      channel = FileChannel.open(mount.getPath("/params/" + SequentialReadBench.PARAM));
    }
    SplittableRandom rnd = new SplittableRandom(42);
    for (int i = 0; i < offsets.length; i++) {
      offsets[i] = rnd.nextLong((range.length() - READ) / 4) * 4;
    }
  }

  @TearDown
  public void tearDown() throws Exception {
    channel.close();
    if (mount != null) {
      mount.close();
    }
  }

  /** One 4 KiB read; returns the bytes read. */
  @Benchmark
  public int read4k() throws Exception {
    buf.clear();
    int n = channel.read(buf, base + offsets[next++ & (offsets.length - 1)]);
    if (n != READ) {
      throw new IllegalStateException(target + ": short read " + n);
    }
    return n;
  }
}
