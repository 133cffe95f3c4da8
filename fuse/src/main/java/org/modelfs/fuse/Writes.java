package org.modelfs.fuse;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.modelfs.JournaledFileSystem;

/**
 * Every change made through the mount (docs/MOUNT.md "Writes"). A file opened for writing or
 * created is {@link Staged}: its bytes live in the staging directory and reach the model as one
 * NIO write when the file is closed (flush, so a refusal is close(2)'s errno) — or, for a
 * scratch name the model has no place for (an editor's temporary beside graph.json), when it is
 * renamed onto a model name. Everything else is the NIO operation of the same name. One lock:
 * changes are serial, reads never wait for them.
 */
final class Writes {
  private final FileSystem fs;
  private final Path stagingDir;
  private final MountLog log;
  private final Map<String, Staged> staged = new ConcurrentHashMap<>();
  final Areas areas;

  /** A descriptor open for writing (or for reading a staged file). */
  static final class Handle {
    final Staged staged;

    Handle(Staged staged) {
      this.staged = staged;
    }

    void write(ByteBuffer src, long offset) throws IOException {
      long pos = offset;
      while (src.hasRemaining()) {
        pos += staged.channel.write(src, pos);
      }
      staged.dirty = true;
      staged.written = true;
    }
  }

  Writes(FileSystem fs, Path stagingDir, MountLog log) {
    this.fs = fs;
    this.stagingDir = stagingDir;
    this.log = log;
    this.areas = new Areas(fs);
  }

  Staged staged(String p) {
    return staged.get(p);
  }

  /** The names of staged files directly in directory {@code dir}. */
  List<String> stagedIn(String dir) {
    List<String> out = new ArrayList<>();
    for (String k : staged.keySet()) {
      if (ModelNames.parent(k).equals(dir)) {
        out.add(k.substring(k.lastIndexOf('/') + 1));
      }
    }
    return out;
  }

  private Staged newStaged(boolean dirty) throws IOException {
    return new Staged(Files.createTempFile(stagingDir, "w", ""), dirty);
  }

  synchronized Handle create(String p) throws IOException {
    ModelNames.checkNew(p);
    Path target = fs.getPath(p);
    if (staged.containsKey(p) || Files.exists(target)) {
      throw new FileAlreadyExistsException(p);
    }
    String parent = ModelNames.parent(p);
    if (!Files.isDirectory(fs.getPath(parent)) && !areas.shows(parent)) {
      throw new NoSuchFileException(parent, null, "no such directory");
    }
    Staged s = newStaged(true);
    s.opens++;
    staged.put(p, s);
    return new Handle(s);
  }

  synchronized Handle open(String p, boolean truncate) throws IOException {
    Staged s = staged.get(p);
    if (s == null) {
      Path target = fs.getPath(p);
      if (Files.isDirectory(target)) {
        throw new IOException(p + ": is a directory");
      }
      if (!Files.exists(target)) {
        throw new NoSuchFileException(p);
      }
      s = newStaged(truncate);
      if (!truncate) {
        s.fill(target);
      }
      staged.put(p, s);
    } else if (truncate) {
      s.channel.truncate(0);
      s.dirty = true;
    }
    s.opens++;
    return new Handle(s);
  }

  /**
   * At close(2): a model file's new bytes go into the model; the refusal is the caller's errno.
   * {@code p} is null for a file removed while open (the mount's {@code hard_remove}): its bytes
   * are no file's any more, as on POSIX.
   */
  synchronized void flush(String p, Handle h) throws IOException {
    if (p != null && h.staged.dirty && h.staged.written && ModelNames.isModelFile(p) && staged.get(p) == h.staged) {
      install(h.staged, p);
    }
  }

  private void install(Staged s, String p) throws IOException {
    Installs.install(fs, s, p);
  }

  synchronized void release(String p, Handle h) throws IOException {
    Staged s = h.staged;
    if (--s.opens > 0 || p == null || staged.get(p) != s || !ModelNames.isModelFile(p)) {
      if (s.opens == 0 && !staged.containsValue(s)) {
        s.discard();
      }
      return;
    }
    try {
      if (s.dirty && !s.written) {
        install(s, p); // created or truncated, never written: the empty file
      }
    } finally {
      // only now, once the model holds the file: release runs after close(2) has returned, and a
      // stat meanwhile (touch f && chmod 600 f) found neither the staged file nor the model's
      staged.remove(p, s);
      s.discard();
      if (s.dirty) {
        log.warn(p + ": the bytes written were refused at close (see above) and are dropped; the model keeps its previous content");
      }
    }
  }

  synchronized void truncate(String p, long size, Handle h) throws IOException {
    Staged s = h != null ? h.staged : staged.get(p);
    if (s != null) {
      // truncate(2) by path of a file whose bytes the model holds already: closed and installed,
      // its release (which the kernel sends after close(2) has returned) not yet here. The model
      // gets the new size now, as a file system's truncate shows it at once; left staged, the
      // release would drop it as bytes never installed
      boolean installed = !s.dirty;
      setSize(s, size);
      if (h == null && installed && ModelNames.isModelFile(p)) {
        install(s, p);
      }
      return;
    }
    Handle opened = open(p, false);
    setSize(opened.staged, size);
    try {
      flush(p, opened);
    } finally {
      release(p, opened);
    }
  }

  /**
   * fallocate(2) on a file open for writing: mode 0 makes it at least {@code end} bytes long
   * (zeros, as a reservation reads); {@code FALLOC_FL_KEEP_SIZE} (1) only reserves, which the
   * staging file needs not; punching holes and the other modes are EOPNOTSUPP, as on tmpfs for
   * those it lacks.
   */
  synchronized void allocate(String p, int mode, long end) throws IOException {
    if ((mode & ~1) != 0) {
      throw new UnsupportedOperationException(p + ": fallocate mode " + mode + "; the mount reserves space only (mode 0 or FALLOC_FL_KEEP_SIZE)");
    }
    Staged s = p == null ? null : staged.get(p);
    if (s != null && mode == 0 && end > s.channel.size()) {
      setSize(s, end);
    }
  }

  private static void setSize(Staged s, long size) throws IOException {
    if (size < s.channel.size()) {
      s.channel.truncate(size);
    } else if (size > s.channel.size()) {
      s.channel.write(ByteBuffer.allocate(1), size - 1);
    }
    s.dirty = true;
    s.written = true;
  }

  synchronized void unlink(String p) throws IOException {
    Staged s = staged.remove(p);
    if (s != null && s.opens == 0) {
      s.discard();
    }
    try {
      Files.delete(fs.getPath(p));
    } catch (NoSuchFileException e) {
      if (s == null) {
        throw e;
      }
    }
  }

  /** mkdir(2); which area directories show is {@link Areas}'. */
  synchronized void mkdir(String p) throws IOException {
    ModelNames.checkNew(p);
    Path d = fs.getPath(p);
    if (ModelNames.isArea(p) && !Files.exists(d) && Files.isDirectory(fs.getPath(ModelNames.parent(p)))) {
      if (areas.shows(p)) {
        throw new FileAlreadyExistsException(p);
      }
      areas.make(p);
      return;
    }
    try {
      Files.createDirectory(d);
    } catch (NoSuchFileException | AccessDeniedException e) {
      String parent = ModelNames.parent(p);
      if (!Files.isDirectory(fs.getPath(parent)) && !areas.shows(parent)) {
        throw e;
      }
      // the parent is there, the model just has no place for a directory here (beside graph.json,
      // in /): mkdir(2)'s EPERM, "the file system does not support the creation of directories"
      throw Refusal.notPermitted(p, "only tags, their params/, updater/ and metadata/, and directories below those can be made");
    }
    if (Areas.isTag(p)) {
      areas.tagMade(p);
    }
  }

  synchronized void rmdir(String p) throws IOException {
    if (!stagedIn(p).isEmpty()) {
      throw new DirectoryNotEmptyException(p);
    }
    Path d = fs.getPath(p);
    if (Areas.isTag(p) && Files.isDirectory(d)) {
      // rmdir(2) removes an empty directory only; a tag goes once its files are gone
      try (DirectoryStream<Path> ds = Files.newDirectoryStream(d)) {
        for (Path e : ds) {
          if (!ModelNames.AREAS.contains(e.getFileName().toString()) || hasEntries(e)) {
            throw new DirectoryNotEmptyException(p);
          }
        }
      }
    }
    try {
      Files.delete(d);
    } catch (NoSuchFileException e) {
      if (!areas.shows(p)) {
        throw e;
      }
    }
    areas.removed(p);
  }

  private static boolean hasEntries(Path d) throws IOException {
    if (!Files.isDirectory(d)) {
      return true;
    }
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(d)) {
      return ds.iterator().hasNext();
    }
  }

  /**
   * rename(2). A file open for writing keeps being the one its descriptors write to under its new
   * name (and everything staged below a renamed directory moves along): the bytes written after
   * the rename reach the model at close, as on any file system, instead of going nowhere.
   */
  synchronized void rename(String from, String to) throws IOException {
    ModelNames.checkNew(to);
    Staged s = staged.get(from);
    Path target = fs.getPath(to);
    if (s != null && (s.dirty || !ModelNames.isModelFile(from))) {
      if (ModelNames.isModelFile(to)) {
        install(s, to);
      }
      detach(to);
      staged.remove(from);
      if (!ModelNames.isModelFile(to) || s.opens > 0) {
        staged.put(to, s); // still open: later writes are installed at its close
      } else {
        s.discard();
      }
      if (ModelNames.isModelFile(from) && Files.exists(fs.getPath(from))) {
        Files.delete(fs.getPath(from));
      }
      return;
    }
    Path source = fs.getPath(from);
    if (!ModelNames.isModelFile(to) && ModelNames.isModelFile(from) && Files.isRegularFile(source)) {
      // a model file renamed to a scratch name (an editor's backup): its bytes go along (an open
      // staged copy of it already holds them)
      Staged copy = s != null ? s : newStaged(false);
      if (s == null) {
        copy.fill(source);
      }
      Files.delete(source);
      staged.remove(from);
      detach(to);
      staged.put(to, copy);
      return;
    }
    try {
      move(from, to);
    } catch (FileSystemException e) {
      // the model has no such rename (a tag into an area, an area or a directory with files out
      // of its area, a directory onto a file): rename(2)'s EPERM, "the file system does not
      // support renaming of the type requested" — not EIO or ENOTEMPTY (the target may not even
      // exist), and not EXDEV, on which mv would copy the tree there and delete the original
      String file = String.valueOf(e.getFile());
      if (e.getClass() == FileSystemException.class && file.equals(from)) {
        throw Refusal.notPermitted(from + " -> " + to, e.getReason());
      }
      if (e instanceof DirectoryNotEmptyException && file.startsWith(from + ": ")) {
        throw Refusal.notPermitted(from + " -> " + to, file.substring(from.length() + 2)); // the reason in its file
      }
      throw e;
    }
    detach(to);
    follow(from, to);
    areas.renamed(from, to);
  }

  /** Moves {@code from} onto {@code to} in the model (rename(2) replaces a file or an empty directory). */
  private void move(String from, String to) throws IOException {
    Path source = fs.getPath(from);
    Path target = fs.getPath(to);
    try {
      if (Files.isRegularFile(target) || Files.isDirectory(target) && !hasEntries(target)) {
        Files.move(source, target, StandardCopyOption.REPLACE_EXISTING);
      } else {
        Files.move(source, target);
      }
    } catch (FileAlreadyExistsException e) {
      if (Files.isDirectory(source) && Files.isDirectory(target)) {
        throw new DirectoryNotEmptyException(to); // rename(2) onto a non-empty directory, as Linux says it
      }
      // the target names a variable of the graph that has no array yet (rsync's .W.XXXXXX renamed
      // onto W after graph.json was copied): rename(2) replaces, so the bytes become its array
      if (!ModelNames.isModelFile(to) || !Files.isRegularFile(source) || Files.exists(target)) {
        throw e;
      }
      Staged copy = newStaged(false);
      try {
        copy.fill(source);
        install(copy, to);
      } finally {
        copy.discard();
      }
      Files.delete(source);
    }
  }

  /** The staged file at {@code p} (replaced or removed) is no name's any more; its open descriptors keep it. */
  private void detach(String p) {
    Staged old = staged.remove(p);
    if (old != null && old.opens == 0) {
      old.discard();
    }
  }

  /**
   * Files staged at {@code from} or below it — open for writing, or scratch files of a renamed
   * tag (an editor's backup beside its graph.json) — move to {@code to} with it.
   */
  private void follow(String from, String to) {
    for (String k : List.copyOf(staged.keySet())) {
      if (k.equals(from) || k.startsWith(from + "/")) {
        staged.put(to + k.substring(from.length()), staged.remove(k));
      }
    }
  }

  /**
   * setxattr(2) of one of our names. Copy tools that keep extended attributes ({@code cp -a},
   * {@code rsync -X}, Python's {@code shutil.copy2}) set every name getfattr lists onto the new
   * file, before its close: a name that says where the array is ({@code byteOrder}, {@code
   * stored}, {@code tag}) or a file under {@code updater/} told it is {@code UPDATER} is accepted
   * when it says what the file already is, and otherwise refused at once (EOPNOTSUPP, which cp
   * and copy2 pass over) — never kept to fail the file's close and drop its bytes.
   */
  synchronized void setxattr(String p, String name, String value) throws IOException {
    String n = Xattrs.settable(name);
    if (n == null) {
      if (name.startsWith(Xattrs.PREFIX) && value.equals(getxattr(p, name))) {
        return;
      }
      throw new UnsupportedOperationException(name.startsWith(Xattrs.PREFIX)
          ? name + " says where the array is and cannot be set; settable: user.samediff." + String.join(", .", Xattrs.SETTABLE)
          : name + ": only user.samediff.* attributes are kept");
    }
    if (n.equals("kind") && ModelNames.isUpdaterFile(p)) {
      if (value.equals("UPDATER")) {
        return;
      }
      throw new IllegalArgumentException(name + ": " + p + " is updater state (UPDATER) by where it is; '" + value
          + "' cannot be set");
    }
    Staged s = staged.get(p);
    if (s != null && (s.dirty || !Files.exists(fs.getPath(p)))) {
      s.attributes.put(n, value);
      return;
    }
    Xattrs.set(fs.getPath(p), n, value);
  }

  String getxattr(String p, String name) throws IOException {
    Staged s = staged.get(p);
    if (s != null && !Files.exists(fs.getPath(p))) {
      return name.startsWith(Xattrs.PREFIX) ? s.attributes.get(name.substring(Xattrs.PREFIX.length())) : null;
    }
    return Xattrs.of(fs.getPath(p)).get(name);
  }

  Set<String> xattrNames(String p) throws IOException {
    Staged s = staged.get(p);
    if (s != null && !Files.exists(fs.getPath(p))) {
      Set<String> out = new LinkedHashSet<>();
      s.attributes.keySet().forEach(k -> out.add(Xattrs.PREFIX + k));
      return out;
    }
    return Xattrs.of(fs.getPath(p)).keySet();
  }

  /** Commits what was closed so far; files still open for writing stay staged. */
  synchronized void commit() throws IOException {
    ((JournaledFileSystem) fs).commit();
  }

  /** Scratch files left at unmount (never the model's) and files still open for writing: named in the log. */
  synchronized void discardAll() {
    for (Map.Entry<String, Staged> e : staged.entrySet()) {
      if (!ModelNames.isModelFile(e.getKey())) {
        log.warn(e.getKey() + ": a scratch file of the mount (never renamed onto a model name) is dropped at unmount");
      } else if (e.getValue().dirty) {
        // SIGTERM or a lazy unmount while a program still writes it: its bytes were never closed
        log.warn(e.getKey() + ": still open for writing at unmount; what was written since its last close is dropped"
            + " (never closed), the model keeps the content it had");
      }
      e.getValue().discard();
    }
    staged.clear();
  }
}
