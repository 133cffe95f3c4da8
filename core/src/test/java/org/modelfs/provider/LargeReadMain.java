package org.modelfs.provider;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.modelfs.ModelFileSystems;
import org.modelfs.testing.FloatPattern;

/**
 * Child-JVM program of {@link LargeReadTest}: mounts a model, reads parameter {@code big/w0}
 * whole through {@code map} and through a channel, and checks every element against
 * {@link FloatPattern}. Exit code 0 when all match.
 */
public final class LargeReadMain {
  private LargeReadMain() {}

  public static void main(String[] args) throws Exception {
    Path model = Path.of(args[0]);
    long elements = Long.parseLong(args[1]);
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      Path p = fs.getPath("/params/big/w0");
      if (Files.size(p) != 4 * elements) {
        fail("size " + Files.size(p));
      }
      try (FileChannel ch = FileChannel.open(p)) {
        MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
        map.order(ByteOrder.LITTLE_ENDIAN);
        for (long e = 0; e < elements; e++) {
          if (map.getFloat((int) (e * 4)) != FloatPattern.value(0, e)) {
            fail("map: element " + e);
          }
        }
        ByteBuffer buf = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
        long e = 0;
        while (ch.read(buf) > 0 || buf.position() > 0) {
          buf.flip();
          while (buf.remaining() >= 4) {
            if (buf.getFloat() != FloatPattern.value(0, e)) {
              fail("channel: element " + e);
            }
            e++;
          }
          buf.compact();
          if (e == elements) {
            break;
          }
        }
        if (e != elements) {
          fail("channel: read " + e + " elements");
        }
      }
    }
    System.out.println("OK " + model.getFileName() + " max heap " + Runtime.getRuntime().maxMemory());
  }

  private static void fail(String what) {
    System.out.println("MISMATCH " + what);
    System.exit(3);
  }
}
