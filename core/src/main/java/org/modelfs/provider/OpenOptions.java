package org.modelfs.provider;

import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/**
 * The open options of every channel of a mount, parsed once and checked as the JDK's own file
 * channels check them (docs/FILESYSTEM.md §7, "Open options"; {@code sun.nio.fs.UnixChannelFactory}):
 * neither {@code READ} nor {@code WRITE} means {@code READ}, unless {@code APPEND} (which means
 * {@code WRITE}); {@code READ + APPEND} and {@code APPEND + TRUNCATE_EXISTING} are
 * {@link IllegalArgumentException}s; a {@code null} option is a {@link NullPointerException},
 * an option of another provider an {@link UnsupportedOperationException}. {@code newByteChannel},
 * {@code newFileChannel}, {@code newOutputStream} and {@code newInputStream} (the provider's
 * defaults, which open a byte channel) all come here.
 *
 * @param read the channel reads ({@code read}, {@code map}, {@code transferTo}; else
 *     {@link java.nio.channels.NonReadableChannelException})
 * @param write the channel writes (a journal file; else
 *     {@link java.nio.channels.NonWritableChannelException})
 * @param append every write goes to the end
 * @param truncate {@code TRUNCATE_EXISTING} with {@code write} (ignored for reading, as by the JDK)
 * @param create {@code CREATE} with {@code write}
 * @param createNew {@code CREATE_NEW} with {@code write}
 */
record OpenOptions(boolean read, boolean write, boolean append, boolean truncate, boolean create,
    boolean createNew) {

  /** Parses {@code options}; {@code readOnly}: the mount refuses writes. */
  static OpenOptions parse(Set<? extends OpenOption> options, boolean readOnly) {
    boolean read = false;
    boolean write = false;
    boolean append = false;
    boolean truncate = false;
    boolean create = false;
    boolean createNew = false;
    boolean deleteOnClose = false;
    for (OpenOption o : options) {
      if (o == null) {
        throw new NullPointerException("an open option is null");
      }
      if (o instanceof StandardOpenOption s) {
        switch (s) {
          case READ -> read = true;
          case WRITE -> write = true;
          case APPEND -> append = true;
          case TRUNCATE_EXISTING -> truncate = true;
          case CREATE -> create = true;
          case CREATE_NEW -> createNew = true;
          case DELETE_ON_CLOSE -> deleteOnClose = true;
          default -> { } // SPARSE, SYNC, DSYNC: hints, as on the JDK's file systems
        }
      } else if (!(o instanceof LinkOption)) {
        throw new UnsupportedOperationException("open option " + o + " (a model file system takes the"
            + " StandardOpenOptions and LinkOptions)");
      }
    }
    if (!read && !write) {
      if (append) {
        write = true;
      } else {
        read = true;
      }
    }
    if (read && append) {
      throw new IllegalArgumentException("READ + APPEND not allowed");
    }
    if (append && truncate) {
      throw new IllegalArgumentException("APPEND + TRUNCATE_EXISTING not allowed");
    }
    if (deleteOnClose) {
      if (readOnly) {
        throw new ReadOnlyFileSystemException();
      }
      throw new UnsupportedOperationException("DELETE_ON_CLOSE: delete the file instead");
    }
    if (write && readOnly) {
      throw new ReadOnlyFileSystemException();
    }
    return new OpenOptions(read, write, append, write && truncate, write && create, write && createNew);
  }
}
