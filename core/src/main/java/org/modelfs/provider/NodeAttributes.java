package org.modelfs.provider;

import java.io.IOException;
import java.nio.file.attribute.FileTime;
import java.util.LinkedHashMap;
import java.util.Map;
import org.modelfs.SamediffFileAttributes;
import org.modelfs.model.ArrayData;
import org.modelfs.tree.ArrayContent;
import org.modelfs.tree.Dir;
import org.modelfs.tree.FileNode;
import org.modelfs.tree.Node;

/**
 * A snapshot of one node's attributes: sizes from the index (never from array bytes), times
 * from the container file, and for array files what the array is.
 */
final class NodeAttributes implements SamediffFileAttributes {
  static final String[] BASIC = {
    "lastModifiedTime", "lastAccessTime", "creationTime", "size", "isRegularFile", "isDirectory",
    "isSymbolicLink", "isOther", "fileKey"
  };
  static final String[] SAMEDIFF = {"dtype", "shape", "order", "kind", "tag", "stored", "byteOrder"};

  private final Node node;
  private final ContainerTimes times;
  private final long size;
  private final ArrayData array;

  record ContainerTimes(FileTime modified, FileTime accessed, FileTime created) {}

  NodeAttributes(Node node, ContainerTimes times) throws IOException {
    this.node = node;
    this.times = times;
    this.size = node instanceof FileNode f ? f.content().size() : 0;
    this.array = node instanceof FileNode f ? f.array() : null;
  }

  @Override
  public FileTime lastModifiedTime() {
    return times.modified();
  }

  @Override
  public FileTime lastAccessTime() {
    return times.accessed();
  }

  @Override
  public FileTime creationTime() {
    return times.created();
  }

  @Override
  public boolean isRegularFile() {
    return node instanceof FileNode;
  }

  @Override
  public boolean isDirectory() {
    return node instanceof Dir;
  }

  @Override
  public boolean isSymbolicLink() {
    return false;
  }

  @Override
  public boolean isOther() {
    return false;
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public Object fileKey() {
    return node.fileKey();
  }

  @Override
  public String dtype() {
    return array == null ? null : array.dtype().nd4jName();
  }

  @Override
  public long[] shape() {
    return array == null ? null : array.shape();
  }

  @Override
  public String order() {
    return array == null ? null : String.valueOf(array.order());
  }

  @Override
  public String kind() {
    return node instanceof FileNode f ? f.kind() : null;
  }

  @Override
  public String tag() {
    return node.tag();
  }

  @Override
  public String stored() {
    return array == null ? null : array.storage().label();
  }

  @Override
  public String byteOrder() {
    return node instanceof FileNode f && f.content() instanceof ArrayContent c
        ? (c.showsBigEndian() ? "big" : "little") : null;
  }

  /** The value of one attribute by name, or {@code null} when this node has none. */
  Object get(String name) {
    return switch (name) {
      case "lastModifiedTime" -> lastModifiedTime();
      case "lastAccessTime" -> lastAccessTime();
      case "creationTime" -> creationTime();
      case "size" -> size();
      case "isRegularFile" -> isRegularFile();
      case "isDirectory" -> isDirectory();
      case "isSymbolicLink" -> isSymbolicLink();
      case "isOther" -> isOther();
      case "fileKey" -> fileKey();
      case "dtype" -> dtype();
      case "shape" -> shape();
      case "order" -> order();
      case "kind" -> kind();
      case "tag" -> tag();
      case "stored" -> stored();
      case "byteOrder" -> byteOrder();
      default -> throw new IllegalArgumentException("unknown attribute '" + name + "'");
    };
  }

  /**
   * The attributes named by {@code list} ({@code *} or comma-separated names) of {@code view}
   * ({@code basic} or {@code samediff}, which includes the basic ones), leaving out those this
   * node does not have.
   */
  Map<String, Object> toMap(String view, String list) {
    boolean samediff = view.equals("samediff");
    Map<String, Object> out = new LinkedHashMap<>();
    for (String name : list.split(",", -1)) {
      name = name.trim();
      if (name.equals("*")) {
        for (String n : BASIC) {
          put(out, n);
        }
        if (samediff) {
          for (String n : SAMEDIFF) {
            put(out, n);
          }
        }
      } else if (contains(BASIC, name) || samediff && contains(SAMEDIFF, name)) {
        put(out, name);
      } else {
        throw new IllegalArgumentException("'" + name + "' is not an attribute of the " + view + " view");
      }
    }
    return out;
  }

  private void put(Map<String, Object> out, String name) {
    Object v = get(name);
    if (v != null) {
      out.put(name, v);
    }
  }

  private static boolean contains(String[] names, String name) {
    for (String n : names) {
      if (n.equals(name)) {
        return true;
      }
    }
    return false;
  }
}
