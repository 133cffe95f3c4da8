package org.modelfs.store;

import java.io.IOException;
import java.nio.file.FileSystemException;

/**
 * A store module's {@link Backing#open}: a commit may replace the stored objects while the index
 * is being read (the reads are pinned to one version: they fail, they never mix), so the open
 * starts again, up to {@value #TRIES} times — when an attempt fails with the store's
 * "changed" exception anywhere in its causes (a reader may wrap it, saying which structure it was
 * reading), or when the attempt itself sees that a commit installed meanwhile (returns {@code null}).
 */
public final class OpenAgain {
  /** How often an open is tried. */
  public static final int TRIES = 5;

  private OpenAgain() {}

  /** One try of an open: the snapshot, or {@code null} if a commit installed while it was opened (its files closed). */
  @FunctionalInterface
  public interface Attempt {
    Snapshot open() throws IOException;
  }

  /**
   * Runs {@code attempt} until it opens, at most {@value #TRIES} times.
   *
   * @param model the model as the user names it, for the message when every try saw a commit
   * @param changed the store's exception for an object replaced under a pinned read, or {@code null}: no failure is tried again
   */
  public static Snapshot open(String model, Class<? extends IOException> changed, Attempt attempt)
      throws IOException {
    for (int i = 1; ; i++) {
      Snapshot s;
      try {
        s = attempt.open();
      } catch (IOException e) {
        if (i == TRIES || !causedBy(e, changed)) {
          throw e;
        }
        continue;
      }
      if (s != null) {
        return s;
      }
      if (i == TRIES) {
        throw new FileSystemException(model, null, "commits kept replacing the model while it was being opened");
      }
    }
  }

  /** A call that reads the stored model pinned to one version (a clean's look at what the current commit names). */
  @FunctionalInterface
  public interface Call<T> {
    T call() throws IOException;
  }

  /**
   * Runs {@code call} again, at most {@value #TRIES} times in all, while it fails with the store's
   * {@code changed} exception: a {@code clean} that a commit overtook reads the new commit and
   * cleans against it (what it removes is decided from one version), instead of telling the user
   * to "mount the model again" — a clean mounts nothing.
   */
  public static <T> T again(Class<? extends IOException> changed, Call<T> call) throws IOException {
    for (int i = 1; ; i++) {
      try {
        return call.call();
      } catch (IOException e) {
        if (i == TRIES || !causedBy(e, changed)) {
          throw e;
        }
      }
    }
  }

  /** Whether {@code e} or one of its causes is a {@code type}. */
  static boolean causedBy(Throwable e, Class<? extends IOException> type) {
    for (Throwable t = e; type != null && t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }
}
