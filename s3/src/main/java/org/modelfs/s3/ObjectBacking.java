package org.modelfs.s3;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;
import org.modelfs.container.ContainerPlan;
import org.modelfs.container.Models;
import org.modelfs.format.sdnb.ShardNames;
import org.modelfs.io.ByteSource;
import org.modelfs.io.Closer;
import org.modelfs.store.Backing;
import org.modelfs.store.CommitSteps;
import org.modelfs.store.Generation;
import org.modelfs.store.Journal;
import org.modelfs.store.ModelChangedException;
import org.modelfs.store.OpenAgain;
import org.modelfs.store.ShardPointer;
import org.modelfs.store.Snapshot;
import org.modelfs.store.StoreShardSets;
import org.modelfs.store.StoredModel;
import org.modelfs.store.WriterTable;

/**
 * A model kept in an S3-compatible object store: the object-store transaction
 * (docs/OBJECT-STORES.md). The store has no rename, no lock and no directory to put a journal
 * in, so:
 * <ul>
 *   <li><b>the commit point is one conditional PUT</b> of the model's own key: {@code If-Match} on
 *       the ETag the mount read, or {@code If-None-Match: *} when there was no object. A
 *       concurrent committer's PUT fails with 412, reported as {@link ModelChangedException}
 *       ("the model changed since it was mounted"); nothing is lost and nothing half-written is
 *       ever visible (a PUT is atomic);
 *   <li>a <b>shard set</b> is uploaded first under a new, never reused generation directory
 *       ({@code m.sdnb.modelfs-g<32 hex>/m.shard<k>-of-<N>.sdnb}, each {@code If-None-Match: *}),
 *       then the small {@link ShardPointer} is PUT at the model's key as above: the pointer is the
 *       commit point; a commit that dies before it leaves only unreferenced generation objects,
 *       removed by a later commit's {@link Cleanup} or {@code modelfs clean};
 *   <li>a commit <b>uploads what changed</b>: a shard set's new generation holds shard 0 and the
 *       shards it changed, the pointer names the unchanged ones where older generations hold
 *       them; a single object is composed on the server from its unchanged parts
 *       ({@link PartDigests}, {@code UploadPartCopy}) where the store can;
 *   <li>the new container is written to local temporaries and <b>read back and checked</b> before
 *       anything is uploaded ({@code store.CommitSteps} with {@link ObjectCommit}); the journal is a local temporary directory
 *       ({@link Journal#createLocal}); the writer lock is this JVM's only (one writer per model per
 *       JVM) — between processes and machines the PUT's condition keeps writers apart.
 * </ul>
 * Readers open the objects one pointer names, pinned to their ETags ({@link ObjectSource}).
 */
final class ObjectBacking implements Backing {
  /**
   * User metadata a commit stores on the model object: the generation directory the commit
   * replaced, or {@link #PLAIN} when it replaced a plain DL4J shard set.
   */
  static final String PREVIOUS = "modelfs-previous";
  /** {@link #PREVIOUS}'s value when the commit replaced a plain shard set beside the model's key. */
  static final String PLAIN = "plain-shards";
  /**
   * User metadata of every commit since one replaced a plain DL4J shard set: the newest time (epoch
   * milliseconds) among the plain shards it read. Plain shards written no later than that were
   * this model's and are removed by {@link Cleanup}; any uploaded since are not ModelFS's to touch.
   */
  static final String PLAIN_UNTIL = "modelfs-plain-shards-until";

  /** One writer per model per JVM. */
  private static final WriterTable HELD = new WriterTable();

  private final ObjectLocation at;
  private final boolean shardSet;
  /** When the objects of the last generation opened were written (the newest of them), or {@code null}. */
  private volatile Instant opened;

  ObjectBacking(ObjectLocation at, boolean shardSet) {
    this.at = at;
    this.shardSet = shardSet;
  }

  /** Where the model is. */
  ObjectLocation location() {
    return at;
  }

  /** Whether the model is written as a shard set. */
  boolean isShardSet() {
    return shardSet;
  }

  @Override
  public String fileName() {
    String name = at.name();
    return shardSet ? ShardNames.base(name) + ".sdnb" : name;
  }

  // ---- reading ------------------------------------------------------------------------------

  private StoredModel<ObjectStore.Info> look() throws IOException {
    return look(at);
  }

  /** What is stored now at {@code at}. */
  /** The pointer the model object {@code base} at {@code at} is (read at its ETag), or {@code null} if it is not one. */
  static ShardPointer.Pointer pointer(ObjectLocation at, ObjectStore.Info base) throws IOException {
    try (ObjectSource src = new ObjectSource(at.store(), at.bucket(), at.key(), base.etag(), base.size())) {
      return ShardPointer.sniff(src) ? ShardPointer.read(src, at.name()) : null;
    }
  }

  static StoredModel<ObjectStore.Info> look(ObjectLocation at) throws IOException {
    ObjectStore.Info base = at.store().head(at.bucket(), at.key());
    if (base != null) {
      return new StoredModel<>(base, List.of());
    }
    try {
      return new StoredModel<>(null, plainShards(at));
    } catch (StoreFailures.NoSuchBucketException e) {
      // the listing's prefix is no name the user wrote: name the model
      NoSuchFileException named = new StoreFailures.NoSuchBucketException(at.uri(), at.bucket());
      named.initCause(e);
      throw named;
    }
  }

  /**
   * The complete plain shard set {@code <base>.shard<k>-of-<N>.sdnb} beside the model's key (one
   * listing), shard 0 first; empty if there is none.
   */
  private static List<ObjectStore.Info> plainShards(ObjectLocation at) throws IOException {
    return StoreShardSets.plainSet(at.uri(), "object stores", at.name(), at.store().list(at.bucket(), at.dir()
        + ShardNames.base(at.name()) + ".shard"), o -> o.key().substring(at.dir().length()),
        n -> at.store().name(at.bucket(), at.dir() + n));
  }

  /**
   * Opens the current model. A commit that replaces an object while the index is being read
   * makes the open start again (the reads are pinned: they fail, they never mix): {@link OpenAgain}.
   */
  @Override
  public Snapshot open() throws IOException {
    return OpenAgain.open(at.uri(), ObjectChangedException.class, this::openOnce);
  }

  private Snapshot openOnce() throws IOException {
    StoredModel<ObjectStore.Info> s = look();
    opened = s.newest();
    if (s.none()) {
      throw new NoSuchFileException(at.uri(), null, "no model object, and no shard objects of this base name");
    }
    List<ByteSource> shards = new ArrayList<>();
    List<String> names = new ArrayList<>(); // a pointer's shards: a commit may keep those it does not change
    try {
      if (s.base() != null) {
        ObjectSource src = new ObjectSource(at.store(), at.bucket(), at.key(), s.base().etag(), s.base().size());
        Models.prefetch(List.of(src), false); // its head and tail at once, then its index: a round trip fewer than head, tail, index in turn
        if (!ShardPointer.sniff(src)) {
          return new Snapshot(Models.open(at.uri(), src), s.generation());
        }
        try {
          for (ShardPointer.Shard p : ShardPointer.read(src, at.name()).shards()) {
            shards.add(new ObjectSource(at.store(), at.bucket(), at.dir() + p.key(), p.etag(), p.size()));
            names.add(p.fileName());
          }
        } finally {
          src.close();
        }
      } else {
        for (ObjectStore.Info o : s.plainShards()) {
          shards.add(new ObjectSource(at.store(), at.bucket(), o.key(), o.etag(), o.size()));
        }
      }
    } catch (IOException | RuntimeException e) {
      Closer.closeAll(shards);
      throw e;
    }
    return new Snapshot(Models.openShardSources(at.uri(), shards, names), s.generation());
  }

  @Override
  public Generation current() throws IOException {
    return look().generation();
  }

  /** When the objects of the model the last {@link #open} read were written (no request). */
  @Override
  public FileTime modified() {
    Instant m = opened;
    return m == null ? null : FileTime.from(m);
  }

  /** Nothing to check: an object store has no directories (the first PUT says whether the bucket takes it). */
  @Override
  public void checkNew(Path path) {}

  @Override
  public List<Path> files() throws IOException {
    return look().files(at.path().getRoot());
  }

  /**
   * {@code modelfs clean}: deletes the generation objects no reader or writer can still need
   * ({@link Cleanup#run}); returns their keys. Needs no lock: what it deletes is older than the
   * model object, so no commit that can still succeed uploaded it.
   */
  @Override
  public List<String> clean() throws IOException {
    return OpenAgain.again(ObjectChangedException.class, () -> Cleanup.run(at)); // a commit that overtook it: clean against the new one
  }

  // ---- writing ------------------------------------------------------------------------------

  /**
   * A shard set's commit names the unchanged shards where an older generation holds them (keys
   * are immutable) instead of uploading them again (the mounted model is a pointer: its shards
   * carry their names, {@link #openOnce}); a plain DL4J shard set's are uploaded once, and a
   * single object keeps no file.
   */
  @Override
  public boolean keepsUnchangedFiles() {
    return true;
  }

  @Override
  public Backing.Lease lock() throws IOException {
    return HELD.take(at.identity(), at.uri(),
        " (one writer per model per JVM; between processes the store's conditional PUT decides)", null);
  }

  /**
   * Nothing to recover before a change: a commit that died left at most unreferenced generation
   * objects, which never make a model and are removed after the next commit ({@link Cleanup}).
   */
  @Override
  public void recover(Backing.Lease lease) {
    own(lease);
  }

  @Override
  public Journal newJournal(Backing.Lease lease) throws IOException {
    own(lease);
    return Journal.createLocal(at.path());
  }

  /**
   * {@code store.CommitSteps} with the object store's steps ({@link ObjectCommit}): written and
   * read back locally, then uploaded; the conditional PUT of the model's key is the commit point.
   */
  @Override
  public void commit(Backing.Lease lease, Generation expected, ContainerPlan plan, LongConsumer progress)
      throws IOException {
    own(lease);
    StoreShardSets.check(at.uri(), "object stores", plan);
    CommitSteps.run(new ObjectCommit(at, plan.sharded()), expected, plan, progress);
  }

  private void own(Backing.Lease lease) {
    HELD.own(lease, at.identity(), at.uri());
  }
}
