package org.modelfs.s3;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Removes what committed shard sets leave behind in an object store, and only that: objects whose
 * key is exactly a shard of a generation of this model ({@link ObjectNames}) — or of the plain
 * DL4J shard set beside its key, which the model object shadows — that the model object neither
 * points to nor names as what it replaced ({@link ObjectBacking#PREVIOUS}: kept so that readers of
 * the previous commit can finish), and that were written <em>strictly before</em> the model
 * object itself.
 *
 * <p>Why that is safe: a writer whose commit can still succeed mounted the current model object
 * (its conditional PUT names that ETag), so every object it uploads is younger than that object;
 * an older generation object belongs to a commit that died or can no longer win. The store's
 * clock stamps both, so there is no skew between machines; its one-second resolution only makes
 * the rule keep a little more.
 *
 * <p>Runs after every commit ({@link #afterCommit}) and as {@code modelfs clean}. A failure to
 * delete after a successful commit does not undo the commit: it is reported to the caller's logger
 * ({@code System.Logger} "org.modelfs.s3", WARNING) and the objects are removed next time.
 */
final class Cleanup {
  private static final System.Logger LOG = System.getLogger("org.modelfs.s3");

  private Cleanup() {}

  /** After a successful commit: {@link #run}, its failure logged (the commit stands). */
  static void afterCommit(ObjectLocation at) {
    try {
      run(at);
    } catch (IOException | RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, at.uri() + ": the commit succeeded, but removing what earlier commits"
          + " left failed (the next commit or 'modelfs clean' removes it): " + e, e);
    }
  }

  /**
   * Deletes the generation objects of the model at {@code at} that no reader or writer can still
   * need (see the class comment); returns their keys.
   */
  static List<String> run(ObjectLocation at) throws IOException {
    ObjectStore.Info base = at.store().head(at.bucket(), at.key());
    if (base == null) {
      return List.of(); // no model object: nothing to date the leftovers by
    }
    Set<String> keep = new java.util.HashSet<>();
    String previous = base.metadata().get(ObjectBacking.PREVIOUS);
    if (previous != null) {
      keep.add(previous);
    }
    try (ObjectSource src = new ObjectSource(at.store(), at.bucket(), at.key(), base.etag(), base.size())) {
      if (ShardPointer.sniff(src)) {
        keep.add(ObjectNames.generationOf(ShardPointer.read(src, at.name()).get(0).key()));
      }
    }
    Instant bound = base.lastModified();
    List<String> deleted = new ArrayList<>();
    if (!ObjectBacking.PLAIN.equals(previous)) {
      plainShards(at, bound, deleted);
    }
    for (ObjectStore.Info o : at.store().list(at.bucket(), at.dir() + ObjectNames.generationPrefix(at.name()))) {
      String rel = o.key().substring(at.dir().length());
      if (!ObjectNames.isGenerationShard(at.name(), rel) || keep.contains(ObjectNames.generationOf(rel))
          || o.lastModified() == null || !o.lastModified().isBefore(bound)) {
        continue;
      }
      at.store().delete(at.bucket(), o.key());
      deleted.add(o.key());
    }
    return deleted;
  }

  /**
   * The plain DL4J shard set beside the model's key ({@code <base>.shard<k>-of-<N>.sdnb}), which
   * the model object shadows once it exists: readers never open it again. Deleted when strictly
   * older than the model object, and not the set the model object's commit replaced (kept for
   * its readers until the next commit).
   */
  private static void plainShards(ObjectLocation at, Instant bound, List<String> deleted) throws IOException {
    String base = org.modelfs.format.sdnb.ShardNames.base(at.name());
    for (ObjectStore.Info o : at.store().list(at.bucket(), at.dir() + base + ".shard")) {
      String rest = o.key().substring(at.dir().length());
      org.modelfs.format.sdnb.ShardNames.Shard s = rest.contains("/") ? null
          : org.modelfs.format.sdnb.ShardNames.parse(rest);
      if (s != null && s.base().equals(base) && o.lastModified() != null && o.lastModified().isBefore(bound)) {
        at.store().delete(at.bucket(), o.key());
        deleted.add(o.key());
      }
    }
  }

  /**
   * Deletes the objects of {@code generation}, which a commit uploaded and then failed to point to
   * (its own, just made: no one else can have read them). Failures are added to {@code failure}.
   */
  static void deleteGeneration(ObjectLocation at, String generation, Exception failure) {
    try {
      for (ObjectStore.Info o : at.store().list(at.bucket(), at.dir() + generation + "/")) {
        String rel = o.key().substring(at.dir().length());
        if (ObjectNames.isGenerationShard(at.name(), rel)) {
          at.store().delete(at.bucket(), o.key());
        }
      }
    } catch (IOException | RuntimeException e) {
      failure.addSuppressed(e);
    }
  }
}
