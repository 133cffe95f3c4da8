package org.modelfs;

import java.nio.file.attribute.BasicFileAttributes;

/**
 * The attributes of one file of a mounted model (docs/FILESYSTEM.md §4): the basic ones, plus what the
 * array of a {@code params/…} or {@code updater/…} file is. For other files and directories the
 * array attributes are {@code null}.
 */
public interface SamediffFileAttributes extends BasicFileAttributes {

  /** ND4J {@code DataType} name ({@code FLOAT}, {@code HALF}, {@code UTF8}, …), or {@code null}. */
  String dtype();

  /** Dimensions ({@code []} for a scalar), or {@code null}. Each call returns a fresh copy. */
  long[] shape();

  /** Element order of the file's bytes, {@code "c"} or {@code "f"}, or {@code null}. */
  String order();

  /**
   * {@code VARIABLE}, {@code CONSTANT}, {@code PLACEHOLDER} for parameters, {@code UPDATER} for
   * updater state, or {@code null}.
   */
  String kind();

  /** The tag the file belongs to (for the root aliases: the newest tag), or {@code null}. */
  String tag();

  /** How the array is held: {@code raw}, {@code deflated}, {@code big-endian}, {@code journal}; or {@code null}. */
  String stored();

  /**
   * The byte order of the file's elements: {@code "little"}, or {@code "big"} for the stored
   * bytes of a big-endian array (fb, legacy) in a mount with {@code byteOrder=stored}; or
   * {@code null} for files that are not arrays. Read-only: it follows from the mount option and
   * the file (docs/FILESYSTEM.md §4).
   */
  String byteOrder();
}
