package org.modelfs.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;

/**
 * The child JVM of {@link HeapMain}. {@code read <model> <param> <array index>}: reads the parameter whole
 * through a channel (64 KiB heap buffer) and through {@code map} in 1 GiB windows, checking
 * samples against {@link BenchModels#value}. {@code write <model> <bytes>}: writes a new
 * parameter {@code /params/huge} of that many bytes through a channel (64 KiB heap buffer) and
 * commits. Prints {@code OK peakHeap=<bytes>} (peak use of the heap pools) and exits 0.
 */
public final class HeapChild {
  private static final int BUF = 64 * 1024;

  private HeapChild() {}

  public static void main(String[] args) throws Exception {
    Path model = Path.of(args[1]);
    if (args[0].equals("read")) {
      read(model, args[2], Integer.parseInt(args[3]));
    } else {
      write(model, Long.parseLong(args[2]));
    }
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    System.out.println("OK peakHeap=" + peak);
  }

  private static void read(Path model, String param, int array) throws Exception {
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"));
        FileChannel ch = FileChannel.open(fs.getPath("/params/" + param))) {
      long size = ch.size();
      ByteBuffer buf = ByteBuffer.allocate(BUF).order(ByteOrder.LITTLE_ENDIAN);
      long pos = 0;
      while (pos < size) {
        buf.clear();
        int n = ch.read(buf);
        if (n <= 0) {
          throw new IllegalStateException("channel ended at " + pos + " of " + size);
        }
        if (pos % (1 << 20) == 0) {
          expect(buf.getFloat(0), array, pos, "channel");
        }
        pos += n;
      }
      long window = 1L << 30;
      for (long at = 0; at < size; at += window) {
        MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, at, Math.min(window, size - at));
        m.order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < m.limit(); i += 1 << 20) {
          expect(m.getFloat(i), array, at + i, "map");
        }
      }
    }
  }

  private static void expect(float got, int array, long bytePos, String how) {
    float want = BenchModels.value(array, bytePos / 4);
    if (got != want) {
      throw new IllegalStateException(how + ": byte " + bytePos + " holds " + got + ", expected " + want);
    }
  }

  private static void write(Path model, long bytes) throws Exception {
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Path p = fs.getPath("/params/huge");
      ByteBuffer buf = ByteBuffer.allocate(BUF);
      try (FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        for (long pos = 0; pos < bytes; ) {
          buf.clear();
          for (int i = 0; i < BUF; i++) {
            buf.put(i, (byte) ((pos + i) % 251));
          }
          buf.limit((int) Math.min(BUF, bytes - pos));
          while (buf.hasRemaining()) {
            pos += ch.write(buf);
          }
        }
      }
      ((JournaledFileSystem) fs).commit();
    }
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      long size = Files.size(fs.getPath("/params/huge"));
      if (size != bytes) {
        throw new IllegalStateException("committed /params/huge has " + size + " bytes, expected " + bytes);
      }
    }
  }
}
