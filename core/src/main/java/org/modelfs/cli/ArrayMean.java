package org.modelfs.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
 * chunk: each element is summed without overflow or cancellation loss ({@link MeanSums}: a
 * double-double sum, and for the rare element it cannot vouch for the exact sum of that
 * element's values, read again), divided by the count and rounded to the dtype — within 2 ulps
 * of the dtype of the exact mean, and finite when every value is; an element with the same bits
 * in every source is kept as it is.
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
    int size = (int) Math.min(Elements.CHUNK, n);
    MeanSums sums = new MeanSums(size);
    boolean[] same = new boolean[size];
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
              sums.start(i, v);
              same[i] = true;
            } else {
              sums.add(i, v);
              same[i] &= Elements.bits(in, w, i) == Elements.bits(mean, w, i);
            }
          }
        }
        for (int i = 0; i < k; i++) {
          if (!same[i]) {
            Elements.put(mean, t, i, sums.needsExact(i, count)
                ? exactMean(channels, sources, t, done + i) : sums.mean(i, count));
          }
        }
        mean.position(0).limit(k * w);
        while (mean.hasRemaining()) {
          out.write(mean);
        }
      }
    }
  }

  /** Element {@code index} of every source, read again at its position, and their exact mean. */
  private static double exactMean(List<SeekableByteChannel> channels, List<Path> sources, DType t, long index)
      throws IOException {
    int w = t.width();
    ByteBuffer one = ByteBuffer.allocate(w).order(ByteOrder.LITTLE_ENDIAN);
    double[] values = new double[channels.size()];
    for (int s = 0; s < values.length; s++) {
      SeekableByteChannel ch = channels.get(s);
      long resume = ch.position();
      ch.position(index * w);
      Elements.readFully(ch, one, w, sources.get(s));
      ch.position(resume);
      values[s] = Elements.get(one, t, 0);
    }
    return MeanSums.exactMean(values);
  }
}
