package org.modelfs.tree;

/** One entry of the virtual tree: a {@link Dir} or a {@link FileNode}. */
public sealed interface Node permits Dir, FileNode {

  /** The tag this entry belongs to, or {@code null} for the root and {@code tags/}. */
  String tag();

  /**
   * What identifies the stored object: an array's location for array files (arrays shared
   * between tags or seen through the root aliases have equal keys), the node itself otherwise.
   */
  Object fileKey();
}
