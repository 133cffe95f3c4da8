package org.modelfs.format;

import java.io.IOException;

/**
 * A model file that cannot be read as what it claims to be: malformed, truncated or hostile
 * content. The message always names the file and the structure being read, and the byte offset
 * where there is one (a file that is no model at all has none: {@link #offset()} is -1).
 */
public class ModelFormatException extends IOException {
  private static final long serialVersionUID = 1L;

  private final String file;
  private final String structure;
  private final long offset;

  public ModelFormatException(String file, String structure, long offset, String problem) {
    this(file, structure, offset, problem, null);
  }

  public ModelFormatException(
      String file, String structure, long offset, String problem, Throwable cause) {
    super(file + ": " + structure + (offset >= 0 ? " at offset " + offset : "") + ": " + problem, cause);
    this.file = file;
    this.structure = structure;
    this.offset = offset;
  }

  /** The file (or container entry) that holds the bad bytes. */
  public String file() {
    return file;
  }

  /** The structure being decoded, e.g. {@code "SDNB header"} or {@code "FlatArray.shape"}. */
  public String structure() {
    return structure;
  }

  /** Absolute byte offset in {@link #file()} where the problem was found, or -1 when there is none. */
  public long offset() {
    return offset;
  }
}
