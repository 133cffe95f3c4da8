package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.provider.ProviderTestModels.W;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AccessMode;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.ModelFileSystems;
import org.modelfs.SamediffFileAttributeView;

/**
 * A model mounted with {@code readOnly=true}: every mutating NIO call is refused with
 * {@link ReadOnlyFileSystemException} (or {@link NonWritableChannelException} on an open
 * channel), access checks say so, and neither the tree nor the container file changes.
 */
class ReadOnlyTest {
  @TempDir static Path tmp;
  static Path model;
  static byte[] containerBytes;
  static FileSystem fs;
  static byte[] wBytes;
  static Path outside;

  @BeforeAll
  static void mount() throws IOException {
    model = ProviderTestModels.copy(tmp, "mlp_adam.fb");
    containerBytes = Files.readAllBytes(model);
    fs = ModelFileSystems.open(model, Map.of("readOnly", "true"));
    wBytes = Files.readAllBytes(fs.getPath(W));
    outside = tmp.resolve("outside.bin");
    Files.write(outside, new byte[] {1, 2, 3});
  }

  @AfterAll
  static void unmount() throws IOException {
    fs.close();
  }

  /** After every refusal, nothing has changed: not the file, not the tree, not the container. */
  @AfterEach
  void nothingChanged() throws IOException {
    assertArrayEquals(wBytes, Files.readAllBytes(fs.getPath(W)));
    assertFalse(Files.exists(fs.getPath("/params/new")));
    assertFalse(Files.exists(fs.getPath("/params/newdir")));
    assertEquals("FLOAT", Files.getAttribute(fs.getPath(W), "samediff:dtype"));
    assertArrayEquals(containerBytes, Files.readAllBytes(model));
  }

  static Path p(String path) {
    return fs.getPath(path);
  }

  static Stream<Arguments> mutations() {
    byte[] data = {9, 9, 9};
    FileTime t = FileTime.fromMillis(0);
    return Stream.of(
        m("Files.write existing", () -> Files.write(p(W), data)),
        m("Files.write new", () -> Files.write(p("/params/new"), data)),
        m("Files.writeString", () -> Files.writeString(p(W), "x")),
        m("Files.newOutputStream", () -> Files.newOutputStream(p(W)).close()),
        m("Files.newOutputStream new", () -> Files.newOutputStream(p("/params/new")).close()),
        m("Files.newBufferedWriter", () -> Files.newBufferedWriter(p(W)).close()),
        m("newByteChannel WRITE", () -> Files.newByteChannel(p(W), StandardOpenOption.WRITE).close()),
        m("newByteChannel READ, WRITE", () -> Files.newByteChannel(p(W), StandardOpenOption.READ,
            StandardOpenOption.WRITE).close()),
        m("newByteChannel CREATE, WRITE", () -> Files.newByteChannel(p("/params/new"), StandardOpenOption.CREATE,
            StandardOpenOption.WRITE).close()),
        m("newByteChannel CREATE_NEW, WRITE", () -> Files.newByteChannel(p("/params/new"),
            StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE).close()),
        m("newByteChannel APPEND", () -> Files.newByteChannel(p(W), StandardOpenOption.APPEND).close()),
        m("newByteChannel TRUNCATE_EXISTING, WRITE", () -> Files.newByteChannel(p(W),
            StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE).close()),
        m("newByteChannel DELETE_ON_CLOSE", () -> Files.newByteChannel(p(W), StandardOpenOption.READ,
            StandardOpenOption.DELETE_ON_CLOSE).close()),
        m("FileChannel.open WRITE", () -> FileChannel.open(p(W), StandardOpenOption.WRITE).close()),
        m("FileChannel.open READ, WRITE", () -> FileChannel.open(p(W), StandardOpenOption.READ,
            StandardOpenOption.WRITE).close()),
        m("FileChannel.open APPEND", () -> FileChannel.open(p(W), StandardOpenOption.APPEND).close()),
        m("Files.createFile", () -> Files.createFile(p("/params/new"))),
        m("Files.createDirectory", () -> Files.createDirectory(p("/params/newdir"))),
        m("Files.createDirectories", () -> Files.createDirectories(p("/params/newdir/a/b"))),
        // jdk.zipfs and this provider refuse before looking: an existing directory gives the same
        m("Files.createDirectories existing", () -> Files.createDirectories(p("/params"))),
        m("Files.createTempFile", () -> Files.createTempFile(p("/params"), "t", ".bin")),
        m("Files.delete file", () -> Files.delete(p(W))),
        m("Files.delete directory", () -> Files.delete(p("/params/layer0"))),
        m("Files.delete missing", () -> Files.delete(p("/params/missing"))),
        m("Files.deleteIfExists", () -> Files.deleteIfExists(p(W))),
        m("Files.copy within the model", () -> Files.copy(p(W), p("/params/new"))),
        m("Files.copy within, REPLACE_EXISTING", () -> Files.copy(p(W), p("/params/layer0/b"),
            StandardCopyOption.REPLACE_EXISTING)),
        m("Files.copy default FS into the model", () -> Files.copy(outside, p("/params/new"))),
        m("Files.copy default FS onto a param, REPLACE_EXISTING", () -> Files.copy(outside, p(W),
            StandardCopyOption.REPLACE_EXISTING)),
        m("Files.copy stream into the model", () -> Files.copy(new ByteArrayInputStream(data), p("/params/new"))),
        m("Files.move within the model", () -> Files.move(p(W), p("/params/new"))),
        m("Files.move within, ATOMIC_MOVE", () -> Files.move(p(W), p("/params/new"), StandardCopyOption.ATOMIC_MOVE)),
        m("setAttribute samediff:dtype", () -> Files.setAttribute(p(W), "samediff:dtype", "HALF")),
        m("setAttribute samediff:shape", () -> Files.setAttribute(p(W), "samediff:shape", new long[] {32})),
        m("setAttribute samediff:order", () -> Files.setAttribute(p(W), "samediff:order", "f")),
        m("setAttribute samediff:kind", () -> Files.setAttribute(p(W), "samediff:kind", "CONSTANT")),
        m("setAttribute basic:lastModifiedTime", () -> Files.setAttribute(p(W), "lastModifiedTime", t)),
        m("Files.setLastModifiedTime", () -> Files.setLastModifiedTime(p(W), t)),
        m("BasicFileAttributeView.setTimes", () -> Files.getFileAttributeView(p(W), BasicFileAttributeView.class)
            .setTimes(t, t, t)),
        m("SamediffFileAttributeView.setTimes", () -> Files.getFileAttributeView(p(W),
            SamediffFileAttributeView.class).setTimes(t, null, null)));
  }

  private static Arguments m(String name, Executable call) {
    return Arguments.of(name, call);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mutations")
  void everyMutationIsRefused(String name, Executable call) {
    assertThrows(ReadOnlyFileSystemException.class, call);
  }

  @Test
  void theFileSystemAndItsStoreSayReadOnly() throws IOException {
    assertTrue(fs.isReadOnly());
    assertTrue(Files.getFileStore(p(W)).isReadOnly());
    assertTrue(fs.getFileStores().iterator().next().isReadOnly());
  }

  /** Options that open a channel for reading only are fine, even with {@code CREATE}. */
  @Test
  void readOptionsOpenAChannel() throws IOException {
    try (SeekableByteChannel ch = Files.newByteChannel(p(W), StandardOpenOption.READ, StandardOpenOption.CREATE)) {
      assertEquals(wBytes.length, ch.size());
    }
  }

  @Test
  void writingToAReadChannelIsNonWritable() throws IOException {
    ByteBuffer b = ByteBuffer.wrap(new byte[] {1, 2, 3});
    try (FileChannel ch = FileChannel.open(p(W)); FileChannel src = FileChannel.open(outside)) {
      List<Executable> writes = List.of(
          () -> ch.write(b),
          () -> ch.write(b, 0),
          () -> ch.write(new ByteBuffer[] {b}),
          () -> ch.write(new ByteBuffer[] {b}, 0, 1),
          () -> ch.truncate(0),
          () -> ch.transferFrom(src, 0, 3));
      for (Executable w : writes) {
        assertThrows(NonWritableChannelException.class, w);
      }
      assertEquals(0, ch.position(), "a refused write does not move the position");
    }
    try (SeekableByteChannel ch = Files.newByteChannel(p(W))) {
      assertThrows(NonWritableChannelException.class, () -> ch.write(b));
      assertThrows(NonWritableChannelException.class, () -> ch.truncate(0));
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"/", "/params", W, "/tags/default/graph.json", "/metadata"})
  void existingPathsAreReadableButNotWritable(String path) throws IOException {
    Path p = p(path);
    assertTrue(Files.isReadable(p));
    assertFalse(Files.isWritable(p));
    assertFalse(Files.isExecutable(p));
    fs.provider().checkAccess(p);
    fs.provider().checkAccess(p, AccessMode.READ);
    assertThrows(AccessDeniedException.class, () -> fs.provider().checkAccess(p, AccessMode.WRITE));
    assertThrows(AccessDeniedException.class, () -> fs.provider().checkAccess(p, AccessMode.READ, AccessMode.WRITE));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"/missing", "/params/missing", "/params/layer0/W/below-a-file", "/tags/nope/graph"})
  void missingPathsAreNeitherReadableNorWritable(String path) {
    Path p = p(path);
    assertFalse(Files.isReadable(p));
    assertFalse(Files.isWritable(p));
    assertThrows(NoSuchFileException.class, () -> fs.provider().checkAccess(p, AccessMode.READ));
  }

  /**
   * Moving a file out of the model: the JDK moves between providers by copying, then deleting
   * the source; the delete is refused, so the copy is left behind (as with jdk.zipfs).
   */
  @Test
  void moveOutOfTheModelIsRefusedAfterTheJdkCopied() throws IOException {
    Path target = tmp.resolve("moved-out.bin");
    assertThrows(ReadOnlyFileSystemException.class, () -> Files.move(p(W), target));
    assertTrue(Files.exists(p(W)), "the source stays");
    assertArrayEquals(wBytes, Files.readAllBytes(target), "the JDK's copy step already ran");
    Files.delete(target);
  }

  @Test
  void aReadOnlyMountIsReadOnly() throws IOException {
    for (Map<String, ?> env : List.of(Map.of("readOnly", "true"), Map.of("readOnly", true))) {
      try (FileSystem other = ModelFileSystems.open(model, env)) {
        assertTrue(other.isReadOnly());
        assertThrows(ReadOnlyFileSystemException.class, () -> Files.delete(other.getPath(W)));
        assertFalse(Files.isWritable(other.getPath(W)));
      }
    }
  }

  @Test
  void writesOfATextFileInTheModelAreRefused() {
    assertThrows(ReadOnlyFileSystemException.class,
        () -> Files.write(p("/metadata/new-key"), "v".getBytes(StandardCharsets.UTF_8)));
  }
}
