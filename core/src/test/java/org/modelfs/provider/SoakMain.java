package org.modelfs.provider;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.testing.Descriptors;
import org.modelfs.testing.FloatPattern;

/**
 * The processes of {@link SoakTest}. {@code writer MODEL SECONDS}: one mount, a checkpoint
 * committed every second — checkpoint {@code k} fills parameter {@code big/w<k mod P>} with the
 * value {@code k} and sets {@code /metadata/step} to {@code k} — and now and then a line
 * {@code STAT seconds commits heapBytes fds deletedFds deletedBytes journalBytes tempBytes} (heap
 * after a full GC; temp = bytes under this JVM's {@code java.io.tmpdir}); {@code DONE k} at the
 * end. {@code reader MODEL STOPFILE}: mounts read-only again and again, checks the parameters
 * against the step it sees, until STOPFILE exists; prints {@code READS n lastStep}.
 */
public final class SoakMain {
  static final int ELEMENTS = 1 << 20; // 4 MiB per parameter

  private SoakMain() {}

  public static void main(String[] args) throws Exception {
    Path model = Path.of(args[1]);
    if (args[0].equals("writer")) {
      writer(model, Long.parseLong(args[2]), Long.parseLong(args[3]));
    } else {
      reader(model, Path.of(args[2]), Integer.parseInt(args[3]));
    }
  }

  /** The value of element {@code e} of parameter {@code j} in checkpoint {@code step} of {@code params}. */
  static float expected(int step, int j, long e, int params) {
    int k = step - Math.floorMod(step - j, params);
    return k >= 1 ? k : FloatPattern.value(j, e);
  }

  static float element(FileSystem fs, int j, long e) throws Exception {
    try (FileChannel ch = FileChannel.open(fs.getPath("/params/big/w" + j))) {
      ByteBuffer b = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
      if (ch.read(b, 4 * e) != 4) {
        throw new IllegalStateException("w" + j + " is short at element " + e);
      }
      return b.getFloat(0);
    }
  }

  static int step(FileSystem fs) throws Exception {
    Path p = fs.getPath("/metadata/step");
    return Files.exists(p) ? Integer.parseInt(Files.readString(p)) : 0;
  }

  /** Checks elements of parameter {@code j} in checkpoint {@code step}; throws naming the first wrong one. */
  static void check(FileSystem fs, int step, int j, long[] elements, int params) throws Exception {
    for (long e : elements) {
      float got = element(fs, j, e);
      if (got != expected(step, j, e, params)) {
        throw new IllegalStateException("checkpoint " + step + ": w" + j + "[" + e + "] = " + got + ", expected "
            + expected(step, j, e, params));
      }
    }
  }

  private static void writer(Path model, long seconds, long statEvery) throws Exception {
    int params = LongLivedMountTest.count(model);
    long start = System.nanoTime();
    long end = start + TimeUnit.SECONDS.toNanos(seconds);
    long nextStat = 0;
    int k = 0;
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    try (FileSystem fs = ModelFileSystems.open(model)) {
      long due = start;
      while (System.nanoTime() < end) {
        long wait = due - System.nanoTime();
        if (wait > 0) {
          TimeUnit.NANOSECONDS.sleep(wait);
        }
        due += TimeUnit.SECONDS.toNanos(1);
        k++;
        int j = k % params;
        Files.write(fs.getPath("/params/big/w" + j), LongLivedMountTest.filled(ELEMENTS, k));
        Files.writeString(fs.getPath("/metadata/step"), Integer.toString(k));
        ((JournaledFileSystem) fs).commit();
        check(fs, k, j, new long[] {0, ELEMENTS - 1}, params);
        try (FileChannel ch = FileChannel.open(fs.getPath("/params/big/w" + j))) {
          MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
          if (m.order(ByteOrder.LITTLE_ENDIAN).getFloat(4 * (ELEMENTS / 2)) != k) {
            throw new IllegalStateException("checkpoint " + k + ": mapped w" + j + " is not " + k);
          }
        }
        long elapsed = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        if (elapsed >= nextStat) {
          nextStat = elapsed + statEvery;
          System.gc();
          System.gc();
          long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
          Descriptors d = Descriptors.now();
          System.out.println("STAT " + elapsed + " " + k + " " + heap + " " + d.open() + " " + d.deleted() + " "
              + d.deletedBytes() + " " + Descriptors.journalBytes(model) + " " + Descriptors.bytesUnder(tmp));
          System.out.flush();
        }
      }
    }
    System.out.println("DONE " + k);
  }

  private static void reader(Path model, Path stop, int params) throws Exception {
    long reads = 0;
    int last = 0;
    ThreadLocalRandom r = ThreadLocalRandom.current();
    while (!Files.exists(stop)) {
      try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
        int s = step(fs);
        if (s < last) {
          throw new IllegalStateException("checkpoint " + s + " seen after " + last);
        }
        last = s;
        long[] elements = {0, ELEMENTS - 1, r.nextInt(ELEMENTS)};
        check(fs, s, s % params, elements, params);
        check(fs, s, r.nextInt(params), elements, params);
        reads++;
      }
    }
    System.out.println("READS " + reads + " " + last);
  }
}
