package org.modelfs.bench;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import org.modelfs.container.Models;
import org.modelfs.io.ByteSource;
import org.modelfs.io.ChannelSource;
import org.modelfs.io.SliceSource;
import org.modelfs.model.ArrayData;
import org.modelfs.model.Model;

/**
 * Where a parameter's stored bytes lie in its container file, found through the index API: the
 * baseline the benchmarks read with a plain {@link FileChannel}.
 *
 * @param file the container file (a shard for sharded SDNB)
 * @param offset absolute offset of the first byte in {@code file}
 * @param length byte length
 * @param entryOffset offset of the first byte inside the SDNB file (the zip entry for SDZ)
 * @param storage how the bytes are stored ({@code raw}, {@code big-endian}, {@code deflated})
 */
public record RawRange(Path file, long offset, long length, long entryOffset, String storage) {

  /** The range of parameter {@code name} of the newest tag of {@code model}. */
  public static RawRange of(Path model, String name) throws IOException {
    try (Model m = Models.open(model)) {
      ArrayData a = m.newest().variable(name).array();
      long off = a.offset();
      ByteSource s = a.source();
      while (s instanceof SliceSource slice) {
        off += slice.start();
        s = slice.parent();
      }
      if (!(s instanceof ChannelSource) && a.source().mappable(a.offset()) != null) {
        off = a.source().mappable(a.offset()).position(); // a view of a container's chunks
        s = m.newest().variable(name).array().source();
      }
      Path file = model.resolveSibling(s.name());
      return new RawRange(file, off, a.length(), a.offset(), a.storage().label());
    }
  }

  /**
   * Reads the whole range once, so the page cache holds it before anything is timed: the random
   * reads' short warm-up touches too few pages to fill it, and whichever side ran first would
   * pay the disk.
   */
  public void warm() throws IOException {
    try (FileChannel ch = FileChannel.open(file)) {
      ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
      long done = 0;
      while (done < length) {
        buf.clear().limit((int) Math.min(buf.capacity(), length - done));
        int n = ch.read(buf, offset + done);
        if (n < 0) {
          throw new EOFException(file.getFileName() + ": ends at " + (offset + done) + " inside the range");
        }
        done += n;
      }
    }
  }
}
