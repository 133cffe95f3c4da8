package org.modelfs.fuse;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;
import jnr.ffi.LibraryLoader;
import jnr.ffi.Pointer;
import jnr.ffi.types.size_t;
import org.modelfs.StoredBytes;

/**
 * A file open for reading whose bytes lie, as shown, in the model's container
 * ({@link StoredBytes}): its reads are answered with the container's descriptor and the range, and
 * libfuse moves the bytes from the container's pages to the kernel with {@code splice(2)}, never
 * through the JVM (docs/MOUNT.md "Reads"). The descriptor is the mount's own, opened by path and
 * then checked to be the very file the model reads (its device and inode, through
 * {@code /proc/self/fd}): a commit may have replaced the path since. The model's channel stays
 * open beside it, which keeps the range where it is.
 */
final class StoredFile {
  private static final int O_RDONLY_CLOEXEC = 02000000;
  /**
   * Smaller files are read through the channel: opening and checking a descriptor costs about
   * what copying a few hundred KiB does, and a walk that opens every one of 20,000 small files
   * would pay it for each.
   */
  static final long MIN_BYTES = 1 << 20;

  /** The C library calls of the mount's native reads. */
  public interface LibC {
    int open(String path, int flags);

    int close(int fd);

    Pointer malloc(@size_t long size);

    void free(Pointer p);
  }

  static final LibC LIBC = LibraryLoader.create(LibC.class).failImmediately().load("c");

  final SeekableByteChannel channel;
  final int fd;
  final long offset;
  final long size;

  private StoredFile(SeekableByteChannel channel, int fd, long offset, long size) {
    this.channel = channel;
    this.fd = fd;
    this.offset = offset;
    this.size = size;
  }

  /**
   * {@code channel} as a stored file, or {@code channel} itself when its bytes are not a range of
   * a local file, are fewer than {@link #MIN_BYTES}, or that file is no longer at its path.
   */
  static Object of(SeekableByteChannel channel) throws IOException {
    Optional<StoredBytes.Range> r = channel instanceof StoredBytes s ? s.storedRange() : Optional.empty();
    if (r.isEmpty() || r.get().size() < MIN_BYTES) {
      return channel;
    }
    StoredBytes.Range range = r.get();
    int fd = LIBC.open(range.file().toString(), O_RDONLY_CLOEXEC);
    if (fd < 0) {
      return channel; // gone or unreadable now: the model's channel still reads it
    }
    Object key;
    try {
      key = Files.readAttributes(Path.of("/proc/self/fd/" + fd), BasicFileAttributes.class).fileKey();
    } catch (IOException e) {
      key = null;
    }
    if (key == null || !key.equals(range.fileKey())) {
      LIBC.close(fd); // another file at that path now (a commit replaced it): not ours to read
      return channel;
    }
    return new StoredFile(channel, fd, range.offset(), range.size());
  }

  /** Closes the descriptor and the model's channel. */
  void close() throws IOException {
    LIBC.close(fd);
    channel.close();
  }
}
