package org.modelfs.provider;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.modelfs.tree.ModelTree;
import org.modelfs.tree.NameMapping;

/**
 * A path of a mounted model: names separated by {@code /} under the single root {@code /}, kept
 * normalized ({@code //} collapsed, no trailing {@code /}) with the semantics of
 * {@code sun.nio.fs.UnixPath}, backslashes and percent escapes being ordinary characters. Every
 * method is syntax that works on a closed file system too; only {@link #toUri()} and
 * {@link #toRealPath} ask the file system.
 */
final class ModelPath implements Path {
  private static final String[] NO_NAMES = {};
  /** The names of the empty path: like UnixPath, it has one name, the empty one. */
  private static final String[] EMPTY_PATH_NAMES = {""};

  private final ModelFileSystem fs;
  /** The normalized string form. */
  private final String path;
  /** The name elements: none for the root, {@code [""]} for the empty path, else non-empty. */
  private final String[] names;
  /**
   * Where a path a directory stream made was found ({@link #lookupIn}): written racily on
   * purpose — an immutable holder, so a reader sees a whole answer or none.
   */
  private Listed found;

  /**
   * What a path a listing gave names in one tree: its directory and its name in that listing,
   * then the node once looked up. Never kept on a path the caller made, so an old tree is held
   * only by the paths of a listing of it.
   */
  private record Listed(ModelTree tree, ModelTree.Found dir, String name, ModelTree.Found node) {}

  /**
   * Parses {@code path}: collapses repeated {@code /} and drops a trailing one.
   *
   * @throws InvalidPathException if {@code path} contains a NUL character, or a name element
   *     that stands for no name (docs/FILESYSTEM.md §2)
   */
  ModelPath(ModelFileSystem fs, String path) {
    this(fs, path.startsWith("/"), split(path));
  }

  /** A path of the given names, which must be non-empty strings (or the empty path's). */
  private ModelPath(ModelFileSystem fs, boolean absolute, String[] names) {
    this.fs = fs;
    this.names = absolute || names.length > 0 ? names : EMPTY_PATH_NAMES;
    this.path = absolute ? "/" + String.join("/", names) : String.join("/", this.names);
  }

  /** A path of {@code names} whose string form {@code path} the caller has joined already. */
  private ModelPath(ModelFileSystem fs, String[] names, String path) {
    this.fs = fs;
    this.names = names;
    this.path = path;
  }

  private static String[] split(String path) {
    int nul = path.indexOf('\0');
    if (nul >= 0) {
      throw new InvalidPathException(path, "NUL character not allowed", nul);
    }
    List<String> names = new ArrayList<>();
    int at = 0;
    for (String name : path.split("/", -1)) {
      if (!name.isEmpty()) {
        checkName(path, name, at);
        names.add(name);
      }
      at += name.length() + 1;
    }
    return names.toArray(NO_NAMES);
  }

  /**
   * Refuses a name element that stands for no name (docs/FILESYSTEM.md §2): an unpaired
   * surrogate, a {@code %} not followed by two ASCII hex digits, escaped bytes that are not UTF-8.
   */
  private static void checkName(String path, String name, int at) {
    try {
      NameMapping.decode(name);
    } catch (InvalidPathException e) {
      throw new InvalidPathException(path, e.getReason() + " (in '" + name + "')", at + Math.max(0, e.getIndex()));
    }
  }

  /**
   * Returns {@code p} as a path of this provider.
   *
   * @throws NullPointerException if {@code p} is null
   * @throws ProviderMismatchException if {@code p} belongs to another provider
   */
  static ModelPath check(Path p) {
    if (Objects.requireNonNull(p, "path") instanceof ModelPath mp) {
      return mp;
    }
    throw new ProviderMismatchException(
        "not a samediff path: " + p + " (" + p.getClass().getName() + ")");
  }

  /**
   * The name elements as strings, root first. Empty for the root and for the empty path (whose
   * single {@link #getName name} is the empty string): neither names an entry below the root.
   */
  List<String> names() {
    return isEmpty() ? List.of() : List.of(names);
  }

  /**
   * The node this path names in {@code tree}, or {@code null}. A path a listing of {@code tree}
   * gave ({@link #entry}) is found from its directory, once (the walker's and the caller's
   * {@code readAttributes} then cost no lookup); any other path, or a listing of an older tree,
   * is looked up from the root.
   */
  ModelTree.Found lookupIn(ModelTree tree) {
    Listed f = found;
    if (f != null && f.tree == tree) {
      if (f.node != null) {
        return f.node;
      }
      ModelTree.Found n = f.dir.child(f.name);
      if (n != null) {
        found = new Listed(tree, null, null, n);
      }
      return n;
    }
    return tree.lookup(toAbsolutePath().normalize().names());
  }

  /**
   * The path of entry {@code name} of this directory as a listing of {@code tree} gave it, where
   * {@code dir} is this path's node in {@code tree}: looked up from {@code dir} when asked.
   */
  ModelPath entry(String name, ModelTree tree, ModelTree.Found dir) {
    ModelPath p = resolve(name);
    if (name.indexOf('/') < 0 && !name.isEmpty() && p != this) {
      p.found = new Listed(tree, dir, name, null);
    }
    return p;
  }

  private boolean isEmpty() {
    return path.isEmpty();
  }

  /**
   * {@code other} as a path of this file system: the same path if it already is one. Paths of
   * another mount are taken as syntax, so that a tree can be copied between two mounts with
   * {@code target.resolve(source.relativize(file))}.
   */
  private ModelPath rebind(ModelPath other) {
    return other.fs == fs ? other : new ModelPath(fs, other.isAbsolute(), other.names);
  }

  private ModelPath relative(int begin, int end) {
    return new ModelPath(fs, false, Arrays.copyOfRange(names, begin, end));
  }

  @Override
  public ModelFileSystem getFileSystem() {
    return fs;
  }

  @Override
  public boolean isAbsolute() {
    return path.startsWith("/");
  }

  @Override
  public ModelPath getRoot() {
    return isAbsolute() ? new ModelPath(fs, true, NO_NAMES) : null;
  }

  /** The last name; the empty path's file name is the empty path, as in UnixPath. */
  @Override
  public ModelPath getFileName() {
    if (names.length == 0) {
      return null;
    }
    return names.length == 1 && !isAbsolute() ? this : relative(names.length - 1, names.length);
  }

  @Override
  public ModelPath getParent() {
    int n = names.length;
    if (n == 0 || n == 1 && !isAbsolute()) {
      return null;
    }
    return new ModelPath(fs, isAbsolute(), Arrays.copyOf(names, n - 1));
  }

  @Override
  public int getNameCount() {
    return names.length;
  }

  @Override
  public ModelPath getName(int index) {
    if (index < 0 || index >= names.length) {
      throw new IllegalArgumentException("name " + index + " of '" + path + "', which has "
          + names.length + " names");
    }
    return relative(index, index + 1);
  }

  @Override
  public ModelPath subpath(int beginIndex, int endIndex) {
    if (beginIndex < 0 || endIndex > names.length || beginIndex >= endIndex) {
      throw new IllegalArgumentException("subpath(" + beginIndex + ", " + endIndex + ") of '"
          + path + "', which has " + names.length + " names");
    }
    return relative(beginIndex, endIndex);
  }

  /**
   * Whole-name prefix test; false for a path of another file system, as {@link Path} specifies
   * (zipfs compares the strings whatever their file system).
   */
  @Override
  public boolean startsWith(Path other) {
    if (!(Objects.requireNonNull(other, "other") instanceof ModelPath o) || o.fs != fs
        || o.isAbsolute() != isAbsolute() || o.names.length > names.length) {
      return false;
    }
    return Arrays.equals(names, 0, o.names.length, o.names, 0, o.names.length);
  }

  /** Parses {@code other} without {@link ModelFileSystem#getPath}, which may refuse once closed. */
  @Override
  public boolean startsWith(String other) {
    return startsWith(new ModelPath(fs, other));
  }

  /**
   * Whole-name suffix test: an absolute {@code other} must equal this path; false for a path of
   * another file system.
   */
  @Override
  public boolean endsWith(Path other) {
    if (!(Objects.requireNonNull(other, "other") instanceof ModelPath o) || o.fs != fs) {
      return false;
    }
    if (o.isAbsolute()) {
      return isAbsolute() && Arrays.equals(names, o.names);
    }
    int n = names.length;
    int k = o.names.length;
    return k <= n && Arrays.equals(names, n - k, n, o.names, 0, k);
  }

  @Override
  public boolean endsWith(String other) {
    return endsWith(new ModelPath(fs, other));
  }

  /**
   * Drops {@code .} names and each name followed by {@code ..}; a {@code ..} at the start of an
   * absolute path is dropped ({@code /..} is {@code /}), of a relative path kept.
   */
  @Override
  public ModelPath normalize() {
    if (!hasDots()) {
      return this;
    }
    String[] kept = new String[names.length];
    int k = 0;
    for (String name : names) {
      if (name.equals(".")) {
        continue;
      }
      if (name.equals("..")) {
        if (k > 0 && !kept[k - 1].equals("..")) {
          k--;
          continue;
        }
        if (isAbsolute()) {
          continue;
        }
      }
      kept[k++] = name;
    }
    // every change removes a name, so an unchanged count means an unchanged path
    return k == names.length ? this : new ModelPath(fs, isAbsolute(), Arrays.copyOf(kept, k));
  }

  private boolean hasDots() {
    for (String name : names) {
      if (name.equals(".") || name.equals("..")) {
        return true;
      }
    }
    return false;
  }

  /** An absolute or empty-based result is {@code other}, rebound to this file system. */
  @Override
  public ModelPath resolve(Path other) {
    ModelPath o = check(other);
    if (o.isEmpty()) {
      return this;
    }
    if (o.isAbsolute() || isEmpty()) {
      return rebind(o);
    }
    String[] joined = Arrays.copyOf(names, names.length + o.names.length);
    System.arraycopy(o.names, 0, joined, names.length, o.names.length);
    return new ModelPath(fs, isAbsolute(), joined);
  }

  /**
   * As {@code resolve(getFileSystem().getPath(other))}; a single name (what a directory stream
   * resolves for every entry) is checked the same way but joined without parsing the path again.
   */
  @Override
  public ModelPath resolve(String other) {
    if (isEmpty() || other.isEmpty() || other.indexOf('/') >= 0 || other.indexOf('\0') >= 0) {
      return resolve(new ModelPath(fs, other));
    }
    checkName(other, other, 0);
    String[] joined = Arrays.copyOf(names, names.length + 1);
    joined[names.length] = other;
    return new ModelPath(fs, joined, names.length == 0 ? "/" + other : path + "/" + other);
  }

  /**
   * {@code getParent().resolve(other)}, or {@code other} without a parent; unlike the JDK's
   * default, a path of another provider is refused even when this path has no parent.
   */
  @Override
  public ModelPath resolveSibling(Path other) {
    ModelPath o = check(other);
    ModelPath parent = getParent();
    return parent == null ? rebind(o) : parent.resolve(o);
  }

  @Override
  public ModelPath resolveSibling(String other) {
    return resolveSibling(new ModelPath(fs, other));
  }

  /**
   * The relative path from this path to {@code other}, as UnixPath computes it: both are
   * normalized first, and the result climbs with {@code ..} out of the names they do not share.
   * The empty path relativizes to {@code other} unchanged (rebound to this file system).
   *
   * @throws IllegalArgumentException if one path is absolute and the other not, or if this path
   *     would have to climb out of a leading {@code ..} (as in {@code ".."} to {@code "a"})
   */
  @Override
  public ModelPath relativize(Path other) {
    ModelPath o = check(other);
    if (isAbsolute() != o.isAbsolute()) {
      throw new IllegalArgumentException("cannot relativize '" + o + "' against '" + this
          + "': only one of them is absolute");
    }
    if (isEmpty()) {
      return rebind(o);
    }
    List<String> from = normalize().names();
    List<String> to = o.normalize().names();
    int common = 0;
    while (common < from.size() && common < to.size()
        && from.get(common).equals(to.get(common))) {
      common++;
    }
    List<String> climbed = from.subList(common, from.size());
    if (climbed.contains("..")) {
      throw new IllegalArgumentException("cannot relativize '" + o + "' against '" + this
          + "': it would climb out of '..'");
    }
    List<String> result = new ArrayList<>();
    climbed.forEach(name -> result.add(".."));
    result.addAll(to.subList(common, to.size()));
    return new ModelPath(fs, false, result.toArray(NO_NAMES));
  }

  /** Relative paths are resolved against the root; the empty path becomes {@code /}. */
  @Override
  public ModelPath toAbsolutePath() {
    return isAbsolute() ? this : new ModelPath(fs, true, isEmpty() ? NO_NAMES : names);
  }

  @Override
  public URI toUri() {
    return fs.uriOf(toAbsolutePath().normalize().toString());
  }

  /** The file system's spelling of this existing file; there are no links, so options are moot. */
  @Override
  public ModelPath toRealPath(LinkOption... options) throws IOException {
    return fs.realPath(toAbsolutePath().normalize());
  }

  @Override
  public File toFile() {
    throw new UnsupportedOperationException("a samediff path has no java.io.File: " + path);
  }

  /** Always refused: the file system has no watch service. */
  @Override
  public WatchKey register(
      WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers) {
    Objects.requireNonNull(watcher, "watcher");
    throw new UnsupportedOperationException("samediff paths cannot be watched");
  }

  /**
   * Orders by {@link String#compareTo}: UTF-16 char order, which differs from UnixPath's and
   * zipfs's UTF-8 byte order only between supplementary characters and {@code U+E000..U+FFFF}.
   *
   * @throws ClassCastException if {@code other} is a path of another provider, as {@link Path}
   *     specifies (zipfs throws ProviderMismatchException)
   */
  @Override
  public int compareTo(Path other) {
    return path.compareTo(((ModelPath) other).path);
  }

  /** Equal when of the same file system instance and of the same normalized string. */
  @Override
  public boolean equals(Object obj) {
    return obj instanceof ModelPath p && p.fs == fs && p.path.equals(path);
  }

  @Override
  public int hashCode() {
    return path.hashCode();
  }

  @Override
  public String toString() {
    return path;
  }
}
