package org.modelfs.format.sdnb;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names of sharded SDNB files, {@code <base>.shard<k>-of-<N>.sdnb} (docs/FORMATS.md §6): the base of
 * a user-given name, shard file names, and parsing a shard name back.
 */
public final class ShardNames {
  private static final Pattern SHARD = Pattern.compile("(.+)\\.shard(\\d{1,9})-of-(\\d{1,9})\\.sdnb");

  private ShardNames() {}

  /** A parsed shard file name. */
  public record Shard(String base, int index, int count) {}

  /** The shard a file name denotes, or {@code null}. */
  public static Shard parse(String fileName) {
    Matcher m = SHARD.matcher(fileName);
    if (!m.matches()) {
      return null;
    }
    return new Shard(m.group(1), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
  }

  /** The base of a user-given output or model name: {@code model.sdnb} → {@code model}. */
  public static String base(String fileName) {
    Shard s = parse(fileName);
    if (s != null) {
      return s.base();
    }
    int dot = fileName.lastIndexOf('.');
    return dot > 0 ? fileName.substring(0, dot) : fileName;
  }

  /** The name of shard {@code k} of {@code n}. */
  public static String name(String base, int k, int n) {
    return base + ".shard" + k + "-of-" + n + ".sdnb";
  }
}
