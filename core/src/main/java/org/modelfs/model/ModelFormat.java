package org.modelfs.model;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/** The container formats ModelFS reads and writes (docs/FORMATS.md §1), with their CLI tokens. */
public enum ModelFormat {
  /** The original single FlatBuffers file of {@code SameDiff.save} (docs/FORMATS.md §4). */
  FB("fb"),
  /** One SDNB file (docs/FORMATS.md §5). */
  SDNB("sdnb"),
  /** SDNB split over {@code <base>.shard<k>-of-<N>.sdnb} files (docs/FORMATS.md §6). */
  SHARDED_SDNB("sdnb-sharded"),
  /** A zip of SDNB file(s) (docs/FORMATS.md §7). */
  SDZ("sdz"),
  /** The tagged zip of the 2020 format decision (docs/FORMATS.md §8). */
  ZIP_TAGS("zip-tags"),
  /** The unified "SAMEDIFF_MODEL" container of DL4J's ADR 0035, first implemented here (docs/FORMATS.md §13). */
  CONTAINER("container"),
  /** A container split over {@code <base>.shard<k>-of-<N>.sdmc} files (docs/FORMATS.md §13.8). */
  SHARDED_CONTAINER("container-sharded");

  /** The extension that names a new container file. */
  public static final String EXTENSION = ".sdmc";

  private final String token;

  ModelFormat(String token) {
    this.token = token;
  }

  /** The name used on the command line and in {@code env}. */
  public String token() {
    return token;
  }

  /** True if the format keeps several named tags (sdz, zip-tags, container); the others hold one, {@code default}. */
  public boolean holdsTags() {
    return this == SDZ || this == ZIP_TAGS || this == CONTAINER || this == SHARDED_CONTAINER;
  }

  /**
   * Whether DL4J loads this format (fb, SDNB and its shards, SDZ); zip-tags and the container are
   * not read by any DL4J release.
   * What DL4J's loader needs is checked at commit for these (docs/FORMATS.md §3.9).
   */
  public boolean loadedByDl4j() {
    return this != ZIP_TAGS && this != CONTAINER && this != SHARDED_CONTAINER;
  }

  /** Whether the format is a set of shard files (sdnb-sharded, container-sharded). */
  public boolean sharded() {
    return this == SHARDED_SDNB || this == SHARDED_CONTAINER;
  }

  /** The format for a CLI/env token; {@code sharded} is accepted for {@link #SHARDED_SDNB}. */
  public static ModelFormat fromToken(String token) {
    String t = token.toLowerCase(Locale.ROOT);
    for (ModelFormat f : values()) {
      if (f.token.equals(t)) {
        return f;
      }
    }
    if (t.equals("sharded")) {
      return SHARDED_SDNB;
    }
    throw new IllegalArgumentException("unknown format '" + token + "' (expected " + tokens(", ") + ")");
  }

  /**
   * The tokens of every format, in declaration order, joined with {@code separator}
   * ({@code "fb|sdnb|…"}): the one list help texts and messages show (docs/CLI.md).
   */
  public static String tokens(String separator) {
    return Arrays.stream(values()).map(ModelFormat::token).collect(Collectors.joining(separator));
  }

  /**
   * The tokens of the formats {@code which} accepts, for people: {@code "sdz, zip-tags and container"}
   * with {@code conjunction} "and".
   */
  public static String list(Predicate<ModelFormat> which, String conjunction) {
    List<String> names = Arrays.stream(values()).filter(which).map(ModelFormat::token).toList();
    return names.size() < 2 ? String.join("", names)
        : String.join(", ", names.subList(0, names.size() - 1)) + " " + conjunction + " " + names.get(names.size() - 1);
  }

  /**
   * The format families that hold several tags, what a model with several tags can be converted
   * to: {@code "sdz, zip-tags or container"} (a sharded format is its family's).
   */
  public static String tagHolders() {
    return list(f -> f.holdsTags() && !f.sharded(), "or");
  }

  /** The extensions {@link #fromFileName} knows, for people: {@code ".fb, .sdnb, .sdz, .zip or .sdmc"}. */
  public static String extensions() {
    List<String> names = BY_EXTENSION.stream().map(Map.Entry::getKey).toList();
    return String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
  }

  /** The extension that names a new file of each unsharded format, in the order they are tried. */
  private static final List<Map.Entry<String, ModelFormat>> BY_EXTENSION = List.of(Map.entry(".fb", FB),
      Map.entry(".sdnb", SDNB), Map.entry(".sdz", SDZ), Map.entry(".zip", ZIP_TAGS), Map.entry(EXTENSION, CONTAINER));

  /** The format a file name's extension suggests, or {@code null}. */
  public static ModelFormat fromFileName(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    for (Map.Entry<String, ModelFormat> e : BY_EXTENSION) {
      if (n.endsWith(e.getKey())) {
        return e.getValue();
      }
    }
    return null;
  }

  /**
   * Why a model of this format must not be written under {@code fileName}, or {@code null}: a
   * name whose extension says another format ({@code m.fb} holding a zip) is loaded by DL4J and
   * other tools as what the name says. The sharded form of a format goes under its base's
   * extension, and an SDZ (a zip) may be named {@code .zip}. One rule for every writer: a mount's
   * {@code format} option, {@code convert}, {@code ModelFiles.writeTags}.
   */
  public String nameProblem(String fileName) {
    ModelFormat named = fromFileName(fileName);
    if (named == null || named == unsharded() || named == ZIP_TAGS && this == SDZ) {
      return null;
    }
    return fileName + " is named as " + named.token + ", and DL4J and other tools read it as " + named.token
        + "; a " + token + " model under that name would not load as one — write it under its own extension"
        + " (modelfs convert " + fileName + " OUT" + extensionOf(this) + ")";
  }

  private ModelFormat unsharded() {
    return this == SHARDED_SDNB ? SDNB : this == SHARDED_CONTAINER ? CONTAINER : this;
  }

  private static String extensionOf(ModelFormat f) {
    return switch (f.unsharded()) {
      case FB -> ".fb";
      case SDNB -> ".sdnb";
      case SDZ -> ".sdz";
      case ZIP_TAGS -> ".zip";
      default -> EXTENSION;
    };
  }

  @Override
  public String toString() {
    return token;
  }
}
