package org.modelfs.tree;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A small generated file held in memory (graph, graph.json, training.json, a metadata value),
 * built on first use and then kept.
 */
final class BytesContent implements Content {
  /** Makes the bytes; may fail with an {@code IOException} from a malformed graph. */
  interface Maker {
    byte[] make() throws IOException;
  }

  private final Maker maker;
  private volatile byte[] bytes;

  BytesContent(Maker maker) {
    this.maker = maker;
  }

  static BytesContent of(byte[] bytes) {
    BytesContent c = new BytesContent(() -> bytes);
    c.bytes = bytes;
    return c;
  }

  private byte[] bytes() throws IOException {
    byte[] b = bytes;
    if (b == null) {
      synchronized (this) {
        b = bytes;
        if (b == null) {
          b = maker.make();
          bytes = b;
        }
      }
    }
    return b;
  }

  @Override
  public long size() throws IOException {
    return bytes().length;
  }

  @Override
  public int read(ByteBuffer dst, long position) throws IOException {
    byte[] b = bytes();
    if (position >= b.length) {
      return -1;
    }
    int n = (int) Math.min(dst.remaining(), b.length - position);
    dst.put(b, (int) position, n);
    return n;
  }
}
