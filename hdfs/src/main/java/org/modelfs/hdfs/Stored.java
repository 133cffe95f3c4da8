package org.modelfs.hdfs;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.modelfs.format.sdnb.ShardNames;
import org.modelfs.store.StoreShardSets;
import org.modelfs.store.Generation;
import org.modelfs.store.SidecarNames;

/**
 * What is stored of one model now, from <b>one listing</b> of its directory (atomic on the
 * NameNode): the model file, or its shard set {@code <base>.shard<k>-of-<N>.sdnb} — as a commit
 * whose {@link InstallRecord} is complete has made it, even while its renames are under way: a
 * temporary the record names stands for its target (HDFS keeps a file's inode id across a rename,
 * so the reader opens the same file either way), and the files it deletes are gone. So a reader
 * never waits for an install, never sees half of one, and sees no version a later reader would not.
 *
 * @param files the model's files by the names they have once installed, shard 0 first
 * @param records the names of the install records beside the model
 */
record Stored(List<File> files, List<String> records) {
  /** One stored file: its name once installed, and its status (possibly still under a temporary's name). */
  record File(String name, FileStatus status) {
    /** {@code name@<inode id>:<length>:<mtime>}: one version of one stored file. */
    String stamp() {
      return name + "@" + HdfsModel.fileId(status) + ":" + status.getLen() + ":" + status.getModificationTime();
    }
  }

  Generation generation() {
    return new Generation(files.stream().map(File::stamp).toList());
  }

  /** Whether the model is one file (not a shard set). */
  boolean single() {
    return files.size() == 1 && ShardNames.parse(files.get(0).name()) == null;
  }

  static Stored of(HdfsModel at) throws IOException {
    Map<String, FileStatus> view = new LinkedHashMap<>();
    List<String> records = new ArrayList<>();
    for (FileStatus s : at.siblings()) {
      String n = s.getPath().getName();
      if (SidecarNames.isRecord(InstallRecord.key(at), n)) {
        records.add(n);
      } else if (s.isFile()) {
        view.put(n, s);
      }
    }
    InstallRecord pending = null;
    for (String r : records) {
      InstallRecord read;
      try {
        read = InstallRecord.read(at, r);
      } catch (NoSuchFileException gone) {
        // listed, then removed: its install finished (or recovery dropped it) after the listing,
        // so the listing is stale; an open starts again (HdfsBacking.open)
        HdfsChangedException changed = new HdfsChangedException(at.shown(r), "the install record was removed");
        changed.initCause(gone);
        throw changed;
      }
      if (read != null && pending != null) {
        throw new FileSystemException(at.uri(), null, "two complete install records beside the"
            + " model (" + records + "): only one writer at a time makes one; left as they are");
      }
      pending = read != null ? read : pending;
    }
    if (pending != null) {
      pending.renames().forEach((temp, target) -> {
        FileStatus t = view.remove(temp);
        if (t != null) {
          view.put(target, t);
        }
      });
      pending.deletes().forEach(view::remove);
    }
    FileStatus base = view.get(at.name());
    if (base != null) {
      return new Stored(List.of(new File(at.name(), base)), records);
    }
    List<File> shards = new ArrayList<>();
    view.forEach((n, s) -> {
      ShardNames.Shard other = ShardNames.parseAny(n); // another family's shards: refused by name
      if (InstallRecord.ownFile(at, n) && !n.equals(at.name())
          || other != null && !other.ext().equals(ShardNames.SDNB) && other.base().equals(ShardNames.base(at.name()))) {
        shards.add(new File(n, s));
      }
    });
    if (shards.isEmpty()) {
      return new Stored(List.of(), records);
    }
    return new Stored(StoreShardSets.plainSet(at.shown(at.name()), "HDFS", at.name(), shards, File::name, at::shown),
        records);
  }
}
