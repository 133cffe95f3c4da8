package org.modelfs.provider;

import java.io.IOException;
import java.nio.file.ClosedDirectoryStreamException;
import java.nio.file.DirectoryIteratorException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.LinkOption;
import java.nio.file.NotDirectoryException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.Function;
import org.modelfs.tree.Dir;

/**
 * The entries of one directory of a mounted model, from a snapshot of its names taken when the
 * stream is opened; one iterator per stream, as the {@link DirectoryStream} contract says.
 *
 * <p>It is a {@link SecureDirectoryStream} (what Guava's {@code MoreFiles.deleteRecursively}
 * and other careful tools look for): its operations take paths relative to the directory. A
 * model's tree changes only through its own mount — no other process or mount can rename a
 * directory under it — so they resolve against the directory's path; the one race left is
 * another thread of the same mount moving the directory meanwhile (docs/FILESYSTEM.md §5).
 * There are no links to follow, so {@code LinkOption}s change nothing.
 */
final class ModelDirectoryStream implements SecureDirectoryStream<Path> {
  private final ModelPath dir;
  private final List<String> names;
  /** The path of an entry, by its name: found from this directory when looked up. */
  private final Function<String, ModelPath> entry;
  private final Filter<? super Path> filter;
  private final OpenResources resources;
  private volatile boolean closed;
  private boolean iterated;

  ModelDirectoryStream(ModelPath dir, List<String> names, Function<String, ModelPath> entry,
      Filter<? super Path> filter, OpenResources resources) {
    this.dir = dir;
    this.names = List.copyOf(names);
    this.entry = entry;
    this.filter = filter;
    this.resources = resources;
  }

  @Override
  public synchronized Iterator<Path> iterator() {
    if (closed) {
      throw new ClosedDirectoryStreamException();
    }
    if (iterated) {
      throw new IllegalStateException("iterator() was already called on this directory stream");
    }
    iterated = true;
    return new Iterator<>() {
      private int next;
      private Path ahead;

      @Override
      public boolean hasNext() {
        while (ahead == null && !closed && next < names.size()) {
          Path p = entry.apply(names.get(next++));
          try {
            if (filter == null || filter.accept(p)) {
              ahead = p;
            }
          } catch (IOException e) {
            throw new DirectoryIteratorException(e);
          }
        }
        return ahead != null;
      }

      @Override
      public Path next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        Path p = ahead;
        ahead = null;
        return p;
      }
    };
  }

  @Override
  public void close() {
    closed = true;
    resources.remove(this);
  }

  /** {@code path} resolved against this directory (an absolute path stays as it is). */
  private ModelPath resolve(Path path) {
    if (closed) {
      throw new ClosedDirectoryStreamException();
    }
    ModelPath p = ModelPath.check(path);
    return p.isAbsolute() ? p : dir.resolve(p);
  }

  @Override
  public SecureDirectoryStream<Path> newDirectoryStream(Path path, LinkOption... options) throws IOException {
    ModelPath p = resolve(path);
    return (SecureDirectoryStream<Path>) p.getFileSystem().newDirectoryStream(p, null);
  }

  @Override
  public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
      throws IOException {
    ModelPath p = resolve(path);
    return p.getFileSystem().provider().newByteChannel(p, options, attrs);
  }

  @Override
  public void deleteFile(Path path) throws IOException {
    ModelPath p = resolve(path);
    if (p.getFileSystem().find(p).node() instanceof Dir) {
      throw new FileSystemException(p.toString(), null, "is a directory");
    }
    p.getFileSystem().edits().delete(p);
  }

  @Override
  public void deleteDirectory(Path path) throws IOException {
    ModelPath p = resolve(path);
    if (!(p.getFileSystem().find(p).node() instanceof Dir)) {
      throw new NotDirectoryException(p.toString());
    }
    p.getFileSystem().edits().delete(p);
  }

  @Override
  public void move(Path srcpath, SecureDirectoryStream<Path> targetdir, Path targetpath) throws IOException {
    if (!(targetdir instanceof ModelDirectoryStream other)) {
      throw new ProviderMismatchException("the target directory stream is not of a mounted model");
    }
    ModelPath s = resolve(srcpath);
    ModelPath t = other.resolve(targetpath);
    s.getFileSystem().provider().move(s, t);
  }

  @Override
  public <V extends FileAttributeView> V getFileAttributeView(Class<V> type) {
    return dir.getFileSystem().provider().getFileAttributeView(dir, type);
  }

  @Override
  public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
    ModelPath p = resolve(path);
    return p.getFileSystem().provider().getFileAttributeView(p, type, options);
  }
}
