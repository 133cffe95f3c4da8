package org.modelfs.hdfs;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Failures injected into the namespace changes a client makes (creates, deletes, renames), for
 * {@link FaultyDfs} and {@code org.apache.hadoop.fs.FaultyHdfs}: the {@code n}th such call fails
 * before the NameNode applies it ({@link #failBefore}: it and every later one, an outage), or
 * after it applied it ({@link #failAfter}: only that one, the answer lost).
 */
public final class HdfsFaults {
  private static final AtomicInteger SEEN = new AtomicInteger();
  private static volatile int at;
  private static volatile boolean after;
  /** When set: the first call whose description starts with it fails ({@link #after}: once applied), and no other. */
  private static volatile String only;
  private static final List<String> FAILED = new ArrayList<>();

  private HdfsFaults() {}

  /** The namespace call {@code what} is about to be made: throws if it fails before. */
  public static void before(String what) throws IOException {
    String o = only;
    if (o != null) {
      if (!after && what.startsWith(o)) {
        only = null;
        fail(what);
      }
      return;
    }
    if (at > 0 && !after && SEEN.incrementAndGet() >= at) {
      fail(what);
    }
  }

  /** The namespace call {@code what} was applied: throws if its answer is lost. */
  public static void after(String what) throws IOException {
    String o = only;
    if (o != null) {
      if (after && what.startsWith(o)) {
        only = null;
        fail(what);
      }
      return;
    }
    if (at > 0 && after && SEEN.incrementAndGet() == at) {
      fail(what);
    }
  }

  private static void fail(String what) throws IOException {
    synchronized (FAILED) {
      FAILED.add(what);
    }
    throw new IOException("injected failure of " + what);
  }

  static void failBefore(int n) {
    set(n, false);
  }

  static void failAfter(int n) {
    set(n, true);
  }

  private static void set(int n, boolean afterIt) {
    synchronized (FAILED) {
      FAILED.clear();
    }
    SEEN.set(0);
    after = afterIt;
    at = n;
  }

  /**
   * The first call whose description ({@code rename …}, {@code create …}, {@code delete …}) starts
   * with {@code prefix} fails, before it is applied or after.
   */
  static void failFirst(boolean afterIt, String prefix) {
    set(0, afterIt);
    only = prefix;
  }

  static void off() {
    at = 0;
    only = null;
  }

  /** The calls that failed since the last {@link #failBefore} / {@link #failAfter}. */
  static List<String> failed() {
    synchronized (FAILED) {
      return List.copyOf(FAILED);
    }
  }
}
