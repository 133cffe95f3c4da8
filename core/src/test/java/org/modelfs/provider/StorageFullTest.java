package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.io.StorageFullException;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.JournalException;
import org.modelfs.store.ModelFiles;

/**
 * Issue 15, messages: a write that meets a full device (a 1 MiB tmpfs, where the test may mount
 * one) or the file size limit ({@code ulimit -f}, in a child JVM) says which file, what it is,
 * which model, how far it got and how much room there is, as a {@link StorageFullException}
 * keeping the C library's text as its cause; a journal that vanished under a mount is named as
 * the journal of that model and path ({@link JournalException}), not by a bare path.
 */
class StorageFullTest {
  @TempDir Path tmp;

  private static Path sdnb(Path dir) throws IOException {
    Path out = dir.resolve("m.sdnb");
    try (Model m = Models.open(ProviderTestModels.EXAMPLE)) {
      ModelFiles.write(m.newest(), out, WriteOptions.of(ModelFormat.SDNB));
    }
    return out;
  }

  @Test
  void aFullDeviceWhileWritingAJournalFileSaysWhichFileOfWhichModel() throws Exception {
    Path dir = tmpfs();
    try {
      Path model = sdnb(dir);
      try (FileSystem fs = ModelFileSystems.open(model, Map.of("commitOnClose", "false"))) {
        IOException e = assertThrows(IOException.class, () -> Files.write(fs.getPath("/params/big"), new byte[2 << 20]));
        StorageFullException full = assertInstanceOf(StorageFullException.class, e, e.toString());
        assertEquals(StorageFullException.Limit.NO_SPACE, full.limit());
        String m = full.getMessage();
        assertTrue(m.contains("no space left on device while writing the journal file of /params/big of the model "
            + model), m);
        assertTrue(m.matches("(?s).*about \\d+ more bytes to write, \\d+ usable on the file system of .*"), m);
        assertTrue(full.getFile().contains(".m.sdnb.modelfs-journal-"), full.getFile());
        assertTrue(full.getCause().getMessage().contains("No space left on device"), full.getCause().toString());
      }
    } finally {
      umount(dir);
    }
  }

  /**
   * A write that met a full device leaves the file as it was: closing the channel installs
   * nothing (and says so), so a commit — here the one of close() — never makes half-written
   * bytes a parameter's (before: the partial bytes were installed and committed).
   */
  @Test
  void aFailedWriteInstallsNothingAndTheCommitKeepsTheOldParameter() throws Exception {
    Path dir = tmpfs();
    try {
      Path model = sdnb(dir);
      byte[] old;
      String param;
      try (FileSystem fs = ModelFileSystems.open(model)) {
        try (Stream<Path> files = Files.walk(fs.getPath("/params"))) {
          param = files.filter(Files::isRegularFile).findFirst().orElseThrow().toString();
        }
        old = Files.readAllBytes(fs.getPath(param));
        IOException e = assertThrows(IOException.class, () -> Files.write(fs.getPath(param), new byte[2 << 20]));
        assertInstanceOf(StorageFullException.class, e, e.toString());
        Throwable[] closing = e.getSuppressed();
        assertEquals(1, closing.length, "closing the stream reports that nothing was installed: " + e);
        assertTrue(closing[0].getMessage().contains("its new bytes were not installed"), closing[0].getMessage());
        assertTrue(Arrays.equals(old, Files.readAllBytes(fs.getPath(param))), "the mount shows the old bytes");
      }
      try (FileSystem fs = ModelFileSystems.open(model)) {
        assertTrue(Arrays.equals(old, Files.readAllBytes(fs.getPath(param))), "the commit kept the old bytes");
      }
    } finally {
      umount(dir);
    }
  }

  /**
   * Two write channels on one path share one journal file: when a write of one fails, the
   * other's close installs nothing either (the shared file holds the failed write's bytes).
   */
  @Test
  void aFailedWriteAlsoStopsTheOtherChannelOnThePath() throws Exception {
    Path dir = tmpfs();
    try {
      Path model = sdnb(dir);
      try (FileSystem fs = ModelFileSystems.open(model, Map.of("commitOnClose", "false"))) {
        String param;
        try (Stream<Path> files = Files.walk(fs.getPath("/params"))) {
          param = files.filter(Files::isRegularFile).findFirst().orElseThrow().toString();
        }
        byte[] old = Files.readAllBytes(fs.getPath(param));
        var a = Files.newByteChannel(fs.getPath(param), StandardOpenOption.WRITE);
        var b = Files.newByteChannel(fs.getPath(param), StandardOpenOption.WRITE);
        ByteBuffer big = ByteBuffer.allocate(2 << 20);
        assertThrows(StorageFullException.class, () -> {
          while (big.hasRemaining()) {
            a.write(big);
          }
        });
        IOException closingA = assertThrows(IOException.class, a::close);
        assertTrue(closingA.getMessage().contains("its new bytes were not installed"), closingA.getMessage());
        IOException closingB = assertThrows(IOException.class, b::close);
        assertTrue(closingB.getMessage().contains("its new bytes were not installed"), closingB.getMessage());
        assertTrue(Arrays.equals(old, Files.readAllBytes(fs.getPath(param))), "the mount shows the old bytes");
      }
    } finally {
      umount(dir);
    }
  }

  @Test
  void aFullDeviceWhileWritingTheNewContainerSaysSoAndReplacesNothing() throws Exception {
    Path dir = tmpfs();
    try {
      Path model = sdnb(dir);
      byte[] before = Files.readAllBytes(model);
      FileSystem fs = ModelFileSystems.open(model);
      Files.write(fs.getPath("/params/big"), new byte[600_000]); // the journal fits; journal + container do not
      IOException e = assertThrows(IOException.class, fs::close);
      StorageFullException full = find(e);
      String m = full.getMessage();
      assertTrue(m.contains("no space left on device while writing the new container m.sdnb of the model " + model
          + " (commit; nothing was replaced)"), m);
      assertTrue(m.matches("(?s).*\\(\\d+ bytes written\\): about \\d+ more bytes to write, \\d+ usable.*"), m);
      assertTrue(Stream.of(e.getMessage(), String.valueOf(e.getCause())).anyMatch(s -> s.contains("no space left")),
          "the refusal says why: " + e);
      assertEquals(List.of(model.getFileName().toString()), names(dir), "temporaries and journal removed");
      assertTrue(Arrays.equals(before, Files.readAllBytes(model)), "the model is unchanged");
    } finally {
      umount(dir);
    }
  }

  @Test
  void theFileSizeLimitWhileWritingAJournalFileSaysWhatWasWritten() throws Exception {
    List<String> out = child(sdnb(tmp), 512, "1000000");
    assertEquals(StorageFullException.class.getName(), out.get(0), out.toString());
    assertTrue(out.get(1).contains("file too large while writing the journal file of /params/big of the model "
        + tmp.resolve("m.sdnb")), out.get(1));
    assertTrue(out.get(1).contains("the largest size this process may write (ulimit -f)"), out.get(1));
    assertEquals("File too large", out.get(2));
  }

  @Test
  void theFileSizeLimitWhileWritingTheNewContainerSaysWhichContainer() throws Exception {
    List<String> out = child(sdnb(tmp), 512, "400000", "400000"); // each journal file fits, the container does not
    assertEquals(StorageFullException.class.getName(), out.get(0), out.toString());
    assertTrue(out.get(1).contains("file too large while writing the new container m.sdnb of the model "
        + tmp.resolve("m.sdnb")), out.get(1));
    assertEquals("File too large", out.get(2));
  }

  @Test
  void aJournalRemovedUnderAMountIsNamedAsTheJournalOfThatModel() throws Exception {
    Path model = sdnb(tmp);
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("commitOnClose", "false"))) {
      Files.write(fs.getPath("/params/a"), new byte[8]);
      Path journal;
      try (Stream<Path> s = Files.list(tmp)) {
        journal = s.filter(p -> p.getFileName().toString().startsWith(".m.sdnb.modelfs-journal-")).findFirst().orElseThrow();
      }
      try (Stream<Path> s = Files.list(journal)) {
        for (Path p : s.toList()) {
          Files.delete(p);
        }
      }
      Files.delete(journal);
      IOException e = assertThrows(IOException.class, () -> Files.write(fs.getPath("/params/b"), new byte[8]));
      JournalException j = assertInstanceOf(JournalException.class, e, e.toString());
      assertTrue(j.getMessage().contains("creating the journal file of /params/b of the model " + model), j.getMessage());
      assertTrue(j.getMessage().contains("the journal directory was removed or replaced"), j.getMessage());
      assertFalse(j.getMessage().startsWith(journal.toString() + "/") && j.getReason() == null, j.getMessage());
    }
  }

  private static StorageFullException find(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof StorageFullException s) {
        return s;
      }
      for (Throwable sup : t.getSuppressed()) {
        if (sup instanceof StorageFullException s) {
          return s;
        }
      }
    }
    throw new AssertionError("no StorageFullException in " + e, e);
  }

  private static List<String> names(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).filter(n -> !n.equals("lost+found")).sorted().toList();
    }
  }

  /** Runs {@link StorageFullMain} under {@code ulimit -f <kib>}; returns its output lines. */
  private static List<String> child(Path model, int kib, String... sizes) throws Exception {
    StringBuilder cmd = new StringBuilder("ulimit -f " + kib + " && exec '" + Path.of(System.getProperty("java.home"),
        "bin", "java") + "' -Xmx256m -cp '" + System.getProperty("java.class.path") + "' "
        + StorageFullMain.class.getName() + " '" + model + "'");
    for (String s : sizes) {
      cmd.append(' ').append(s);
    }
    Process p = new ProcessBuilder("bash", "-c", cmd.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
    return List.of(out.split("\n"));
  }

  /** A fresh 1 MiB tmpfs below the test directory; the test is skipped where none can be mounted. */
  private Path tmpfs() throws Exception {
    Path dir = Files.createDirectory(tmp.resolve("tmpfs"));
    Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", dir.toString())
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assumeTrue(p.waitFor() == 0, "cannot mount a tmpfs here: " + out);
    return dir;
  }

  private static void umount(Path dir) throws Exception {
    new ProcessBuilder("umount", dir.toString()).inheritIO().start().waitFor();
  }
}
