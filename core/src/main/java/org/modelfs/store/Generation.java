package org.modelfs.store;

import java.util.List;

/**
 * Which version of a model's stored files a reader saw or a writer builds on: for a local model
 * the name and {@link Durable.Stamp} (file key, size, time) of each of its files; for another
 * backing whatever identifies a version there (an object's ETag). A commit goes ahead only if
 * the model's generation is still the one its writer mounted; otherwise another writer
 * committed meanwhile and the commit is refused ({@link ModelChangedException}).
 *
 * @param files one entry per stored file, in name order: {@code name@stamp}
 */
public record Generation(List<String> files) {
  /** No model stored yet. */
  public static final Generation NONE = new Generation(List.of());

  public Generation {
    files = List.copyOf(files);
  }

  @Override
  public String toString() {
    return files.isEmpty() ? "(no model)" : String.join(", ", files);
  }
}
