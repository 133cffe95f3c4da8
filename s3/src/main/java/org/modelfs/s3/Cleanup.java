package org.modelfs.s3;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.modelfs.format.sdnb.ShardNames;
import org.modelfs.store.CleanupPolicy;
import org.modelfs.store.ShardPointer;
import org.modelfs.store.StoreKeys;

/**
 * Removes what commits of shard sets leave behind in an object store, and only that: objects
 * whose key is exactly a shard of a generation of this model ({@link StoreKeys}) — or a plain
 * DL4J shard that a commit of this model replaced ({@link ObjectBacking#PLAIN_UNTIL}) — that
 * neither the model object's pointer names (its shards, which may lie in older generations, and
 * those of the model it replaced: kept so that readers of the previous commit can finish), nor
 * lie in the generation the pointer was committed in or the one the model object names as the
 * one it replaced ({@link ObjectBacking#PREVIOUS}: a generation holds only shards its own
 * pointer named), that
 * were written <em>strictly before</em> the model object itself and more than the grace period
 * ago ({@link CleanupPolicy}: a day by default, system property
 * {@code modelfs.s3.cleanup-grace-seconds}).
 *
 * <p>Why both bounds: a writer whose commit can still succeed mounted the current model object
 * (its conditional PUT names that ETag), so what it uploads is younger than that object — as long
 * as the object was not written again with the same bytes (the same ETag, a newer time: a
 * reverted change, a copy onto itself), which would make a live writer's shards look older. The
 * grace period covers that: an upload that takes longer than it, into a model whose object is
 * rewritten with identical bytes meanwhile, is the one case left, and it is named in
 * docs/OBJECT-STORES.md. The store's clock dates all of them, so machines' clocks do not matter.
 *
 * <p>Runs after every commit ({@link #afterCommit}) and as {@code modelfs clean}. A failure to
 * delete after a successful commit does not undo the commit: it is reported to the
 * {@code System.Logger} "org.modelfs.s3" (WARNING) and the objects are removed next time.
 */
final class Cleanup {
  static final long DEFAULT_GRACE_SECONDS = CleanupPolicy.DEFAULT_GRACE_SECONDS;
  private static final CleanupPolicy POLICY = new CleanupPolicy("s3");

  private Cleanup() {}

  /** After a successful commit: {@link #run}, its failure logged (the commit stands). */
  static void afterCommit(ObjectLocation at) {
    POLICY.afterCommit(at.uri(), () -> run(at));
  }

  /** Reports a failure that does not undo a successful commit. */
  static void warn(ObjectLocation at, String what, Exception e) {
    POLICY.warn(at.uri(), what, e);
  }

  /**
   * Deletes the generation objects of the model at {@code at} that no reader or writer can still
   * need (see the class comment); returns their keys.
   */
  static List<String> run(ObjectLocation at) throws IOException {
    ObjectStore.Info base = at.store().head(at.bucket(), at.key());
    if (base == null) {
      // no model object: nothing to date the leftovers by. One LIST still asks the bucket, so
      // that a bucket that does not exist is said (as a local model's missing directory is)
      at.store().list(at.bucket(), at.dir() + StoreKeys.generationPrefix(at.name()));
      return List.of();
    }
    Set<String> keep = new HashSet<>(); // whole generations
    Set<String> keepKeys = new HashSet<>(); // single shards (relative keys)
    String previous = base.metadata().get(ObjectBacking.PREVIOUS);
    if (previous != null) {
      keep.add(previous);
    }
    ShardPointer.Pointer pointer = ObjectBacking.pointer(at, base);
    if (pointer != null) {
      keep.add(pointer.generation());
      for (ShardPointer.Shard s : pointer.shards()) {
        keepKeys.add(s.key());
      }
      for (ShardPointer.Shard s : pointer.previous()) {
        keepKeys.add(s.key());
      }
    }
    Instant bound = POLICY.bound(base.lastModified());
    List<String> deleted = new ArrayList<>();
    String plainUntil = base.metadata().get(ObjectBacking.PLAIN_UNTIL);
    if (plainUntil != null && !ObjectBacking.PLAIN.equals(previous) && plainUntil.matches("-?[0-9]{1,19}")) {
      // the plain shard set a commit of this model replaced: kept while it is the previous model
      // (its readers), then those of its shards written no later than the newest it replaced
      Instant until = Instant.ofEpochMilli(Long.parseLong(plainUntil));
      plainShards(at, until.isBefore(bound) ? until.plusMillis(1) : bound, deleted);
    }
    for (ObjectStore.Info o : at.store().list(at.bucket(), at.dir() + StoreKeys.generationPrefix(at.name()))) {
      String rel = o.key().substring(at.dir().length());
      if (!StoreKeys.isGenerationShard(at.name(), rel) || keep.contains(StoreKeys.generationOf(rel))
          || keepKeys.contains(rel) || o.lastModified() == null || !o.lastModified().isBefore(bound)) {
        continue;
      }
      at.store().delete(at.bucket(), o.key());
      deleted.add(o.key());
    }
    return deleted;
  }

  /** Deletes the plain shards {@code <base>.shard<k>-of-<N>.sdnb} beside the model's key written before {@code bound}. */
  private static void plainShards(ObjectLocation at, Instant bound, List<String> deleted) throws IOException {
    String base = ShardNames.base(at.name());
    for (ObjectStore.Info o : at.store().list(at.bucket(), at.dir() + base + ".shard")) {
      String rest = o.key().substring(at.dir().length());
      ShardNames.Shard s = rest.contains("/") ? null
          : ShardNames.parse(rest);
      if (s != null && s.base().equals(base) && s.index() < s.count() && o.lastModified() != null
          && o.lastModified().isBefore(bound)) { // a shard number no set can have was never the model's
        at.store().delete(at.bucket(), o.key());
        deleted.add(o.key());
      }
    }
  }

  /**
   * Deletes the objects of {@code generation}, which a commit uploaded and then lost the race to
   * point to (a 412: another writer's object is there, so this generation can never be pointed
   * to; no one else has read it). Failures are added to {@code failure}.
   */
  static void deleteGeneration(ObjectLocation at, String generation, Exception failure) {
    try {
      for (ObjectStore.Info o : at.store().list(at.bucket(), at.dir() + generation + "/")) {
        String rel = o.key().substring(at.dir().length());
        if (StoreKeys.isGenerationShard(at.name(), rel)) {
          at.store().delete(at.bucket(), o.key());
        }
      }
    } catch (IOException | RuntimeException e) {
      failure.addSuppressed(e);
    }
  }
}
