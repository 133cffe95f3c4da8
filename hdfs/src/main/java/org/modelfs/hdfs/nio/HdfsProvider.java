package org.modelfs.hdfs.nio;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.FileTime;
import java.nio.file.spi.FileSystemProvider;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * A minimal NIO provider for {@code hdfs://} URIs, so that {@code Path.of(URI)} (the CLI) and
 * {@code FileSystems.newFileSystem} (a library user) name files in HDFS — a locator for the
 * modelfs-hdfs backing ({@code org.modelfs.hdfs.HdfsBacking}), which reads and commits models
 * through Hadoop's own API. What it does: path syntax, {@code toUri}, basic attributes (file key:
 * the inode id), existence checks, read-only channels (positional reads), directory listings,
 * {@code createDirectory}, {@code delete}, {@code move} (an atomic rename, replacing only with
 * {@code REPLACE_EXISTING}). What it does not: writing a file through a channel, copy, links,
 * permissions ({@code checkAccess} checks existence only), file stores, watching, and the
 * {@code posix} view. One file system per authority, made by {@code getPath(URI)} on first use.
 */
public final class HdfsProvider extends FileSystemProvider {
  private final Map<String, HdfsFileSystem> systems = new ConcurrentHashMap<>();

  @Override
  public String getScheme() {
    return "hdfs";
  }

  private static String key(URI uri) {
    if (!"hdfs".equalsIgnoreCase(uri.getScheme())) {
      throw new IllegalArgumentException(uri + ": not an hdfs:// URI");
    }
    return uri.getRawAuthority() == null ? "" : uri.getRawAuthority();
  }

  @Override
  public HdfsFileSystem newFileSystem(URI uri, Map<String, ?> env) throws IOException {
    String key = key(uri);
    synchronized (systems) {
      if (systems.containsKey(key)) {
        throw new FileSystemAlreadyExistsException(uri.toString());
      }
      HdfsFileSystem fs = new HdfsFileSystem(this, uri, env);
      systems.put(key, fs);
      return fs;
    }
  }

  @Override
  public HdfsFileSystem getFileSystem(URI uri) {
    HdfsFileSystem fs = systems.get(key(uri));
    if (fs == null) {
      throw new FileSystemNotFoundException(uri.toString());
    }
    return fs;
  }

  void closed(HdfsFileSystem fs) {
    systems.remove(fs.authority(), fs);
  }

  /** The path {@code uri} names; its file system is made (with Hadoop's configuration) if there is none. */
  @Override
  public HdfsPath getPath(URI uri) {
    String key = key(uri);
    HdfsFileSystem fs = systems.get(key);
    if (fs == null) {
      synchronized (systems) {
        fs = systems.get(key);
        if (fs == null) {
          try {
            fs = newFileSystem(uri, Map.of());
          } catch (IOException e) {
            throw new FileSystemNotFoundException(uri + ": " + HdfsErrors.firstLine(e));
          }
        }
      }
    }
    String path = uri.getPath() == null || uri.getPath().isEmpty() ? "/" : uri.getPath();
    return fs.getPath(path);
  }

  private static HdfsPath hdfs(Path p) {
    if (!(p instanceof HdfsPath h)) {
      throw new ProviderMismatchException(p + " is not an hdfs:// path");
    }
    return h;
  }

  private static FileSystem client(HdfsPath p) {
    return p.getFileSystem().hadoop();
  }

  private static FileStatus status(HdfsPath p) throws IOException {
    try {
      return client(p).getFileStatus(p.hadoop());
    } catch (IOException e) {
      throw HdfsErrors.nio(e, p.toUri().toString(), "reading its status");
    } catch (IllegalArgumentException e) {
      // a name HDFS cannot hold ("… is not a valid DFS filename": a ':' in a segment, as in the
      // CLI's MODEL:PATH) names no file: Files.exists and the CLI's "is this a model?" say no
      throw new NoSuchFileException(p.toUri().toString(), null, "HDFS holds no file of this name ("
          + e.getMessage() + ")");
    }
  }

  @Override
  public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
      throws IOException {
    HdfsPath p = hdfs(path);
    for (OpenOption o : options) {
      if (o != StandardOpenOption.READ && o != LinkOption.NOFOLLOW_LINKS) {
        throw new UnsupportedOperationException(p.toUri() + ": the hdfs:// provider of modelfs-hdfs opens files for"
            + " reading only (" + o + "); models are written by their mount's commit");
      }
    }
    FileStatus s = status(p);
    if (s.isDirectory()) {
      throw new FileSystemException(p.toUri().toString(), null, "is a directory");
    }
    try {
      return new HdfsReadChannel(client(p).open(p.hadoop()), s.getLen(), p.toUri().toString());
    } catch (IOException e) {
      throw HdfsErrors.nio(e, p.toUri().toString(), "opening it");
    }
  }

  @Override
  public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter)
      throws IOException {
    HdfsPath p = hdfs(dir);
    List<Path> out = new ArrayList<>();
    FileStatus[] list;
    try {
      list = client(p).listStatus(p.hadoop());
    } catch (IOException e) {
      throw HdfsErrors.nio(e, p.toUri().toString(), "listing it");
    }
    if (list.length == 1 && status(p).isFile()) {
      throw new NotDirectoryException(p.toUri().toString());
    }
    for (FileStatus s : list) {
      Path child = p.resolve(s.getPath().getName());
      if (filter.accept(child)) {
        out.add(child);
      }
    }
    return new DirectoryStream<>() {
      @Override public Iterator<Path> iterator() { return out.iterator(); }
      @Override public void close() {}
    };
  }

  @Override
  public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
    HdfsPath p = hdfs(dir);
    try {
      p.getFileSystem().context().mkdir(p.hadoop(), FsPermission.getDirDefault(), false);
    } catch (IOException e) {
      throw HdfsErrors.nio(e, p.toUri().toString(), "creating the directory");
    }
  }

  @Override
  public void delete(Path path) throws IOException {
    HdfsPath p = hdfs(path);
    try {
      if (!client(p).delete(p.hadoop(), false)) {
        throw new NoSuchFileException(p.toUri().toString());
      }
    } catch (NoSuchFileException e) {
      throw e;
    } catch (IOException e) {
      throw HdfsErrors.nio(e, p.toUri().toString(), "deleting it");
    }
  }

  @Override
  public void copy(Path source, Path target, CopyOption... options) {
    throw new UnsupportedOperationException(source + ": the hdfs:// provider of modelfs-hdfs does not copy files");
  }

  @Override
  public void move(Path source, Path target, CopyOption... options) throws IOException {
    HdfsPath from = hdfs(source);
    HdfsPath to = hdfs(target);
    boolean replace = List.of(options).contains(StandardCopyOption.REPLACE_EXISTING);
    try {
      from.getFileSystem().context().rename(from.hadoop(), to.hadoop(),
          replace ? Options.Rename.OVERWRITE : Options.Rename.NONE);
    } catch (IOException e) {
      throw HdfsErrors.nio(e, from.toUri().toString(), "renaming it to " + to.toUri());
    }
  }

  @Override
  public boolean isSameFile(Path path, Path path2) throws IOException {
    return path.equals(path2) || path2 instanceof HdfsPath && hdfs(path).toAbsolutePath().normalize()
        .equals(hdfs(path2).toAbsolutePath().normalize());
  }

  @Override
  public boolean isHidden(Path path) {
    Path name = path.getFileName();
    return name != null && name.toString().startsWith(".");
  }

  @Override
  public FileStore getFileStore(Path path) {
    throw new UnsupportedOperationException("hdfs:// paths have no file store");
  }

  /** Checks that the file exists; permissions are left to the NameNode's answer when the file is used. */
  @Override
  public void checkAccess(Path path, AccessMode... modes) throws IOException {
    status(hdfs(path));
  }

  @Override
  @SuppressWarnings("unchecked")
  public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
    if (type != BasicFileAttributeView.class) {
      return null;
    }
    HdfsPath p = hdfs(path);
    return (V) new BasicFileAttributeView() {
      @Override public String name() { return "basic"; }
      @Override public BasicFileAttributes readAttributes() throws IOException { return new HdfsAttributes(status(p)); }
      @Override public void setTimes(FileTime modified, FileTime access, FileTime create) throws IOException {
        try {
          client(p).setTimes(p.hadoop(), modified == null ? -1 : modified.toMillis(), access == null ? -1 : access.toMillis());
        } catch (IOException e) {
          throw HdfsErrors.nio(e, p.toUri().toString(), "setting its times");
        }
      }
    };
  }

  @Override
  @SuppressWarnings("unchecked")
  public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
      throws IOException {
    if (type != BasicFileAttributes.class) {
      throw new UnsupportedOperationException("hdfs:// paths have the basic attributes only, not " + type.getName());
    }
    return (A) new HdfsAttributes(status(hdfs(path)));
  }

  @Override
  public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options) throws IOException {
    String names = attributes.startsWith("basic:") ? attributes.substring(6) : attributes;
    if (names.contains(":")) {
      throw new UnsupportedOperationException("hdfs:// paths have the basic view only: " + attributes);
    }
    return new HdfsAttributes(status(hdfs(path))).map(names);
  }

  @Override
  public void setAttribute(Path path, String attribute, Object value, LinkOption... options) {
    throw new UnsupportedOperationException("hdfs:// paths take no attribute changes: " + attribute);
  }
}
