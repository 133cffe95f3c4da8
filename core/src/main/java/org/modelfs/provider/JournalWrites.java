package org.modelfs.provider;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.modelfs.format.TrainingJson;
import org.modelfs.io.ChannelSource;
import org.modelfs.io.StorageFullException;
import org.modelfs.model.ArrayData;
import org.modelfs.model.DType;
import org.modelfs.model.GraphRef;
import org.modelfs.model.Shapes;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.Variable;
import org.modelfs.tree.ArrayContent;
import org.modelfs.tree.Dir;
import org.modelfs.tree.FileNode;
import org.modelfs.tree.ModelTree;
import org.modelfs.tree.TagOverlay;

/**
 * Bytes written through a mount: a write channel streams into a new journal file; when it is
 * closed, the file becomes the content of the path it was opened on (an array with its dtype,
 * shape and order, updater state, a graph, metadata or training.json text). Runs under the
 * session's change lock ({@link ModelChanges}).
 */
final class JournalWrites {
  private final ModelChanges changes;
  private final ModelFileSystem fs;
  /**
   * Paths with a write channel open, by tag, area and name: a second write channel on the same
   * path shares the first one's journal file, as two descriptors of one POSIX file do, so both
   * writes land (guarded by the change lock).
   */
  private final Map<String, Shared> writing = new HashMap<>();

  private static final long MAX_TEXT_BYTES = 64L << 20;

  JournalWrites(ModelChanges changes) {
    this.changes = changes;
    this.fs = changes.fs();
  }

  FileChannel openForWrite(ModelPath path, OpenOptions options, ArrayAttributes attrs)
      throws IOException {
    changes.lock();
    try {
      changes.begin();
      ModelTree.Found found = fs.inTheWayOfFile(path);
      if (found == null) {
        Target.checkParents(fs, path);
      }
      if (found != null && found.node() instanceof Dir) {
        throw new FileSystemException(path.toString(), null, "is a directory");
      }
      if (found != null && options.createNew()) {
        throw new FileAlreadyExistsException(path.toString());
      }
      if (found == null && !options.create()
          && !options.createNew()) {
        throw new NoSuchFileException(path.toString());
      }
      // updater state may arrive before its parameter (a recursive copy in any order); a commit
      // checks that every state has its parameter
      Target t = changes.target(path);
      String key = t.tag().name() + '\0' + t.area() + '\0' + t.name() + '\0' + t.key();
      Shared shared = writing.get(key);
      Path data = shared != null ? shared.data : changes.journal().newFile(t.area().name().toLowerCase(Locale.ROOT), path.toString());
      // bytes are taken in the order the file shows (samediff:byteOrder); a new file is little-endian
      boolean shows = found != null && found.node() instanceof FileNode f
          && f.content() instanceof ArrayContent c && c.showsBigEndian();
      if (shared != null && shared.bigEndian != shows) {
        // a channel opened before a commit changed the order the file shows (byteOrder=stored):
        // one file cannot take bytes in two orders
        throw new FileSystemException(path.toString(), null, "a write channel opened before the last commit is"
            + " still open on this file and takes " + (shared.bigEndian ? "big" : "little") + "-endian elements,"
            + " but the file now shows them " + (shows ? "big" : "little") + "-endian (samediff:byteOrder); close"
            + " that channel first");
      }
      boolean bigEndian = shared != null ? shared.bigEndian : shows;
      FileChannel ch = openJournalFile(data, path.toString());
      try {
        if (shared != null) {
          // another write channel of this mount is open on the path: one file, two descriptors (POSIX)
          if (options.truncate()) {
            ch.truncate(0);
          }
          ch.position(options.append() ? ch.size() : 0);
        } else if (found != null && !options.truncate()) {
          try {
            copyContent((FileNode) found.node(), ch);
          } catch (IOException e) {
            // only a full device or size limit is explained; a read fault of the old content stays as it is
            throw StorageFullException.explain(e, data, "copying the current content of " + path
                + " into a new file of the " + changes.journal(), -1, -1);
          }
          ch.position(options.append() ? ch.size() : 0);
        }
      } catch (IOException | RuntimeException e) {
        ch.close();
        throw e;
      }
      Shared open = shared != null ? shared : new Shared(data, bigEndian);
      open.channels++;
      writing.put(key, open);
      String tagName = t.tag().name();
      try {
        return fs.resources().add(new JournalChannel(ch, options.read(), options.append(),
            (size, failure) -> closed(key, open, () -> {
              if (failure != null || open.failed != null) {
                open.failed = open.failed != null ? open.failed : failure;
                throw notInstalled(path.toString(), open.failed);
              }
              install(tagName, t, open, size, attrs, path.toString());
            }), fs.resources())
            .explaining(changes.journal(), data, "writing the journal file of " + path));
      } catch (RuntimeException e) {
        closed(key, open, () -> { });
        throw e;
      }
    } finally {
      changes.unlock();
    }
  }

  /**
   * The journal file that write channels open on one path of this mount share, how many are open,
   * and the one source the tree reads it through once installed.
   */
  private static final class Shared {
    final Path data;
    /** The bytes written are big-endian elements: the file showed its stored big-endian bytes. */
    final boolean bigEndian;
    int channels; // guarded by the change lock
    ChannelSource source; // guarded by the change lock
    boolean held; // guarded by the change lock: source held for the channels still writing
    IOException failed; // guarded by the change lock: a write into the file failed, nothing installs it

    Shared(Path data, boolean bigEndian) {
      this.data = data;
      this.bigEndian = bigEndian;
    }
  }

  /**
   * A channel whose write failed (a full device, a size limit, an I/O error) is closed: the file
   * keeps the content it had (docs/FILESYSTEM.md §7) — half-written bytes never become a model's.
   */
  private static IOException notInstalled(String path, IOException failure) {
    FileSystemException e = new FileSystemException(path, null, "a write into this file failed ("
        + failure.getMessage() + "); its new bytes were not installed: the file keeps its previous content");
    e.initCause(failure);
    return e;
  }

  /** What a closing channel does once it is counted out. */
  @FunctionalInterface
  private interface Step {
    void run() throws IOException;
  }

  /**
   * A write channel closed: it no longer shares the file; its content (both channels' bytes) is
   * installed. A journal file no source reads once its last channel closed (text, a refused
   * write) is deleted; one the tree reads is kept while other channels still write into it.
   */
  private void closed(String key, Shared open, Step install) throws IOException {
    changes.lock();
    try {
      boolean last = --open.channels == 0;
      if (last) {
        writing.remove(key, open);
      }
      try {
        install.run();
      } finally {
        if (!last && open.source != null && !open.held) {
          // channels still write into the file the tree now shows: it stays even if the path is deleted
          fs.journalSources().hold(open.source);
          open.held = true;
        } else if (last && open.held) {
          fs.journalSources().release(open.source);
        } else if (last && open.source == null && changes.journal() != null) {
          changes.journal().delete(open.data);
        }
      }
    } finally {
      changes.unlock();
    }
  }

  /** The one source the tree reads {@code open}'s journal file through. */
  private ChannelSource source(Shared open) throws IOException {
    if (open.source == null) {
      open.source = fs.journalSources().open(open.data);
    }
    return open.source;
  }

  /** Opens a journal file for a write channel; a failure names the journal file, the path and the model. */
  private FileChannel openJournalFile(Path data, String path) throws IOException {
    try {
      return FileChannel.open(data, StandardOpenOption.READ, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw changes.journal().failure(e, data, "opening the journal file of " + path, -1, -1);
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
  private void install(String tagName, Target t, Shared open, long size, ArrayAttributes attrs, String path)
      throws IOException {
    Path data = open.data;
    changes.lock();
    try {
      if (!fs.isOpen()) {
        throw new FileSystemException(path, null,
            "the file system was closed while this file was open for writing; its new bytes were not committed");
      }
      Tag tag = changes.tag(tagName, path);
      TagOverlay overlay = fs.overlay(tagName);
      switch (t.area()) {
        case PARAM -> {
          Variable v = tag.variable(t.name());
          ArrayData a = array(v == null ? null : v.array(), v == null ? null : v.dtype(),
              v == null ? null : v.shape(), open, size, attrs);
          tag = TagEdits.withArray(tag, t.name(), a, attrs.kind());
          overlay = overlay.withArea(ModelTree.PARAMS, true);
        }
        case UPDATER -> {
          UpdaterState state = tag.state(t.name());
          ArrayData old = state == null ? null : state.arrays().get(t.key());
          Variable v = tag.variable(t.name());
          ArrayData base = old != null ? old : v == null ? null : v.array();
          tag = TagEdits.withState(tag, t.name(), t.key(), array(base, null, null, open, size, attrs));
          overlay = overlay.withArea(ModelTree.UPDATER, true);
        }
        case GRAPH -> {
          tag = TagEdits.withGraph(tag, new GraphRef(source(open), 0, size, GraphRef.Convention.SDNB), path);
          overlay = overlay.withArea(ModelTree.GRAPH, true);
        }
        case GRAPH_JSON -> {
          boolean hadGraph = tag.graph() != null;
          Tag before = tag;
          tag = GraphJsonWrites.apply(tag, data, size, path, fs.container());
          if (tag == before) {
            // the graph it describes is the tag's: nothing to commit; graph.json exists from now on
            if (overlay.graphJsonAbsent()) {
              changes.show(tagName, overlay.withGraphJson(false));
            }
            return;
          }
          overlay = overlay.withGraphJson(false); // it shows the graph it made, as that renders (GRAPH.md §3.2)
          if (!hadGraph && tag.graph() != null) {
            overlay = overlay.withArea(ModelTree.GRAPH, false); // graph appears when written, or at the commit
          }
        }
        case METADATA -> {
          tag = TagEdits.withMetadata(tag, t.name(), text(data, size, path));
          overlay = overlay.withArea(ModelTree.METADATA, true);
        }
        case TRAINING -> {
          String json = text(data, size, path);
          List<String> problems = TrainingJson.problems(json);
          if (!problems.isEmpty()) {
            throw new FileSystemException(path, null, "DL4J could not read this training configuration: "
                + String.join("; ", problems));
          }
          tag = TagEdits.withTraining(tag, json);
        }
        default -> throw new AccessDeniedException(path);
      }
      changes.apply(tag, overlay);
    } finally {
      changes.unlock();
    }
  }

  /**
   * The array a written file holds: its bytes in the journal (big-endian when the file showed
   * big-endian bytes when it was opened for writing), the type, shape and order of the
   * array it replaces (or FLOAT, 1-D, c for a new one) unless attributes say otherwise; a 1-D
   * shape follows the new length.
   */
  private ArrayData array(ArrayData old, DType declared, long[] declaredShape, Shared open, long size,
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
    ChannelSource src = source(open);
    return new ArrayData(dtype, shape, order, size == 0, src, 0, size,
        open.bigEndian && dtype.width() > 1, ArrayData.Storage.JOURNAL); // one byte or text: no order
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
}
