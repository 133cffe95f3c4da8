package org.modelfs.azure;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.modelfs.store.CleanupPolicy;
import org.modelfs.store.ShardPointer;
import org.modelfs.store.StoreKeys;

/**
 * Removes what commits of shard sets leave behind in Blob Storage, and only that: blobs whose name
 * is exactly a shard of a generation of this model ({@link StoreKeys}) that the model blob's
 * pointer does not name, in a generation the commit before it did not use
 * ({@link BlobBacking#PREVIOUS}: kept so that readers of the previous commit can finish), written
 * <em>strictly before</em> the model blob and more than the grace period ago
 * ({@link CleanupPolicy}: a day by default, system property
 * {@code modelfs.azure.cleanup-grace-seconds}). The bounds are the S3 module's, for the same
 * reasons: a writer whose commit can still succeed mounted the current model blob, so what it
 * uploads is younger than that blob; the service's clock dates all of them.
 *
 * <p>Runs after every commit ({@link #afterCommit}) and as {@code modelfs clean}. A failure after a
 * successful commit is logged ({@code System.Logger} "org.modelfs.azure", WARNING), not thrown.
 */
final class Cleanup {
  private static final CleanupPolicy POLICY = new CleanupPolicy("azure");

  private Cleanup() {}

  /** After a successful commit: {@link #run}, its failure logged (the commit stands). */
  static void afterCommit(BlobLocation at) {
    POLICY.afterCommit(at.uri(), () -> run(at));
  }

  static void warn(BlobLocation at, String what, Exception e) {
    POLICY.warn(at.uri(), what, e);
  }

  /** Deletes the generation blobs of the model at {@code at} no reader or writer can still need; returns their names. */
  static List<String> run(BlobLocation at) throws IOException {
    BlobStore.Info base = at.store().head(at.container(), at.key());
    if (base == null) {
      return List.of(); // no model blob: nothing to date the leftovers by
    }
    Set<String> keepKeys = new HashSet<>();
    ShardPointer.Pointer current = BlobBacking.pointer(at, base);
    if (current != null) {
      for (ShardPointer.Shard s : current.shards()) {
        keepKeys.add(s.key());
      }
      for (ShardPointer.Shard s : current.previous()) {
        keepKeys.add(s.key());
      }
    }
    Set<String> keepGenerations = previous(base);
    Instant bound = POLICY.bound(base.lastModified());
    List<String> deleted = new ArrayList<>();
    for (BlobStore.Info o : at.store().list(at.container(), at.dir() + StoreKeys.generationPrefix(at.name()))) {
      String rel = o.key().substring(at.dir().length());
      if (!StoreKeys.isGenerationShard(at.name(), rel) || keepKeys.contains(rel)
          || keepGenerations.contains(StoreKeys.generationOf(rel)) || o.lastModified() == null
          || !o.lastModified().isBefore(bound)) {
        continue;
      }
      at.store().delete(at.container(), o.key());
      deleted.add(o.key());
    }
    return deleted;
  }

  /** The generations the commit before the model blob's used ({@link BlobBacking#PREVIOUS}). */
  static Set<String> previous(BlobStore.Info base) {
    String p = base.metadata().get(BlobBacking.PREVIOUS);
    return p == null || p.isBlank() ? Set.of() : new HashSet<>(List.of(p.trim().split(" +")));
  }

  /**
   * Deletes {@code keys} (relative to the model's directory), which a commit uploaded and then lost
   * the race to point to: no pointer can ever name them. Failures are added to {@code failure}.
   */
  static void deleteUploaded(BlobLocation at, List<String> keys, Exception failure) {
    for (String k : keys) {
      try {
        at.store().delete(at.container(), at.dir() + k);
      } catch (IOException | RuntimeException e) {
        failure.addSuppressed(e);
      }
    }
  }
}
