package org.modelfs.model;

import java.util.Locale;
import java.util.Objects;

/**
 * A container format's identity and what every layer may ask of it without its codec: the token
 * of the command line and {@code env}, the extension that names a new file, whether it keeps
 * several tags, whether it is a set of shard files, and whether DL4J loads it. The formats are
 * listed by their descriptors ({@code format.Codec}) in one registry, {@code format.Codecs}
 * (every list of formats in help texts and messages is derived there); the constants below are
 * the built-in formats' identities, which their codecs declare (docs/FORMATS.md §1).
 */
public final class ModelFormat {
  /** The original single FlatBuffers file of {@code SameDiff.save} (docs/FORMATS.md §4). */
  public static final ModelFormat FB = new ModelFormat("fb", ".fb", false, true, null);
  /** One SDNB file (docs/FORMATS.md §5). */
  public static final ModelFormat SDNB = new ModelFormat("sdnb", ".sdnb", false, true, null);
  /** SDNB split over {@code <base>.shard<k>-of-<N>.sdnb} files (docs/FORMATS.md §6). */
  public static final ModelFormat SHARDED_SDNB = new ModelFormat("sdnb-sharded", ".sdnb", false, true, SDNB);
  /** A zip of SDNB file(s) (docs/FORMATS.md §7). */
  public static final ModelFormat SDZ = new ModelFormat("sdz", ".sdz", true, true, null);
  /** The tagged zip of the 2020 format decision (docs/FORMATS.md §8). */
  public static final ModelFormat ZIP_TAGS = new ModelFormat("zip-tags", ".zip", true, false, null);
  /** The unified "SAMEDIFF_MODEL" container of DL4J's ADR 0035, first implemented here (docs/FORMATS.md §13). */
  public static final ModelFormat CONTAINER = new ModelFormat("container", ".sdmc", true, false, null);
  /** A container split over {@code <base>.shard<k>-of-<N>.sdmc} files (docs/FORMATS.md §13.8). */
  public static final ModelFormat SHARDED_CONTAINER = new ModelFormat("container-sharded", ".sdmc", true, false, CONTAINER);

  private final String token;
  private final String extension;
  private final boolean holdsTags;
  private final boolean loadedByDl4j;
  private final ModelFormat unsharded;

  /**
   * A format. {@code token} is lower case, unique among the registered formats; {@code unsharded}
   * is the one-file format whose shard set this one is ({@code null} for a one-file format).
   */
  public ModelFormat(String token, String extension, boolean holdsTags, boolean loadedByDl4j, ModelFormat unsharded) {
    if (!token.equals(token.toLowerCase(Locale.ROOT)) || !extension.startsWith(".")) {
      throw new IllegalArgumentException("a format's token is lower case and its extension starts with '.': "
          + token + ", " + extension);
    }
    this.token = token;
    this.extension = extension.toLowerCase(Locale.ROOT);
    this.holdsTags = holdsTags;
    this.loadedByDl4j = loadedByDl4j;
    this.unsharded = unsharded;
  }

  /** The name used on the command line and in {@code env}. */
  public String token() {
    return token;
  }

  /** The extension that names a new file of this format (of shard 0's base name for a shard set). */
  public String extension() {
    return extension;
  }

  /** True if the format keeps several named tags (sdz, zip-tags, container); the others hold one, {@code default}. */
  public boolean holdsTags() {
    return holdsTags;
  }

  /**
   * Whether DL4J loads this format (fb, SDNB and its shards, SDZ); zip-tags and the container are
   * not read by any DL4J release.
   * What DL4J's loader needs is checked at commit for these (docs/FORMATS.md §3.9).
   */
  public boolean loadedByDl4j() {
    return loadedByDl4j;
  }

  /** Whether the format is a set of shard files (sdnb-sharded, container-sharded). */
  public boolean sharded() {
    return unsharded != null;
  }

  /** The one-file format of this format's family: itself, or the format a shard set splits. */
  public ModelFormat unsharded() {
    return unsharded == null ? this : unsharded;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ModelFormat f && f.token.equals(token);
  }

  @Override
  public int hashCode() {
    return Objects.hash(token);
  }

  @Override
  public String toString() {
    return token;
  }
}
