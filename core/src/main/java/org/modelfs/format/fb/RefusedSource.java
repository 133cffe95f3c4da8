package org.modelfs.format.fb;

import java.nio.ByteBuffer;
import org.modelfs.format.ModelFormatException;
import org.modelfs.io.ByteSource;

/**
 * The bytes of an array that opened but cannot be presented (a legacy UTF8 buffer in neither
 * layout, docs/FORMATS.md §3.8): its size is known, so the model lists and its other arrays
 * read, but every read of this one fails with the {@link ModelFormatException} that explains why —
 * and so does any commit or conversion that would copy it.
 */
final class RefusedSource implements ByteSource {
  private final String name;
  private final long size;
  private final String file;
  private final String structure;
  private final long offset;
  private final String problem;

  RefusedSource(String name, long size, String file, String structure, long offset, String problem) {
    this.name = name;
    this.size = size;
    this.file = file;
    this.structure = structure;
    this.offset = offset;
    this.problem = problem;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public int read(ByteBuffer dst, long position) throws ModelFormatException {
    throw new ModelFormatException(file, structure, offset, problem);
  }

  @Override
  public void close() {}
}
