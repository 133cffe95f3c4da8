package org.modelfs.provider;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Map;
import org.modelfs.store.ModelFiles;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ModelFormat;
import org.modelfs.format.WriteOptions;
import org.modelfs.testing.FloatPattern;
import org.modelfs.testing.SyntheticModels;

/**
 * Two processes on one model: while one holds the writer lock the other's first change gets a
 * clear error; a reader keeps reading consistent old data while another process commits.
 */
class TwoProcessTest {
  @TempDir Path tmp;

  private Path model() throws Exception {
    Path model = tmp.resolve("m.sdnb");
    var synthetic = SyntheticModels.floats(tmp.resolve("data.bin"), 2, 2_000_000); // 8 MB each
    try (var data = synthetic.data()) {
      ModelFiles.write(synthetic.tag(), model, WriteOptions.of(ModelFormat.SDNB));
    }
    return model;
  }

  private Process child(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
        "-cp", System.getProperty("java.class.path"), ProcessMain.class.getName()));
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
  }

  @Test
  void aSecondWriterInAnotherProcessGetsTheLockError() throws Exception {
    Path model = model();
    Process holder = child("hold-lock", model.toString());
    try (BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8))) {
      assertEquals("LOCKED", out.readLine());
      try (FileSystem fs = ModelFileSystems.open(model)) {
        FileSystemException e = assertThrows(FileSystemException.class,
            () -> Files.writeString(fs.getPath("/metadata/x"), "parent"));
        assertTrue(e.getMessage().contains("another writer") && e.getMessage().contains(".m.sdnb.modelfs-lock"),
            e.getMessage());
        assertArrayEquals(FloatPattern.bytes(1, 0, 64), Arrays.copyOf(
            Files.readAllBytes(fs.getPath("/params/big/w1")), 64), "reading is never blocked");
      }
      try (OutputStream in = holder.getOutputStream()) {
        in.write('\n');
      }
      assertEquals("RELEASED", out.readLine());
    }
    assertTrue(holder.waitFor(1, TimeUnit.MINUTES));
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Files.writeString(fs.getPath("/metadata/x"), "parent"); // the lock is free again
    }
  }

  @Test
  void aReaderKeepsReadingTheOldModelWhileAnotherProcessCommits() throws Exception {
    Path model = model();
    try (FileSystem reader = ModelFileSystems.open(model, Map.of("readOnly", "true"));
        FileChannel ch = FileChannel.open(reader.getPath("/params/big/w0"))) {
      Process writer = child("commit", model.toString(), "7.5");
      long size = ch.size();
      ByteBuffer buf = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
      // read the whole array again and again while the other process commits
      while (writer.isAlive()) {
        readAllAndCheckOld(ch, buf, size);
      }
      assertEquals(0, writer.waitFor());
      readAllAndCheckOld(ch, buf, size);
      assertArrayEquals(FloatPattern.bytes(0, 0, 4096),
          Arrays.copyOf(Files.readAllBytes(reader.getPath("/params/big/w0")), 4096),
          "new channels of the old mount still read the old container");
    }
    try (FileSystem fresh = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(fresh.getPath("/params/big/w0"))).order(ByteOrder.LITTLE_ENDIAN);
      assertEquals(7.5f, b.getFloat(0));
      assertEquals(7.5f, b.getFloat(b.capacity() - 4));
    }
  }

  private static void readAllAndCheckOld(FileChannel ch, ByteBuffer buf, long size) throws Exception {
    for (long pos = 0; pos < size; pos += buf.capacity()) {
      buf.clear();
      int n = ch.read(buf, pos);
      for (int k = 0; k + 4 <= n; k += 4 * 997) {
        assertEquals(FloatPattern.value(0, (pos + k) / 4), buf.getFloat(k), "element " + (pos + k) / 4);
      }
    }
  }
}
