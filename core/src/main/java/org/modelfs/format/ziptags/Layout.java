package org.modelfs.format.ziptags;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The entry names of a zip-tags file (docs/FORMATS.md "zip-tags"): {@code tags.txt} at the top,
 * and below each tag {@code graph.fb}, {@code params.txt}, {@code params/<i>.fb},
 * {@code updater.txt}, {@code updater/<i>.fb}, {@code trainingConfig.fb}, {@code metadata.txt}.
 */
final class Layout {
  static final String TAGS = "tags.txt";
  static final String GRAPH = "graph.fb";
  static final String PARAMS_TXT = "params.txt";
  static final String UPDATER_TXT = "updater.txt";
  static final String TRAINING = "trainingConfig.fb";
  static final String METADATA_TXT = "metadata.txt";
  /** The largest array index a name or reference may carry. */
  static final int MAX_INDEX = 999_999_999;

  private static final Pattern ARRAY = Pattern.compile("([^/]+)/(params|updater)/([0-9]{1,9})\\.fb");
  private static final Pattern FILE = Pattern.compile("([^/]+)/([^/]+)");

  private Layout() {}

  /** The two areas whose arrays are numbered files. */
  enum Area {
    PARAMS("params"),
    UPDATER("updater");

    final String dir;

    Area(String dir) {
      this.dir = dir;
    }
  }

  /** What a known entry name is: a file of a tag, or one of its numbered arrays. */
  record Name(String tag, String file, Area area, int index) {
    boolean isArray() {
      return area != null;
    }
  }

  /** Classifies an entry name; {@code null} for names this layout does not define. */
  static Name parse(String entry) {
    Matcher m = ARRAY.matcher(entry);
    if (m.matches()) {
      return new Name(m.group(1), null, m.group(2).equals("params") ? Area.PARAMS : Area.UPDATER,
          Integer.parseInt(m.group(3)));
    }
    m = FILE.matcher(entry);
    if (m.matches()) {
      String f = m.group(2);
      if (f.equals(GRAPH) || f.equals(PARAMS_TXT) || f.equals(UPDATER_TXT) || f.equals(TRAINING) || f.equals(METADATA_TXT)) {
        return new Name(m.group(1), f, null, -1);
      }
    }
    return null;
  }

  /** The entry name of array {@code index} of {@code tag}'s {@code area}. */
  static String array(String tag, Area area, int index) {
    return tag + "/" + area.dir + "/" + index + ".fb";
  }

  /** The entry name of {@code tag}'s file {@code file}. */
  static String file(String tag, String file) {
    return tag + "/" + file;
  }

  /** The tag part of any entry name below a tag directory, or {@code null} for a top-level name. */
  static String tagOf(String entry) {
    int slash = entry.indexOf('/');
    return slash < 0 ? null : entry.substring(0, slash);
  }
}
