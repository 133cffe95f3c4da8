package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.Descriptors;
import org.modelfs.testing.Fixtures;
import org.modelfs.testing.SyntheticModels;

/**
 * A long-lived mount (a training loop checkpointing through one mount) holds a bounded number of
 * descriptors and bytes, however many commits and writes it makes (docs/FILESYSTEM.md §8):
 * replaced containers are closed once no channel reads them, superseded journal files are
 * deleted, the journal is empty after a commit, {@code map()}'s little-endian copies do not pile
 * up, and journal files are read through a bounded descriptor pool.
 */
class LongLivedMountTest {
  private static final int ELEMENTS = 1 << 20; // 4 MiB of floats

  @TempDir Path tmp;

  static Path sdnb(Path dir, int elements) throws IOException {
    Path model = dir.resolve("m.sdnb");
    var synthetic = SyntheticModels.floats(dir.resolve("data.bin"), 1, elements);
    try (var data = synthetic.data()) {
      ModelFiles.write(synthetic.tag(), model, WriteOptions.of(ModelFormat.SDNB));
    }
    Files.delete(dir.resolve("data.bin"));
    return model;
  }

  static byte[] filled(int elements, float value) {
    ByteBuffer b = ByteBuffer.allocate(4 * elements).order(ByteOrder.LITTLE_ENDIAN);
    while (b.hasRemaining()) {
      b.putFloat(value);
    }
    return b.array();
  }

  /** First and last element of {@code path}, read through a channel that is then closed. */
  static float[] ends(FileSystem fs, String path) throws IOException {
    try (FileChannel ch = FileChannel.open(fs.getPath(path))) {
      ByteBuffer b = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
      ch.read(b, 0);
      float first = b.getFloat(0);
      b.clear();
      ch.read(b, ch.size() - 4);
      return new float[] {first, b.getFloat(0)};
    }
  }

  @Test
  void commitsThroughOneMountHoldNoReplacedContainerAndEmptyTheJournal() throws Exception {
    assumeTrue(Descriptors.available());
    Path model = sdnb(tmp, ELEMENTS);
    List<String> seen = new ArrayList<>();
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Descriptors base = null;
      for (int k = 1; k <= 60; k++) {
        Files.write(fs.getPath("/params/big/w0"), filled(ELEMENTS, k));
        ((JournaledFileSystem) fs).commit();
        float[] e = ends(fs, "/params/big/w0");
        assertEquals(k, e[0]);
        assertEquals(k, e[1]);
        Descriptors d = Descriptors.now();
        long journal = Descriptors.journalBytes(model);
        seen.add(k + ": " + d + " journal=" + journal);
        if (k == 5) {
          base = d;
        }
        if (k > 5) {
          assertTrue(d.open() <= base.open() + 2, "descriptors grow with commits: " + seen);
          assertTrue(d.deletedBytes() <= 4L * ELEMENTS, "replaced containers are held: " + seen);
          assertEquals(0, journal, "the journal is emptied by a commit: " + seen);
        }
      }
    }
  }

  @Test
  void mapCopiesOfAnFbModelDoNotPileUpOverCommits() throws Exception {
    assumeTrue(Descriptors.available());
    Path model = tmp.resolve("m.fb");
    Files.copy(Fixtures.get("mlp_noupdater.fb"), model);
    List<String> seen = new ArrayList<>();
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Descriptors base = null;
      for (int k = 1; k <= 40; k++) {
        Files.write(fs.getPath("/params/layer0/W"), filled(32, k));
        ((JournaledFileSystem) fs).commit();
        try (FileChannel ch = FileChannel.open(fs.getPath("/params/layer1/W"))) {
          MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
          assertEquals(ch.size(), m.remaining());
        }
        Descriptors d = Descriptors.now();
        seen.add(k + ": " + d);
        if (k == 5) {
          base = d;
        }
        if (k > 5) {
          assertTrue(d.open() <= base.open() + 2 && d.deleted() <= base.deleted() + 1,
              "map copies or old containers pile up: " + seen);
        }
      }
    }
  }

  @Test
  void rewritingOneParameterKeepsOneJournalFile() throws Exception {
    assumeTrue(Descriptors.available());
    Path model = sdnb(tmp, 1024);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Descriptors base = null;
      for (int k = 1; k <= 300; k++) {
        Files.write(fs.getPath("/params/big/w0"), filled(1024, k));
        if (k == 10) {
          base = Descriptors.now();
        }
      }
      assertEquals(300f, ends(fs, "/params/big/w0")[0]);
      Descriptors d = Descriptors.now();
      assertTrue(d.open() <= base.open() + 2, "descriptors grow with rewrites: " + base + " → " + d);
      assertTrue(Descriptors.journalBytes(model) <= 2 * 4096, "superseded journal files are kept: "
          + Descriptors.journalBytes(model) + " bytes");
    }
  }

  @Test
  void aChannelKeepsItsGenerationUntilItClosesAndNoLonger() throws Exception {
    assumeTrue(Descriptors.available());
    Path model = sdnb(tmp, ELEMENTS);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Files.write(fs.getPath("/params/big/w0"), filled(ELEMENTS, 1));
      ((JournaledFileSystem) fs).commit();
      FileChannel old = FileChannel.open(fs.getPath("/params/big/w0"));
      for (int k = 2; k <= 4; k++) {
        Files.write(fs.getPath("/params/big/w0"), filled(ELEMENTS, k));
        ((JournaledFileSystem) fs).commit();
      }
      Descriptors open = Descriptors.now();
      ByteBuffer b = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
      old.read(b, 4L * ELEMENTS - 4);
      assertEquals(1f, b.getFloat(0), "a channel reads the generation it was opened on");
      assertEquals(4f, ends(fs, "/params/big/w0")[0]);
      assertEquals(1, open.deleted(), "only the generation the open channel reads is held: " + open);
      old.close();
      assertEquals(0, Descriptors.now().deleted(), "closing the last channel on it releases it");
    }
  }

  @Test
  void aReplacedJournalFileStaysWhileAChannelReadsItAndGoesAfter() throws Exception {
    Path model = sdnb(tmp, 1024);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Files.write(fs.getPath("/params/big/w0"), filled(1024, 1));
      try (FileChannel reading = FileChannel.open(fs.getPath("/params/big/w0"))) {
        Files.write(fs.getPath("/params/big/w0"), filled(1024, 2));
        Files.write(fs.getPath("/params/new"), filled(1024, 3));
        Files.delete(fs.getPath("/params/new"));
        ByteBuffer b = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
        reading.read(b, 4092);
        assertEquals(1f, b.getFloat(0), "the replaced bytes are still there for the channel reading them");
        assertEquals(2, journalFiles(model), "the channel's file and the current one");
      }
      assertEquals(1, journalFiles(model), "the replaced and the deleted file are gone");
      Files.write(fs.getPath("/params/big/w1"), filled(1024, 4));
      ((JournaledFileSystem) fs).rollback();
      assertEquals(0, journalFiles(model), "a rollback empties the journal");
      assertEquals(0f, ends(fs, "/params/big/w0")[0]);
    }
  }

  @Test
  void aJournalFileStillWrittenSurvivesTheDeleteOfItsPath() throws Exception {
    Path model = sdnb(tmp, 1024);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Path p = fs.getPath("/params/fresh");
      FileChannel first = FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileChannel second = FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      first.write(ByteBuffer.wrap(filled(16, 5)));
      first.close(); // installs the shared file
      Files.delete(p); // the tree no longer shows it; the second channel still writes into it
      second.write(ByteBuffer.wrap(filled(16, 6)));
      second.close(); // installs it again
      assertEquals(6f, ends(fs, "/params/fresh")[1], "the second channel's bytes are the file's content");
      assertEquals(1, journalFiles(model));
    }
  }

  private static long journalFiles(Path model) throws IOException {
    try (var s = Files.walk(model.getParent())) {
      return s.filter(p -> p.getParent().getFileName().toString().startsWith(".m.sdnb.modelfs-journal-")).count();
    }
  }

  @Test
  void aThousandRewritesWorkUnderUlimit256() throws Exception {
    assertEquals("OK 1000", underUlimit(256, "rewrite", sdnb(tmp, 256).toString(), "1000"));
  }

  @Test
  void fifteenHundredNewParametersWorkUnderUlimit256() throws Exception {
    assertEquals("OK 1500", underUlimit(256, "create", sdnb(tmp, 256).toString(), "1500"));
  }

  /** Runs {@link LongLivedMain} in a child JVM with at most {@code fds} open descriptors; its last line. */
  static String underUlimit(int fds, String... args) throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/bin/bash")));
    StringBuilder cmd = new StringBuilder("ulimit -n " + fds + " && exec");
    List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
        LongLivedMain.class.getName()));
    argv.addAll(List.of(args));
    for (String a : argv) {
      cmd.append(" '").append(a.replace("'", "'\\''")).append('\'');
    }
    Process p = new ProcessBuilder("/bin/bash", "-c", cmd.toString()).redirectErrorStream(true).start();
    String out;
    try {
      out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      assertTrue(p.waitFor(5, TimeUnit.MINUTES), "child did not finish");
    } finally {
      p.destroyForcibly();
    }
    assertEquals(0, p.exitValue(), out);
    String[] lines = out.split("\n");
    return lines[lines.length - 1];
  }

  /** The number of parameters {@code big/w<i>} of the model at {@code model}. */
  static int count(Path model) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"));
        var s = Files.list(fs.getPath("/params/big"))) {
      return (int) s.count();
    }
  }
}
