package org.modelfs.container;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.util.List;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.ArrayData;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.Variable;

/**
 * The files a model is written as, decided before any of them is created: their names in the
 * model's directory (one for every format but the sharded SDNB, whose shards are
 * {@code <base>.shard<k>-of-<N>.sdnb}) and how to stream each into a channel the caller opened.
 * The store ({@code org.modelfs.store}) decides where the bytes go, forces them, checks them with
 * {@link #verify} and installs them; this layer never opens, renames or deletes a file.
 *
 * @param tags what is written, oldest tag first
 * @param options format and its options
 * @param files the files, in the order a reader needs them (shard 0 first)
 */
public record ContainerPlan(List<Tag> tags, WriteOptions options, List<PlannedFile> files) {
  public ContainerPlan {
    tags = List.copyOf(tags);
    files = List.copyOf(files);
  }

  /**
   * The bytes of array data the plan writes (every parameter and updater array of every tag):
   * about the size of the new container when it is stored uncompressed (what a progress line
   * counts towards).
   */
  public long arrayBytes() {
    return arrayBytes(tags);
  }

  /** The bytes of array data {@code tags} hold (every parameter and updater array). */
  public static long arrayBytes(List<Tag> tags) {
    long n = 0;
    for (Tag t : tags) {
      for (Variable v : t.variables()) {
        if (v.array() != null) {
          n += v.array().length();
        }
      }
      for (UpdaterState u : t.updater()) {
        for (ArrayData a : u.arrays().values()) {
          n += a.length();
        }
      }
    }
    return n;
  }

  /**
   * One file of the plan: its final name and how to write it, or — for a weight shard of a
   * mounted shard set that the commit did not change — {@code null}: the file already under
   * that name is kept as it is ({@link #kept()}).
   */
  public record PlannedFile(String name, Body body) {
    /** A file the model keeps unchanged: the one under {@code name} now, neither written nor renamed. */
    public static PlannedFile keep(String name) {
      return new PlannedFile(name, null);
    }

    /** Whether the file is kept as it is (not written). */
    public boolean kept() {
      return body == null;
    }
  }

  /** Whether some file of the plan is kept as it is ({@link PlannedFile#kept()}). */
  public boolean keepsFiles() {
    return files.stream().anyMatch(PlannedFile::kept);
  }

  /** Streams one file's bytes into {@code out}, an empty channel opened for writing (and reading). */
  @FunctionalInterface
  public interface Body {
    void writeTo(SeekableByteChannel out, String what) throws IOException;
  }

  /** The format written. */
  public ModelFormat format() {
    return options.format();
  }

  /** Whether the plan is a shard set (several files that make one model). */
  public boolean sharded() {
    return options.format().sharded();
  }

  /**
   * Reasons the model read back from the written files is not the one planned; empty when it
   * is. See {@link ReadBack}.
   */
  public List<String> verify(Model reread) {
    return ReadBack.differences(tags, options, reread);
  }
}
