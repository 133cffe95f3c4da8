package org.modelfs.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.CRC32;

/**
 * The roll-forward record of a commit that changes more than one file (a shard set; a single
 * SDNB file turned into shards or back): which forced temporary files are renamed to which
 * names, and which files of the old model are then deleted. It is written (with
 * {@code CREATE_NEW}) and forced only after every new file is complete and verified, so a crash
 * before it leaves the old model (the temporaries are garbage) and a crash after it is finished
 * by {@link Recovery}. Its name is new for every commit
 * ({@link SidecarNames#newRecord}), so nothing planted at a fixed name is ever written through.
 *
 * <p>Format (UTF-8 lines, tab-separated): {@code modelfs-commit 2}; per new file
 * {@code rename <temporary> <target> <file key>}; per old file a rename replaces
 * {@code keep <backup> <target>} (a hard link made before the first rename: the way back to the
 * old model); per old file that goes {@code delete <name>};
 * {@code end <CRC-32 of every byte before this line, 8 hex digits>}. The file key (device and
 * inode, {@code -} where the provider has none) tells, after a crash, a target that is already
 * the renamed new file from the old file of the same name. A record without a valid end line was
 * cut off while it was written: no rename had started.
 */
final class CommitRecord {
  private static final String HEADER = "modelfs-commit\t2";

  private CommitRecord() {}

  /** A pending rename; {@code key} is the temporary's file key, or {@code null}. */
  record Rename(String tmp, String target, String key) {}

  /** A hard link {@code backup} to the old file at {@code target}, made before any rename. */
  record Backup(String backup, String target) {}

  /** A record's content. */
  record Content(List<Rename> renames, List<Backup> backups, List<String> deletes) {}

  /** What is found at a model's record name. */
  enum State {
    /** Nothing. */
    ABSENT,
    /** A record cut off while it was written, or damaged: no rename had started. */
    INCOMPLETE,
    /** A complete record of this model's files. */
    VALID,
    /** Something ModelFS did not write (another kind of file, names that are not this model's). */
    FOREIGN
  }

  /** The outcome of reading a record. */
  record Read(Path path, State state, Content content) {}

  /** Every record of {@code id} in its directory (normally none; one while a commit installs its files). */
  static List<Read> all(ModelId id) throws IOException {
    List<Read> out = new ArrayList<>();
    for (String n : SafeDir.names(id.dir())) {
      if (SidecarNames.isRecord(id.key(), n)) {
        out.add(read(id, id.dir().resolve(n)));
      }
    }
    return out;
  }

  /**
   * Writes and forces a new record of {@code id} (a new random name, {@code CREATE_NEW}), then
   * forces the directory. Returns its path.
   */
  static Path write(ModelId id, Content c) throws IOException {
    StringBuilder sb = new StringBuilder(HEADER).append('\n');
    for (Rename r : c.renames()) {
      sb.append("rename\t").append(r.tmp()).append('\t').append(r.target()).append('\t')
          .append(r.key() == null ? "-" : r.key()).append('\n');
    }
    for (Backup b : c.backups()) {
      sb.append("keep\t").append(b.backup()).append('\t').append(b.target()).append('\n');
    }
    for (String d : c.deletes()) {
      sb.append("delete\t").append(d).append('\n');
    }
    byte[] body = sb.toString().getBytes(StandardCharsets.UTF_8);
    byte[] end = ("end\t" + crc(body, body.length) + "\n").getBytes(StandardCharsets.UTF_8);
    Path p = id.dir().resolve(SidecarNames.newRecord(id.key()));
    try (SeekableByteChannel ch = Durable.createNew(p)) {
      ByteBuffer b = ByteBuffer.allocate(body.length + end.length).put(body).put(end).flip();
      while (b.hasRemaining()) {
        ch.write(b);
      }
      Durable.force(ch);
    }
    Durable.forceDirectory(id.dir());
    return p;
  }

  /** Reads the record at {@code p}, a record name of {@code id}. */
  static Read read(ModelId id, Path p) throws IOException {
    if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
      return new Read(p, State.ABSENT, null);
    }
    if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) || Files.size(p) > (16 << 20)) {
      return new Read(p, State.FOREIGN, null);
    }
    byte[] bytes = Files.readAllBytes(p);
    byte[] header = HEADER.getBytes(StandardCharsets.UTF_8);
    if (!startsWith(bytes, header) && !startsWith(header, bytes)) {
      return new Read(p, State.FOREIGN, null);
    }
    int endAt = lastEndLine(bytes);
    if (endAt < 0 || bytes.length <= header.length || bytes[header.length] != '\n'
        || bytes[bytes.length - 1] != '\n') {
      return new Read(p, State.INCOMPLETE, null); // ours, cut off or damaged while written
    }
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      return new Read(p, State.INCOMPLETE, null); // damaged while it was written
    }
    String sum = new String(bytes, endAt + 4, bytes.length - endAt - 5, StandardCharsets.UTF_8);
    if (!sum.equals(crc(bytes, endAt))) {
      return new Read(p, State.INCOMPLETE, null);
    }
    int endChar = text.lastIndexOf("\nend\t") + 1;
    List<Rename> renames = new ArrayList<>();
    List<String> deletes = new ArrayList<>();
    List<Backup> backups = new ArrayList<>();
    for (String line : text.substring(HEADER.length() + 1, endChar).split("\n", -1)) {
      if (line.isEmpty()) {
        continue;
      }
      String[] f = line.split("\t", -1);
      if (f.length == 4 && f[0].equals("rename") && SidecarNames.isTempOf(id, f[1]) && id.isModelFile(f[2])
          && f[2].equals(SidecarNames.tempTarget(f[1]))) {
        renames.add(new Rename(f[1], f[2], f[3].equals("-") ? null : f[3]));
      } else if (f.length == 3 && f[0].equals("keep") && SidecarNames.isBackupOf(id, f[1])
          && f[2].equals(SidecarNames.backupTarget(f[1]))) {
        backups.add(new Backup(f[1], f[2]));
      } else if (f.length == 2 && f[0].equals("delete") && id.isModelFile(f[1])) {
        deletes.add(f[1]);
      } else {
        return new Read(p, State.FOREIGN, null); // names outside this model: not a record of ours
      }
    }
    return new Read(p, State.VALID, new Content(renames, backups, deletes));
  }

  /** Removes the record at {@code p} (a regular file only). */
  static void remove(Path p) throws IOException {
    SafeDir.deleteRegularFile(p.getParent(), p.getFileName().toString());
  }

  /** The byte offset of the last line starting {@code end\t}, or -1. */
  private static int lastEndLine(byte[] b) {
    for (int i = b.length - 5; i > 0; i--) {
      if (b[i - 1] == '\n' && b[i] == 'e' && b[i + 1] == 'n' && b[i + 2] == 'd' && b[i + 3] == '\t') {
        return i;
      }
    }
    return -1;
  }

  private static boolean startsWith(byte[] b, byte[] prefix) {
    if (b.length < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (b[i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  private static String crc(byte[] b, int length) {
    CRC32 c = new CRC32();
    c.update(b, 0, length);
    return HexFormat.of().toHexDigits((int) c.getValue());
  }
}
