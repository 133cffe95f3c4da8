package org.modelfs.tree;

import org.modelfs.model.ArrayData;

/**
 * A regular file of the tree: its content and, for array files, what the array is.
 *
 * @param tag the tag it belongs to
 * @param content its bytes
 * @param kind {@code VARIABLE}/{@code CONSTANT}/{@code PLACEHOLDER}/{@code UPDATER} for array
 *     files, {@code null} for the others
 * @param key what identifies a file that is not an array across lookups (its canonical path),
 *     or {@code null} for a node made once per tree
 */
public record FileNode(String tag, Content content, String kind, Object key) implements Node {

  /** A file made once per tree (or an array file, identified by its array). */
  public FileNode(String tag, Content content, String kind) {
    this(tag, content, kind, null);
  }

  /** The array behind this file, or {@code null}. */
  public ArrayData array() {
    return content instanceof ArrayContent a ? a.array() : null;
  }

  @Override
  public Object fileKey() {
    ArrayData a = array();
    if (a == null) {
      return key == null ? this : key;
    }
    // a byte range of no bytes says nothing about which array it is: two empty parameters are two
    // files (Files.isSameFile false, a no-clobber copy between them refused), a link shares the array
    return new ArrayKey(a.length() == 0 ? a : a.source(), a.offset(), a.length());
  }

  /** Identifies a stored array: its source (by identity) and byte range. */
  record ArrayKey(Object source, long offset, long length) {
    @Override
    public boolean equals(Object o) {
      return o instanceof ArrayKey k && k.source == source && k.offset == offset && k.length == length;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(source) * 31 + Long.hashCode(offset);
    }

    @Override
    public String toString() {
      return "array@" + offset + "+" + length;
    }
  }
}
