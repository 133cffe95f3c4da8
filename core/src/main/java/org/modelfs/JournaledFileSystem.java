package org.modelfs;

import java.io.IOException;

/**
 * What a mounted model offers beyond {@link java.nio.file.FileSystem}: explicit commit and
 * rollback of its journaled changes. Every file system of the {@code samediff} provider is one:
 * {@code ((JournaledFileSystem) fs).commit()}.
 */
public interface JournaledFileSystem {

  /**
   * Validates the changes and writes them as a complete new container, swapped in atomically;
   * the file system then shows the committed model. Nothing happens without changes. A failed
   * validation writes nothing and keeps the changes (an {@code IOException} names each path and
   * reason).
   */
  void commit() throws IOException;

  /** Forgets every change since the last commit. */
  void rollback() throws IOException;

  /** Whether there are changes not yet committed. */
  boolean hasPendingChanges();
}
