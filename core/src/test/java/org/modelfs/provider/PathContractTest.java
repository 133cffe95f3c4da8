package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.SamediffFileAttributeView;

/**
 * Issue 29 item 5, one test per door, each as the JDK, jdk.zipfs or POSIX does it
 * (docs/FILESYSTEM.md §2, §4, §7, §7.3, §9); {@link PathDifferentialTest} finds the next door.
 */
class PathContractTest {
  @TempDir Path tmp;

  private FileSystem mount() throws IOException {
    return ModelFileSystems.open(ProviderTestModels.copy(tmp, "mlp_adam.sdz"), Map.of("format", "sdz"));
  }

  private static void commit(FileSystem fs) throws IOException {
    ((JournaledFileSystem) fs).commit();
  }

  private static List<String> walk(Path p) throws IOException {
    List<String> out = new ArrayList<>();
    try (Stream<Path> s = Files.walk(p)) {
      s.forEach(x -> out.add(p.relativize(x).toString()));
    }
    return out;
  }

  // ---- 1. a deleted name is free for every route that creates one --------------------------------

  @ParameterizedTest(name = "REPLACE_EXISTING {0}")
  @ValueSource(booleans = {false, true})
  void moveOntoAParameterDeletedInTheSessionFillsIt(boolean replace) throws IOException {
    byte[] w = new byte[128];
    w[0] = 7;
    try (FileSystem fs = mount()) {
      Path p = fs.getPath("/params/layer0/W");
      Path t = Files.write(fs.getPath("/params/tmp"), w);
      Files.delete(p);
      assertFalse(Files.exists(p));
      if (replace) {
        Files.move(t, p, StandardCopyOption.REPLACE_EXISTING);
      } else {
        Files.move(t, p);
      }
      assertFalse(Files.exists(t));
      assertArrayEquals(w, Files.readAllBytes(p));
      // it is the graph's layer0/W again: its declared shape, its op (matmul) still has it
      assertArrayEquals(new long[] {4, 8}, (long[]) Files.getAttribute(p, "samediff:shape"));
      commit(fs);
      assertArrayEquals(w, Files.readAllBytes(p));
      assertTrue(Files.readString(fs.getPath("/graph.json")).contains("\"layer0/W\""));
    }
  }

  @Test
  void moveOfADirectoryOntoDeletedParametersNoOpUses() throws IOException {
    try (FileSystem fs = mount()) {
      Files.write(fs.getPath("/params/new/x"), new byte[8]);
      Files.write(fs.getPath("/params/other/x"), new byte[4]);
      Files.move(fs.getPath("/params/other"), fs.getPath("/params/used"));
      commit(fs);
      Files.delete(fs.getPath("/params/used/x")); // a committed parameter no op uses
      Files.delete(fs.getPath("/params/used"));
      Files.move(fs.getPath("/params/new"), fs.getPath("/params/used"));
      assertEquals(8, Files.size(fs.getPath("/params/used/x")));
      commit(fs);
      assertEquals(8, Files.size(fs.getPath("/params/used/x")));
    }
  }

  @Test
  void aDirectoryMoveOntoADeletedParameterAnOpUsesSaysWhich() throws IOException {
    try (FileSystem fs = mount()) {
      Files.write(fs.getPath("/params/new/W"), new byte[128]);
      Files.delete(fs.getPath("/params/layer0/W"));
      Files.delete(fs.getPath("/params/layer0/b"));
      Files.delete(fs.getPath("/params/layer0"));
      IOException e = assertThrows(IOException.class, () -> Files.move(fs.getPath("/params/new"),
          fs.getPath("/params/layer0")));
      assertTrue(e.getMessage().contains("matmul"), e.getMessage());
      ((JournaledFileSystem) fs).rollback();
    }
  }

  /** jdk.zipfs writes a zip back by writing a temporary beside it, deleting it, moving the temporary over it. */
  @Test
  void jdkZipfsWritesBackAZipKeptInAModel() throws IOException {
    Path model = ProviderTestModels.copy(tmp, "mlp_adam.sdnb");
    Path empty = tmp.resolve("empty.zip");
    try (FileSystem z = FileSystems.newFileSystem(empty, Map.of("create", "true"))) {
      Files.writeString(z.getPath("/first.txt"), "one");
    }
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("format", "sdnb"))) {
      Path zip = fs.getPath("/params/archive.zip");
      try (var ch = Files.newByteChannel(zip, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
          ModelFileSystems.attribute("dtype", "BYTE"))) {
        ch.write(ByteBuffer.wrap(Files.readAllBytes(empty)));
      }
      commit(fs);
      for (int round = 0; round < 2; round++) {
        try (FileSystem z = FileSystems.newFileSystem(zip, Map.of())) {
          Files.writeString(z.getPath("/round" + round + ".txt"), "r" + round);
        }
        commit(fs);
      }
      assertEquals("BYTE", Files.getAttribute(zip, "samediff:dtype"));
      try (FileSystem z = FileSystems.newFileSystem(zip, Map.of())) {
        assertEquals("one", Files.readString(z.getPath("/first.txt")));
        assertEquals("r1", Files.readString(z.getPath("/round1.txt")));
      }
    }
  }

  /**
   * The issue's own flow: jdk.zipfs makes the zip inside the mount ({@code create=true}); a new
   * file is FLOAT (FILESYSTEM.md §7), so it is given its shape and dtype before the commit.
   */
  @Test
  void jdkZipfsMakesAZipInsideAMount() throws IOException {
    Path model = ProviderTestModels.copy(tmp, "mlp_adam.sdnb");
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("format", "sdnb"))) {
      Path zip = fs.getPath("/params/made.zip");
      try (FileSystem z = FileSystems.newFileSystem(zip, Map.of("create", "true"))) {
        Files.writeString(z.getPath("/a.txt"), "made by zipfs");
      }
      try (FileSystem z = FileSystems.newFileSystem(zip, Map.of())) { // written back in the same session
        Files.writeString(z.getPath("/b.txt"), "and again");
      }
      Files.setAttribute(zip, "samediff:shape", new long[] {Files.size(zip)});
      Files.setAttribute(zip, "samediff:dtype", "BYTE");
      commit(fs);
      try (FileSystem z = FileSystems.newFileSystem(zip, Map.of())) {
        assertEquals("made by zipfs", Files.readString(z.getPath("/a.txt")));
        assertEquals("and again", Files.readString(z.getPath("/b.txt")));
      }
    }
  }

  /** Found by PathDifferentialTest (seed 29): two empty parameters shared the key of an empty byte range. */
  @Test
  void twoEmptyParametersAreTwoFiles() throws IOException {
    try (FileSystem fs = mount()) {
      Path a = Files.createFile(fs.getPath("/params/a"));
      Path b = Files.createFile(fs.getPath("/params/b"));
      commit(fs);
      assertFalse(Files.isSameFile(a, b));
      assertThrows(FileAlreadyExistsException.class, () -> Files.copy(a, b));
      Files.createLink(fs.getPath("/params/c"), a);
      assertTrue(Files.isSameFile(a, fs.getPath("/params/c")));
      ((JournaledFileSystem) fs).rollback();
    }
  }

  // ---- 2. open options as the JDK checks them ----------------------------------------------------

  @Test
  void openOptionsTheJdkRefusesAreRefused() throws IOException {
    Path disk = Files.writeString(tmp.resolve("ref.txt"), "x");
    try (FileSystem fs = mount()) {
      Path p = Files.writeString(fs.getPath("/metadata/k"), "abc");
      for (Path q : List.of(disk, p)) {
        IllegalArgumentException a = assertThrows(IllegalArgumentException.class, () -> Files.newByteChannel(q,
            StandardOpenOption.WRITE, StandardOpenOption.APPEND, StandardOpenOption.TRUNCATE_EXISTING));
        assertEquals("APPEND + TRUNCATE_EXISTING not allowed", a.getMessage());
        IllegalArgumentException b = assertThrows(IllegalArgumentException.class,
            () -> FileChannel.open(q, StandardOpenOption.READ, StandardOpenOption.APPEND));
        assertEquals("READ + APPEND not allowed", b.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Files.newOutputStream(q, StandardOpenOption.APPEND,
            StandardOpenOption.TRUNCATE_EXISTING));
        assertThrows(UnsupportedOperationException.class, () -> Files.newInputStream(q, StandardOpenOption.APPEND));
        assertThrows(UnsupportedOperationException.class, () -> Files.newByteChannel(q, Set.<OpenOption>of(
            new OpenOption() { })));
      }
      assertEquals("abc", Files.readString(p)); // nothing truncated
    }
  }

  @Test
  void aWriteOnlyChannelCannotBeRead() throws IOException {
    try (FileSystem fs = mount()) {
      for (Path p : List.of(fs.getPath("/metadata/k"), fs.getPath("/params/layer0/W"))) {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
          assertThrows(NonReadableChannelException.class, () -> ch.read(ByteBuffer.allocate(1)));
          assertThrows(NonReadableChannelException.class, () -> ch.read(ByteBuffer.allocate(1), 0));
          assertThrows(NonReadableChannelException.class, () -> ch.map(FileChannel.MapMode.READ_ONLY, 0, 0));
          assertThrows(NonReadableChannelException.class, () -> ch.transferTo(0, 1, sink()));
          assertThrows(NonReadableChannelException.class, () -> ch.lock(0, 1, true));
        }
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
          ch.read(ByteBuffer.allocate(1), 0); // READ + WRITE reads
        }
      }
      ((JournaledFileSystem) fs).rollback();
    }
  }

  private static WritableByteChannel sink() {
    return Channels.newChannel(OutputStream.nullOutputStream());
  }

  // ---- 3. times and the file store ---------------------------------------------------------------

  @Test
  void timesAreAcceptedAndNotStored() throws IOException {
    FileTime t = FileTime.fromMillis(1_500_000_000_000L);
    try (FileSystem fs = mount()) {
      Path w = fs.getPath("/params/layer0/W");
      FileTime before = Files.getLastModifiedTime(w);
      Files.setLastModifiedTime(w, t);
      Files.setAttribute(w, "lastModifiedTime", t);
      Files.setAttribute(w, "basic:lastAccessTime", t);
      Files.setAttribute(w, "samediff:creationTime", t);
      Files.getFileAttributeView(w, BasicFileAttributeView.class).setTimes(t, t, t);
      Files.getFileAttributeView(w, SamediffFileAttributeView.class).setTimes(null, null, null);
      assertEquals(before, Files.getLastModifiedTime(w)); // the container's, as documented
      assertFalse(((JournaledFileSystem) fs).hasPendingChanges());
      assertThrows(NoSuchFileException.class, () -> Files.setLastModifiedTime(fs.getPath("/params/none"), t));
      assertThrows(ClassCastException.class, () -> Files.setAttribute(w, "lastModifiedTime", "yesterday"));
      assertThrows(IllegalArgumentException.class, () -> Files.setAttribute(w, "basic:size", 3L));
      assertThrows(UnsupportedOperationException.class, () -> Files.setAttribute(w, "posix:permissions", Set.of()));
    }
  }

  @Test
  void copyWithCopyAttributesFromDiskAndBackWorks() throws IOException {
    Path disk = Files.writeString(tmp.resolve("note.txt"), "from disk");
    Files.setLastModifiedTime(disk, FileTime.fromMillis(1_400_000_000_000L));
    try (FileSystem fs = mount()) {
      Path m = fs.getPath("/metadata/note");
      Files.copy(disk, m, StandardCopyOption.COPY_ATTRIBUTES);
      Files.copy(disk, m, StandardCopyOption.COPY_ATTRIBUTES, StandardCopyOption.REPLACE_EXISTING);
      assertEquals("from disk", Files.readString(m));
      Path back = Files.copy(m, tmp.resolve("back.txt"), StandardCopyOption.COPY_ATTRIBUTES);
      assertEquals("from disk", Files.readString(back));
      commit(fs);
      assertEquals("from disk", Files.readString(m));
    }
  }

  @ParameterizedTest(name = "readOnly {0}")
  @ValueSource(booleans = {false, true})
  void getFileStoreIsTheStoreGetFileStoresLists(boolean readOnly) throws IOException {
    Path model = ProviderTestModels.copy(tmp, "mlp_adam.fb");
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", readOnly))) {
      FileStore listed = fs.getFileStores().iterator().next();
      for (String p : List.of("/", "/tags/default", "/params/layer0/W", "/graph.json", "/metadata")) {
        assertEquals(listed, Files.getFileStore(fs.getPath(p)), p);
      }
      assertThrows(NoSuchFileException.class, () -> Files.getFileStore(fs.getPath("/params/none")));
      assertEquals(model.toString(), listed.name());
      assertEquals("samediff", listed.type());
      assertEquals(readOnly, listed.isReadOnly());
      FileStore disk = Files.getFileStore(model);
      assertEquals(disk.getTotalSpace(), listed.getTotalSpace());
      assertEquals(disk.getTotalSpace(), listed.getAttribute("totalSpace"));
      assertTrue(listed.getUsableSpace() > 0);
      assertEquals(disk.getBlockSize(), listed.getBlockSize());
      assertTrue(listed.supportsFileAttributeView("samediff"));
      assertTrue(listed.supportsFileAttributeView(SamediffFileAttributeView.class));
      assertFalse(listed.supportsFileAttributeView("posix"));
      UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
          () -> listed.getAttribute("zfs:compression"));
      assertNotNull(e.getMessage());
    }
  }

  @Test
  void theStoreOfAModelNotYetWrittenIsItsDirectorys() throws IOException {
    try (FileSystem fs = ModelFileSystems.open(tmp.resolve("new.sdnb"), Map.of("create", "true"))) {
      FileStore s = Files.getFileStore(fs.getPath("/"));
      assertEquals(Files.getFileStore(tmp).getTotalSpace(), s.getTotalSpace());
    }
  }

  // ---- 4. a name and a longer one, in either order ---------------------------------------------

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"/metadata", "/params"})
  void aNameBesideALongerOneInEitherOrder(String area) throws IOException {
    try (FileSystem fs = mount()) {
      Path top = fs.getPath(area);
      // the longer name first, then the shorter: the directory its name implies gives way
      Files.write(top.resolve("x/y"), bytes("1234"));
      assertTrue(Files.isDirectory(top.resolve("x")));
      Files.write(top.resolve("x"), bytes("abcd"), StandardOpenOption.CREATE_NEW);
      assertTrue(Files.isRegularFile(top.resolve("x")));
      assertEquals("1234", new String(Files.readAllBytes(top.resolve("x/y")), StandardCharsets.UTF_8));
      assertTrue(walk(top).containsAll(List.of("x", "x%2Fy")), walk(top).toString());
      // the same through a copy and a move of the model's own files
      Files.write(top.resolve("p/q"), bytes("5678"));
      Files.copy(top.resolve("x"), top.resolve("p"));
      Files.write(top.resolve("m/n"), bytes("9abc"));
      Path src = Files.write(top.resolve("src"), bytes("defg"));
      Files.move(src, top.resolve("m"));
      // the shorter name first, then the longer through its one-segment spelling
      Files.write(top.resolve("s"), bytes("hijk"));
      Files.write(top.resolve("s%2Ft"), bytes("lmno"));
      commit(fs);
      for (String[] kv : new String[][] {{"x", "abcd"}, {"x/y", "1234"}, {"p", "abcd"}, {"p/q", "5678"},
          {"m", "defg"}, {"m/n", "9abc"}, {"s", "hijk"}, {"s/t", "lmno"}}) {
        assertEquals(kv[1], new String(Files.readAllBytes(top.resolve(kv[0])), StandardCharsets.UTF_8), kv[0]);
      }
    }
  }

  @Test
  void aParameterNamedLikeADirectoryOfParameters() throws IOException {
    try (FileSystem fs = mount()) {
      Path layer0 = fs.getPath("/params/layer0");
      Files.copy(fs.getPath("/params/layer1/W"), layer0); // beside layer0/W and layer0/b
      assertEquals(Files.size(fs.getPath("/params/layer1/W")), Files.size(layer0));
      assertTrue(Files.isRegularFile(fs.getPath("/params/layer0%2FW")));
      commit(fs);
      assertTrue(Files.isRegularFile(layer0));
      assertEquals(128, Files.size(fs.getPath("/params/layer0/W")));
    }
  }

  @Test
  void aDirectoryKeptOrMadeStaysInTheWayAsOnPosix() throws IOException {
    try (FileSystem fs = mount()) {
      Path d = Files.createDirectory(fs.getPath("/metadata/d"));
      assertThrows(IOException.class, () -> Files.write(d, bytes("x")));
      Files.write(fs.getPath("/metadata/e/f"), bytes("1"));
      // a directory only names imply still exists for a look and for the JDK's own no-clobber check
      assertTrue(Files.exists(fs.getPath("/metadata/e")));
      assertThrows(FileAlreadyExistsException.class, () -> Files.createDirectory(fs.getPath("/metadata/e")));
      // a directory made below it keeps it a directory: a file there would hide what is made in it
      Files.createDirectories(fs.getPath("/metadata/g/h"));
      assertThrows(IOException.class, () -> Files.write(fs.getPath("/metadata/g"), bytes("x")));
      // and no directory is made that could not list its files (x%2Fz beside the file x)
      Files.write(fs.getPath("/metadata/x"), bytes("x"));
      IOException e = assertThrows(IOException.class, () -> Files.createDirectory(fs.getPath("/metadata/x%2Fz")));
      assertTrue(e.getMessage().contains("x%2Fz%2F"), e.getMessage());
      Files.write(fs.getPath("/metadata/x%2Fz%2Fk"), bytes("k"));
      assertEquals("k", Files.readString(fs.getPath("/metadata/x/z/k")));
      ((JournaledFileSystem) fs).rollback();
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
