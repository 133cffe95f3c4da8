package org.modelfs.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.modelfs.io.ByteSource;

/**
 * Which names each weight shard of a shard set holds, as the files were read: entry k − 1 is
 * shard k's set of variable names (for their arrays) and parameter names (for their updater
 * state). A commit of a mounted shard set starts from this packing, so that a shard whose
 * contents did not change is kept as it is ({@code container.ShardReuse}).
 *
 * @param weightShards the names of shards 1 … N−1, in order
 * @param graphHoldsArrays whether shard 0 held arrays or updater state too (a set some other
 *     writer made): its packing is then not kept
 * @param files the file name each shard 0 … N−1 was read from, or {@code null} for one that is
 *     not a regular file of its own (a link); empty when the shards are not files (an object
 *     store's, a zip's entries). Only a shard read from a regular file under its standard name
 *     can be kept in place.
 * @param stored for a shard set inside a zip (a sharded SDZ), where each shard 0 … N−1 is, as it
 *     is stored, so that a commit can copy an unchanged one without inflating it; else empty
 */
public record ShardLayout(List<Set<String>> weightShards, boolean graphHoldsArrays, List<String> files,
    List<Stored> stored) {
  public ShardLayout {
    List<Set<String>> copy = new ArrayList<>();
    for (Set<String> s : weightShards) {
      copy.add(Set.copyOf(s));
    }
    weightShards = List.copyOf(copy);
    files = Collections.unmodifiableList(new ArrayList<>(files)); // may hold nulls
    stored = List.copyOf(stored);
  }

  /** The layout as a reader sees it (no file names, nothing stored in a zip). */
  public ShardLayout(List<Set<String>> weightShards, boolean graphHoldsArrays) {
    this(weightShards, graphHoldsArrays, List.of(), List.of());
  }

  /** This layout, read from files named {@code names} (shard 0 first; {@code null} for a link). */
  public ShardLayout withFiles(List<String> names) {
    return new ShardLayout(weightShards, graphHoldsArrays, names, stored);
  }

  /** This layout, with where each shard is stored in its zip. */
  public ShardLayout withStored(List<Stored> where) {
    return new ShardLayout(weightShards, graphHoldsArrays, files, where);
  }

  /** Whether shard {@code k} was read from a regular file named {@code name}. */
  public boolean readFrom(int k, String name) {
    return k < files.size() && name.equals(files.get(k));
  }

  /**
   * One shard as it is stored in a zip entry: {@code length} bytes at {@code offset} of
   * {@code file}, deflated or not, {@code size} bytes and CRC-32 {@code crc} once inflated;
   * {@code content} reads those {@code size} bytes (inflating where needed).
   */
  public record Stored(ByteSource file, long offset, long length, boolean deflated, long size, long crc,
      ByteSource content) {}

}
