package org.modelfs.store;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.modelfs.format.sdnb.ShardNames;
import org.modelfs.io.ByteSource;
import org.modelfs.io.ChannelSource;

/**
 * The directory's steps of one commit ({@link CommitSteps} runs them): temporaries beside their
 * targets ({@link SidecarNames#newTemp}, {@code CREATE_NEW}, as private as the file they replace),
 * installed by renames — one rename for a single new file with nothing else to remove, otherwise
 * under a {@link CommitRecord} with {@code .old} hard-link backups (the way back), finished or
 * rolled back by {@link Recovery}.
 */
final class LocalCommit implements CommitStorage {
  private final ModelId id;
  private final String spelling;
  private final ModelLock lock;
  private final LocalBacking backing;

  LocalCommit(LocalBacking backing, ModelId id, String spelling, ModelLock lock) {
    this.backing = backing;
    this.id = id;
    this.spelling = spelling;
    this.lock = lock;
  }

  @Override
  public String model() {
    return spelling;
  }

  /**
   * A commit of this writer that an interrupt stopped after its record is finished; the stored
   * generation must be {@code expected}; a link or a foreign file at a shard's name is refused.
   */
  @Override
  public void begin(Generation expected) throws IOException {
    if (id.shardBase() != null) {
      Recovery.finishRecords(lock);
    }
    Generation now = backing.current();
    if (!now.equals(expected)) {
      throw new ModelChangedException(spelling, expected, now);
    }
    if (id.shardBase() == null) {
      return;
    }
    Path dir = id.dir();
    for (String n : SafeDir.names(dir)) {
      if (!id.isModelFile(n)) {
        continue;
      }
      ShardNames.Shard s = ShardNames.parseAny(n);
      Path p = dir.resolve(n);
      if (Files.isSymbolicLink(p) && (s == null || !Files.isRegularFile(p) || !ModelId.holdsShard(p, s.ext()))) {
        // a shard set is files of one directory, installed by renames there: a link at a shard's
        // name is never followed (its target may be anywhere). A link to a shard (a frozen shard
        // shared between checkpoints) is a shard of this model: a commit that rewrites it puts a
        // file of the model in the link's place, the shared file untouched; one that keeps it
        // keeps the link. A link to anything else is not silently replaced.
        throw new FileSystemException(p.toString(), null, "commit refused: a symbolic link named like a"
            + " shard of the model " + dir.resolve(id.key()) + "; a shard set is written as regular files of one"
            + " directory. Remove the link, or write the shard set where it points; nothing was written");
      }
      if (s != null && Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) && !ModelId.holdsShard(p, s.ext())) {
        throw new FileSystemException(p.toString(), null, "commit refused: named like a shard of the"
            + " model " + dir.resolve(id.key()) + " but it is not one (no " + s.ext() + " shard starts like it);"
            + " this commit would replace or delete it. Move it away; nothing was written");
      }
    }
  }

  @Override
  public Temp create(String name) throws IOException {
    checkName(name);
    Path target = id.dir().resolve(name);
    Path t = id.dir().resolve(SidecarNames.newTemp(name));
    var ch = Durable.createNew(t);
    try {
      if (Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)) {
        OwnerAndMode.restrictLike(t, target);
      }
    } catch (IOException | RuntimeException e) {
      ch.close();
      Files.deleteIfExists(t);
      throw e;
    }
    return new Temp(name, t, ch);
  }

  /**
   * An unchanged weight shard: the file the mounted generation read (checked by {@link #begin}),
   * left exactly as it is — not written, renamed, backed up or deleted.
   */
  @Override
  public ByteSource kept(String name) throws IOException {
    checkName(name);
    Path p = id.dir().resolve(name);
    if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
      throw new FileSystemException(p.toString(), null, "commit refused: this unchanged shard of the model "
          + id.dir().resolve(id.key()) + " was to be kept as it is, but it is no longer a regular file here (moved,"
          + " deleted or replaced by a link since the model was mounted); nothing was replaced");
    }
    return ChannelSource.open(p);
  }

  private void checkName(String name) {
    if (!id.isModelFile(name)) {
      throw new IllegalArgumentException(name + " is not a file of " + id);
    }
  }

  @Override
  public void discard(List<Temp> temps) throws IOException {
    for (Temp t : temps) {
      Files.deleteIfExists(t.path());
    }
  }

  /**
   * Each temporary replacing an existing file is given its owner, group and mode
   * ({@link OwnerAndMode#keep}; the commit is refused when it cannot be); a single new file with
   * nothing else to remove is renamed over its target; otherwise each old file a rename will
   * replace is hard-linked to a backup name, a {@link CommitRecord} is written and forced, the
   * temporaries renamed in order, the files of the old model that the new one does not reuse
   * deleted, the backups and the record removed; the directory is forced. A failure before the
   * record deletes the temporaries; a failure after it is finished by {@link Recovery} at once if
   * it can be, else at the next open.
   */
  @Override
  public void install(List<Planned> files) throws IOException {
    Path dir = id.dir();
    List<Temp> temps = new ArrayList<>();
    List<String> kept = new ArrayList<>();
    for (Planned p : files) {
      if (p.kept()) {
        kept.add(p.name());
      } else {
        temps.add(p.temp());
      }
    }
    boolean recorded = false;
    try {
      for (Temp t : temps) {
        // an existing file keeps its owner, group and mode (OutputFile, docs/CLI.md "Output files")
        if (Files.isRegularFile(dir.resolve(t.name()), LinkOption.NOFOLLOW_LINKS)) {
          OwnerAndMode.keep(t.path(), dir.resolve(t.name()));
        }
      }
      List<String> remove = new ArrayList<>();
      for (String n : SafeDir.names(dir)) {
        if (id.isModelFile(n) && !kept.contains(n) && temps.stream().noneMatch(t -> t.name().equals(n))
            && Files.isRegularFile(dir.resolve(n), LinkOption.NOFOLLOW_LINKS)) {
          remove.add(n);
        }
      }
      if (temps.size() == 1 && remove.isEmpty()) {
        Durable.rename(temps.get(0).path(), dir.resolve(temps.get(0).name()));
        Durable.forceDirectory(dir);
        return;
      }
      Recorded record = record(temps, remove);
      recorded = true;
      renames(record, temps, remove);
    } finally {
      if (!recorded) {
        discard(temps);
      }
    }
  }

  /** A written commit record and the backups it names. */
  private record Recorded(Path path, List<CommitRecord.Backup> backups) {}

  /** The way back (a hard link to every old file a rename will replace), then the record, forced. */
  private Recorded record(List<Temp> temps, List<String> remove) throws IOException {
    Path dir = id.dir();
    List<CommitRecord.Rename> renames = new ArrayList<>();
    for (Temp t : temps) {
      Durable.Stamp s = Durable.stamp(t.path());
      renames.add(new CommitRecord.Rename(t.path().getFileName().toString(), t.name(), s == null ? null : s.key()));
    }
    List<CommitRecord.Backup> backups = new ArrayList<>();
    for (Temp t : temps) {
      if (Files.isRegularFile(dir.resolve(t.name()), LinkOption.NOFOLLOW_LINKS)) {
        String b = SidecarNames.newBackup(t.name());
        try {
          Files.createLink(dir.resolve(b), dir.resolve(t.name()));
          backups.add(new CommitRecord.Backup(b, t.name()));
        } catch (UnsupportedOperationException | IOException e) {
          // no hard links here: the commit goes on without its way back (the record says which)
        }
      }
    }
    try {
      return new Recorded(CommitRecord.write(id, new CommitRecord.Content(renames, backups, remove)), backups);
    } catch (IOException | RuntimeException e) {
      for (CommitRecord.Backup b : backups) {
        SafeDir.deleteRegularFile(dir, b.backup());
      }
      throw e;
    }
  }

  /** The recorded commit carried out; a failure rolls it forward (or back) through {@link Recovery} now. */
  private void renames(Recorded record, List<Temp> temps, List<String> remove) throws IOException {
    Path dir = id.dir();
    boolean installed = false; // the record is removed: every new file is in place
    try {
      for (Temp t : temps) {
        Durable.rename(t.path(), dir.resolve(t.name()));
      }
      for (String n : remove) {
        SafeDir.deleteRegularFile(dir, n);
      }
      Durable.forceDirectory(dir);
      for (CommitRecord.Backup b : record.backups()) {
        SafeDir.deleteRegularFile(dir, b.backup());
      }
      CommitRecord.remove(record.path());
      installed = true;
      Durable.forceDirectory(dir);
    } catch (IOException | RuntimeException e) {
      // roll the recorded commit forward now; an interrupt that stopped it must not stop this too
      // (it is kept for the caller)
      boolean interrupted = Thread.interrupted();
      try {
        if (!Recovery.finishRecords(lock) && !installed) {
          throw e; // Recovery rolled it back (a new file was gone): the model is the old one
        }
      } catch (IOException | RuntimeException again) {
        if (again != e) {
          e.addSuppressed(again);
        }
        throw e;
      } finally {
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }
}
