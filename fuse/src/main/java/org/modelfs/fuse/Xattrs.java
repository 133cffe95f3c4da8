package org.modelfs.fuse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.modelfs.SamediffFileAttributeView;
import org.modelfs.SamediffFileAttributes;

/**
 * The {@code samediff} attribute view as extended attributes (docs/MOUNT.md "Extended
 * attributes"): {@code user.samediff.dtype}, {@code .shape} ({@code [2, 3]}), {@code .order},
 * {@code .kind}, {@code .byteOrder}, {@code .stored}, {@code .tag}; the first four settable, as
 * {@code Files.setAttribute(p, "samediff:dtype", …)} is.
 */
final class Xattrs {
  static final String PREFIX = "user.samediff.";
  static final List<String> SETTABLE = List.of("dtype", "shape", "order", "kind");

  private Xattrs() {}

  /** The extended attributes of a model file or directory, in a fixed order; absent ones left out. */
  static Map<String, String> of(Path p) throws IOException {
    SamediffFileAttributeView v = Files.getFileAttributeView(p, SamediffFileAttributeView.class);
    SamediffFileAttributes a = v.readAttributes();
    Map<String, String> m = new LinkedHashMap<>();
    put(m, "dtype", a.dtype());
    long[] shape = a.shape();
    put(m, "shape", shape == null ? null : Arrays.toString(shape));
    put(m, "order", a.order());
    put(m, "kind", a.kind());
    put(m, "byteOrder", a.byteOrder());
    put(m, "stored", a.stored());
    put(m, "tag", a.tag());
    return m;
  }

  private static void put(Map<String, String> m, String k, String v) {
    if (v != null) {
      m.put(PREFIX + k, v);
    }
  }

  /** The view's attribute name for an extended attribute's name, or null when it is not one of ours to set. */
  static String settable(String xattr) {
    if (!xattr.startsWith(PREFIX)) {
      return null;
    }
    String n = xattr.substring(PREFIX.length());
    return SETTABLE.contains(n) ? n : null;
  }

  /** A value as setfattr gives it: UTF-8, a trailing NUL or newline dropped. */
  static String value(byte[] raw) {
    String s = new String(raw, StandardCharsets.UTF_8);
    while (!s.isEmpty() && (s.endsWith("\0") || s.endsWith("\n"))) {
      s = s.substring(0, s.length() - 1);
    }
    return s.trim();
  }

  /** Sets one settable attribute on a model file. */
  static void set(Path p, String name, String value) throws IOException {
    Files.setAttribute(p, "samediff:" + name, value);
  }

  /** The names, NUL-terminated one after the other, as listxattr(2) answers. */
  static byte[] list(Iterable<String> names) {
    StringBuilder sb = new StringBuilder();
    for (String n : names) {
      sb.append(n).append('\0');
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }
}
