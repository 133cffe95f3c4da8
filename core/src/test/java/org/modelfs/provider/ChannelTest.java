package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.provider.ProviderTestModels.W;
import static org.modelfs.provider.ProviderTestModels.W1;
import static org.modelfs.provider.ProviderTestModels.W1_HASH;
import static org.modelfs.provider.ProviderTestModels.W_HASH;
import static org.modelfs.provider.ProviderTestModels.W_M;
import static org.modelfs.provider.ProviderTestModels.W_M_HASH;
import static org.modelfs.provider.ProviderTestModels.W_SIZE;
import static org.modelfs.provider.ProviderTestModels.hash;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.ThrowingSupplier;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.ModelFileSystems;
import org.modelfs.provider.ProviderTestModels.Format;
import org.modelfs.testing.Fixtures;

/**
 * Reading a model's files through {@code Files.newByteChannel}, {@code Files.newInputStream} and
 * {@code FileChannel} in every format: positions, sizes and end-of-file, scattering and
 * positional reads, {@code transferTo}, {@code map}, shared locks, {@code Files.copy} and
 * {@code Files.isSameFile} all agree with the bytes DL4J stored.
 */
class ChannelTest {
  @TempDir static Path tmp;
  static final Map<Format, FileSystem> MOUNTS = new EnumMap<>(Format.class);
  /** Files of different kinds: arrays (updater state too), a generated JSON, a 4-byte scalar. */
  static final List<String> FILES = List.of(W, W_M, "/tags/default/graph.json", "/params/const/scale", "/graph");

  @BeforeAll
  static void mount() throws IOException {
    for (Format f : Format.values()) {
      MOUNTS.put(f, ModelFileSystems.open(ProviderTestModels.write(tmp, f)));
    }
  }

  @AfterAll
  static void unmount() throws IOException {
    for (FileSystem fs : MOUNTS.values()) {
      fs.close();
    }
  }

  static Stream<Arguments> formatsAndFiles() {
    List<Arguments> out = new ArrayList<>();
    for (Format f : Format.values()) {
      for (String file : FILES) {
        out.add(Arguments.of(f, file));
      }
    }
    return out.stream();
  }

  private static Path path(Format f, String p) {
    return MOUNTS.get(f).getPath(p);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Format.class)
  void arrayContentIsWhatDl4jStored(Format f) throws IOException {
    assertEquals(W_HASH, hash(Files.readAllBytes(path(f, W))));
    assertEquals(W1_HASH, hash(Files.readAllBytes(path(f, W1))));
    assertEquals(W_M_HASH, hash(Files.readAllBytes(path(f, W_M))));
    assertEquals(W_SIZE, Files.size(path(f, W)));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("formatsAndFiles")
  void byteChannelReadsInSmallPiecesToTheEnd(Format f, String file) throws IOException {
    Path p = path(f, file);
    byte[] all = Files.readAllBytes(p);
    assertEquals(Files.size(p), all.length);
    if (!file.contains("graph")) { // graph and graph.json describe the container's format, arrays do not
      assertArrayEquals(all, Files.readAllBytes(path(Format.FB, file)), "same bytes as the original fb");
    }
    try (SeekableByteChannel ch = Files.newByteChannel(p, StandardOpenOption.READ)) {
      assertEquals(all.length, ch.size());
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteBuffer buf = ByteBuffer.allocate(7);
      int n;
      while ((n = ch.read(buf)) >= 0) {
        out.write(buf.array(), 0, n);
        buf.clear();
        assertEquals(out.size(), ch.position());
      }
      assertArrayEquals(all, out.toByteArray());
      assertEquals(-1, ch.read(ByteBuffer.allocate(1)), "still at the end");
      ch.position(1);
      ByteBuffer three = ByteBuffer.allocate(3);
      assertEquals(3, ch.read(three));
      assertArrayEquals(Arrays.copyOfRange(all, 1, 4), three.array());
      assertEquals(4, ch.position());
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Format.class)
  void positionsAndPositionalReads(Format f) throws IOException {
    Path p = path(f, W);
    byte[] all = Files.readAllBytes(p);
    try (FileChannel ch = FileChannel.open(p)) {
      assertEquals(W_SIZE, ch.size());
      assertEquals(0, ch.position());
      ByteBuffer b = ByteBuffer.allocate(16);
      assertEquals(16, ch.position(100).read(b));
      assertArrayEquals(Arrays.copyOfRange(all, 100, 116), b.array());
      assertEquals(116, ch.position());
      b.clear();
      assertEquals(8, ch.position(120).read(b), "a short read at the end");
      assertEquals(-1, ch.position(W_SIZE).read(b.clear()));
      assertEquals(-1, ch.position(1000).read(b.clear()), "a position past the end is allowed; reads give -1");
      assertEquals(1000, ch.position());
      assertEquals(W_SIZE, ch.size(), "setting a position past the end does not grow the file");
      assertThrows(IllegalArgumentException.class, () -> ch.position(-1));
      assertEquals(1000, ch.position());

      ch.position(5);
      b.clear();
      assertEquals(16, ch.read(b, 32));
      assertArrayEquals(Arrays.copyOfRange(all, 32, 48), b.array());
      assertEquals(5, ch.position(), "a positional read leaves the position alone");
      assertEquals(-1, ch.read(b.clear(), W_SIZE));
      assertEquals(-1, ch.read(b.clear(), Long.MAX_VALUE));
      assertThrows(IllegalArgumentException.class, () -> ch.read(ByteBuffer.allocate(4), -1));
      ByteBuffer direct = ByteBuffer.allocateDirect(W_SIZE_INT);
      assertEquals(W_SIZE_INT, ch.read(direct, 0));
      direct.flip();
      byte[] d = new byte[W_SIZE_INT];
      direct.get(d);
      assertArrayEquals(all, d, "into a direct buffer");
    }
  }

  private static final int W_SIZE_INT = (int) W_SIZE;

  @ParameterizedTest(name = "{0}")
  @EnumSource(Format.class)
  void scatteringRead(Format f) throws IOException {
    Path p = path(f, W);
    byte[] all = Files.readAllBytes(p);
    try (FileChannel ch = FileChannel.open(p)) {
      ByteBuffer[] bufs = {ByteBuffer.allocate(50), ByteBuffer.allocate(0), ByteBuffer.allocate(50),
          ByteBuffer.allocate(50)};
      assertEquals(W_SIZE, ch.read(bufs));
      assertEquals(W_SIZE, ch.position());
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      for (ByteBuffer b : bufs) {
        out.write(b.array(), 0, b.position());
      }
      assertArrayEquals(all, out.toByteArray());
      assertEquals(22, bufs[3].remaining());
      assertEquals(-1, ch.read(new ByteBuffer[] {ByteBuffer.allocate(4)}));

      ch.position(10);
      ByteBuffer[] part = {ByteBuffer.allocate(1), ByteBuffer.allocate(8), ByteBuffer.allocate(8)};
      assertEquals(8, ch.read(part, 1, 1), "only the buffer that offset/length name");
      assertEquals(0, part[0].position());
      assertArrayEquals(Arrays.copyOfRange(all, 10, 18), part[1].array());
      assertThrows(IndexOutOfBoundsException.class, () -> ch.read(part, 2, 2));
      assertThrows(IndexOutOfBoundsException.class, () -> ch.read(part, -1, 1));
    }
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("formatsAndFiles")
  void transferToADefaultFileSystemFile(Format f, String file) throws IOException {
    Path p = path(f, file);
    byte[] all = Files.readAllBytes(p);
    Path target = Files.createTempFile(tmp, "transfer", ".bin");
    try (FileChannel ch = FileChannel.open(p);
        FileChannel out = FileChannel.open(target, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
      long done = 0;
      while (done < all.length) {
        long n = ch.transferTo(done, Long.MAX_VALUE - done, out);
        assertTrue(n > 0, "progress");
        done += n;
      }
      assertEquals(0, ch.position(), "transferTo leaves the position alone");
      assertEquals(0, ch.transferTo(all.length, 10, out), "nothing past the end");
      assertEquals(0, ch.transferTo(all.length + 100L, 10, out));
      assertThrows(IllegalArgumentException.class, () -> ch.transferTo(-1, 10, out));
    }
    assertArrayEquals(all, Files.readAllBytes(target));
    if (all.length > 3) {
      try (FileChannel ch = FileChannel.open(p);
          FileChannel out = FileChannel.open(target, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
        assertEquals(all.length - 3, ch.transferTo(3, Long.MAX_VALUE, out));
      }
      assertArrayEquals(Arrays.copyOfRange(all, 3, all.length), Files.readAllBytes(target));
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Format.class)
  void inputStreamReadSkipAvailable(Format f) throws IOException {
    Path p = path(f, W);
    byte[] all = Files.readAllBytes(p);
    try (InputStream in = Files.newInputStream(p)) {
      assertEquals(all.length, in.available());
      assertEquals(all[0] & 0xff, in.read());
      assertEquals(10, in.skip(10));
      assertEquals(all.length - 11, in.available());
      byte[] two = new byte[2];
      assertEquals(2, in.read(two));
      assertArrayEquals(Arrays.copyOfRange(all, 11, 13), two);
      assertArrayEquals(Arrays.copyOfRange(all, 13, all.length), in.readAllBytes());
      assertEquals(0, in.available());
      assertEquals(-1, in.read());
      assertEquals(-1, in.read(two));
    }
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("formatsAndFiles")
  void mapReadOnlyIsTheContent(Format f, String file) throws IOException {
    Path p = path(f, file);
    byte[] all = Files.readAllBytes(p);
    try (FileChannel ch = FileChannel.open(p)) {
      MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, 0, all.length);
      assertTrue(m.isReadOnly());
      assertEquals(all.length, m.remaining());
      byte[] got = new byte[all.length];
      m.get(got);
      assertArrayEquals(all, got);
      if (all.length >= 4) {
        MappedByteBuffer slice = ch.map(FileChannel.MapMode.READ_ONLY, 1, all.length - 2);
        byte[] s = new byte[all.length - 2];
        slice.get(s);
        assertArrayEquals(Arrays.copyOfRange(all, 1, all.length - 1), s);
      }
      assertEquals(0, ch.map(FileChannel.MapMode.READ_ONLY, all.length, 0).remaining(), "an empty mapping at the end");
      assertThrows(NonWritableChannelException.class, () -> ch.map(FileChannel.MapMode.READ_WRITE, 0, all.length));
      assertThrows(NonWritableChannelException.class, () -> ch.map(FileChannel.MapMode.PRIVATE, 0, all.length));
      // a read-only channel cannot grow the file to the mapping's size (as FileChannelImpl says)
      assertThrows(IOException.class, () -> ch.map(FileChannel.MapMode.READ_ONLY, 0, all.length + 1L));
      assertThrows(IOException.class, () -> ch.map(FileChannel.MapMode.READ_ONLY, all.length, 1));
      assertThrows(IllegalArgumentException.class, () -> ch.map(FileChannel.MapMode.READ_ONLY, -1, 1));
      assertThrows(IllegalArgumentException.class, () -> ch.map(FileChannel.MapMode.READ_ONLY, 0, -1));
      assertEquals(0, ch.position(), "map leaves the position alone");
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Format.class)
  void sharedLocksOnlyOnAReadChannel(Format f) throws IOException {
    try (FileChannel ch = FileChannel.open(path(f, W))) {
      FileLock lock = ch.tryLock(0, Long.MAX_VALUE, true);
      assertNotNull(lock);
      assertTrue(lock.isShared());
      assertTrue(lock.isValid());
      assertEquals(ch, lock.channel());
      lock.release();
      assertFalse(lock.isValid());
      try (FileLock blocking = ch.lock(0, 16, true)) {
        assertTrue(blocking.isValid());
        assertTrue(blocking.overlaps(8, 1));
      }
      // exclusive locks need a writable channel (as with FileChannelImpl)
      assertThrows(NonWritableChannelException.class, ch::lock);
      assertThrows(NonWritableChannelException.class, ch::tryLock);
      assertThrows(NonWritableChannelException.class, () -> ch.tryLock(0, Long.MAX_VALUE, false));
      assertThrows(NonWritableChannelException.class, () -> ch.lock(0, 1, false));
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Format.class)
  void openingADirectoryIsAFileSystemException(Format f) {
    for (String dir : List.of("/", "/params", "/params/layer0", "/tags/default", "/updater/layer0/W")) {
      Path p = path(f, dir);
      for (var open : List.<ThrowingSupplier<?>>of(
          () -> Files.newByteChannel(p), () -> FileChannel.open(p), () -> Files.newInputStream(p),
          () -> Files.readAllBytes(p))) {
        FileSystemException e = assertThrows(FileSystemException.class, () -> {
          Object o = open.get();
          if (o instanceof AutoCloseable c) {
            c.close();
          }
        }, dir);
        assertFalse(e instanceof NoSuchFileException, dir + ": " + e);
        assertEquals(dir, e.getFile());
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Format.class)
  void openingAMissingFileIsNoSuchFile(Format f) {
    for (String missing : List.of("/params/nope", "/params/layer0/W/x", "/tags/v2/graph", "/nope.json")) {
      Path p = path(f, missing);
      assertThrows(NoSuchFileException.class, () -> Files.newByteChannel(p).close());
      assertThrows(NoSuchFileException.class, () -> FileChannel.open(p).close());
      assertThrows(NoSuchFileException.class, () -> Files.readAllBytes(p));
    }
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("formatsAndFiles")
  void filesCopyCopiesTheExactBytes(Format f, String file) throws IOException {
    Path p = path(f, file);
    byte[] all = Files.readAllBytes(p);
    Path target = tmp.resolve("copy-" + f + "-" + file.replace('/', '_'));
    Files.copy(p, target);
    assertArrayEquals(all, Files.readAllBytes(target));
    Files.delete(target);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertEquals(all.length, Files.copy(p, out));
    assertArrayEquals(all, out.toByteArray());
  }

  @Test
  void copyingADirectoryOutMakesAnEmptyDirectory() throws IOException {
    Path target = tmp.resolve("copied-dir");
    Files.copy(path(Format.FB, "/params"), target);
    assertTrue(Files.isDirectory(target));
    try (Stream<Path> s = Files.list(target)) {
      assertEquals(0, s.count(), "Files.copy copies a directory, not its entries");
    }
  }

  static Stream<Arguments> sameFile() {
    return Stream.of(
        Arguments.of("/params/layer0/W", "/tags/default/params/layer0/W", true),
        Arguments.of("/params/layer0/W", "/tags/DEFAULT/params/layer0/W", true),
        Arguments.of("/params/layer0/W", "/params/layer0%2FW", true),
        Arguments.of("/params/layer0/W", "params/layer0/W", true),
        Arguments.of("/params/layer0/W", "/params/layer1/../layer0/W", true),
        Arguments.of("/updater/layer0/W/M", "/tags/default/updater/layer0/W/M", true),
        Arguments.of("/graph.json", "/tags/default/graph.json", true),
        Arguments.of("/params/layer0/W", "/params/layer0/b", false),
        Arguments.of("/params/layer0/W", "/params/layer1/W", false),
        Arguments.of("/params/layer0/W", "/updater/layer0/W/M", false),
        Arguments.of("/updater/layer0/W/M", "/updater/layer0/W/V", false),
        Arguments.of("/graph", "/graph.json", false));
  }

  @ParameterizedTest(name = "{0} vs {1}: {2}")
  @MethodSource("sameFile")
  void isSameFile(String a, String b, boolean same) throws IOException {
    for (Format f : Format.values()) {
      assertEquals(same, Files.isSameFile(path(f, a), path(f, b)), f.toString());
      assertEquals(same, Files.isSameFile(path(f, b), path(f, a)), f + " (symmetric)");
    }
  }

  @Test
  void isSameFileAcrossProvidersAndOfMissingFiles() throws IOException {
    Path w = path(Format.FB, W);
    assertFalse(Files.isSameFile(w, tmp), "another provider's path is another file");
    assertFalse(Files.isSameFile(w, path(Format.SDNB, W)), "another mount's path is another file");
    assertThrows(NoSuchFileException.class, () -> Files.isSameFile(w, path(Format.FB, "/params/nope")));
  }

  /** A zero-length array file (dtypes fixture {@code empty}): every read path sees no bytes. */
  @Test
  void anEmptyFile() throws IOException {
    try (FileSystem fs = ModelFileSystems.open(Fixtures.get("dtypes.fb"))) {
      Path p = fs.getPath("/params/empty");
      assertEquals(0, Files.size(p));
      assertEquals(0, Files.readAllBytes(p).length);
      try (FileChannel ch = FileChannel.open(p)) {
        assertEquals(-1, ch.read(ByteBuffer.allocate(4)));
        assertEquals(-1, ch.read(ByteBuffer.allocate(4), 0));
        assertEquals(0, ch.map(FileChannel.MapMode.READ_ONLY, 0, 0).remaining());
        assertThrows(IOException.class, () -> ch.map(FileChannel.MapMode.READ_ONLY, 0, 1));
        assertEquals(0, ch.transferTo(0, 10, Channels.newChannel(new ByteArrayOutputStream())));
      }
      try (InputStream in = Files.newInputStream(p)) {
        assertEquals(-1, in.read());
      }
    }
  }
}
