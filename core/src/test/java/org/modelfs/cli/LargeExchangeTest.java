package org.modelfs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.container.Models;
import org.modelfs.exchange.Npy;
import org.modelfs.exchange.Safetensors;
import org.modelfs.format.WriteOptions;
import org.modelfs.io.ChannelSource;
import org.modelfs.model.ArrayData;
import org.modelfs.model.ArrayStreams;
import org.modelfs.model.DType;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;
import org.modelfs.model.VarKind;
import org.modelfs.model.Variable;
import org.modelfs.store.ModelFiles;

/**
 * An f-ordered FLOAT parameter larger than the child's heap exported to {@code .npy} and to
 * {@code .safetensors} (transposed to row-major on the way) and imported back (transposed back
 * to f), each step by the CLI in a child JVM: arrays stream through bounded buffers and
 * mappings, never the heap. The parameter ends as it began, and sampled elements of the
 * safetensors file sit at their row-major places. The default suite runs 48 MiB with
 * {@code -Xmx32m} (a few seconds); {@code -Pslow} adds 512 MiB with {@code -Xmx64m} (about 20 s).
 */
class LargeExchangeTest {
  @TempDir Path tmp;
  private int rows;
  private int cols;
  private String xmx;

  @Test
  void exportAndImport48MegabytesWith32MegabyteHeap() throws Exception {
    run(4096, 3072, "-Xmx32m");
  }

  @Test
  @org.junit.jupiter.api.Tag("slow")
  void exportAndImportHalfAGigabyteWith64MegabyteHeap() throws Exception {
    run(16384, 8192, "-Xmx64m");
  }

  /** The value of the element at f-order index {@code k}. */
  private static float value(long k) {
    return (float) (k % 1_000_003) - 0.5f;
  }

  private void run(int rows, int cols, String xmx) throws Exception {
    this.rows = rows;
    this.cols = cols;
    this.xmx = xmx;
    Path data = tmp.resolve("data.bin");
    long n = (long) rows * cols;
    try (FileChannel ch = FileChannel.open(data, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
      for (long k = 0; k < n; k++) {
        buf.putFloat(value(k));
        if (!buf.hasRemaining()) {
          buf.flip();
          while (buf.hasRemaining()) {
            ch.write(buf);
          }
          buf.clear();
        }
      }
    }
    Path model = tmp.resolve("big.sdnb");
    try (ChannelSource src = ChannelSource.open(data)) {
      ArrayData a = new ArrayData(DType.FLOAT, new long[] {rows, cols}, 'f', false, src, 0, n * 4, false,
          ArrayData.Storage.RAW);
      Tag tag = new Tag("default", null, List.of(new Variable("big/w", VarKind.VARIABLE, DType.FLOAT, null, a, -1)),
          List.of(), null, Map.of());
      ModelFiles.write(tag, model, WriteOptions.of(ModelFormat.SDNB));
    }
    Files.delete(data);
    String before = hash(model);

    cli("export", "big.sdnb:big/w", "big.npy");
    try (FileChannel in = FileChannel.open(tmp.resolve("big.npy"))) {
      Npy.Header h = Npy.readHeader(in, "big.npy", false);
      assertEquals('f', h.order());
      assertEquals(n * 4, in.size() - h.dataOffset());
    }
    cli("export", "big.sdnb", "big.safetensors");
    try (FileChannel in = FileChannel.open(tmp.resolve("big.safetensors"))) {
      Safetensors.Header h = Safetensors.read(in, "big.safetensors");
      ByteBuffer e = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
      Random r = new Random(1);
      for (int s = 0; s < 2000; s++) {
        long i = s < 4 ? (s % 2) * (rows - 1) : r.nextInt(rows);
        long j = s < 4 ? (s / 2) * (cols - 1) : r.nextInt(cols);
        in.read(e.clear(), h.dataStart() + (i * cols + j) * 4);
        assertEquals(value(j * rows + i), e.flip().getFloat(), "element " + i + "," + j);
      }
    }
    cli("import", "big.npy", "big.sdnb:big/w");
    assertEquals(before, hash(model));
    cli("import", "big.safetensors", "big.sdnb");
    assertEquals(before, hash(model));
  }

  private void cli(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        xmx, "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"), Main.class.getName()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).directory(tmp.toFile()).redirectErrorStream(true)
        .redirectOutput(tmp.resolve("cli.log").toFile()).start();
    assertTrue(p.waitFor(5, TimeUnit.MINUTES), "timed out: " + String.join(" ", args));
    assertEquals(0, p.exitValue(), String.join(" ", args) + " failed:\n" + Files.readString(tmp.resolve("cli.log")));
  }

  /** The array's dtype, shape, order and SHA-256 of its bytes, streamed. */
  private static String hash(Path model) throws Exception {
    try (Model m = Models.open(model)) {
      Variable v = m.newest().arrays().get(0);
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      try (InputStream in = ArrayStreams.littleEndianStream(v.array())) {
        byte[] buf = new byte[1 << 16];
        int k;
        while ((k = in.read(buf)) > 0) {
          md.update(buf, 0, k);
        }
      }
      return v.name() + " " + v.array().dtype() + Arrays.toString(v.array().shape()) + v.array().order() + " "
          + HexFormat.of().formatHex(md.digest());
    }
  }
}
