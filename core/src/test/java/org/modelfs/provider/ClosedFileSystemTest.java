package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.provider.ProviderTestModels.W;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.ClosedFileSystemException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributeView;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.ModelFileSystems;
import org.modelfs.SamediffFileAttributes;
import org.modelfs.provider.ProviderTestModels.Format;

/**
 * After {@code close()} a model file system refuses every operation that touches the tree with
 * {@link ClosedFileSystemException}, has closed every channel and directory stream it had
 * opened, and still answers the purely syntactic {@code Path} methods; closing twice is harmless.
 */
class ClosedFileSystemTest {
  @TempDir static Path tmp;
  static Path fb;
  static Path sdnb;

  @BeforeAll
  static void models() throws IOException {
    fb = ProviderTestModels.write(tmp, Format.FB);
    sdnb = ProviderTestModels.write(tmp, Format.SDNB);
  }

  private static FileSystem closed() throws IOException {
    FileSystem fs = ModelFileSystems.open(fb);
    fs.close();
    return fs;
  }

  /** A call on a closed file system's path {@code p} (a param file; its siblings exist). */
  interface Call {
    Object on(Path p) throws Exception;
  }

  static Stream<Arguments> refused() {
    FileTime t = FileTime.fromMillis(0);
    return Stream.of(
        c("Files.readAllBytes", Files::readAllBytes),
        c("Files.readString of graph.json", p -> Files.readString(p.resolveSibling("/graph.json"))),
        c("Files.newByteChannel", Files::newByteChannel),
        c("FileChannel.open", FileChannel::open),
        c("Files.newInputStream", Files::newInputStream),
        c("Files.lines", p -> Files.lines(p.resolveSibling("/training.json"))),
        c("Files.newDirectoryStream", p -> Files.newDirectoryStream(p.getParent())),
        c("Files.newDirectoryStream glob", p -> Files.newDirectoryStream(p.getRoot(), "*.json")),
        c("Files.list", p -> Files.list(p.getParent())),
        c("Files.walk", p -> Files.walk(p.getRoot())),
        c("Files.walk maxDepth 1", p -> Files.walk(p.getRoot(), 1)),
        c("Files.find", p -> Files.find(p.getRoot(), 9, (x, a) -> true)),
        c("Files.readAttributes basic", p -> Files.readAttributes(p, BasicFileAttributes.class)),
        c("Files.readAttributes samediff", p -> Files.readAttributes(p, SamediffFileAttributes.class)),
        c("Files.readAttributes samediff:*", p -> Files.readAttributes(p, "samediff:*")),
        c("Files.getAttribute", p -> Files.getAttribute(p, "samediff:dtype")),
        c("BasicFileAttributeView.readAttributes", p -> Files.getFileAttributeView(p, BasicFileAttributeView.class)
            .readAttributes()),
        c("Files.size", Files::size),
        c("Files.getLastModifiedTime", Files::getLastModifiedTime),
        // Files.exists/notExists/isReadable/... catch IOException only; ClosedFileSystemException
        // is unchecked, so it reaches the caller instead of becoming "false"
        c("Files.exists", Files::exists),
        c("Files.exists of a missing path", p -> Files.exists(p.resolveSibling("missing"))),
        c("Files.notExists", Files::notExists),
        c("Files.isRegularFile", Files::isRegularFile),
        c("Files.isDirectory", p -> Files.isDirectory(p.getParent())),
        c("Files.isReadable", Files::isReadable),
        c("Files.isWritable", Files::isWritable),
        c("Files.isExecutable", Files::isExecutable),
        c("Files.isHidden", Files::isHidden),
        c("Files.isSameFile of two paths", p -> Files.isSameFile(p, p.resolveSibling("b"))),
        c("Files.getFileStore", Files::getFileStore),
        c("FileStore.getTotalSpace", p -> p.getFileSystem().getFileStores().iterator().next().getTotalSpace()),
        c("Path.toRealPath", p -> p.toRealPath()),
        // closed wins over read-only: a mutation of a closed file system reports the closing
        c("Files.write", p -> Files.write(p, new byte[1])),
        c("Files.newOutputStream", Files::newOutputStream),
        c("Files.delete", p -> {
          Files.delete(p);
          return null;
        }),
        c("Files.createDirectory", p -> Files.createDirectory(p.resolveSibling("d"))),
        c("Files.copy within", p -> Files.copy(p, p.resolveSibling("c"))),
        c("Files.move within", p -> Files.move(p, p.resolveSibling("c"))),
        c("Files.setAttribute", p -> Files.setAttribute(p, "samediff:dtype", "HALF")),
        c("Files.setLastModifiedTime", p -> Files.setLastModifiedTime(p, t)));
  }

  private static Arguments c(String name, Call call) {
    return Arguments.of(name, call);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refused")
  void everyTreeOperationThrowsClosedFileSystem(String name, Call call) throws IOException {
    FileSystem fs = closed();
    assertFalse(fs.isOpen());
    Path p = fs.getPath(W);
    assertThrows(ClosedFileSystemException.class, () -> {
      Object result = call.on(p);
      if (result instanceof AutoCloseable c) {
        c.close();
      }
    });
  }

  /** What still works: Path syntax, and the file system's own non-I/O answers. */
  @Test
  void pathSyntaxStillWorks() throws IOException {
    FileSystem fs = closed();
    Path p = fs.getPath(W);
    assertEquals(W, p.toString());
    assertEquals("W", p.getFileName().toString());
    assertEquals(fs.getPath("/params/layer0"), p.getParent());
    assertEquals(fs.getPath("/"), p.getRoot());
    assertEquals(fs.getPath("/params/layer1/W"), p.resolve("../../layer1/W").normalize());
    assertEquals(fs.getPath("/params/layer0/W/x"), p.resolve("x"));
    assertEquals(fs.getPath("/params/layer0/b"), p.resolveSibling("b"));
    assertEquals(fs.getPath("../b"), p.relativize(fs.getPath("/params/layer0/b")));
    assertEquals(fs.getPath("/x"), fs.getPath("x").toAbsolutePath());
    assertTrue(p.startsWith("/params"));
    assertTrue(p.endsWith("layer0/W"));
    assertEquals(3, p.getNameCount());
    assertEquals(fs.getPath("/params/layer0/W"), p);
    assertEquals("samediff", p.toUri().getScheme());
    assertTrue(fs.getPathMatcher("glob:**/W").matches(p));
    assertEquals("/", fs.getSeparator());
    List<Path> roots = new ArrayList<>();
    fs.getRootDirectories().forEach(roots::add);
    assertEquals(List.of(fs.getPath("/")), roots);
    assertEquals(Set.of("basic", "samediff"), fs.supportedFileAttributeViews());
    assertFalse(fs.isReadOnly()); // mounts are writable unless readOnly=true
    assertEquals("samediff", fs.provider().getScheme());
    assertNull(Files.getFileAttributeView(p, PosixFileAttributeView.class), "unsupported views: null, never a throw");
    // equal paths are the same file without asking the file system (the JDK's own providers do the same)
    assertTrue(Files.isSameFile(p, fs.getPath("/params/layer0/W")));
  }

  @Test
  void closeIsIdempotent() throws IOException {
    FileSystem fs = ModelFileSystems.open(fb);
    fs.close();
    assertDoesNotThrow(fs::close);
    assertDoesNotThrow(fs::close);
    assertFalse(fs.isOpen());
    assertThrows(ClosedFileSystemException.class, () -> Files.size(fs.getPath(W)));
  }

  /**
   * Channels opened by other threads while the file system closes: each open either fails with
   * {@link ClosedFileSystemException} or returns a channel that the close closed — none stays
   * open (the registering counter of jimfs's FileSystemState, here {@code OpenResources}).
   */
  @Test
  void channelsOpenedWhileClosingNeverOutliveTheFileSystem() throws Exception {
    for (int round = 0; round < 30; round++) {
      FileSystem fs = ModelFileSystems.open(fb);
      Path w = fs.getPath(W);
      List<SeekableByteChannel> opened =
          Collections.synchronizedList(new ArrayList<>());
      CountDownLatch go = new CountDownLatch(1);
      List<Thread> openers = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        Thread th = new Thread(() -> {
          try {
            go.await();
            for (int i = 0; i < 200; i++) {
              opened.add(Files.newByteChannel(w));
            }
          } catch (ClosedFileSystemException | InterruptedException | IOException e) {
            // refused after the close began: what is expected
          }
        });
        th.start();
        openers.add(th);
      }
      go.countDown();
      Thread.sleep(round % 3);
      fs.close();
      for (Thread th : openers) {
        th.join();
      }
      synchronized (opened) {
        for (SeekableByteChannel ch : opened) {
          assertFalse(ch.isOpen(), "round " + round + ": a channel opened during close() is still open");
        }
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(value = Format.class, names = {"FB", "SDNB"})
  void channelsOpenedBeforeCloseAreClosedAfterwards(Format format) throws IOException {
    FileSystem fs = ModelFileSystems.open(format == Format.FB ? fb : sdnb);
    Path w = fs.getPath(W);
    byte[] expected = Files.readAllBytes(w);
    SeekableByteChannel sbc = Files.newByteChannel(w);
    FileChannel fc = FileChannel.open(w);
    FileChannel positional = FileChannel.open(fs.getPath("/graph.json"));
    InputStream in = Files.newInputStream(w);
    FileLock lock = fc.tryLock(0, Long.MAX_VALUE, true);
    MappedByteBuffer mapped = fc.map(FileChannel.MapMode.READ_ONLY, 0, expected.length);
    assertEquals(expected[0], (byte) in.read());
    assertEquals(4, sbc.read(ByteBuffer.allocate(4)));
    assertTrue(lock.isValid());

    fs.close();

    for (SeekableByteChannel ch : List.of(sbc, fc, positional)) {
      assertFalse(ch.isOpen(), ch + " is closed");
      assertThrows(ClosedChannelException.class, () -> ch.read(ByteBuffer.allocate(4)));
      assertThrows(ClosedChannelException.class, ch::position);
      assertThrows(ClosedChannelException.class, () -> ch.position(0));
      assertThrows(ClosedChannelException.class, ch::size);
    }
    assertThrows(ClosedChannelException.class, () -> positional.read(ByteBuffer.allocate(4), 0));
    assertThrows(ClosedChannelException.class, () -> fc.map(FileChannel.MapMode.READ_ONLY, 0, 4));
    assertThrows(ClosedChannelException.class, () -> fc.transferTo(0, 4, Channels.newChannel(
        OutputStream.nullOutputStream())));
    assertThrows(ClosedChannelException.class, () -> fc.tryLock(0, 1, true));
    assertThrows(ClosedChannelException.class, in::read);
    assertFalse(lock.isValid(), "a lock does not outlive its channel");
    // closing what the file system already closed is harmless
    for (AutoCloseable c : List.of(sbc, fc, positional, in)) {
      assertDoesNotThrow(c::close);
    }
    // a mapping, once made, does not depend on the channel (FileChannel.map contract)
    byte[] fromMap = new byte[expected.length];
    mapped.get(0, fromMap);
    assertArrayEquals(expected, fromMap);
  }

  @Test
  void directoryStreamsOpenedBeforeCloseStopAfterwards() throws IOException {
    FileSystem fs = ModelFileSystems.open(fb);
    DirectoryStream<Path> iterating = Files.newDirectoryStream(fs.getPath("/params"));
    DirectoryStream<Path> untouched = Files.newDirectoryStream(fs.getPath("/"));
    Iterator<Path> it = iterating.iterator();
    assertTrue(it.hasNext());
    it.next();
    Stream<Path> list = Files.list(fs.getPath("/tags/default"));
    Iterator<Path> listed = list.iterator();
    listed.next();

    fs.close();

    // "behaves as if the end of stream has been reached"; nothing was read ahead here
    assertFalse(it.hasNext());
    assertThrows(NoSuchElementException.class, it::next);
    assertFalse(listed.hasNext());
    // iterator() of a closed stream: IllegalStateException (DirectoryStream contract)
    assertThrows(IllegalStateException.class, untouched::iterator);
    assertDoesNotThrow(iterating::close);
    assertDoesNotThrow(untouched::close);
    assertDoesNotThrow(list::close);
  }

  @Test
  void aNewFileSystemOfTheSameFileIsUnaffected() throws IOException {
    FileSystem old = ModelFileSystems.open(fb);
    byte[] expected = Files.readAllBytes(old.getPath(W));
    try (FileSystem fresh = ModelFileSystems.open(fb)) {
      old.close();
      assertArrayEquals(expected, Files.readAllBytes(fresh.getPath(W)));
      assertThrows(ClosedFileSystemException.class, () -> Files.readAllBytes(old.getPath(W)));
      assertTrue(fresh.isOpen());
    }
  }

  @Test
  void aReadOnlyRefusalOnAnOpenFileSystemIsNotAClosedOne() throws IOException {
    try (FileSystem fs = ModelFileSystems.open(fb, Map.of("readOnly", "true"))) {
      assertThrows(ReadOnlyFileSystemException.class, () -> Files.delete(fs.getPath(W)));
    }
  }
}
