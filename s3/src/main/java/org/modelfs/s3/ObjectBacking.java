package org.modelfs.s3;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
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
 *   <li>the new container is written to local temporaries and <b>read back and checked</b> before
 *       anything is uploaded; the journal is a local temporary directory
 *       ({@link Journal#createLocal}); the writer lock is this JVM's only (one writer per model per
 *       JVM) — between processes and machines the PUT's condition keeps writers apart.
 * </ul>
 * Readers open the objects of one generation pinned to their ETags ({@link ObjectSource}).
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

  private static final Map<ObjectLocation.Identity, Lease> HELD = new ConcurrentHashMap<>();

  private final ObjectLocation at;
  private final boolean shardSet;
  /** When the objects of the last generation opened were written (the newest of them), or {@code null}. */
  private volatile java.time.Instant opened;

  ObjectBacking(ObjectLocation at, boolean shardSet) {
    this.at = at;
    this.shardSet = shardSet;
  }

  @Override
  public String fileName() {
    String name = at.name();
    return shardSet ? ShardNames.base(name) + ".sdnb" : name;
  }

  // ---- reading ------------------------------------------------------------------------------

  /** What is stored now: the model object (or none) and, without one, a plain DL4J shard set. */
  private record Stored(ObjectStore.Info base, List<ObjectStore.Info> plainShards) {
    Generation generation() {
      List<String> files = new ArrayList<>();
      if (base != null) {
        files.add(base.key() + "@" + base.etag());
      }
      for (ObjectStore.Info s : plainShards) {
        files.add(s.key() + "@" + s.etag());
      }
      return new Generation(files);
    }

    /** When the newest of the stored objects was written. */
    java.time.Instant modified() {
      java.time.Instant m = base == null ? null : base.lastModified();
      for (ObjectStore.Info s : plainShards) {
        if (m == null || s.lastModified() != null && s.lastModified().isAfter(m)) {
          m = s.lastModified();
        }
      }
      return m;
    }
  }

  private Stored look() throws IOException {
    ObjectStore.Info base = at.store().head(at.bucket(), at.key());
    if (base != null) {
      return new Stored(base, List.of());
    }
    try {
      return new Stored(null, plainShards());
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
  private List<ObjectStore.Info> plainShards() throws IOException {
    return ShardNames.completeSet(ShardNames.base(at.name()), at.store().list(at.bucket(), at.dir()
        + ShardNames.base(at.name()) + ".shard"), o -> o.key().substring(at.dir().length()),
        n -> at.store().name(at.bucket(), at.dir() + n));
  }

  /** How often an open starts again because a commit replaced an object while it was being read. */
  private static final int OPEN_TRIES = 5;

  /**
   * Opens the current model. A commit that replaces an object while the index is being read
   * makes the open start again (the reads are pinned: they fail, they never mix), up to
   * {@value #OPEN_TRIES} times.
   */
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

  /** Whether {@code e} (or what it wraps: a reader may say which structure it was reading) is a replaced object. */
  private static boolean changedWhileOpening(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ObjectChangedException) {
        return true;
      }
    }
    return false;
  }

  private Snapshot openOnce() throws IOException {
    Stored s = look();
    opened = s.modified();
    if (s.base() == null && s.plainShards().isEmpty()) {
      throw new NoSuchFileException(at.uri(), null, "no model object, and no shard objects of this base name");
    }
    List<ByteSource> shards = new ArrayList<>();
    try {
      if (s.base() != null) {
        ObjectSource src = new ObjectSource(at.store(), at.bucket(), at.key(), s.base().etag(), s.base().size());
        if (!ShardPointer.sniff(src)) {
          return new Snapshot(Models.open(at.uri(), src), s.generation());
        }
        try {
          for (ShardPointer.Shard p : ShardPointer.read(src, at.name())) {
            shards.add(new ObjectSource(at.store(), at.bucket(), at.dir() + p.key(), p.etag(), p.size()));
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
      org.modelfs.io.Closer.closeAll(shards);
      throw e;
    }
    return new Snapshot(Models.openShardSources(at.uri(), shards), s.generation());
  }

  @Override
  public Generation current() throws IOException {
    return look().generation();
  }

  /** When the objects of the model the last {@link #open} read were written (no request). */
  @Override
  public java.nio.file.attribute.FileTime modified() {
    java.time.Instant m = opened;
    return m == null ? null : java.nio.file.attribute.FileTime.from(m);
  }

  /** Nothing to check: an object store has no directories (the first PUT says whether the bucket takes it). */
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
    for (ObjectStore.Info o : s.plainShards()) {
      out.add(root.resolve(o.key()));
    }
    return out;
  }

  /**
   * {@code modelfs clean}: deletes the generation objects no reader or writer can still need
   * ({@link Cleanup#run}); returns their keys. Needs no lock: what it deletes is older than the
   * model object, so no commit that can still succeed uploaded it.
   */
  @Override
  public List<String> clean() throws IOException {
    return Cleanup.run(at);
  }

  // ---- writing ------------------------------------------------------------------------------

  /** This JVM's writer lock on one model. */
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
          + " (one writer per model per JVM; between processes the store's conditional PUT decides)");
    }
    return l;
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

  @Override
  public void commit(Backing.Lease lease, Generation expected, ContainerPlan plan, LongConsumer progress)
      throws IOException {
    own(lease);
    if (plan.format() == org.modelfs.model.ModelFormat.SHARDED_CONTAINER) {
      throw new org.modelfs.format.ModelFormatException(at.uri(), "model to write", 0, "a sharded container"
          + " (<base>.shard<k>-of-<N>.sdmc) is not written to object stores; write a single container (format"
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
      Map<String, String> meta = new java.util.HashMap<>();
      String previous = before.base() == null && !before.plainShards().isEmpty() ? PLAIN : previousGeneration(before);
      if (previous != null) {
        meta.put(PREVIOUS, previous);
      }
      String plainUntil = plainUntil(before);
      if (plainUntil != null) {
        meta.put(PLAIN_UNTIL, plainUntil);
      }
      ObjectStore.Condition condition = before.base() == null ? ObjectStore.Condition.ABSENT
          : ObjectStore.Condition.etag(before.base().etag());
      String generation = null;
      if (plan.sharded()) {
        generation = ObjectNames.newGeneration(at.name());
        Path pointer = uploadShards(plan, temps, dir, generation);
        putModel(pointer, condition, meta, expected, generation);
      } else {
        putModel(temps.get(0), condition, meta, expected, null);
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
      // the commit landed: its outcome is not undone by temporaries that would not go
      Cleanup.warn(at, "the commit succeeded, but its local temporary directory " + dir + " could not be removed", e);
    }
  }

  /**
   * {@link #PLAIN_UNTIL} for the commit replacing {@code before}: the newest of the plain shards it
   * replaces, or what the model object it replaces carried; {@code null} if neither.
   */
  private static String plainUntil(Stored before) {
    if (before.base() != null) {
      return before.base().metadata().get(PLAIN_UNTIL);
    }
    long newest = Long.MIN_VALUE;
    for (ObjectStore.Info s : before.plainShards()) {
      if (s.lastModified() != null) {
        newest = Math.max(newest, s.lastModified().toEpochMilli());
      }
    }
    return newest == Long.MIN_VALUE ? null : Long.toString(newest);
  }

  /** A new local temporary directory for a commit's files: 0700 where the file system has POSIX permissions. */
  private static Path privateTempDirectory() throws IOException {
    try {
      return Files.createTempDirectory("modelfs-commit-", PosixFilePermissions.asFileAttribute(
          PosixFilePermissions.fromString("rwx------")));
    } catch (UnsupportedOperationException e) {
      return Files.createTempDirectory("modelfs-commit-"); // the JDK makes it private to the user there
    }
  }

  /** The generation directory the stored model object points to, if it is a shard-set pointer. */
  private String previousGeneration(Stored s) throws IOException {
    return s.base() == null ? null : ShardPointer.generationAt(at, s.base());
  }

  /** Step 1: every planned file into a new local temporary (the codec streams it; nothing in the heap). */
  private List<Path> writeLocally(ContainerPlan plan, Path dir, LongConsumer progress) throws IOException {
    List<Path> temps = new ArrayList<>();
    long written = 0;
    if (plan.keepsFiles()) {
      throw new IllegalArgumentException("an object store writes every file of a commit; the plan keeps some: " + at.uri());
    }
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
   * Step 3 of a shard set: every shard under the new generation directory (each a new key:
   * {@code If-None-Match: *}), then the pointer's text in a local file. A failure deletes what
   * was uploaded (what a crash leaves is removed by a later {@link Cleanup}).
   */
  private Path uploadShards(ContainerPlan plan, List<Path> temps, Path dir, String generation) throws IOException {
    List<ShardPointer.Shard> shards = new ArrayList<>();
    try {
      for (int i = 0; i < temps.size(); i++) {
        String rel = generation + "/" + plan.files().get(i).name();
        long size = Files.size(temps.get(i));
        String etag = at.store().put(at.bucket(), at.dir() + rel, temps.get(i), ObjectStore.Condition.ABSENT,
            Map.of());
        shards.add(new ShardPointer.Shard(rel, size, etag));
      }
    } catch (IOException | RuntimeException e) {
      for (ShardPointer.Shard s : shards) {
        try {
          at.store().delete(at.bucket(), at.dir() + s.key());
        } catch (IOException | RuntimeException again) {
          e.addSuppressed(again);
        }
      }
      throw e;
    }
    Path pointer = dir.resolve("pointer");
    Files.write(pointer, ShardPointer.write(shards), StandardOpenOption.CREATE_NEW);
    return pointer;
  }

  /** The commit point: one conditional PUT of the model's key. */
  private void putModel(Path file, ObjectStore.Condition condition, Map<String, String> meta, Generation expected,
      String generation) throws IOException {
    try {
      at.store().put(at.bucket(), at.key(), file, condition, meta);
    } catch (ObjectStore.PreconditionFailed e) {
      if (generation != null) {
        Cleanup.deleteGeneration(at, generation, e);
      }
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
    // any other failure leaves the generation: the pointer may have landed, or still land (a
    // request in flight), and a pointer that landed needs it; if it did not, Cleanup removes it
    // once it is older than the grace period
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
