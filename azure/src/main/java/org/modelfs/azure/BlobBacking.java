package org.modelfs.azure;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongConsumer;
import org.modelfs.container.ContainerPlan;
import org.modelfs.container.Models;
import org.modelfs.format.sdnb.ShardNames;
import org.modelfs.io.ByteSource;
import org.modelfs.io.StorageFullException;
import org.modelfs.io.WriteProgress;
import org.modelfs.model.Model;
import org.modelfs.store.Backing;
import org.modelfs.store.Generation;
import org.modelfs.store.Journal;
import org.modelfs.store.ModelChangedException;
import org.modelfs.store.Snapshot;

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
 *       the format's reader before anything is uploaded; the journal is a local temporary
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

  private static final Map<BlobLocation.Identity, Lease> HELD = new ConcurrentHashMap<>();

  private final BlobLocation at;
  private final boolean shardSet;
  private volatile java.time.Instant opened;

  BlobBacking(BlobLocation at, boolean shardSet) {
    this.at = at;
    this.shardSet = shardSet;
  }

  @Override
  public String fileName() {
    return shardSet ? ShardNames.base(at.name()) + ".sdnb" : at.name();
  }

  /** What is stored now: the model blob (or none) and, without one, a plain DL4J shard set. */
  private record Stored(BlobStore.Info base, List<BlobStore.Info> plainShards) {
    Generation generation() {
      List<String> files = new ArrayList<>();
      if (base != null) {
        files.add(base.key() + "@" + base.etag());
      }
      for (BlobStore.Info s : plainShards) {
        files.add(s.key() + "@" + s.etag());
      }
      return new Generation(files);
    }
  }

  private Stored look() throws IOException {
    BlobStore.Info base = at.store().head(at.container(), at.key());
    if (base != null) {
      return new Stored(base, List.of());
    }
    return new Stored(null, ShardNames.completeSet(ShardNames.base(at.name()), at.store().list(at.container(),
        at.dir() + ShardNames.base(at.name()) + ".shard"), o -> o.key().substring(at.dir().length()),
        n -> BlobStore.name(at.container(), at.dir() + n)));
  }

  private static final int OPEN_TRIES = 5;

  /** Opens the current model; a commit replacing a blob while the index is read makes it start again. */
  @Override
  public Snapshot open() throws IOException {
    for (int attempt = 1; ; attempt++) {
      try {
        return openOnce();
      } catch (IOException e) {
        if (attempt == OPEN_TRIES || !changedWhileOpening(e)) {
          throw e;
        }
      }
    }
  }

  private static boolean changedWhileOpening(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof BlobChangedException) {
        return true;
      }
    }
    return false;
  }

  private Snapshot openOnce() throws IOException {
    Stored s = look();
    if (s.base() == null && s.plainShards().isEmpty()) {
      throw new NoSuchFileException(at.uri(), null, "no model blob, and no shard blobs of this base name");
    }
    opened = s.base() != null ? s.base().lastModified() : s.plainShards().get(0).lastModified();
    List<ByteSource> shards = new ArrayList<>();
    try {
      if (s.base() != null) {
        BlobSource src = new BlobSource(at.store(), at.container(), at.key(), s.base().etag(), s.base().size());
        if (!ShardPointer.sniff(src)) {
          return new Snapshot(Models.open(at.uri(), src), s.generation());
        }
        try {
          for (ShardPointer.Shard p : ShardPointer.read(src, at.name())) {
            shards.add(new BlobSource(at.store(), at.container(), at.dir() + p.key(), p.etag(), p.size()));
          }
        } finally {
          src.close();
        }
      } else {
        for (BlobStore.Info o : s.plainShards()) {
          shards.add(new BlobSource(at.store(), at.container(), o.key(), o.etag(), o.size()));
        }
      }
    } catch (IOException | RuntimeException e) {
      org.modelfs.io.Closer.closeAll(shards);
      throw e;
    }
    return new Snapshot(Models.openShardSources(at.uri(), shards), s.generation());
  }

  @Override
  public Generation current() throws IOException {
    return look().generation();
  }

  @Override
  public java.nio.file.attribute.FileTime modified() {
    java.time.Instant m = opened;
    return m == null ? null : java.nio.file.attribute.FileTime.from(m);
  }

  /** Nothing to check: a container has no directories (the commit says whether it takes the blob). */
  @Override
  public void checkNew(Path path) {}

  @Override
  public List<Path> files() throws IOException {
    Stored s = look();
    List<Path> out = new ArrayList<>();
    Path root = at.path().getRoot();
    if (s.base() != null) {
      out.add(root.resolve(at.key()));
    }
    for (BlobStore.Info o : s.plainShards()) {
      out.add(root.resolve(o.key()));
    }
    return out;
  }

  @Override
  public List<String> clean() throws IOException {
    return Cleanup.run(at);
  }

  // ---- writing ------------------------------------------------------------------------------

  private final class Lease implements Backing.Lease {
    private volatile boolean held = true;

    @Override
    public boolean held() {
      return held;
    }

    @Override
    public void close() {
      if (held) {
        held = false;
        HELD.remove(at.identity(), this);
      }
    }
  }

  @Override
  public Lease lock() throws IOException {
    Lease l = new Lease();
    if (HELD.putIfAbsent(at.identity(), l) != null) {
      throw new FileSystemException(at.uri(), null, "another writer in this JVM has the model open for writing"
          + " (one writer per model per JVM; between processes the service's conditional commit decides)");
    }
    return l;
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

  @Override
  public void commit(Backing.Lease lease, Generation expected, ContainerPlan plan, LongConsumer progress)
      throws IOException {
    own(lease);
    if (plan.format() == org.modelfs.model.ModelFormat.SHARDED_CONTAINER) {
      throw new org.modelfs.format.ModelFormatException(at.uri(), "model to write", 0, "a sharded container"
          + " (<base>.shard<k>-of-<N>.sdmc) is not written to Blob Storage; write a single container (format"
          + " container) or a sharded SDNB (docs/OBJECT-STORES.md)");
    }
    Stored before = look();
    if (!before.generation().equals(expected)) {
      throw new ModelChangedException(at.uri(), expected, before.generation());
    }
    Path dir = privateTempDirectory();
    try {
      List<Path> temps = writeLocally(plan, dir, progress);
      verify(plan, temps);
      List<ShardPointer.Shard> old = before.base() == null ? null : ShardPointer.at(at, before.base());
      Map<String, String> meta = new HashMap<>();
      if (old != null) {
        meta.put(PREVIOUS, String.join(" ", ShardPointer.generations(old)));
      }
      BlobStore.Condition condition = before.base() == null ? BlobStore.Condition.ABSENT
          : BlobStore.Condition.etag(before.base().etag());
      if (plan.sharded()) {
        List<String> uploaded = new ArrayList<>();
        Path pointer = uploadShards(plan, temps, dir, old == null ? List.of() : old, uploaded);
        putModel(pointer, condition, meta, expected, uploaded);
      } else {
        putModel(temps.get(0), condition, meta, expected, List.of());
      }
      Cleanup.afterCommit(at);
    } catch (IOException | RuntimeException e) {
      try {
        deleteTree(dir);
      } catch (IOException | RuntimeException again) {
        e.addSuppressed(again);
      }
      throw e;
    }
    try {
      deleteTree(dir);
    } catch (IOException | RuntimeException e) {
      Cleanup.warn(at, "the commit succeeded, but its local temporary directory " + dir + " could not be removed", e);
    }
  }

  private static Path privateTempDirectory() throws IOException {
    try {
      return Files.createTempDirectory("modelfs-commit-", PosixFilePermissions.asFileAttribute(
          PosixFilePermissions.fromString("rwx------")));
    } catch (UnsupportedOperationException e) {
      return Files.createTempDirectory("modelfs-commit-");
    }
  }

  /** Step 1: every planned file into a new local temporary (the codec streams it; nothing in the heap). */
  private List<Path> writeLocally(ContainerPlan plan, Path dir, LongConsumer progress) throws IOException {
    if (plan.keepsFiles()) {
      throw new IllegalArgumentException("Blob Storage writes every file of a commit; the plan keeps some: " + at.uri());
    }
    List<Path> temps = new ArrayList<>();
    long written = 0;
    for (ContainerPlan.PlannedFile f : plan.files()) {
      Path t = dir.resolve(f.name());
      try (FileChannel ch = FileChannel.open(t, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
          StandardOpenOption.WRITE)) {
        temps.add(t);
        try (WriteProgress p = WriteProgress.start(ch, progress, written)) {
          f.body().writeTo(ch, t.toString());
        } catch (IOException e) {
          throw StorageFullException.explain(e, t, "writing the new container " + f.name() + " of " + at.uri()
              + " locally before its upload (commit; nothing was replaced)", ch.size(),
              Math.max(0, plan.arrayBytes() - written));
        } catch (RuntimeException e) {
          FileSystemException refused = new FileSystemException(at.uri(), null, "commit refused: the "
              + plan.format().token() + " writer failed on " + f.name() + " (" + e + "); nothing was replaced");
          refused.initCause(e);
          throw refused;
        }
        written += ch.size();
      }
    }
    return temps;
  }

  /** Step 2: the temporaries read back with the format's reader and compared with the plan. */
  private void verify(ContainerPlan plan, List<Path> temps) throws IOException {
    List<String> problems;
    try (Model m = plan.sharded() ? Models.openShards(at.uri(), temps) : Models.open(temps.get(0))) {
      problems = plan.verify(m);
    } catch (IOException e) {
      throw new FileSystemException(at.uri(), null, "commit refused: the new container does not read back ("
          + e.getMessage() + "); nothing was uploaded");
    }
    if (!problems.isEmpty()) {
      throw new FileSystemException(at.uri(), null, "commit refused: the new container does not read back as"
          + " written (" + String.join("; ", problems) + "); nothing was uploaded");
    }
  }

  /**
   * Step 3 of a shard set: each shard whose name and SHA-256 are those of a shard of the stored
   * pointer {@code old} is named again; every other is uploaded under one new generation
   * ({@code If-None-Match: *}; its keys added to {@code uploaded}). Returns the pointer's text in
   * a local file. A failure deletes what was uploaded.
   */
  private Path uploadShards(ContainerPlan plan, List<Path> temps, Path dir, List<ShardPointer.Shard> old,
      List<String> uploaded) throws IOException {
    String generation = BlobNames.newGeneration(at.name());
    List<ShardPointer.Shard> shards = new ArrayList<>();
    try {
      for (int i = 0; i < temps.size(); i++) {
        String name = plan.files().get(i).name();
        long size = Files.size(temps.get(i));
        String sha = BlockUpload.sha256(temps.get(i));
        ShardPointer.Shard same = null;
        for (ShardPointer.Shard o : old) {
          if (o.key().substring(o.key().indexOf('/') + 1).equals(name) && o.sha256().equals(sha) && o.size() == size) {
            same = o;
          }
        }
        if (same != null) {
          shards.add(same);
          continue;
        }
        String rel = generation + "/" + name;
        uploaded.add(rel);
        String etag = BlockUpload.put(at.store(), at.container(), at.dir() + rel, temps.get(i),
            BlobStore.Condition.ABSENT, Map.of()).etag();
        shards.add(new ShardPointer.Shard(rel, size, etag, sha));
      }
    } catch (IOException | RuntimeException e) {
      Cleanup.deleteUploaded(at, uploaded, e);
      throw e;
    }
    Path pointer = dir.resolve("pointer");
    Files.write(pointer, ShardPointer.write(shards), StandardOpenOption.CREATE_NEW);
    return pointer;
  }

  /** The commit point: one conditional Put Block List of the model's blob. */
  private void putModel(Path file, BlobStore.Condition condition, Map<String, String> meta, Generation expected,
      List<String> uploaded) throws IOException {
    try {
      BlockUpload.put(at.store(), at.container(), at.key(), file, condition, meta);
    } catch (BlobStore.PreconditionFailed e) {
      Cleanup.deleteUploaded(at, uploaded, e);
      Generation now;
      try {
        now = current();
      } catch (IOException again) {
        e.addSuppressed(again);
        now = new Generation(List.of("(unknown: " + again.getMessage() + ")"));
      }
      ModelChangedException changed = new ModelChangedException(at.uri(), expected, now);
      changed.initCause(e);
      throw changed;
    }
    // any other failure leaves the uploaded shards: the pointer may have landed; if it did not,
    // Cleanup removes them once they are older than the grace period
  }

  private void own(Backing.Lease lease) {
    if (!(lease instanceof Lease l) || HELD.get(at.identity()) != l || !l.held()) {
      throw new IllegalStateException("not a held lock of " + at.uri() + ": " + lease);
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (var s = Files.list(dir)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Files.deleteIfExists(p);
      }
    }
    Files.deleteIfExists(dir);
  }
}
