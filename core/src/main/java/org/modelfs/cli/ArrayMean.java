package org.modelfs.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.modelfs.io.Closer;
import org.modelfs.model.DType;

/**
 * The element-wise mean of floating-point array files of one dtype and shape, streamed chunk by
 * chunk: each element is summed in double in the order given, divided by the count and rounded
 * once to the dtype; an element with the same bits in every source is kept as it is.
 */
final class ArrayMean {
  private ArrayMean() {}

  /** Writes the mean of {@code sources} (each of floating-point type {@code t}) to {@code out}. */
  static void write(List<Path> sources, DType t, WritableByteChannel out) throws IOException {
    int w = t.width();
    long n = Files.size(sources.get(0)) / w;
    int count = sources.size();
    ByteBuffer in = Elements.chunkBuffer(t);
    ByteBuffer mean = Elements.chunkBuffer(t);
    double[] sum = new double[(int) Math.min(Elements.CHUNK, n)];
    boolean[] same = new boolean[sum.length];
    List<SeekableByteChannel> channels = new ArrayList<>();
    try (Closer closer = new Closer()) {
      for (Path p : sources) {
        channels.add(closer.register(Files.newByteChannel(p)));
      }
      for (long done = 0; done < n; done += Elements.CHUNK) {
        int k = (int) Math.min(Elements.CHUNK, n - done);
        for (int s = 0; s < count; s++) {
          Elements.readFully(channels.get(s), in, k * w, sources.get(s));
          if (s == 0) {
            mean.clear().put(0, in, 0, k * w);
          }
          for (int i = 0; i < k; i++) {
            double v = Elements.get(in, t, i);
            if (s == 0) {
              sum[i] = v;
              same[i] = true;
            } else {
              sum[i] += v;
              same[i] &= Elements.bits(in, w, i) == Elements.bits(mean, w, i);
            }
          }
        }
        for (int i = 0; i < k; i++) {
          if (!same[i]) {
            Elements.put(mean, t, i, sum[i] / count);
          }
        }
        mean.position(0).limit(k * w);
        while (mean.hasRemaining()) {
          out.write(mean);
        }
      }
    }
  }
}
