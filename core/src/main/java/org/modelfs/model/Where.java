package org.modelfs.model;

/**
 * Where in a tag a finding is, as a codec or a rule reports it: the area (the name of a tag's
 * entry: {@code graph}, {@code graph.json}, {@code training.json}, {@code params},
 * {@code updater}, {@code metadata}) and the raw name in it (a variable, a parameter whose
 * updater state it is, a metadata key), or {@code null} for the area itself. Never a path: the
 * tree spells it ({@code tree.TreePath#spell}, with the name mapping of docs/FILESYSTEM.md §2);
 * {@link #toString()} is the raw {@code area/name} of messages outside a mounted tree.
 *
 * @param area the area's name in a tag directory
 * @param name the raw name, or {@code null}
 */
public record Where(String area, String name) {
  /** The directory of the tags, below the root. */
  public static final String TAGS = "tags";
  public static final String GRAPH = "graph";
  public static final String GRAPH_JSON = "graph.json";
  public static final String TRAINING = "training.json";
  public static final String PARAMS = "params";
  public static final String UPDATER = "updater";
  public static final String METADATA = "metadata";

  /** The graph file. */
  public static Where graph() {
    return new Where(GRAPH, null);
  }

  /** training.json. */
  public static Where training() {
    return new Where(TRAINING, null);
  }

  /** The file of parameter {@code name}. */
  public static Where param(String name) {
    return new Where(PARAMS, name);
  }

  /** The updater state of parameter {@code name}; {@code null}: the updater area. */
  public static Where state(String name) {
    return new Where(UPDATER, name);
  }

  /** The metadata key {@code key}. */
  public static Where metadata(String key) {
    return new Where(METADATA, key);
  }

  /**
   * {@code /tags/<tag>/}: what a message outside a mounted tree puts before a finding of that tag
   * (a mounted tree's spells the whole path, {@code tree.TreePath}).
   */
  public static String inTag(String tag) {
    return "/" + TAGS + "/" + tag + "/";
  }

  @Override
  public String toString() {
    return name == null ? area : area + "/" + name;
  }
}
