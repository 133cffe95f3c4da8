package org.modelfs.provider;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.modelfs.ModelFileSystems;
import org.modelfs.testing.FloatPattern;

/**
 * The child of {@link MillionParametersTest}: mounts a model of {@code args[1]} one-float
 * parameters {@code big/w<i>}, reads one, lists {@code params/big/}, writes and renames new ones
 * and rewrites old ones — in the heap the test gives it. Prints {@code OK} and the heap in use.
 */
public final class MillionMain {
  private MillionMain() {}

  public static void main(String[] args) throws Exception {
    Path model = Path.of(args[0]);
    int count = Integer.parseInt(args[1]);
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("commitOnClose", "false"))) {
      Path big = fs.getPath("/params/big");
      int last = count - 1;
      try (SeekableByteChannel ch = Files.newByteChannel(big.resolve("w" + last))) {
        ByteBuffer b = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
        ch.read(b);
        float v = b.getFloat(0);
        if (v != FloatPattern.value(last, 0)) {
          throw new AssertionError("w" + last + " holds " + v);
        }
      }
      long listed;
      try (var list = Files.list(big)) {
        listed = list.count();
      }
      if (listed != count) {
        throw new AssertionError("listed " + listed + " of " + count);
      }
      byte[] four = {0, 0, (byte) 0x80, 0x3f}; // 1.0f
      for (int i = 0; i < 1000; i++) {
        Files.write(big.resolve("new" + i), four);
        Files.write(big.resolve("w" + i), four);
        Files.move(big.resolve("new" + i), big.resolve("moved" + i));
      }
      if (!Files.exists(big.resolve("moved999")) || Files.size(big.resolve("w999")) != 4) {
        throw new AssertionError("changes not seen");
      }
      System.gc();
      Runtime r = Runtime.getRuntime();
      System.out.println("OK heap in use after GC: " + ((r.totalMemory() - r.freeMemory()) >> 20) + " MiB");
    }
  }
}
