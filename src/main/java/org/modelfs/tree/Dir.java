package org.modelfs.tree;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A directory of the tree: its entries by canonical name, in listing order. Below
 * {@code params/}, {@code updater/} and {@code metadata/} a directory exists while a name lives
 * below it or the session keeps it ({@link TagOverlay}).
 */
public final class Dir implements Node {
  private final String tag;
  private final Map<String, Node> children = new LinkedHashMap<>();
  private final boolean caseInsensitive;
  private Map<String, String> folded;
  private NameSpace nameSpace;
  private String nameSpacePrefix;

  Dir(String tag, boolean caseInsensitive) {
    this.tag = tag;
    this.caseInsensitive = caseInsensitive;
  }

  @Override
  public String tag() {
    return tag;
  }

  @Override
  public Object fileKey() {
    return this;
  }

  /** The entries, canonical name → node, in listing order. */
  public Map<String, Node> children() {
    return Collections.unmodifiableMap(children);
  }

  void put(String name, Node node) {
    children.put(name, node);
    if (caseInsensitive) {
      if (folded == null) {
        folded = new LinkedHashMap<>();
      }
      folded.put(name.toLowerCase(Locale.ROOT), name);
    }
  }

  /** The canonical spelling of the entry {@code name}, matched exactly or (tags) ignoring case. */
  String canonicalName(String name) {
    if (children.containsKey(name)) {
      return name;
    }
    return folded == null ? null : folded.get(name.toLowerCase(Locale.ROOT));
  }

  /** Makes this directory the one at {@code prefix} of a name space (for other spellings). */
  void joinNameSpace(NameSpace ns, String prefix) {
    this.nameSpace = ns;
    this.nameSpacePrefix = prefix;
  }

  NameSpace nameSpace() {
    return nameSpace;
  }

  String nameSpacePrefix() {
    return nameSpacePrefix;
  }
}
