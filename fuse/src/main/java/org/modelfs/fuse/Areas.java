package org.modelfs.fuse;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which of a tag's area directories ({@code params/}, {@code updater/}, {@code metadata/}) the
 * mount shows while the model holds nothing in them (docs/MOUNT.md "Directories"). A tag the
 * model holds shows all three, so {@code echo v > DIR/metadata/k} works on a model without
 * metadata. A tag made in this mount ({@code mkdir DIR/tags/v2}) starts empty, as a new
 * directory does, and shows an area once it is made: {@code cp -r TAG NEWTAG} and Python's
 * {@code shutil.copytree} make each directory of the tree they have just created without looking
 * first, and the kernel answers EEXIST for a name that already shows, before the mount is asked.
 */
final class Areas {
  private final FileSystem fs;
  /** Tags made in this mount ("/tags/v2"). */
  private final Set<String> newTags = ConcurrentHashMap.newKeySet();
  /** Areas made in those tags ("/tags/v2/params"). */
  private final Set<String> made = ConcurrentHashMap.newKeySet();

  Areas(FileSystem fs) {
    this.fs = fs;
  }

  /** Whether {@code p} names a tag's directory ("/tags/v2"). */
  static boolean isTag(String p) {
    return p.startsWith("/tags/") && p.length() > 6 && p.indexOf('/', 6) < 0;
  }

  /** Whether area directory {@code p} shows, whatever the model holds in it. */
  boolean shows(String p) {
    if (!ModelNames.isArea(p)) {
      return false;
    }
    String tag = ModelNames.parent(p);
    return Files.isDirectory(fs.getPath(tag)) && (!newTags.contains(tag) || made.contains(p));
  }

  /** {@code mkdir} of tag {@code p} succeeded. */
  void tagMade(String p) {
    newTags.add(p);
  }

  /** {@code mkdir} of area {@code p}, which does not show yet. */
  void make(String p) {
    made.add(p);
  }

  /** {@code rmdir} of {@code p} (a tag or an area) succeeded. */
  void removed(String p) {
    made.remove(p);
    if (newTags.remove(p)) {
      made.removeIf(a -> ModelNames.parent(a).equals(p));
    }
  }

  /** Directory {@code from} was renamed to {@code to}: a new tag stays new under its new name. */
  void renamed(String from, String to) {
    if (newTags.remove(from)) {
      newTags.add(to);
      for (String a : Set.copyOf(made)) {
        if (ModelNames.parent(a).equals(from)) {
          made.remove(a);
          made.add(to + a.substring(from.length()));
        }
      }
    }
  }
}
