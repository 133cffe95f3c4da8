package org.modelfs.azure;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A path in one container: '/'-separated names, absolute when it starts with '/' (the container's
 * top). Purely lexical, as a locator: nothing here asks the service. The blob a path names is
 * its absolute form without the leading '/' ({@link #key}).
 */
final class BlobPath implements Path {
  private final BlobFileSystem fs;
  private final boolean absolute;
  private final List<String> names;

  BlobPath(BlobFileSystem fs, String path) {
    this(fs, path.startsWith("/"), Arrays.stream(path.split("/+")).filter(s -> !s.isEmpty()).toList());
  }

  private BlobPath(BlobFileSystem fs, boolean absolute, List<String> names) {
    this.fs = fs;
    this.absolute = absolute;
    this.names = List.copyOf(names);
  }

  /** The blob's name in its container: the absolute path without its leading '/'. */
  String key() {
    return String.join("/", names);
  }

  @Override
  public BlobFileSystem getFileSystem() {
    return fs;
  }

  @Override
  public boolean isAbsolute() {
    return absolute;
  }

  @Override
  public Path getRoot() {
    return absolute ? new BlobPath(fs, true, List.of()) : null;
  }

  @Override
  public Path getFileName() {
    return names.isEmpty() ? null : new BlobPath(fs, false, List.of(names.get(names.size() - 1)));
  }

  @Override
  public Path getParent() {
    if (names.isEmpty() || names.size() == 1 && !absolute) {
      return null;
    }
    return new BlobPath(fs, absolute, names.subList(0, names.size() - 1));
  }

  @Override
  public int getNameCount() {
    return names.size();
  }

  @Override
  public Path getName(int index) {
    return new BlobPath(fs, false, List.of(names.get(index)));
  }

  @Override
  public Path subpath(int beginIndex, int endIndex) {
    return new BlobPath(fs, false, names.subList(beginIndex, endIndex));
  }

  @Override
  public boolean startsWith(Path other) {
    BlobPath o = of(other);
    return o.absolute == absolute && o.names.size() <= names.size() && names.subList(0, o.names.size()).equals(o.names);
  }

  @Override
  public boolean endsWith(Path other) {
    BlobPath o = of(other);
    if (o.absolute) {
      return equals(o);
    }
    return o.names.size() <= names.size() && names.subList(names.size() - o.names.size(), names.size()).equals(o.names);
  }

  @Override
  public Path normalize() {
    List<String> out = new ArrayList<>();
    for (String n : names) {
      if (n.equals(".")) {
        continue;
      }
      if (n.equals("..") && !out.isEmpty() && !out.get(out.size() - 1).equals("..")) {
        out.remove(out.size() - 1);
      } else if (!(n.equals("..") && absolute)) {
        out.add(n);
      }
    }
    return new BlobPath(fs, absolute, out);
  }

  @Override
  public Path resolve(Path other) {
    BlobPath o = of(other);
    if (o.absolute) {
      return o;
    }
    List<String> all = new ArrayList<>(names);
    all.addAll(o.names);
    return new BlobPath(fs, absolute, all);
  }

  @Override
  public Path resolve(String other) {
    return resolve(new BlobPath(fs, other));
  }

  @Override
  public Path relativize(Path other) {
    BlobPath o = of(other);
    if (o.absolute != absolute) {
      throw new IllegalArgumentException("'" + other + "' and '" + this + "': one is absolute, the other not");
    }
    int common = 0;
    while (common < names.size() && common < o.names.size() && names.get(common).equals(o.names.get(common))) {
      common++;
    }
    List<String> out = new ArrayList<>();
    for (int i = common; i < names.size(); i++) {
      out.add("..");
    }
    out.addAll(o.names.subList(common, o.names.size()));
    return new BlobPath(fs, false, out);
  }

  /** {@code azb://container/key}, the key's characters percent-encoded where a URI needs it. */
  @Override
  public URI toUri() {
    try {
      return new URI(BlobFileSystemProvider.SCHEME, fs.container(), "/" + key(), null);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public BlobPath toAbsolutePath() {
    return absolute ? this : new BlobPath(fs, true, names);
  }

  @Override
  public Path toRealPath(LinkOption... options) {
    return toAbsolutePath().normalize();
  }

  @Override
  public WatchKey register(WatchService watcher, WatchEvent.Kind<?>[] events, WatchEvent.Modifier... modifiers) {
    throw new UnsupportedOperationException("Blob Storage has no change notifications");
  }

  @Override
  public int compareTo(Path other) {
    return toString().compareTo(of(other).toString());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BlobPath p && p.fs == fs && p.absolute == absolute && p.names.equals(names);
  }

  @Override
  public int hashCode() {
    return fs.hashCode() * 31 + names.hashCode() * 2 + (absolute ? 1 : 0);
  }

  @Override
  public String toString() {
    return (absolute ? "/" : "") + key();
  }

  private BlobPath of(Path other) {
    if (!(other instanceof BlobPath p) || p.fs != fs) {
      throw new ProviderMismatchException(other + " is not a path of " + fs);
    }
    return p;
  }
}
