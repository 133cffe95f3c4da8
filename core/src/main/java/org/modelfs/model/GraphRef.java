package org.modelfs.model;

import java.util.Objects;
import org.modelfs.io.ByteSource;

/**
 * Where a tag's FlatGraph FlatBuffer lives: a byte range of a source, and which FlatArray
 * convention its arrays use (legacy format A, or SDNB).
 *
 * @param source the bytes
 * @param offset absolute offset of the FlatBuffer's first byte (its root uoffset)
 * @param length byte length of the FlatBuffer region
 * @param convention how {@code FlatArray} fields are to be read
 */
public record GraphRef(ByteSource source, long offset, long length, Convention convention) {

  /** The two meanings of {@code FlatArray.shape/buffer/byteOrder} (docs/FORMATS.md §3.3). */
  public enum Convention {
    /** Format A: shape = full shapeInfo, byteOrder = endianness, data big-endian. */
    LEGACY,
    /** SDNB: shape = dimensions, byteOrder slot = c/f ordering, data little-endian. */
    SDNB
  }

  public GraphRef {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(convention, "convention");
  }
}
