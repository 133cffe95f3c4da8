package org.modelfs.tree;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.modelfs.model.Tag;
import org.modelfs.model.Where;

/**
 * What a path of the tree means (docs/FILESYSTEM.md §1, §2), parsed once: below
 * {@code /tags/<tag>/}, the area ({@code graph}, {@code graph.json}, {@code training.json},
 * {@code params}, {@code updater}, {@code metadata}) and the segments below it, with the names
 * they stand for. The one owner of the layout: every route that asks what a path names (a
 * change's target, renames, structure edits) parses it here, and every message that names a
 * variable's file (validation, verify) spells it here, through {@link NameMapping}. A root alias
 * ({@code /params/W}) is the newest tag's path when {@link #parse} is given that tag.
 */
public final class TreePath {
  /** The parts of a tag a path can name, each with its file name in a tag directory. */
  public enum Area {
    PARAM(Where.PARAMS, true),
    UPDATER(Where.UPDATER, true),
    METADATA(Where.METADATA, true),
    TRAINING(Where.TRAINING, false),
    GRAPH(Where.GRAPH, false),
    GRAPH_JSON(Where.GRAPH_JSON, false);

    private final String dir;
    private final boolean named;

    Area(String dir, boolean named) {
      this.dir = dir;
      this.named = named;
    }

    /** Its name in a tag directory ({@code params}, {@code graph.json}, …). */
    public String dir() {
      return dir;
    }

    /** Whether it is a directory of named entries (params, updater, metadata). */
    public boolean named() {
      return named;
    }

    /** The area whose name in a tag directory is {@code segment}, or {@code null}. */
    public static Area of(String segment) {
      for (Area a : values()) {
        if (a.dir.equals(segment)) {
          return a;
        }
      }
      return null;
    }
  }

  /** Where the tag's name stands, the area's, and the first segment below the area. */
  private static final int TAG = 1;
  private static final int AREA = 2;
  private static final int BELOW = 3;

  private final List<String> segments;
  private final boolean inTags;

  private TreePath(List<String> segments) {
    this.segments = segments;
    this.inTags = !segments.isEmpty() && segments.get(0).equals(ModelTree.TAGS);
  }

  /**
   * Parses the names of an absolute, normalized path; a root alias ({@code /params/…}) becomes
   * {@code /tags/<newest>/params/…} when {@code newest} is not {@code null}.
   */
  public static TreePath parse(List<String> names, String newest) {
    if (newest != null && !names.isEmpty() && ModelTree.ALIASES.contains(names.get(0))) {
      return new TreePath(Dir.append(List.of(ModelTree.TAGS, newest), names));
    }
    return new TreePath(List.copyOf(names));
  }

  /** The meaning of a canonical path ({@link ModelTree.Found#canonical}). */
  public static TreePath of(ModelTree.Found found) {
    return new TreePath(found.canonical());
  }

  /** The tag's name as the path spells it, or {@code null} above a tag or outside {@code /tags}. */
  public String tag() {
    return inTags && segments.size() > TAG ? segments.get(TAG) : null;
  }

  /** Whether this is a tag's directory, {@code /tags/<tag>}. */
  public boolean isTag() {
    return inTags && segments.size() == TAG + 1;
  }

  /** Whether this lies below {@code /tags/<tag>/}: in a tag, at or below one of its entries. */
  public boolean inTag() {
    return inTags && segments.size() > AREA;
  }

  /** The area this lies in, or {@code null} (above a tag, or a name no tag has). */
  public Area area() {
    return inTag() ? Area.of(segments.get(AREA)) : null;
  }

  /** Whether this lies in a directory of named entries of a tag, at or below it. */
  public boolean inNamedArea() {
    Area a = area();
    return a != null && a.named();
  }

  /** Whether this is an area's own directory or file ({@code /tags/t/params}, {@code /tags/t/graph}). */
  public boolean isArea() {
    return inTag() && segments.size() == BELOW;
  }

  /** The segments below the area (empty for the area itself and above). */
  public List<String> below() {
    return inTag() ? segments.subList(BELOW, segments.size()) : List.of();
  }

  /** The name (variable, metadata key, or directory of them) the segments below the area stand for. */
  public String name() {
    return NameMapping.name(below());
  }

  /**
   * The name without the last segment's, and the last segment's decoded: an updater file's
   * parameter and state key ({@code updater/a/b/m} → {@code a/b}, {@code m}).
   */
  public String[] nameAndKey() {
    List<String> b = below();
    return new String[] {NameMapping.name(b.subList(0, b.size() - 1)), NameMapping.decode(b.get(b.size() - 1))};
  }

  /**
   * The names of the directories that hold this entry below its area, outermost first
   * ({@code params/a/b/W} → {@code a}, {@code a/b}).
   */
  public List<String> parents() {
    List<String> b = below();
    List<String> out = new ArrayList<>(Math.max(0, b.size() - 1));
    for (int j = 1; j < b.size(); j++) {
      out.add(NameMapping.name(b.subList(0, j)));
    }
    return out;
  }

  /**
   * The name below {@code dir} that {@code segments} (the canonical segments of a name, below an
   * area) stand for when they lie at or below {@code dir}: {@code ""} for {@code dir} itself,
   * else the decoded rest; {@code null} when they lie elsewhere.
   */
  public static String nameBelow(List<String> segments, List<String> dir) {
    if (segments.size() < dir.size() || !segments.subList(0, dir.size()).equals(dir)) {
      return null;
    }
    return NameMapping.name(segments.subList(dir.size(), segments.size()));
  }

  /** Whether {@code inner} lies strictly below {@code outer} (segments below one area). */
  public static boolean strictlyBelow(List<String> inner, List<String> outer) {
    return inner.size() > outer.size() && inner.subList(0, outer.size()).equals(outer);
  }

  // ---- spelling: what messages name ------------------------------------------------------------

  /** {@code /tags/<tag>}. */
  public static String ofTag(String tag) {
    return "/" + ModelTree.TAGS + "/" + tag;
  }

  /** {@code /tags/<tag>/<area>}. */
  public static String ofArea(String tag, Area area) {
    return ofTag(tag) + "/" + area.dir();
  }

  /**
   * The path of {@code name} in {@code area} of {@code tag}, laid out beside the names
   * {@code isName} tells (docs/FILESYSTEM.md §2).
   */
  public static String of(String tag, Area area, String name, Predicate<String> isName) {
    return ofArea(tag, area) + "/" + String.join("/", NameMapping.segments(name, isName));
  }

  /** The path below the tag of {@code name} laid out beside {@code isName}'s names: {@code params/a/b}. */
  public static String inTag(Area area, String name, Predicate<String> isName) {
    return area.dir() + "/" + String.join("/", NameMapping.segments(name, isName));
  }

  /** The path of {@code name} in {@code area} of {@code tag}, laid out beside the tag's own names of that area. */
  public static String of(Tag tag, Area area, String name) {
    return of(tag.name(), area, name, names(tag, area));
  }

  /**
   * The path of what a codec or a rule reports ({@code where}: an area and a raw name) in
   * {@code tag}, laid out beside the tag's own names: {@code /tags/t/params/a/b},
   * {@code /tags/t/graph}.
   */
  public static String of(Tag tag, Where where) {
    Area area = Area.of(where.area());
    if (area == null || where.name() == null) {
      return ofTag(tag.name()) + "/" + where.area();
    }
    return of(tag, area, where.name());
  }

  /** The names of {@code area} in {@code tag}, as its index tells them (the name mapping lays a name out beside them). */
  private static Predicate<String> names(Tag tag, Area area) {
    return switch (area) {
      case PARAM -> tag.vars()::containsName;
      case UPDATER -> tag.states()::containsName;
      case METADATA -> tag.metadata()::containsKey;
      default -> n -> false;
    };
  }

  /** The file of state key {@code key} in the directory at {@code paramDir} (a path {@link #of} spelled). */
  public static String stateFile(String paramDir, String key) {
    return paramDir + "/" + NameMapping.oneSegment(key);
  }

  /** The path, {@code /} first. */
  @Override
  public String toString() {
    return "/" + String.join("/", segments);
  }
}
