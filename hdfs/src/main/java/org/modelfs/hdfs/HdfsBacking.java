package org.modelfs.hdfs;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.LongConsumer;
import org.apache.hadoop.fs.FileStatus;
import org.modelfs.container.ContainerPlan;
import org.modelfs.container.Models;
import org.modelfs.format.sdnb.ShardNames;
import org.modelfs.io.ByteSource;
import org.modelfs.io.Closer;
import org.modelfs.io.ParallelReads;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.Backing;
import org.modelfs.store.Generation;
import org.modelfs.store.Journal;
import org.modelfs.store.ModelChangedException;
import org.modelfs.store.OpenAgain;
import org.modelfs.store.SidecarNames;
import org.modelfs.store.Snapshot;
import org.modelfs.store.StoreShardSets;
import org.modelfs.store.WriterTable;

/**
 * A model kept in HDFS: the HDFS transaction (docs/OBJECT-STORES.md §HDFS).
 * <ul>
 *   <li><b>reads</b> are positional reads of each file pinned to its inode ({@link HdfsSource});
 *       the generation is every file's {@code name@inode:length:mtime} from one listing of the
 *       model's directory ({@link HdfsListing}: the one {@link #recoverIfIdle} took), the files
 *       it names read over the blocks it listed ({@link ListedBlocks}), or opened by inode (one a
 *       commit replaced since is gone: the open starts again);
 *   <li><b>the lock</b> is HDFS's lease on the lock file beside the model ({@link HdfsLock}),
 *       across every client, plus this JVM's table (one writer per model per JVM);
 *   <li><b>the commit</b> ({@link HdfsCommit}) writes the new files locally (the codecs seek), uploads
 *       each to a temporary beside the model (exclusive create, {@code hsync}), reads the
 *       temporaries back from HDFS with the format's reader and checks them, fences the lease, and
 *       renames each over its target ({@code FileContext.rename(…, OVERWRITE)}, atomic); a commit of
 *       more than one file writes an {@link InstallRecord} first, rolled forward after a crash;
 *   <li>the journal is a local temporary directory ({@link Journal#createLocal}).
 * </ul>
 */
final class HdfsBacking implements Backing {
  /** One writer per model per JVM, then HDFS's lease across clients. */
  private static final WriterTable HELD = new WriterTable();

  private final HdfsModel at;
  private final boolean shardSet;
  private final HdfsListing listing;
  private volatile FileTime opened;

  HdfsBacking(HdfsModel at, boolean shardSet) {
    this.at = at;
    this.shardSet = shardSet;
    this.listing = new HdfsListing(at);
  }

  HdfsModel model() {
    return at;
  }

  /** Whether commits write the model as a shard set. */
  boolean shardSet() {
    return shardSet;
  }

  @Override
  public String fileName() {
    return shardSet ? ShardNames.base(at.name()) + "." + ShardNames.SDNB : at.name();
  }

  // ---- reading ------------------------------------------------------------------------------

  Stored look() throws IOException {
    return listing.look();
  }

  /**
   * Opens the current model: the files of one listing ({@link HdfsListing#forOpen}: the one
   * {@link #recoverIfIdle} just took, else a new one), each read over the blocks that listing named
   * ({@link ListedBlocks}: no request of its own), or opened by its inode where the listing cannot
   * stand for an open; when a file or an install record the listing showed was replaced or
   * removed before it was read ({@link HdfsChangedException}: a commit installed meanwhile), again
   * with a new listing ({@link OpenAgain}). The listing is atomic and the files pinned, so no
   * second listing is needed to see that the files are of one generation (issue 34).
   */
  @Override
  public Snapshot open() throws IOException {
    boolean[] first = {true};
    return OpenAgain.open(at.uri(), HdfsChangedException.class, () -> {
      Stored s = first[0] ? listing.forOpen() : look();
      first[0] = false;
      return openFiles(s);
    });
  }

  private Snapshot openFiles(Stored s) throws IOException {
    if (s.files().isEmpty()) {
      throw new NoSuchFileException(at.uri(), null, "no model file, and no shard files of this base name");
    }
    long newest = s.files().stream().mapToLong(f -> f.status().getModificationTime()).max().orElseThrow();
    opened = FileTime.fromMillis(newest);
    List<ByteSource> sources = sources(s.files());
    try {
      if (s.single()) {
        Models.prefetch(sources, false); // its head and tail in one round trip, then its index, as a shard set's
      }
      return new Snapshot(s.single() ? Models.open(at.uri(), sources.get(0))
          : Models.openShardSources(at.uri(), sources, s.files().stream().map(Stored.File::name).toList()),
          s.generation());
    } catch (IOException | RuntimeException e) {
      Closer.closeAll(sources);
      throw e;
    }
  }

  /**
   * A source per file, in order: over the listed blocks where the listing carries them, else
   * opened by inode — those all at once (one NameNode round trip, not one per shard: issue 34).
   * If one fails, every other is closed.
   */
  private List<ByteSource> sources(List<Stored.File> files) throws IOException {
    ByteSource[] out = new ByteSource[files.size()];
    List<Integer> byInode = new ArrayList<>();
    List<ParallelReads.Opening> opens = new ArrayList<>();
    try {
      for (int k = 0; k < files.size(); k++) {
        Stored.File f = files.get(k);
        long id = HdfsModel.fileId(f.status());
        out[k] = HdfsSource.listed(at.fs(), f.status(), id, at.shown(f.name()));
        if (out[k] == null) {
          byInode.add(k);
          opens.add(() -> HdfsSource.open(at.fs(), f.status().getPath(), id, f.status().getLen(), at.shown(f.name())));
        }
      }
      List<ByteSource> opened = ParallelReads.openAll(opens);
      for (int i = 0; i < byInode.size(); i++) {
        out[byInode.get(i)] = opened.get(i);
      }
    } catch (IOException | RuntimeException e) {
      try {
        Closer.closeAll(Arrays.stream(out).filter(Objects::nonNull).toList());
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
    return List.of(out);
  }

  @Override
  public Generation current() throws IOException {
    return look().generation();
  }

  @Override
  public FileTime modified() {
    return opened;
  }

  @Override
  public void checkNew(Path path) throws IOException {
    FileStatus dir = at.status(at.dir());
    if (dir == null || !dir.isDirectory()) {
      throw new NoSuchFileException(at.uri(), null, "the directory of the new model does not exist");
    }
  }

  @Override
  public List<Path> files() throws IOException {
    List<Path> out = new ArrayList<>();
    for (Stored.File f : look().files()) {
      out.add(at.path().getParent().resolve(f.name()));
    }
    return out;
  }

  /** Before a read-only open: finishes a crashed writer's install when the lock is free. */
  @Override
  public void recoverIfIdle() throws IOException {
    if (listing.lookBeforeOpen().records().isEmpty()) {
      return; // the listing serves the open that follows
    }
    Backing.Lease l;
    try {
      l = lock();
    } catch (FileSystemException held) {
      return; // a writer holds the lock: it finishes the install itself
    }
    try (l) {
      recover(l);
    }
  }

  /**
   * {@code modelfs clean}: under the lock, finishes what a crashed writer's install record
   * started and deletes its temporaries; returns their names.
   */
  @Override
  public List<String> clean() throws IOException {
    try (Backing.Lease l = lock()) {
      return HdfsCommit.recover(at);
    }
  }

  // ---- writing ------------------------------------------------------------------------------

  /** The lock of one model: this JVM's table entry, then the HDFS lease on its lock file. */
  @Override
  public Backing.Lease lock() throws IOException {
    return HELD.take(at.identity(), at.uri(), "",
        () -> HdfsLock.take(at.fs(), at.beside(SidecarNames.lock(InstallRecord.key(at))), at.uri()));
  }

  @Override
  public void recover(Backing.Lease lease) throws IOException {
    own(lease);
    HdfsCommit.recover(at);
  }

  @Override
  public Journal newJournal(Backing.Lease lease) throws IOException {
    own(lease);
    return Journal.createLocal(at.path());
  }

  /** A shard set's unchanged weight shards stay as they are: HDFS installs beside them, by rename. */
  @Override
  public boolean keepsUnchangedFiles() {
    return true;
  }

  @Override
  public void commit(Backing.Lease lease, Generation expected, ContainerPlan plan, LongConsumer progress)
      throws IOException {
    HdfsLock lock = (HdfsLock) own(lease).across();
    StoreShardSets.check(at.uri(), "HDFS", plan);
    HdfsCommit.run(at, look(), expected, plan, progress, () -> {
      lock.fence();
      Generation now = current();
      if (!now.equals(expected)) {
        throw new ModelChangedException(at.uri(), expected, now);
      }
    });
  }

  private WriterTable.Lease own(Backing.Lease lease) {
    return HELD.own(lease, at.identity(), at.uri());
  }
}
