package org.modelfs.provider;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;

/**
 * Child-JVM programs of {@link LargeWriteTest} and {@link TwoProcessTest}, chosen by the first
 * argument; each prints what it did on stdout and exits 0 when all went as expected.
 */
public final class ProcessMain {
  private ProcessMain() {}

  public static void main(String[] args) throws Exception {
    Path model = Path.of(args[1]);
    switch (args[0]) {
      case "write-large" -> writeLarge(model, Long.parseLong(args[2]));
      case "hold-lock" -> holdLock(model);
      case "commit" -> commit(model, args[2]);
      default -> throw new IllegalArgumentException(args[0]);
    }
  }

  /** Streams a new UBYTE parameter of {@code bytes} bytes (byte i = i % 251) and commits. */
  private static void writeLarge(Path model, long bytes) throws Exception {
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Path p = fs.getPath("/params/huge");
      try (FileChannel ch = (FileChannel) Files.newByteChannel(p,
          Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
          ModelFileSystems.attribute("dtype", "UBYTE"), ModelFileSystems.attribute("shape", new long[] {bytes}))) {
        ByteBuffer buf = ByteBuffer.allocate(1 << 20);
        long done = 0;
        while (done < bytes) {
          buf.clear();
          int n = (int) Math.min(buf.capacity(), bytes - done);
          for (int i = 0; i < n; i++) {
            buf.put((byte) ((done + i) % 251));
          }
          buf.flip();
          while (buf.hasRemaining()) {
            ch.write(buf);
          }
          done += n;
        }
      }
      System.out.println("WRITTEN " + Files.size(p));
    }
    System.out.println("COMMITTED max heap " + Runtime.getRuntime().maxMemory());
  }

  /** Makes a change (so the writer lock is held), says LOCKED, waits for a line on stdin. */
  private static void holdLock(Path model) throws Exception {
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Files.writeString(fs.getPath("/metadata/holder"), "child");
      System.out.println("LOCKED");
      System.out.flush();
      new BufferedReader(new InputStreamReader(System.in)).readLine();
      ((JournaledFileSystem) fs).rollback();
    }
    System.out.println("RELEASED");
  }

  /** Overwrites {@code /params/big/w0} with floats of value {@code v} and commits. */
  private static void commit(Path model, String v) throws Exception {
    float value = Float.parseFloat(v);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Path p = fs.getPath("/params/big/w0");
      ByteBuffer b = ByteBuffer.allocate((int) Files.size(p)).order(ByteOrder.LITTLE_ENDIAN);
      while (b.hasRemaining()) {
        b.putFloat(value);
      }
      Files.write(p, b.array());
    }
    System.out.println("COMMITTED");
  }
}
