package org.modelfs.format.unified;

import org.modelfs.io.ByteSource;

/**
 * What the two views of a container array's chunks share ({@link StoredChunks},
 * {@link DeflatedChunks}): the file they read and the index entry that places them; each checks
 * CRCs its own way (docs/FORMATS.md §13.6). Positions are relative to the array's
 * first byte; closing a view leaves the file, which belongs to the model, open.
 */
abstract class ChunkView implements ByteSource {
  final ByteSource file;
  final ArrayIndex.Entry entry;

  ChunkView(ByteSource file, ArrayIndex.Entry entry) {
    this.file = file;
    this.entry = entry;
  }

  @Override
  public final String name() {
    return file.name();
  }

  @Override
  public final long size() {
    return entry.raw();
  }

  @Override
  public final ByteSource viewOf() {
    return file;
  }

  @Override
  public final void close() {
    // the file belongs to the model
  }
}
