package org.modelfs.provider;

import org.modelfs.store.ModelFiles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ModelFormat;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.Model;
import org.modelfs.testing.Fixtures;

/**
 * A 2 GiB parameter written through a channel and committed by a child JVM with
 * {@code -Xmx256m}: the bytes stream into the journal and from there into the new container;
 * the heap never holds them.
 */
class LargeWriteTest {
  private static final long BYTES = 2L << 30;
  @TempDir Path tmp;

  @Test
  void twoGigabyteWriteWith256MegabyteHeap() throws Exception {
    Path model = tmp.resolve("m.sdnb");
    try (Model m = Models.open(Fixtures.get("mlp_adam.fb"))) {
      ModelFiles.write(m.newest(), model, WriteOptions.of(ModelFormat.SDNB));
    }
    Process p = new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
            "-cp", System.getProperty("java.class.path"), ProcessMain.class.getName(),
            "write-large", model.toString(), Long.toString(BYTES))
        .redirectErrorStream(true).redirectOutput(tmp.resolve("child.log").toFile()).start();
    assertTrue(p.waitFor(10, TimeUnit.MINUTES), "timed out");
    String log = Files.readString(tmp.resolve("child.log"));
    assertEquals(0, p.exitValue(), log);
    assertTrue(log.contains("WRITTEN " + BYTES) && log.contains("COMMITTED"), log);

    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"));
        FileChannel ch = FileChannel.open(fs.getPath("/params/huge"))) {
      assertEquals(BYTES, ch.size());
      assertEquals("raw", Files.getAttribute(fs.getPath("/params/huge"), "samediff:stored"));
      Random rnd = new Random(5);
      ByteBuffer buf = ByteBuffer.allocate(4096);
      for (int i = 0; i < 200; i++) {
        long pos = i == 0 ? BYTES - 4096 : (long) (rnd.nextDouble() * (BYTES - 4096));
        buf.clear();
        while (buf.hasRemaining()) {
          ch.read(buf, pos + buf.position());
        }
        for (int k = 0; k < 4096; k++) {
          assertEquals((byte) ((pos + k) % 251), buf.get(k), "byte " + (pos + k));
        }
      }
      assertEquals(4 * 8 * 4, Files.size(fs.getPath("/params/layer0/W")), "the rest is still there");
    }
    assertTrue(Files.size(model) > BYTES);
  }
}
