package org.modelfs.provider;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import org.modelfs.store.ModelFiles;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ModelFormat;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.Model;
import org.modelfs.testing.Fixtures;
import org.modelfs.testing.ModelTsv;
import org.modelfs.testing.Sidecars;
import org.modelfs.testing.TreeTsv;

/**
 * Journaled writes and commit through {@code Files.*} only (docs/FILESYSTEM.md §7): one parameter of
 * every fixture in every format changed and committed shows the new bytes after reopening, and
 * everything else stays byte-identical; reads see the journal at once; a failed validation
 * writes nothing and keeps the changes; one writer per container.
 */
class WriteCommitTest {
  @TempDir Path tmp;

  /** Mounts a copy of the fixture in the case's format; returns the copy's path. */
  private Path prepare(String fixture, WriteOptions opts, String outName) throws IOException {
    Path fb = Fixtures.get(fixture);
    Path dir = Files.createDirectories(tmp.resolve("m"));
    if (opts == null) {
      return Files.copy(fb, dir.resolve("model.fb"));
    }
    try (Model m = Models.open(fb)) {
      ModelFiles.write(m.newest(), dir.resolve(outName), opts);
    }
    return dir.resolve(outName);
  }

  @ParameterizedTest(name = "{0} as {1}")
  @MethodSource("org.modelfs.provider.FixtureTreeTest#cases")
  void changingOneParameterChangesOnlyIt(String fixture, String target, WriteOptions opts, String outName)
      throws Exception {
    Path model = prepare(fixture, opts, outName);
    String before;
    Path changed;
    byte[] newBytes;
    try (FileSystem fs = ModelFileSystems.open(model)) {
      before = TreeTsv.of(fs.getPath("/tags/default"));
      changed = firstNonEmptyParam(fs);
      if (changed == null) {
        return; // a fixture without stored arrays
      }
      byte[] old = Files.readAllBytes(changed);
      newBytes = old.clone();
      Object dtype = Files.getAttribute(changed, "samediff:dtype");
      for (int i = 0; i < newBytes.length; i++) {
        newBytes[i] = (byte) (old[i] ^ (0x5a + i));
        if ("BOOL".equals(dtype)) {
          newBytes[i] = (byte) (old[i] ^ 1); // a BOOL byte is 0 or 1 (model.ArrayRules.Values)
        } else if ("HALF".equals(dtype) && (i % 2 == 1 || (old[i + 1] & 0x7C) == 0x7C)) {
          newBytes[i] = old[i]; // only the low mantissa bits of a finite HALF change: no NaN payload
        }
      }
      Files.write(changed, newBytes);
      assertArrayEquals(newBytes, Files.readAllBytes(changed), "reads see the journal at once");
      assertEquals("journal", Files.getAttribute(changed, "samediff:stored"));
      assertTrue(((JournaledFileSystem) fs).hasPendingChanges());
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Path p = fs.getPath(changed.toString());
      assertArrayEquals(newBytes, Files.readAllBytes(p), fixture + " as " + target);
      assertEquals(withoutLine(before, p), withoutLine(TreeTsv.of(fs.getPath("/tags/default")), p));
    }
    try (Stream<Path> s = Files.list(model.getParent())) {
      List<String> names = s.map(x -> x.getFileName().toString()).filter(n -> n.startsWith(".")).sorted().toList();
      assertTrue(names.stream().allMatch(n -> n.endsWith(".modelfs-lock")), "only the lock file stays: " + names);
    }
  }

  private static Path firstNonEmptyParam(FileSystem fs) throws IOException {
    try (Stream<Path> s = Files.walk(fs.getPath("/tags/default/params"))) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        if (Files.size(p) > 0 && !"UTF8".equals(Files.getAttribute(p, "samediff:dtype"))) {
          return p;
        }
      }
    }
    return null;
  }

  /** The TSV without the line of the parameter at {@code p}. */
  private static String withoutLine(String tsv, Path p) {
    String name = TreeTsv.name(p.getFileSystem().getPath("/tags/default/params").relativize(p));
    StringBuilder sb = new StringBuilder();
    for (String line : tsv.split("\n")) {
      if (!line.split("\t")[1].equals(name)) {
        sb.append(line).append('\n');
      }
    }
    return sb.toString();
  }

  private Path sdnb() throws IOException {
    return prepare("mlp_adam.fb", WriteOptions.of(ModelFormat.SDNB), "m.sdnb");
  }

  @Test
  void aFailedValidationWritesNothingAndKeepsTheJournal() throws Exception {
    Path model = sdnb();
    byte[] container = Files.readAllBytes(model);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Path w = fs.getPath("/params/layer0/W");
      Files.write(w, new byte[] {1, 2, 3}); // FLOAT[4, 8] needs 128 bytes
      IOException e = assertThrows(IOException.class, () -> ((JournaledFileSystem) fs).commit());
      assertTrue(e.getMessage().contains("/tags/default/params/layer0/W: holds 3 bytes, but FLOAT[4, 8] needs 128"),
          e.getMessage());
      assertArrayEquals(container, Files.readAllBytes(model), "container untouched");
      assertTrue(((JournaledFileSystem) fs).hasPendingChanges(), "changes kept");
      assertEquals(3, Files.size(w));
      assertEquals(1, Sidecars.journals(model).size(), "journal kept");
      // commit() is where a refused change is fixed and retried (close() would discard it)
      Files.setAttribute(w, "samediff:shape", new long[] {3});
      Files.setAttribute(w, "samediff:dtype", "UBYTE");
      IOException stale = assertThrows(IOException.class, () -> ((JournaledFileSystem) fs).commit());
      assertTrue(stale.getMessage().contains("/tags/default/updater/layer0/W/M: shape [4, 8] differs from its"
          + " parameter's [3]"), stale.getMessage()); // Adam's state keeps the parameter's shape
      Files.delete(fs.getPath("/updater/layer0/W/M"));
      Files.delete(fs.getPath("/updater/layer0/W/V"));
      ((JournaledFileSystem) fs).commit();
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Path w = fs.getPath("/params/layer0/W");
      assertEquals("UBYTE", Files.getAttribute(w, "samediff:dtype"));
      assertArrayEquals(new long[] {3}, (long[]) Files.getAttribute(w, "samediff:shape"));
      assertArrayEquals(new byte[] {1, 2, 3}, Files.readAllBytes(w));
    }
  }

  @Test
  void closeAfterARefusedCommitClosesDiscardsAndReleases() throws Exception {
    Path model = sdnb();
    byte[] container = Files.readAllBytes(model);
    FileSystem fs = ModelFileSystems.open(model);
    Files.write(fs.getPath("/params/layer0/W"), new byte[] {1, 2, 3});
    IOException e = assertThrows(IOException.class, fs::close, "close commits and fails the same way");
    assertTrue(e.getMessage().contains("discarded") && e.getMessage().contains("holds 3 bytes"), e.getMessage());
    assertFalse(fs.isOpen(), "close() always closes");
    assertArrayEquals(container, Files.readAllBytes(model), "container untouched");
    assertEquals(List.of(), Sidecars.of(model), "no journal, no lock file left");
    try (FileSystem again = ModelFileSystems.open(model)) {
      Files.writeString(again.getPath("/metadata/x"), "the lock was released"); // a new writer gets it
    }
  }

  @Test
  void rollbackForgetsAndCloseWithoutChangesWritesNothing() throws Exception {
    Path model = sdnb();
    byte[] container = Files.readAllBytes(model);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      byte[] old = Files.readAllBytes(fs.getPath("/params/layer0/b"));
      Files.write(fs.getPath("/params/layer0/b"), new byte[32]);
      Files.writeString(fs.getPath("/metadata/note"), "x");
      ((JournaledFileSystem) fs).rollback();
      assertArrayEquals(old, Files.readAllBytes(fs.getPath("/params/layer0/b")));
      assertFalse(Files.exists(fs.getPath("/metadata/note")));
    }
    assertArrayEquals(container, Files.readAllBytes(model));
  }

  @Test
  void metadataTrainingUpdaterAndNewParameters() throws Exception {
    Path model = sdnb();
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Files.writeString(fs.getPath("/metadata/author"), "ünï");
      Files.writeString(fs.getPath("/tags/default/training.json"), "{\"x\":1,\"updater\":{\"@class\":\"org.nd4j.linalg.learning.config.Adam\"}}");
      Files.delete(fs.getPath("/updater/layer0/W/M")); // the whole state of a parameter (Adam: M and V)
      Files.delete(fs.getPath("/updater/layer0/W/V"));
      try (var ch = Files.newByteChannel(fs.getPath("/params/extra/bias"),
          Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
          ModelFileSystems.attribute("dtype", "DOUBLE"), ModelFileSystems.attribute("shape", new long[] {3}))) {
        ch.write(ByteBuffer.allocate(24));
      }
      Files.copy(fs.getPath("/params/layer1/W"), fs.getPath("/params/layer1/W_copy"));
      Files.move(fs.getPath("/params/layer1/W_copy"), fs.getPath("/params/moved"));
      Files.copy(fs.getPath("/params/moved"), fs.getPath("/params/layer1/W_copy"));
      Files.delete(fs.getPath("/params/sd_var")); // a graph variable: loses its array only
      IOException e = assertThrows(IOException.class, () -> ((JournaledFileSystem) fs).commit());
      assertTrue(e.getMessage().contains("/tags/default/params/sd_var: deleted, but op softmax_cross_entropy_loss uses it")
          && !e.getMessage().contains("has no array"), e.getMessage()); // one line: the second clause only repeated it
      Files.write(fs.getPath("/params/sd_var"), new byte[4]); // back, with its kind and shape []
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      assertEquals("ünï", Files.readString(fs.getPath("/metadata/author")));
      assertEquals("{\"x\":1,\"updater\":{\"@class\":\"org.nd4j.linalg.learning.config.Adam\"}}", Files.readString(fs.getPath("/training.json")));
      assertFalse(Files.exists(fs.getPath("/updater/layer0/W/M")));
      assertFalse(Files.exists(fs.getPath("/updater/layer0/W/V")));
      assertEquals("DOUBLE", Files.getAttribute(fs.getPath("/params/extra/bias"), "samediff:dtype"));
      assertArrayEquals(Files.readAllBytes(fs.getPath("/params/layer1/W")),
          Files.readAllBytes(fs.getPath("/params/layer1/W_copy")));
      assertArrayEquals(new long[] {8, 3}, (long[]) Files.getAttribute(fs.getPath("/params/layer1/W_copy"), "samediff:shape"));
      assertArrayEquals(new byte[4], Files.readAllBytes(fs.getPath("/params/sd_var")));
      assertEquals("CONSTANT", Files.getAttribute(fs.getPath("/params/sd_var"), "samediff:kind"));
      assertArrayEquals(new long[0], (long[]) Files.getAttribute(fs.getPath("/params/sd_var"), "samediff:shape"));
      assertArrayEquals(Files.readAllBytes(fs.getPath("/params/moved")),
          Files.readAllBytes(fs.getPath("/params/layer1/W_copy")));
    }
  }

  @Test
  void copiesBetweenModelsAndOtherFileSystems() throws Exception {
    Path a = sdnb();
    Path b = Files.copy(a, a.resolveSibling("b.sdnb"));
    Path disk = tmp.resolve("w.bin");
    Files.write(disk, new byte[96]);
    try (FileSystem fa = ModelFileSystems.open(a); FileSystem fb = ModelFileSystems.open(b)) {
      Files.copy(fa.getPath("/params/layer0/W"), fb.getPath("/params/layer0/W_from_a"));
      Files.copy(disk, fb.getPath("/params/layer1/W"), StandardCopyOption.REPLACE_EXISTING);
      Files.copy(fa.getPath("/params/layer0/b"), tmp.resolve("b.bin"));
      assertArrayEquals(Files.readAllBytes(fa.getPath("/params/layer0/b")), Files.readAllBytes(tmp.resolve("b.bin")));
    }
    try (FileSystem fa = ModelFileSystems.open(a); FileSystem fb = ModelFileSystems.open(b)) {
      assertArrayEquals(Files.readAllBytes(fa.getPath("/params/layer0/W")),
          Files.readAllBytes(fb.getPath("/params/layer0/W_from_a")));
      assertArrayEquals(new byte[96], Files.readAllBytes(fb.getPath("/params/layer1/W")));
      assertFalse(Files.exists(fa.getPath("/params/layer0/W_from_a")));
    }
  }

  @Test
  void replacingAParameterFromDiskKeepsItsKindAndShape() throws Exception {
    Path fb = prepare("mlp_adam.fb", null, null);
    Path disk = Files.write(tmp.resolve("w.bin"), new byte[128]);
    try (FileSystem fs = ModelFileSystems.open(fb)) {
      // the JDK deletes the target, then creates it: the graph variable keeps its place and shape
      Files.copy(disk, fs.getPath("/params/layer0/W"), StandardCopyOption.REPLACE_EXISTING);
    }
    try (FileSystem fs = ModelFileSystems.open(fb)) {
      Path w = fs.getPath("/params/layer0/W");
      assertArrayEquals(new byte[128], Files.readAllBytes(w));
      assertArrayEquals(new long[] {4, 8}, (long[]) Files.getAttribute(w, "samediff:shape"));
      assertEquals("VARIABLE", Files.getAttribute(w, "samediff:kind"));
    }
  }

  @Test
  void aWriteChannelLeftOpenAtCloseIsReportedNotLost() throws Exception {
    Path model = sdnb();
    FileSystem fs = ModelFileSystems.open(model);
    SeekableByteChannel ch = Files.newByteChannel(fs.getPath("/metadata/late"),
        StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    ch.write(ByteBuffer.wrap("v".getBytes(StandardCharsets.UTF_8)));
    IOException e = assertThrows(IOException.class, fs::close);
    assertTrue(e.getMessage().contains("were not committed"), e.getMessage());
    assertFalse(fs.isOpen());
    assertFalse(ch.isOpen());
    try (FileSystem again = ModelFileSystems.open(model)) {
      assertFalse(Files.exists(again.getPath("/metadata/late")));
    }
  }

  @Test
  void createMakesANewModel() throws Exception {
    for (String name : new String[] {"new.sdnb", "new.fb", "new.sdz", "new.zip"}) {
      Path model = tmp.resolve(name);
      try (FileSystem fs = ModelFileSystems.open(model, Map.of("create", "true"))) {
        assertEquals(List.of("default"), Files.list(fs.getPath("/tags")).map(p -> p.getFileName().toString()).toList());
        try (var ch = Files.newByteChannel(fs.getPath("/params/layer/W"),
            Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
            ModelFileSystems.attribute("shape", new long[] {2, 2}))) {
          ch.write(ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putFloat(0, 1.5f));
        }
      }
      try (FileSystem fs = ModelFileSystems.open(model)) {
        Path w = fs.getPath("/params/layer/W");
        assertArrayEquals(new long[] {2, 2}, (long[]) Files.getAttribute(w, "samediff:shape"));
        assertEquals(1.5f, ByteBuffer.wrap(Files.readAllBytes(w)).order(ByteOrder.LITTLE_ENDIAN).getFloat(0));
        assertEquals("VARIABLE", Files.getAttribute(w, "samediff:kind"));
      }
    }
    Path empty = tmp.resolve("empty.sdnb");
    try (FileSystem fs = ModelFileSystems.open(empty, Map.of("create", true))) {
      assertTrue(Files.isDirectory(fs.getPath("/tags/default")));
      try (Stream<Path> s = Files.list(fs.getPath("/tags/default"))) {
        assertEquals(0, s.count(), "a new tag is empty until something is written into it");
      }
    }
    assertTrue(Files.size(empty) > 0, "closing writes the new, empty model");
    try (FileSystem fs = ModelFileSystems.open(empty)) {
      assertTrue(Files.isDirectory(fs.getPath("/params")), "a committed tag has params/, updater/, metadata/");
    }
    assertThrows(IllegalArgumentException.class, () -> ModelFileSystems.open(tmp.resolve("x.bin"), Map.of("create", "true")));
  }

  @Test
  void oneWriterPerContainer() throws Exception {
    Path model = sdnb();
    try (FileSystem first = ModelFileSystems.open(model); FileSystem second = ModelFileSystems.open(model)) {
      Files.writeString(first.getPath("/metadata/who"), "first");
      FileSystemException e = assertThrows(FileSystemException.class,
          () -> Files.writeString(second.getPath("/metadata/who"), "second"));
      assertTrue(e.getMessage().contains("another writer"), e.getMessage());
      assertFalse(Files.exists(second.getPath("/metadata/who")), "the second mount still reads the old model");
    }
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      assertEquals("first", Files.readString(fs.getPath("/metadata/who")));
    }
  }

  @Test
  void fbRefusesMetadataAtCommitAndFormatConvertsOnCommit() throws Exception {
    Path fb = prepare("mlp_adam.fb", null, null);
    byte[] container = Files.readAllBytes(fb);
    try (FileSystem fs = ModelFileSystems.open(fb)) {
      Files.writeString(fs.getPath("/metadata/x"), "y");
      IOException e = assertThrows(IOException.class, () -> ((JournaledFileSystem) fs).commit());
      assertTrue(e.getMessage().contains("metadata/x"), e.getMessage());
      ((JournaledFileSystem) fs).rollback();
    }
    assertArrayEquals(container, Files.readAllBytes(fb));
    try (FileSystem fs = ModelFileSystems.open(fb, Map.of("format", "sdnb", "commitOnClose", false))) {
      Files.writeString(fs.getPath("/metadata/x"), "y"); // an SDNB under the .fb name: refused (FILESYSTEM.md, mount options)
      IOException named = assertThrows(IOException.class, () -> ((JournaledFileSystem) fs).commit());
      assertTrue(named.getMessage().contains("option format=sdnb: " + fb.getFileName() + " is named as fb"), named.getMessage());
      ((JournaledFileSystem) fs).rollback();
    }
    assertArrayEquals(container, Files.readAllBytes(fb));
    Path sdnb = Files.move(fb, fb.resolveSibling("m.sdnb"));
    try (FileSystem fs = ModelFileSystems.open(sdnb, Map.of("format", "sdnb"))) {
      Files.writeString(fs.getPath("/metadata/x"), "y");
    }
    assertEquals("SDNB", new String(Arrays.copyOf(Files.readAllBytes(sdnb), 4), StandardCharsets.US_ASCII));
    try (FileSystem fs = ModelFileSystems.open(sdnb)) {
      assertEquals("y", Files.readString(fs.getPath("/metadata/x")));
      assertEquals(TreeTsv.arraysOnly(ModelTsv.read(Fixtures.expected(Fixtures.get("mlp_adam.fb")))),
          TreeTsv.of(fs.getPath("/tags/default")));
    }
  }

  @Test
  void leftoversOfACrashedWriterAreRemovedOnTheNextOpen() throws Exception {
    Path model = sdnb();
    Path lock = Files.createFile(model.resolveSibling(".m.sdnb.modelfs-lock")); // its lock died with it
    Path tmpFile = Files.write(model.resolveSibling(".m.sdnb.modelfs-0123456789abcdef0123456789abcdef.tmp"), new byte[10]);
    Path journal = Files.createDirectories(model.resolveSibling(".m.sdnb.modelfs-journal-00112233445566778899aabbccddeeff"));
    Files.write(journal.resolve("param-1.bin"), new byte[10]);
    // a name of the version before 0.2 (time-based, not provably ours): left where it is
    Path older = Files.write(model.resolveSibling(".m.sdnb.1234abcd.tmp"), new byte[10]);
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      assertTrue(Files.exists(fs.getPath("/params/layer0/W")));
    }
    assertFalse(Files.exists(tmpFile));
    assertFalse(Files.exists(journal));
    assertFalse(Files.exists(lock), "the lock file goes with the lock that recovery took");
    assertTrue(Files.exists(older));
  }
}
