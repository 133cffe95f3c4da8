package org.modelfs.store;

import java.time.Instant;
import java.util.Map;

/**
 * What an object store says of one object (a HEAD, a listing): s3's {@code ObjectStore.Info},
 * azure's {@code BlobStore.Info}. Keys are the store's, from the bucket's or container's top.
 */
public interface StoredObject {
  String key();

  String etag();

  long size();

  /** When the store wrote it, by the store's clock, or {@code null} if it does not say. */
  Instant lastModified();

  /** Its user metadata (empty if none). */
  Map<String, String> metadata();
}
