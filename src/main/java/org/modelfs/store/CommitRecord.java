package org.modelfs.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The roll-forward record of a multi-file commit (a sharded SDNB): which forced temporary files
 * are to be renamed to which shard names, and which old shards are then to be deleted. It is
 * written and forced only after every new file is complete, so a crash before it leaves the old
 * model (the temporary files are garbage), and a crash after it is finished by {@link #recover}
 * on the next open.
 *
 * <p>File format (UTF-8 lines, tab-separated): {@code modelfs-commit 1}, then
 * {@code rename <tmp> <final>} per new file, {@code delete <old shard>} per stale file, then
 * {@code end}.
 * A record without its {@code end} line was cut off while being written and is ignored.
 */
public final class CommitRecord {
  private static final String HEADER = "modelfs-commit\t1";

  private CommitRecord() {}

  /** The record's name for the shard set {@code base} in its directory. */
  public static Path pathFor(Path dir, String base) {
    return dir.resolve("." + base + ".modelfs-commit");
  }

  /** A pending rename. */
  public record Rename(String tmp, String target) {}

  /**
   * Commits a set of complete, forced temporary files: writes the record, renames each file,
   * deletes {@code stale} files, forces the directory and removes the record.
   */
  public static void commit(Path dir, String base, List<Rename> renames, List<String> stale) throws IOException {
    Path record = pathFor(dir, base);
    for (Rename r : renames) {
      if (!Files.exists(dir.resolve(r.tmp()))) {
        throw new NoSuchFileException(dir.resolve(r.tmp()).toString(), null,
            "a new shard vanished before the commit record was written; nothing was changed");
      }
    }
    StringBuilder sb = new StringBuilder(HEADER).append('\n');
    for (Rename r : renames) {
      sb.append("rename\t").append(r.tmp()).append('\t').append(r.target()).append('\n');
    }
    for (String s : stale) {
      sb.append("delete\t").append(s).append('\n');
    }
    sb.append("end\n");
    Path tmp = dir.resolve(record.getFileName() + ".tmp");
    Files.writeString(tmp, sb, StandardCharsets.UTF_8);
    Durable.force(tmp);
    Durable.rename(tmp, record);
    Durable.forceDirectory(dir);
    apply(dir, renames, stale, true);
    Files.deleteIfExists(record);
    Durable.forceDirectory(dir);
  }

  /**
   * Renames and deletes. In a live commit ({@code strict}) every temporary file must be there;
   * in recovery a missing one was renamed before the crash.
   */
  private static void apply(Path dir, List<Rename> renames, List<String> stale, boolean strict) throws IOException {
    for (Rename r : renames) {
      Path from = dir.resolve(r.tmp());
      if (strict || Files.exists(from)) {
        Durable.rename(from, dir.resolve(r.target()));
      }
    }
    for (String s : stale) {
      Files.deleteIfExists(dir.resolve(s));
    }
    Durable.forceDirectory(dir);
  }

  /**
   * Finishes the commit recorded for {@code base} in {@code dir}, if there is a complete record;
   * deletes a cut-off one. Call only while holding the writer lock. Returns whether a commit was
   * finished.
   */
  public static boolean recover(Path dir, String base) throws IOException {
    Path record = pathFor(dir, base);
    List<String> lines;
    try {
      lines = Files.readAllLines(record, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      Files.deleteIfExists(dir.resolve(record.getFileName() + ".tmp"));
      return false;
    }
    if (lines.isEmpty() || !lines.get(0).equals(HEADER) || !lines.get(lines.size() - 1).equals("end")) {
      Files.deleteIfExists(record);
      return false;
    }
    List<Rename> renames = new ArrayList<>();
    List<String> stale = new ArrayList<>();
    for (String line : lines.subList(1, lines.size() - 1)) {
      String[] f = line.split("\t", -1);
      if (f.length == 3 && f[0].equals("rename") && safe(f[1]) && safe(f[2])) {
        renames.add(new Rename(f[1], f[2]));
      } else if (f.length == 2 && f[0].equals("delete") && safe(f[1])) {
        stale.add(f[1]);
      } else {
        throw new IOException(record + ": unreadable commit record line '" + line + "'");
      }
    }
    apply(dir, renames, stale, false);
    Files.deleteIfExists(record);
    Durable.forceDirectory(dir);
    return true;
  }

  /** A plain file name in the same directory (a record never reaches outside it). */
  private static boolean safe(String name) {
    return !name.isEmpty() && !name.contains("/") && !name.contains("\\") && !name.equals(".") && !name.equals("..");
  }

  /**
   * Whether an interrupted commit or a crashed writer left anything beside the model named
   * {@code fileName} ({@code base}: the shard set's base when it is an SDNB name, else null).
   */
  public static boolean hasLeftovers(Path dir, String fileName, String base) throws IOException {
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      for (Path p : ds) {
        if (isLeftover(p.getFileName().toString(), fileName, base)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Deletes the temporary files an interrupted commit left beside the model named
   * {@code fileName}: {@code .<fileName>.<hex>.tmp}, and for a shard set {@code base} also
   * {@code .<base>.shard<k>-of-<N>.sdnb.<hex>.tmp}. Nothing of another model of the directory
   * matches. Call only while holding the writer lock.
   */
  public static void removeLeftovers(Path dir, String fileName, String base) throws IOException {
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      for (Path p : ds) {
        String n = p.getFileName().toString();
        if (n.endsWith(".tmp") && isLeftover(n, fileName, base)) {
          Files.deleteIfExists(p);
        }
      }
    }
  }

  private static boolean isLeftover(String n, String fileName, String base) {
    if (n.equals("." + fileName + ".modelfs-journal")) {
      return true;
    }
    if (n.startsWith("." + fileName + ".") && n.endsWith(".tmp") && !n.contains(".modelfs-")) {
      return true;
    }
    if (base == null) {
      return false;
    }
    if (n.equals("." + base + ".modelfs-commit") || n.equals("." + base + ".modelfs-commit.tmp")) {
      return true;
    }
    if (!n.startsWith("." + base + ".shard") || !n.endsWith(".tmp")) {
      return false;
    }
    String shard = n.substring(1, n.lastIndexOf('.', n.length() - 5));
    org.modelfs.format.sdnb.ShardNames.Shard s = org.modelfs.format.sdnb.ShardNames.parse(shard);
    return s != null && s.base().equals(base);
  }
}
