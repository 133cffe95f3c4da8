package org.modelfs.provider;

import org.modelfs.format.Codecs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.ReadOnlyFileSystemException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.modelfs.CommitRefusedException;
import org.modelfs.container.ContainerPlan;
import org.modelfs.container.ModelWriter;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;
import org.modelfs.model.Where;
import org.modelfs.store.Backing;
import org.modelfs.store.Journal;
import org.modelfs.store.ModelChangedException;
import org.modelfs.store.Snapshot;
import org.modelfs.tree.TagOverlay;

/**
 * The write session of a mount (docs/FILESYSTEM.md §7): it owns the change lock, the
 * writer lease and the journal, knows whether anything is pending, and commits or rolls back.
 * What a change does to the tree is {@link JournalWrites} (bytes written through channels) and
 * {@link StructureEdits} (delete, directories, tags, links, attributes); where the bytes land
 * and how a commit becomes the model is the store's ({@link Backing}).
 *
 * <p>Locking rule: {@link #lock} serializes every change, commit, rollback and close of this
 * mount; readers never take it. The writer lease is taken at the first change (or at
 * {@code create=true}) and held until the mount closes. Lock order: the file system's close
 * monitor, then this lock, then the lease ({@code ModelLock}); a cross-mount copy holds only the
 * target's lock while it reads the source lock-free.
 */
final class ModelChanges {
  private final ModelFileSystem fs;
  private final Backing backing;
  private final ReentrantLock lock = new ReentrantLock();
  private Backing.Lease lease; // guarded by lock
  private Journal journal; // guarded by lock
  private boolean dirty; // guarded by lock
  /** A commit was installed but its container not read back in (an interrupt): read it at the next step. */
  private boolean remount; // guarded by lock

  ModelChanges(ModelFileSystem fs, Backing backing) {
    this.fs = fs;
    this.backing = backing;
  }

  void lock() {
    lock.lock();
  }

  void unlock() {
    lock.unlock();
  }

  ModelFileSystem fs() {
    return fs;
  }

  /** A model made by {@code create=true}: takes the writer lease now; the first commit writes it. */
  void markNew() throws IOException {
    lock.lock();
    try {
      begin();
      dirty = true;
    } finally {
      lock.unlock();
    }
  }

  /** Whether there are changes not yet committed. */
  boolean dirty() {
    lock.lock();
    try {
      return dirty;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Before a change (hold {@link #lock}): the mount must be open and writable; the first change
   * takes the writer lease, cleans up after crashed writers, checks that nobody committed since
   * the mount read the model, and starts the journal.
   */
  void begin() throws IOException {
    fs.ensureOpen();
    if (fs.isReadOnly()) {
      throw new ReadOnlyFileSystemException();
    }
    if (lease != null) {
      return;
    }
    ModelFormat asked = fs.options().format();
    if (asked != null && asked.sharded() && !ModelWriter.canBeShardSet(backing.fileName(), asked)) {
      String ext = asked.extension();
      throw new FileSystemException(fs.container(), null, "format=" + asked.token() + " writes <base>.shard<k>-of-<N>"
          + ext + ", the shards of a model named <base>" + ext + ", and this model is named otherwise: its old file"
          + " would shadow the new shards. Convert it instead (modelfs convert MODEL <base>" + ext + " --max-shard-bytes N)");
    }
    Backing.Lease l = backing.lock();
    try {
      backing.recover(l);
      var now = backing.current();
      if (!now.equals(fs.generation())) {
        throw new ModelChangedException(fs.container(), fs.generation(), now);
      }
      journal = backing.newJournal(l);
    } catch (IOException | RuntimeException e) {
      try {
        l.close();
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
    lease = l;
  }

  /** The journal of pending bytes (after {@link #begin}). */
  Journal journal() {
    return journal;
  }

  /** Swaps in changed tags as pending changes (hold {@link #lock}). */
  void apply(List<Tag> tags) throws IOException {
    fs.swap(tags);
    dirty = true;
    fs.journalSources().edited(fs.tags());
  }

  /** Swaps in changed tags and overlays as pending changes (hold {@link #lock}). */
  void apply(List<Tag> tags, Map<String, TagOverlay> overlays) throws IOException {
    fs.swap(tags, overlays);
    dirty = true;
    fs.journalSources().edited(fs.tags());
  }

  /** Replaces one tag with its changed version (hold {@link #lock}). */
  void apply(Tag changed) throws IOException {
    apply(TagEdits.replace(fs.tags(), changed));
  }

  /** Replaces one tag and its overlay with changed versions (hold {@link #lock}). */
  void apply(Tag changed, TagOverlay overlay) throws IOException {
    Map<String, TagOverlay> o = new HashMap<>(fs.overlays());
    o.put(changed.name(), overlay);
    apply(TagEdits.replace(fs.tags(), changed), o);
  }

  /**
   * Replaces one tag's overlay — what its files show — with nothing to commit: a graph.json that
   * describes the graph the tag has (hold {@link #lock}).
   */
  void show(String tagName, TagOverlay overlay) throws IOException {
    Map<String, TagOverlay> o = new HashMap<>(fs.overlays());
    o.put(tagName, overlay);
    fs.swap(fs.tags(), o);
    fs.journalSources().edited(fs.tags());
  }

  /** The tag named {@code name} as it is now. */
  Tag tag(String name, String path) throws NoSuchFileException {
    for (Tag t : fs.tags()) {
      if (t.name().equals(name)) {
        return t;
      }
    }
    throw new NoSuchFileException(path, null, "tag '" + name + "' no longer exists");
  }

  Target target(ModelPath path) throws FileSystemException {
    return Target.of(fs.tags(), path.toAbsolutePath().normalize().names(), path.toString());
  }

  // ---- commit ------------------------------------------------------------------------------

  /**
   * Validates the tree and has the store write it as a complete new container, then remounts it.
   * Does nothing without changes. A refused commit writes nothing and keeps the changes pending.
   */
  void commit() throws IOException {
    lock.lock();
    try {
      fs.ensureOpen();
      remountIfNeeded();
      if (!dirty) {
        return;
      }
      MountOptions o = fs.options();
      ModelFormat format = o.format() != null ? o.format() : fs.model().format();
      List<String> problems = new ArrayList<>();
      String named = o.format() == null ? null : Codecs.nameProblem(o.format(), String.valueOf(fs.containerPath().getFileName()));
      if (named != null) {
        problems.add("option format=" + o.format().token() + ": " + named); // docs/FILESYSTEM.md, mount options
      }
      List<Tag> tags = Deletions.settle(fs.tags(), fs.model().tags(), fs.container(), problems);
      problems.addAll(Deletions.withoutConsequences(Validation.problems(tags, format), problems));
      WriteOptions wo = WriteOptions.of(format).withDeflate(o.deflate());
      if (o.maxShardBytes() > 0) {
        wo = wo.withMaxShardBytes(o.maxShardBytes());
      } else if (Codecs.of(format).shardsInOneFile() && fs.model().format().equals(format) && fs.model().shards() != null) {
        wo = wo.withMaxShardBytes(WriteOptions.DEFAULT_MAX_SHARD_BYTES); // an SDZ read as shards stays shards
      }
      for (Tag t : tags) {
        Tag committed = fs.model().tags().stream().filter(c -> c.name().equals(t.name())).findFirst().orElse(null);
        for (String pr : ModelWriter.metadataProblems(t, committed, format)) {
          problems.add(Where.inTag(t.name()) + pr);
        }
      }
      if (!problems.isEmpty()) {
        throw new CommitRefusedException(fs.container(), problems, true);
      }
      begin();
      // a shard set keeps the weight shards this commit did not change (docs/FILESYSTEM.md §7.4);
      // the plan refuses what the format or DL4J cannot take (ModelWriter.problems), once, for every route
      ContainerPlan plan;
      try {
        plan = ModelWriter.plan(tags, backing.fileName(), wo, backing.keepsUnchangedFiles() ? fs.model() : null,
            o.maxShardBytes() > 0);
      } catch (ModelWriter.Refused r) {
        throw new CommitRefusedException(fs.container(), r.problems(), true);
      }
      backing.commit(lease, fs.generation(), plan, o.progress());
      // committed: from here on the pending changes are the model, whatever happens next
      dirty = false;
      Snapshot s;
      try {
        s = backing.open();
      } catch (IOException | RuntimeException e) {
        // e.g. an interrupt while the new container was read: the tree already shows what was
        // committed; only the mount's view of the stored generation must follow
        fs.committedAt(backing.current());
        remount = true;
        throw e;
      }
      fs.swapModel(s.model(), s.generation());
      fs.journalSources().sweep(fs.tags()); // the journal is empty once no channel reads it
    } finally {
      lock.unlock();
    }
  }

  /** Reads in the container of a commit whose re-reading an interrupt stopped (hold {@link #lock}). */
  private void remountIfNeeded() throws IOException {
    if (remount) {
      List<Tag> pending = fs.tags(); // changes made since the interrupted commit stay pending
      Map<String, TagOverlay> overlays = fs.overlays();
      Snapshot s = backing.open();
      fs.swapModel(s.model(), s.generation());
      if (dirty) {
        fs.swap(pending, overlays);
      }
      remount = false;
      fs.journalSources().sweep(fs.tags());
    }
  }

  /** Forgets every change since the last commit. */
  void rollback() {
    lock.lock();
    try {
      fs.ensureOpen();
      remountIfNeeded(); // "the last commit" is the one installed, even if an interrupt stopped its re-reading
      discard();
      fs.journalSources().sweep(fs.tags()); // the discarded journal files go
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      lock.unlock();
    }
  }

  /** Forgets every change (hold {@link #lock}; the mount may be closing). */
  void discard() {
    fs.swap(fs.model().tags(), Map.of());
    dirty = false;
  }

  /** Releases the journal and the writer lease (the file system is closing); always releases both. */
  void close() throws IOException {
    lock.lock();
    try {
      List<IOException> failures = new ArrayList<>();
      if (journal != null) {
        try {
          journal.close();
        } catch (IOException e) {
          failures.add(e);
        }
        journal = null;
      }
      if (lease != null) {
        try {
          lease.close();
        } catch (IOException e) {
          failures.add(e);
        }
        lease = null;
      }
      if (!failures.isEmpty()) {
        IOException first = failures.get(0);
        failures.subList(1, failures.size()).forEach(first::addSuppressed);
        throw first;
      }
    } finally {
      lock.unlock();
    }
  }
}
