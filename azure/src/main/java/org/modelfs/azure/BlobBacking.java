package org.modelfs.azure;

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
import org.modelfs.store.OpenAgain;
import org.modelfs.store.ShardPointer;
import org.modelfs.store.Snapshot;
import org.modelfs.store.StoreShardSets;
import org.modelfs.store.StoredModel;
import org.modelfs.store.WriterTable;

/**
 * A model kept in Azure Blob Storage: the S3 module's object-store transaction
 * (docs/OBJECT-STORES.md), with Azure's block blobs:
 * <ul>
 *   <li><b>the commit point is one conditional Put Block List</b> of the model's own blob:
 *       {@code If-Match} on the ETag the mount read, or {@code If-None-Match: *} when there was no
 *       blob. A concurrent committer's fails with 412 (or 409), reported as
 *       {@link ModelChangedException}; nothing half-written is ever visible;
 *   <li>the blob is composed on the service from the blocks it holds already and the changed ones
 *       ({@link BlockUpload}): a small change uploads one block;
 *   <li>a <b>shard set</b>'s changed shards are uploaded under a new, never reused generation
 *       ({@code m.sdnb.modelfs-g<32 hex>/m.shard<k>-of-<N>.sdnb}, each {@code If-None-Match: *});
 *       unchanged ones (same name, same SHA-256) are named again where they are; then the small
 *       {@link ShardPointer} is committed at the model's name as above;
 *   <li>the new container is written to local temporaries and <b>read back and checked</b> with
 *       the format's reader before anything is uploaded ({@link CommitSteps} over a
 *       {@link BlobCommit}); the journal is a local temporary
 *       directory; the writer lock is this JVM's only — between processes and machines the
 *       commit's condition keeps writers apart (a blob lease would too, but a crashed writer's
 *       lease shuts every other writer out until it expires, and it adds nothing the condition
 *       does not already decide).
 * </ul>
 * Readers open the blobs of one version pinned to their ETags ({@link BlobSource}).
 */
final class BlobBacking implements Backing {
  /** Metadata of a commit: the generations the pointer it replaced used (space-separated). */
  static final String PREVIOUS = "modelfs_previous";

  /** One writer per model per JVM. */
  private static final WriterTable HELD = new WriterTable();

  private final BlobLocation at;
  private final boolean shardSet;
  private volatile Instant opened;

  BlobBacking(BlobLocation at, boolean shardSet) {
    this.at = at;
    this.shardSet = shardSet;
  }

  /** Where the model is (for tests: another client of the same model). */
  BlobLocation location() {
    return at;
  }

  /** Whether commits write the model as a shard set. */
  boolean isShardSet() {
    return shardSet;
  }

  @Override
  public String fileName() {
    return shardSet ? ShardNames.base(at.name()) + ".sdnb" : at.name();
  }

  private StoredModel<BlobStore.Info> look() throws IOException {
    return look(at);
  }

  /** What is stored at {@code at} now. */
  /** The pointer the model blob {@code base} at {@code at} is (read at its ETag), or {@code null} if it is not one. */
  static ShardPointer.Pointer pointer(BlobLocation at, BlobStore.Info base) throws IOException {
    try (BlobSource src = new BlobSource(at.store(), at.container(), at.key(), base.etag(), base.size())) {
      return ShardPointer.sniff(src) ? ShardPointer.read(src, at.name()) : null;
    }
  }

  static StoredModel<BlobStore.Info> look(BlobLocation at) throws IOException {
    BlobStore.Info base = at.store().head(at.container(), at.key());
    if (base != null) {
      return new StoredModel<>(base, List.of());
    }
    return new StoredModel<>(null, StoreShardSets.plainSet(at.uri(), "Blob Storage", at.name(), at.store().list(at.container(),
        at.dir() + ShardNames.base(at.name()) + ".shard"), o -> o.key().substring(at.dir().length()),
        n -> BlobStore.name(at.container(), at.dir() + n)));
  }

  /** Opens the current model; a commit replacing a blob while the index is read makes it start again ({@link OpenAgain}). */
  @Override
  public Snapshot open() throws IOException {
    return OpenAgain.open(at.uri(), BlobChangedException.class, this::openOnce);
  }

  private Snapshot openOnce() throws IOException {
    StoredModel<BlobStore.Info> s = look();
    if (s.none()) {
      throw new NoSuchFileException(at.uri(), null, "no model blob, and no shard blobs of this base name");
    }
    opened = s.base() != null ? s.base().lastModified() : s.plainShards().get(0).lastModified();
    List<ByteSource> shards = new ArrayList<>();
    List<String> names = new ArrayList<>();
    try {
      if (s.base() != null) {
        BlobSource src = new BlobSource(at.store(), at.container(), at.key(), s.base().etag(), s.base().size());
        Models.prefetch(List.of(src), false); // its head and tail at once, then its index: a round trip fewer than head, tail, index in turn
        if (!ShardPointer.sniff(src)) {
          return new Snapshot(Models.open(at.uri(), src), s.generation());
        }
        try {
          for (ShardPointer.Shard p : ShardPointer.read(src, at.name()).shards()) {
            shards.add(new BlobSource(at.store(), at.container(), at.dir() + p.key(), p.etag(), p.size()));
            names.add(p.fileName());
          }
        } finally {
          src.close();
        }
      } else {
        for (BlobStore.Info o : s.plainShards()) {
          shards.add(new BlobSource(at.store(), at.container(), o.key(), o.etag(), o.size()));
          names.add(o.key().substring(at.dir().length()));
        }
      }
    } catch (IOException | RuntimeException e) {
      Closer.closeAll(shards);
      throw e;
    }
    // the shards' names, so that a plan keeps the unchanged ones (BlobCommit#kept)
    return new Snapshot(Models.openShardSources(at.uri(), shards, names), s.generation());
  }

  @Override
  public Generation current() throws IOException {
    return look().generation();
  }

  @Override
  public FileTime modified() {
    Instant m = opened;
    return m == null ? null : FileTime.from(m);
  }

  /** Nothing to check: a container has no directories (the commit says whether it takes the blob). */
  @Override
  public void checkNew(Path path) {}

  @Override
  public List<Path> files() throws IOException {
    return look().files(at.path().getRoot());
  }

  @Override
  public List<String> clean() throws IOException {
    return OpenAgain.again(BlobChangedException.class, () -> Cleanup.run(at)); // a commit that overtook it: clean against the new one
  }

  // ---- writing ------------------------------------------------------------------------------

  @Override
  public Backing.Lease lock() throws IOException {
    return HELD.take(at.identity(), at.uri(),
        " (one writer per model per JVM; between processes the service's conditional commit decides)", null);
  }

  /** Nothing to recover: a commit that died left at most unnamed generation blobs and staged blocks. */
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
   * Unchanged weight shards of a shard set are named again by the new pointer, not rewritten
   * ({@link BlobCommit#kept}).
   */
  @Override
  public boolean keepsUnchangedFiles() {
    return true;
  }

  @Override
  public void commit(Backing.Lease lease, Generation expected, ContainerPlan plan, LongConsumer progress)
      throws IOException {
    own(lease);
    StoreShardSets.check(at.uri(), "Blob Storage", plan);
    CommitSteps.run(new BlobCommit(at, plan.sharded()), expected, plan, progress);
  }

  private void own(Backing.Lease lease) {
    HELD.own(lease, at.identity(), at.uri());
  }
}
