package org.modelfs.format.fb;

import java.io.IOException;
import org.modelfs.model.ArrayStreams;
import org.modelfs.io.CountingOutput;

/**
 * Writes a {@link GraphWriter.Built} FlatBuffer: the builder's bytes, then each tail array as
 * a length-prefixed byte vector at the offset the builder's fields point to, streamed from
 * its source in the byte order the target format wants.
 */
public final class FlatBufferOut {
  private FlatBufferOut() {}

  /**
   * @param bigEndian true for legacy format A (elements big-endian), false for SDNB
   */
  public static void write(GraphWriter.Built built, CountingOutput out, boolean bigEndian) throws IOException {
    long start = out.position();
    out.write(built.bytes());
    long tailStart = start + built.bytes().length;
    for (GraphWriter.TailArray t : built.tail()) {
      out.padTo(tailStart + t.dataOffset() - 4);
      out.writeIntLE(Math.toIntExact(t.array().length()));
      if (bigEndian && t.array().dtype().legacySwapped()) {
        ArrayStreams.copyBigEndian(t.array(), out);
      } else {
        ArrayStreams.copyLittleEndian(t.array(), out);
      }
    }
    out.expectAt(start + built.flatBufferLength(), "FlatBuffer tail");
  }
}
