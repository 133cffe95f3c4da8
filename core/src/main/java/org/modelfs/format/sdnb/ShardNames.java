package org.modelfs.format.sdnb;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.modelfs.format.ModelFormatException;

/**
 * Names of shard files, {@code <base>.shard<k>-of-<N>.sdnb} (docs/FORMATS.md §6) and the
 * container's {@code <base>.shard<k>-of-<N>.sdmc} (§13.8): the base of a user-given name, shard
 * file names, and parsing a shard name back. {@link #parse} knows SDNB shards only (what the
 * object-store module and SDZ handle); {@link #parseAny} both.
 */
public final class ShardNames {
  private static final Pattern SHARD = Pattern.compile("(.+)\\.shard(\\d{1,9})-of-(\\d{1,9})\\.(sdnb|sdmc)");
  /** The extension of SDNB shards. */
  public static final String SDNB = "sdnb";
  /** The extension of container shards (docs/FORMATS.md §13.8). */
  public static final String CONTAINER = "sdmc";

  private ShardNames() {}

  /** A parsed shard file name; {@code ext} is {@code sdnb} or {@code sdmc}. */
  public record Shard(String base, int index, int count, String ext) {}

  /** The SDNB shard a file name denotes, or {@code null}. */
  public static Shard parse(String fileName) {
    Shard s = parseAny(fileName);
    return s != null && s.ext().equals(SDNB) ? s : null;
  }

  /** The shard — of an SDNB or a container shard set — a file name denotes, or {@code null}. */
  public static Shard parseAny(String fileName) {
    Matcher m = SHARD.matcher(fileName);
    if (!m.matches()) {
      return null;
    }
    return new Shard(m.group(1), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)), m.group(4));
  }

  /**
   * The shard extension a model file name ends with ({@code m.sdnb} → {@code sdnb}, {@code m.SDMC}
   * → {@code sdmc}, with something before the dot), or {@code null}.
   */
  public static String setExtension(String fileName) {
    String n = fileName.toLowerCase(Locale.ROOT);
    for (String ext : new String[] {SDNB, CONTAINER}) {
      if (n.length() > ext.length() + 1 && n.endsWith("." + ext)) {
        return ext;
      }
    }
    return null;
  }

  /** The base of a user-given output or model name: {@code model.sdnb} → {@code model}. */
  public static String base(String fileName) {
    Shard s = parseAny(fileName);
    if (s != null) {
      return s.base();
    }
    int dot = fileName.lastIndexOf('.');
    return dot > 0 ? fileName.substring(0, dot) : fileName;
  }

  /**
   * The complete shard set of base {@code base} among {@code items} (files of a directory, objects
   * under a prefix), shard 0 first; empty if none of them is a shard of that base.
   *
   * @param name an item's file name
   * @param where the location of a file name, for messages
   * @throws ModelFormatException if shards disagree on N, name an invalid
   *     shard number, or some are missing
   */
  public static <T> List<T> completeSet(String base, Iterable<T> items,
      Function<T, String> name, UnaryOperator<String> where)
      throws ModelFormatException {
    return completeSet(base, SDNB, items, name, where);
  }

  /** {@link #completeSet(String, Iterable, java.util.function.Function, java.util.function.UnaryOperator)} of the shards with extension {@code ext}. */
  public static <T> List<T> completeSet(String base, String ext, Iterable<T> items,
      Function<T, String> name, UnaryOperator<String> where)
      throws ModelFormatException {
    TreeMap<Integer, T> found = new TreeMap<>();
    int count = -1;
    for (T item : items) {
      Shard s = parseAny(name.apply(item));
      if (s == null || !s.base().equals(base) || !s.ext().equals(ext)) {
        continue;
      }
      String at = where.apply(name.apply(item));
      if (s.count() < 1 || s.index() >= s.count()) {
        throw new ModelFormatException(at, "shard file name", 0,
            "shard " + s.index() + " of " + s.count() + " is not a valid shard number");
      }
      if (count >= 0 && s.count() != count) {
        throw new ModelFormatException(at, "shard file name", 0,
            "says " + s.count() + " shards, but another shard of '" + base + "' says " + count);
      }
      count = s.count();
      T twin = found.put(s.index(), item);
      if (twin != null) {
        // two spellings of one shard (m.shard1-of-5 and m.shard01-of-05): which one is the model's
        // cannot be told, and reading either could hide the other's data
        throw new ModelFormatException(at, "shard file name", 0, "is shard " + s.index() + " of "
            + s.count() + " of '" + base + "', and so is " + where.apply(name.apply(twin))
            + "; remove or rename one of them");
      }
    }
    List<T> out = new ArrayList<>();
    for (int k = 0; k < count; k++) {
      T item = found.get(k);
      if (item == null) {
        throw new ModelFormatException(where.apply(name(base, k, count, ext)), "shard file", 0,
            "is missing: shard " + k + " of " + count + " of '" + base + "'");
      }
      out.add(item);
    }
    return out;
  }

  /** The name of SDNB shard {@code k} of {@code n}. */
  public static String name(String base, int k, int n) {
    return name(base, k, n, SDNB);
  }

  /** The name of shard {@code k} of {@code n} with extension {@code ext}. */
  public static String name(String base, int k, int n, String ext) {
    return base + ".shard" + k + "-of-" + n + "." + ext;
  }
}
