package org.modelfs.store;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.util.List;
import org.modelfs.io.ByteSource;
import org.modelfs.io.ChannelSource;

/**
 * The steps of one commit that depend on where a model is stored; {@link CommitSteps} runs them
 * in order around the steps every backing shares (write with progress, explain a full disk,
 * force, read back with the format's reader and check against the plan). One instance serves one
 * commit, so it may keep what {@link #begin} saw for {@link #install}.
 *
 * <p>A new backing implements this (a directory: {@code LocalCommit}; an object store:
 * {@code s3.ObjectCommit}), returns it from its {@link Backing#commit}, and extends
 * {@code BackingContractTest} (core's test jar) — docs/ARCHITECTURE.md "A new backing".
 */
public interface CommitStorage {
  /** The model as its user named it, for messages. */
  String model();

  /**
   * First step: the stored generation must still be {@code expected} (else
   * {@link ModelChangedException}, nothing written), and anything the commit must not touch is
   * refused before a byte is written.
   */
  void begin(Generation expected) throws IOException;

  /**
   * A new, empty private temporary for the planned file {@code name}, where no reader of the
   * model sees it (created exclusively: never an existing file, never through a link), open for
   * writing and reading.
   */
  Temp create(String name) throws IOException;

  /** Makes {@code t}'s bytes durable before it is read back (a file's {@code force}). */
  default void force(Temp t) throws IOException {
    Durable.force(t.channel());
  }

  /** {@code t}'s bytes for reading back, after its channel is closed. */
  default ByteSource readBack(Temp t) throws IOException {
    return ChannelSource.open(t.path());
  }

  /**
   * The stored file {@code name} that the plan keeps as it is (an unchanged weight shard), for
   * reading back; refuses when it is no longer the file the mount read. Only for a backing whose
   * {@link Backing#keepsUnchangedFiles()} is true.
   */
  default ByteSource kept(String name) throws IOException {
    throw new IllegalArgumentException(model() + ": this store writes every file of a commit; the plan keeps " + name);
  }

  /**
   * Last step: makes {@code files} (the plan's order; a kept file has no temporary) the model in
   * one step, if the stored generation is still the one {@link #begin} checked. From this call on
   * the temporaries are the installer's: on failure it leaves the old model (or finishes the new
   * one) and removes only what it can prove is its own.
   */
  void install(List<Planned> files) throws IOException;

  /** Removes the temporaries of a commit that failed before {@link #install} (best effort ends in an exception). */
  void discard(List<Temp> temps) throws IOException;

  /** A private temporary: the planned file's name, where it is (for messages) and its open channel. */
  record Temp(String name, Path path, SeekableByteChannel channel) {}

  /** One file of the new model: {@code temp} written, or {@code null} when the plan keeps {@code name} as it is. */
  record Planned(String name, Temp temp) {
    /** Whether the stored file is kept as it is. */
    public boolean kept() {
      return temp == null;
    }
  }
}
