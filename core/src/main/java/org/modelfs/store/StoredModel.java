package org.modelfs.store;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What an object store holds of one model now (s3, azure: one HEAD, and without a model object
 * one listing): the model object, or none and a plain DL4J shard set beside its key
 * ({@code <base>.shard<k>-of-<N>.sdnb}, shard 0 first; empty if there is none).
 */
public record StoredModel<O extends StoredObject>(O base, List<O> plainShards) {
  /** Every stored object's {@code key@etag}: a commit since changes it. */
  public Generation generation() {
    List<String> files = new ArrayList<>();
    if (base != null) {
      files.add(base.key() + "@" + base.etag());
    }
    for (O s : plainShards) {
      files.add(s.key() + "@" + s.etag());
    }
    return new Generation(files);
  }

  /** When the newest of the stored objects was written, or {@code null}. */
  public Instant newest() {
    Instant m = base == null ? null : base.lastModified();
    for (O o : plainShards) {
      if (m == null || o.lastModified() != null && o.lastModified().isAfter(m)) {
        m = o.lastModified();
      }
    }
    return m;
  }

  /** Whether nothing of the model is stored. */
  public boolean none() {
    return base == null && plainShards.isEmpty();
  }

  /** The stored objects as paths below {@code root} (the bucket's or container's top), for {@link Backing#files}. */
  public List<Path> files(Path root) {
    List<Path> out = new ArrayList<>();
    if (base != null) {
      out.add(root.resolve(base.key()));
    }
    for (O o : plainShards) {
      out.add(root.resolve(o.key()));
    }
    return out;
  }
}
