package org.modelfs.hdfs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Options;
import org.modelfs.format.sdnb.ShardNames;
import org.modelfs.hdfs.nio.HdfsErrors;
import org.modelfs.store.SidecarNames;

/**
 * A commit of several files' point of no return in HDFS (a shard set, or a model whose file
 * names change): the record {@code .<key>.modelfs-commit-<32 hex>} beside the model, written
 * exclusively and {@code hsync}ed before the first rename, lists each temporary and the file it
 * replaces and the old files to delete, and ends with {@code end}. Installing it renames each
 * temporary over its target (atomic, {@code OVERWRITE}), deletes the old files, then the record.
 * A writer that dies after the record leaves it: the next writer (under the lock) rolls it
 * forward; a record without its {@code end} line was never complete, so nothing was renamed: it
 * is deleted. Every name in a record must be this model's (a file of its set, or a temporary of
 * one): a record naming anything else is refused, never acted on.
 */
record InstallRecord(Map<String, String> renames, List<String> deletes) {
  private static final String END = "end";

  /** Writes the record (exclusive create, hsync) and returns its name. */
  String write(HdfsModel at) throws IOException {
    String name = SidecarNames.newRecord(key(at));
    StringBuilder text = new StringBuilder();
    renames.forEach((temp, target) -> text.append("rename\t").append(temp).append('\t').append(target).append('\n'));
    deletes.forEach(d -> text.append("delete\t").append(d).append('\n'));
    text.append(END).append('\n');
    try (FSDataOutputStream out = at.fs().create(at.beside(name), false)) {
      out.write(text.toString().getBytes(StandardCharsets.UTF_8));
      out.hsync();
    } catch (IOException e) {
      throw HdfsErrors.nio(e, at.uri(), "commit refused: writing its install record " + name
          + "; nothing was replaced");
    }
    return name;
  }

  /** Renames, deletes, then removes the record {@code name}. */
  void install(HdfsModel at, String name) throws IOException {
    try {
      for (Map.Entry<String, String> r : renames.entrySet()) {
        if (at.status(at.beside(r.getKey())) != null) {
          at.path().getFileSystem().context().rename(at.beside(r.getKey()), at.beside(r.getValue()),
              Options.Rename.OVERWRITE);
        }
      }
      for (String d : deletes) {
        at.fs().delete(at.beside(d), false);
      }
      at.fs().delete(at.beside(name), false);
    } catch (IOException e) {
      throw HdfsErrors.nio(e, at.uri(), "installing the commit of record " + name + " (it is finished by the"
          + " next writer or modelfs clean)");
    }
  }

  /** The record {@code name} beside the model, or {@code null} when it was never complete. */
  static InstallRecord read(HdfsModel at, String name) throws IOException {
    String text;
    try (InputStream in = at.fs().open(at.beside(name))) {
      text = new String(in.readNBytes(1 << 20), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw HdfsErrors.nio(e, at.uri(), "reading the install record " + name);
    }
    if (!text.endsWith("\n" + END + "\n") && !text.equals(END + "\n")) {
      return null; // written only in part: the writer died before its hsync, so it renamed nothing
    }
    Map<String, String> renames = new LinkedHashMap<>();
    List<String> deletes = new ArrayList<>();
    for (String line : text.substring(0, text.length() - END.length() - 1).split("\n")) {
      String[] f = line.split("\t", -1);
      if (f.length == 3 && f[0].equals("rename") && ownFile(at, f[2]) && f[2].equals(SidecarNames.tempTarget(f[1]))) {
        renames.put(f[1], f[2]);
      } else if (f.length == 2 && f[0].equals("delete") && ownFile(at, f[1])) {
        deletes.add(f[1]);
      } else if (!line.isEmpty()) {
        throw new FileSystemException(at.uri(), null, "the install record " + name + " names '"
            + line.replace('\t', ' ') + "', which is not a step on this model's files: it was left as it is");
      }
    }
    return new InstallRecord(renames, deletes);
  }

  /** The key lock and record names are made from: the file name, or {@code <base>.sdnb} of a shard set. */
  static String key(HdfsModel at) {
    return at.name();
  }

  /** Whether {@code fileName} is one of the model's files: its own name, or a shard of its base. */
  static boolean ownFile(HdfsModel at, String fileName) {
    if (fileName.equals(at.name())) {
      return true;
    }
    ShardNames.Shard s = ShardNames.parse(fileName);
    return s != null && at.name().equals(s.base() + "." + ShardNames.SDNB);
  }
}
