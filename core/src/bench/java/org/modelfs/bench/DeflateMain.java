package org.modelfs.bench;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.WritableByteChannel;
import java.util.Locale;
import java.util.zip.Deflater;
import org.modelfs.io.DeflateWorkers;
import org.modelfs.io.ParallelDeflater;

/**
 * Issue 18 item 5 side by side in one JVM: the same {@code mib} MiB of float arrays deflated at
 * level 6 by one {@link Deflater} (what commons-compress did for an SDZ entry) and by
 * {@link ParallelDeflater} on the shared workers, alternating; prints the medians of wall time
 * and of the process's CPU time per round, and the ratio serial ÷ parallel per round.
 */
final class DeflateMain {
  private DeflateMain() {}

  /** Discards what it is given, counting it. */
  private static final class Sink implements WritableByteChannel {
    long bytes;

    @Override
    public int write(ByteBuffer src) {
      int n = src.remaining();
      src.position(src.limit());
      bytes += n;
      return n;
    }

    @Override
    public boolean isOpen() {
      return true;
    }

    @Override
    public void close() {}
  }

  static void run(int mib, int rounds) throws IOException {
    byte[] block = new byte[1 << 20];
    ByteBuffer fb = ByteBuffer.wrap(block).order(ByteOrder.LITTLE_ENDIAN);
    double[][] wall = new double[2][rounds];
    double[][] cpu = new double[2][rounds];
    double[] ratio = new double[rounds];
    long[] out = new long[2];
    OperatingSystemMXBean os =
        (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    for (int r = 0; r < rounds; r++) {
      for (int k = 0; k < 2; k++) {
        int which = (r + k) % 2; // alternate which goes first
        long c0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        Sink sink = new Sink();
        if (which == 0) {
          Deflater d = new Deflater(6, true);
          byte[] buf = new byte[64 << 10];
          for (int m = 0; m < mib; m++) {
            fill(fb, m);
            d.setInput(block);
            while (!d.needsInput()) {
              sink.bytes += d.deflate(buf);
            }
          }
          d.finish();
          while (!d.finished()) {
            sink.bytes += d.deflate(buf);
          }
          d.end();
        } else {
          try (ParallelDeflater p = new ParallelDeflater(sink, 6, DeflateWorkers.shared(), "bench")) {
            for (int m = 0; m < mib; m++) {
              fill(fb, m);
              p.write(ByteBuffer.wrap(block));
            }
            p.finish();
          }
        }
        wall[which][r] = (System.nanoTime() - t0) / 1e6;
        cpu[which][r] = (os.getProcessCpuTime() - c0) / 1e6;
        out[which] = sink.bytes;
      }
      ratio[r] = wall[0][r] / wall[1][r];
      System.out.printf(Locale.ROOT, "[deflate] round %d: serial %.0f ms (cpu %.0f), parallel %.0f ms (cpu %.0f), %.2fx%n",
          r, wall[0][r], cpu[0][r], wall[1][r], cpu[1][r], ratio[r]);
    }
    System.out.printf(Locale.ROOT, "[deflate] %d MiB, %d threads: serial median %.0f ms wall, %.0f ms cpu, %d bytes;"
        + " parallel median %.0f ms wall, %.0f ms cpu, %d bytes; serial/parallel median %.2fx (IQR %.2f-%.2f)%n",
        mib, Runtime.getRuntime().availableProcessors(), median(wall[0]), median(cpu[0]), out[0], median(wall[1]),
        median(cpu[1]), out[1], median(ratio), quantile(ratio, 0.25), quantile(ratio, 0.75));
  }

  /** Float arrays like the bench models': smooth values with noise in the low mantissa bits. */
  private static void fill(ByteBuffer fb, int m) {
    fb.clear();
    int i = 0;
    while (fb.hasRemaining()) {
      float v = (float) Math.sin((m * 262144L + i) * 1e-4) * (1 + (i * 2654435761L >>> 40) % 7);
      fb.putFloat(v);
      i++;
    }
  }

  private static double median(double[] v) {
    return quantile(v, 0.5);
  }

  private static double quantile(double[] v, double q) {
    return PairedMain.quantile(v, q);
  }
}
