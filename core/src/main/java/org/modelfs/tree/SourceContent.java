package org.modelfs.tree;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.modelfs.io.ByteSource;

/** A file's bytes as they were written: the first {@code length} bytes of a source (a journal file). */
public record SourceContent(ByteSource source, long length) implements Content {

  @Override
  public long size() {
    return length;
  }

  @Override
  public int read(ByteBuffer dst, long position) throws IOException {
    if (position >= length) {
      return -1;
    }
    ByteBuffer d = dst;
    if (dst.remaining() > length - position) {
      d = dst.slice().limit((int) (length - position));
    }
    int n = source.read(d, position);
    if (d != dst && n > 0) {
      dst.position(dst.position() + n);
    }
    return n;
  }
}
