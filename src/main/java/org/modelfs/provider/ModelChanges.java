package org.modelfs.provider;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.ReadOnlyFileSystemException;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.modelfs.model.ModelFormat;
import org.modelfs.container.ModelWriter;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.io.ChannelSource;
import org.modelfs.store.CommitRecord;
import org.modelfs.store.Journal;
import org.modelfs.store.WriterLock;
import org.modelfs.model.ArrayData;
import org.modelfs.model.DType;
import org.modelfs.model.GraphRef;
import org.modelfs.model.Model;
import org.modelfs.model.Shapes;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.VarKind;
import org.modelfs.model.Variable;
import org.modelfs.tree.Dir;
import org.modelfs.tree.FileNode;
import org.modelfs.tree.ModelTree;

/**
 * The write side of a mount (docs/FILESYSTEM.md §7): journaled changes, validation, commit and
 * rollback. New bytes stream into journal files beside the container; each change swaps a new
 * set of tags into the file system, so reads see it at once; a commit writes a complete new
 * container through {@link ModelWriter} (temporary file, force, atomic rename) and remounts it.
 *
 * <p>Locking rule: {@link #lock} serializes changes, commit and rollback of this mount; readers
 * never take it. The cross-process {@link WriterLock} is taken before the first change and held
 * until the mount is closed.
 */
final class ModelChanges {
  private static final long MAX_TEXT_BYTES = 64L << 20;

  private final ModelFileSystem fs;
  private final ReentrantLock lock = new ReentrantLock();
  private WriterLock writer; // guarded by lock
  private Journal journal; // guarded by lock
  private boolean dirty; // guarded by lock

  ModelChanges(ModelFileSystem fs) {
    this.fs = fs;
  }

  /**
   * Before a mount: when something was left beside the model (a commit record, temporary
   * files, a journal) and no writer is live, finishes an interrupted sharded commit and removes
   * the rest. Only this model's names are touched; a plain open leaves no file behind.
   */
  static void recover(Path container) throws IOException {
    Path id = WriterLock.identity(container);
    Path dir = id.getParent();
    String name = String.valueOf(id.getFileName());
    String base = name.endsWith(".sdnb") ? name.substring(0, name.length() - ".sdnb".length()) : null;
    if (dir == null || !Files.isDirectory(dir) || !CommitRecord.hasLeftovers(dir, name, base)) {
      return;
    }
    WriterLock l;
    try {
      l = WriterLock.tryAcquire(id);
    } catch (IOException | UnsupportedOperationException e) {
      return; // cannot take the lock here (a read-only directory): leave everything as it is
    }
    if (l == null) {
      return; // a live writer: its files are not leftovers
    }
    try (l) {
      if (base != null) {
        CommitRecord.recover(dir, base);
      }
      CommitRecord.removeLeftovers(dir, name, base);
      Journal.removeStale(id);
    }
  }

  /** A model made by {@code create=true}: takes the writer lock now; the first commit writes it. */
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

  private void begin() throws IOException {
    fs.ensureOpen();
    if (fs.isReadOnly()) {
      throw new ReadOnlyFileSystemException();
    }
    if (writer == null) {
      Path id = WriterLock.identity(fs.containerPath());
      writer = WriterLock.acquire(id);
      journal = Journal.start(id);
    }
  }

  // ---- writing files ---------------------------------------------------------------------

  FileChannel openForWrite(ModelPath path, Set<? extends OpenOption> options, ArrayAttributes attrs)
      throws IOException {
    lock.lock();
    try {
      begin();
      ModelTree.Found found = fs.lookup(path);
      if (found != null && found.node() instanceof Dir) {
        throw new FileSystemException(path.toString(), null, "is a directory");
      }
      if (found != null && options.contains(StandardOpenOption.CREATE_NEW)) {
        throw new FileAlreadyExistsException(path.toString());
      }
      if (found == null && !options.contains(StandardOpenOption.CREATE)
          && !options.contains(StandardOpenOption.CREATE_NEW)) {
        throw new NoSuchFileException(path.toString());
      }
      Target t = target(path);
      if (found == null && t.area() == Target.Area.UPDATER && t.tag().variable(t.name()) == null) {
        throw new NoSuchFileException(path.toString(), null, "no parameter '" + t.name() + "' to hold updater state");
      }
      Path data = journal.newFile(t.area().name().toLowerCase(java.util.Locale.ROOT));
      FileChannel ch = FileChannel.open(data, StandardOpenOption.READ, StandardOpenOption.WRITE);
      try {
        if (found != null && !options.contains(StandardOpenOption.TRUNCATE_EXISTING)) {
          copyContent((FileNode) found.node(), ch);
          ch.position(options.contains(StandardOpenOption.APPEND) ? ch.size() : 0);
        }
      } catch (IOException | RuntimeException e) {
        ch.close();
        throw e;
      }
      String tagName = t.tag().name();
      return fs.resources().add(new JournalChannel(ch, options.contains(StandardOpenOption.APPEND),
          size -> install(tagName, t, data, size, attrs, path.toString()), fs.resources()));
    } finally {
      lock.unlock();
    }
  }

  private static void copyContent(FileNode node, FileChannel out) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(1 << 20);
    long pos = 0;
    int n;
    while ((n = node.content().read(buf.clear(), pos)) > 0) {
      buf.flip();
      while (buf.hasRemaining()) {
        out.write(buf);
      }
      pos += n;
    }
  }

  /** Makes the journal file {@code data} the content of the file a write channel was opened on. */
  private void install(String tagName, Target t, Path data, long size, ArrayAttributes attrs, String path)
      throws IOException {
    lock.lock();
    try {
      if (!fs.isOpen()) {
        throw new FileSystemException(path, null,
            "the file system was closed while this file was open for writing; its new bytes were not committed");
      }
      Tag tag = tag(tagName, path);
      switch (t.area()) {
        case PARAM -> {
          Variable v = tag.variable(t.name());
          ArrayData a = array(v == null ? null : v.array(), v == null ? null : v.dtype(),
              v == null ? null : v.shape(), data, size, attrs);
          tag = TagEdits.withArray(tag, t.name(), a, attrs.kind());
        }
        case UPDATER -> {
          ArrayData old = null;
          for (UpdaterState u : tag.updater()) {
            if (u.paramName().equals(t.name())) {
              old = u.arrays().get(t.key());
            }
          }
          Variable v = tag.variable(t.name());
          ArrayData base = old != null ? old : v == null ? null : v.array();
          tag = TagEdits.withState(tag, t.name(), t.key(), array(base, null, null, data, size, attrs));
        }
        case GRAPH -> tag = TagEdits.withGraph(tag, new GraphRef(fs.resources().add(ChannelSource.open(data)), 0, size,
            GraphRef.Convention.SDNB), path);
        case GRAPH_JSON -> {
          // derived from graph: a copy of what it already shows (a recursive copy of a tag) is
          // accepted and changes nothing; anything else is refused
          byte[] now = org.modelfs.format.fb.GraphJson.render(tag, fs.container());
          if (size != now.length || !java.util.Arrays.equals(now, Files.readAllBytes(data))) {
            throw new AccessDeniedException(path, null, "graph.json is a rendering of graph; write graph instead");
          }
          return;
        }
        case METADATA -> tag = TagEdits.withMetadata(tag, t.name(), text(data, size, path));
        case TRAINING -> tag = TagEdits.withTraining(tag, text(data, size, path));
        default -> throw new AccessDeniedException(path);
      }
      fs.swap(TagEdits.replace(fs.tags(), tag));
      dirty = true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The array a written file holds: its bytes in the journal, the type, shape and order of the
   * array it replaces (or FLOAT, 1-D, c for a new one) unless attributes say otherwise; a 1-D
   * shape follows the new length.
   */
  private ArrayData array(ArrayData old, DType declared, long[] declaredShape, Path data, long size,
      ArrayAttributes attrs) throws IOException {
    DType dtype = attrs.dtype() != null ? attrs.dtype() : old != null ? old.dtype() : declared != null ? declared : DType.FLOAT;
    char order = attrs.order() != 0 ? attrs.order() : old != null ? old.order() : 'c';
    long[] shape = attrs.shape();
    if (shape == null) {
      shape = old != null ? old.shape() : declaredShape;
      if (shape == null || shape.length == 1 && dtype.width() > 0 && Shapes.byteLength(shape, dtype.width()) != size) {
        shape = new long[] {dtype.width() == 0 ? 0 : size / dtype.width()};
      }
    }
    ChannelSource src = fs.resources().add(ChannelSource.open(data));
    return new ArrayData(dtype, shape, order, size == 0, src, 0, size, false, ArrayData.Storage.JOURNAL);
  }

  private static String text(Path data, long size, String path) throws IOException {
    if (size > MAX_TEXT_BYTES) {
      throw new FileSystemException(path, null, "a text file of a model holds at most " + MAX_TEXT_BYTES + " bytes");
    }
    byte[] b = Files.readAllBytes(data);
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b)).toString();
    } catch (CharacterCodingException e) {
      throw new FileSystemException(path, null, "metadata and training.json hold UTF-8 text: " + e.getMessage());
    }
  }

  // ---- attributes, delete, directories ------------------------------------------------------

  void setAttribute(ModelPath path, String name, Object value) throws IOException {
    lock.lock();
    try {
      begin();
      ModelTree.Found f = fs.find(path);
      if (!(f.node() instanceof FileNode file) || file.array() == null) {
        throw new FileSystemException(path.toString(), null, "samediff:" + name + " belongs to array files");
      }
      ArrayAttributes attrs = ArrayAttributes.NONE.with(name, value);
      Target t = target(path);
      Tag tag = tag(t.tag().name(), path.toString());
      ArrayData a = file.array();
      if (attrs.dtype() != null && a.bigEndian() && attrs.dtype().width() != a.dtype().width()) {
        throw new FileSystemException(path.toString(), null, "its bytes are stored big-endian as "
            + a.dtype() + "; write the new bytes first, then change the dtype");
      }
      ArrayData changed = new ArrayData(
          attrs.dtype() != null ? attrs.dtype() : a.dtype(), attrs.shape() != null ? attrs.shape() : a.shape(),
          attrs.order() != 0 ? attrs.order() : a.order(), a.empty(), a.source(), a.offset(), a.length(),
          a.bigEndian(), a.storage());
      if (t.area() == Target.Area.PARAM) {
        tag = TagEdits.withArray(tag, t.name(), changed, attrs.kind());
      } else if (attrs.kind() != null) {
        throw new FileSystemException(path.toString(), null, "updater state has no kind");
      } else {
        tag = TagEdits.withState(tag, t.name(), t.key(), changed);
      }
      fs.swap(TagEdits.replace(fs.tags(), tag));
      dirty = true;
    } finally {
      lock.unlock();
    }
  }

  void delete(ModelPath path) throws IOException {
    lock.lock();
    try {
      begin();
      ModelTree.Found f = fs.find(path);
      String tagName = tagDir(f.canonical());
      if (tagName != null) {
        if (fs.tags().size() == 1) {
          throw new AccessDeniedException(path.toString(), null, "the only tag of a model cannot be deleted");
        }
        List<Tag> rest = new ArrayList<>(fs.tags());
        rest.removeIf(t -> t.name().equals(tagName));
        fs.swap(rest);
        dirty = true;
        return;
      }
      if (f.node() instanceof Dir d) {
        List<String> c = f.canonical();
        boolean content = c.size() >= 2 && (c.contains(ModelTree.PARAMS) || c.contains(ModelTree.UPDATER)
            || c.contains(ModelTree.METADATA)) && !isAreaRoot(c);
        if (content && !d.children().isEmpty()) {
          throw new DirectoryNotEmptyException(path.toString());
        }
        throw new AccessDeniedException(path.toString(), null, "part of the model's structure; it cannot be deleted");
      }
      Target t = target(path);
      Tag tag = tag(t.tag().name(), path.toString());
      tag = switch (t.area()) {
        case PARAM -> TagEdits.withoutArray(tag, t.name());
        case UPDATER -> TagEdits.withState(tag, t.name(), t.key(), null);
        case METADATA -> TagEdits.withMetadata(tag, t.name(), null);
        case TRAINING -> TagEdits.withTraining(tag, null);
        default -> throw new AccessDeniedException(path.toString(), null, "part of the model's structure; it cannot be deleted");
      };
      fs.swap(TagEdits.replace(fs.tags(), tag));
      dirty = true;
    } finally {
      lock.unlock();
    }
  }

  private static boolean isAreaRoot(List<String> canonical) {
    String last = canonical.get(canonical.size() - 1);
    int n = canonical.size();
    boolean atRoot = n == 1 || n == 3 && canonical.get(0).equals(ModelTree.TAGS);
    return atRoot && (last.equals(ModelTree.PARAMS) || last.equals(ModelTree.UPDATER) || last.equals(ModelTree.METADATA));
  }

  /**
   * Directories below {@code params/}, {@code updater/} and {@code metadata/} are virtual: they
   * exist while a name lives below them, so creating one succeeds without a trace. Creating
   * {@code tags/<name>} makes a new, empty newest tag (docs/FILESYSTEM.md §7).
   */
  void createDirectory(ModelPath dir) throws IOException {
    lock.lock();
    try {
      begin();
      List<String> names = dir.toAbsolutePath().normalize().names();
      boolean tag = names.size() == 2 && names.get(0).equals(ModelTree.TAGS);
      if (tag) {
        checkTagName(names.get(1), dir.toString(), null);
      }
      if (fs.lookup(dir) != null) {
        throw new FileAlreadyExistsException(dir.toString(), null, tag ? "the tag exists" : null);
      }
      if (tag) {
        String name = names.get(1);
        List<Tag> tags = new ArrayList<>(fs.tags());
        tags.add(new Tag(name, null, List.of(), List.of(), null, java.util.Map.of()));
        fs.swap(tags);
        dirty = true;
        return;
      }
      int i = !names.isEmpty() && names.get(0).equals(ModelTree.TAGS) ? 2 : 0;
      boolean below = names.size() > i + 1 && (names.get(i).equals(ModelTree.PARAMS)
          || names.get(i).equals(ModelTree.UPDATER) || names.get(i).equals(ModelTree.METADATA));
      if (!below || i == 2 && fs.lookup(dir.getFileSystem().getPath("/" + ModelTree.TAGS, names.get(1))) == null) {
        throw new AccessDeniedException(dir.toString(), null, "only tags and directories below params/, updater/,"
            + " metadata/ of a tag can be made");
      }
    } finally {
      lock.unlock();
    }
  }

  /** Renames the tag at {@code source} ({@code /tags/<a>}) to the name at {@code target}. */
  void renameTag(ModelPath source, ModelPath target) throws IOException {
    lock.lock();
    try {
      String from = tagDir(fs.find(source).canonical());
      List<String> names = target.toAbsolutePath().normalize().names();
      if (from == null || names.size() != 2 || !names.get(0).equals(ModelTree.TAGS)) {
        throw new FileSystemException(source.toString(), target.toString(), "a tag moves only to /tags/<new name>");
      }
      String to = names.get(1);
      if (to.equals(from)) {
        return; // a move onto itself
      }
      begin();
      if (to.equalsIgnoreCase(from)) {
        checkTagName(to, target.toString(), from); // a change of case only
      } else {
        checkTagName(to, target.toString(), null);
        if (fs.lookup(target) != null) {
          throw new FileAlreadyExistsException(target.toString(), null, "the tag exists");
        }
      }
      List<Tag> tags = new ArrayList<>(fs.tags());
      tags.replaceAll(t -> t.name().equals(from)
          ? new Tag(to, t.graph(), t.variables(), t.updater(), t.trainingConfig(), t.metadata()) : t);
      fs.swap(tags);
      dirty = true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Makes {@code link} (a new params or updater file, e.g. in another tag) show the very array
   * of {@code existing}: one stored array, two names, equal {@code fileKey}s.
   */
  void link(ModelPath link, ModelPath existing) throws IOException {
    lock.lock();
    try {
      begin();
      ModelTree.Found src = fs.find(existing);
      if (!(src.node() instanceof FileNode file) || file.array() == null) {
        throw new FileSystemException(existing.toString(), link.toString(), "only array files can be linked");
      }
      if (fs.lookup(link) != null) {
        throw new FileAlreadyExistsException(link.toString());
      }
      Target t = target(link);
      Tag tag = tag(t.tag().name(), link.toString());
      if (t.area() == Target.Area.PARAM) {
        VarKind kind = file.kind() == null || file.kind().equals(ModelTree.UPDATER_KIND) ? null : VarKind.valueOf(file.kind());
        tag = TagEdits.withArray(tag, t.name(), file.array(), kind);
      } else if (t.area() == Target.Area.UPDATER) {
        tag = TagEdits.withState(tag, t.name(), t.key(), file.array());
      } else {
        throw new FileSystemException(link.toString(), existing.toString(), "links are made below params/ and updater/");
      }
      fs.swap(TagEdits.replace(fs.tags(), tag));
      dirty = true;
    } finally {
      lock.unlock();
    }
  }

  /** The tag a canonical path {@code /tags/<tag>} names, or {@code null} for any other path. */
  static String tagDir(List<String> canonical) {
    return canonical.size() == 2 && canonical.get(0).equals(ModelTree.TAGS) ? canonical.get(1) : null;
  }

  /** Checks {@code name} against the tag rule and the other tags' names ({@code self} is the tag being renamed). */
  private String checkTagName(String name, String path, String self) throws FileSystemException {
    if (!org.modelfs.format.TagList.isValid(name)) {
      throw new FileSystemException(path, null, "a tag name is " + org.modelfs.format.TagList.RULE);
    }
    for (Tag t : fs.tags()) {
      if (t.name().equalsIgnoreCase(name) && !t.name().equals(name) && !t.name().equals(self)) {
        throw new FileAlreadyExistsException(path, null, "tag names are unique ignoring case: '" + t.name() + "' exists");
      }
    }
    return name;
  }

  /** Copies a file of a mounted model to another path of a mounted model, with its array attributes. */
  static void copy(ModelPath source, ModelPath target, boolean replace) throws IOException {
    ModelTree.Found src = source.getFileSystem().find(source);
    ModelTree.Found existing = target.getFileSystem().lookup(target);
    if (existing != null && source.getFileSystem() == target.getFileSystem()
        && existing.node().fileKey().equals(src.node().fileKey())) {
      return; // the same file (an alias, or a shared array): nothing to copy
    }
    if (src.node() instanceof Dir) {
      if (target.getFileSystem().lookup(target) == null) {
        target.getFileSystem().provider().createDirectory(target);
      }
      return;
    }
    ModelTree.Found dst = target.getFileSystem().lookup(target);
    if (dst != null && !replace) {
      throw new FileAlreadyExistsException(target.toString());
    }
    if (isGraphJson(source) && isGraphJson(target)) {
      return; // derived from each tag's graph: the target's follows its own graph (a tag clone copies graph too)
    }
    List<FileAttribute<?>> attrs = new ArrayList<>();
    ArrayData a = ((FileNode) src.node()).array();
    if (a != null) {
      attrs.add(org.modelfs.ModelFileSystems.attribute("dtype", a.dtype().nd4jName()));
      attrs.add(org.modelfs.ModelFileSystems.attribute("shape", a.shape()));
      attrs.add(org.modelfs.ModelFileSystems.attribute("order", String.valueOf(a.order())));
      String kind = ((FileNode) src.node()).kind();
      if (kind != null && !kind.equals(ModelTree.UPDATER_KIND) && target.toAbsolutePath().normalize().names()
          .contains(ModelTree.PARAMS)) {
        attrs.add(org.modelfs.ModelFileSystems.attribute("kind", kind));
      }
    }
    try (InputStream in = Files.newInputStream(source);
        OutputStream out = java.nio.channels.Channels.newOutputStream(target.getFileSystem().newFileChannel(target,
            Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING),
            ArrayAttributes.of(attrs.toArray(new FileAttribute<?>[0]))))) {
      in.transferTo(out);
    }
  }

  private static boolean isGraphJson(ModelPath p) {
    List<String> n = p.toAbsolutePath().normalize().names();
    return !n.isEmpty() && n.get(n.size() - 1).equals(ModelTree.GRAPH_JSON)
        && (n.size() == 1 || n.size() == 3 && n.get(0).equals(ModelTree.TAGS));
  }

  // ---- commit ----------------------------------------------------------------------------------

  /**
   * Validates the tree and writes it as a complete new container, then remounts it. Does
   * nothing without changes. A failed validation writes nothing and keeps the journal.
   */
  void commit() throws IOException {
    lock.lock();
    try {
      fs.ensureOpen();
      if (!dirty) {
        return;
      }
      MountOptions o = fs.options();
      ModelFormat format = o.format() != null ? o.format() : fs.model().format();
      List<Tag> tags = fs.tags();
      List<String> problems = Validation.problems(tags, format);
      WriteOptions wo = WriteOptions.of(format).withDeflate(o.deflate());
      if (o.maxShardBytes() > 0) {
        wo = wo.withMaxShardBytes(o.maxShardBytes());
      }
      if (problems.isEmpty()) {
        for (Tag t : tags) {
          for (String pr : ModelWriter.problems(t, wo)) {
            problems.add("/tags/" + t.name() + "/" + pr);
          }
        }
      }
      if (!problems.isEmpty()) {
        throw new FileSystemException(fs.container(), null, "commit refused, nothing was written and the"
            + " changes are still pending: " + String.join("; ", problems));
      }
      Path target = format == ModelFormat.SHARDED_SDNB ? WriterLock.identity(fs.containerPath()) : fs.containerPath();
      ModelWriter.writeTags(tags, target, wo);
      fs.swapModel(Models.open(fs.containerPath()));
      dirty = false;
    } finally {
      lock.unlock();
    }
  }

  /** Forgets every change since the last commit. */
  void rollback() {
    lock.lock();
    try {
      fs.ensureOpen();
      fs.swap(fs.model().tags());
      dirty = false;
    } finally {
      lock.unlock();
    }
  }

  /** Releases the journal and the writer lock (the file system is closing). */
  void close() throws IOException {
    lock.lock();
    try {
      if (journal != null) {
        journal.close();
      }
    } finally {
      try {
        if (writer != null) {
          writer.close();
        }
      } finally {
        lock.unlock();
      }
    }
  }

  private Target target(ModelPath path) throws FileSystemException {
    return Target.of(fs.tags(), path.toAbsolutePath().normalize().names(), path.toString());
  }

  private Tag tag(String name, String path) throws NoSuchFileException {
    for (Tag t : fs.tags()) {
      if (t.name().equals(name)) {
        return t;
      }
    }
    throw new NoSuchFileException(path, null, "tag '" + name + "' no longer exists");
  }
}
