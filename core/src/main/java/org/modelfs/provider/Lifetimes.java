package org.modelfs.provider;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.modelfs.io.Closer;

/**
 * When a mount's replaced resources — a committed model's container sources, a superseded
 * journal file — may be closed: as soon as no open channel can still read them
 * (docs/FILESYSTEM.md §8).
 *
 * <p>Time is a counter, the <em>tick</em>, advanced each time the tree drops resources. A resource is {@linkplain #born() born} at the tick it is made (before any tree shows
 * it) and retired at a later one; a channel {@linkplain #pin() pins} the tick it was opened at
 * and reads only what the tree showed then. A retired resource is closed once no open channel's
 * pin lies in {@code [born, retired]}: a channel keeps alive exactly what was current when it was
 * opened, so one channel left open holds one generation, never the ones after it.
 *
 * <p>Lock order: taken inside the change lock (commit, edits) and alone (a channel's close);
 * nothing else is taken inside it, and resources are closed outside it.
 */
final class Lifetimes {
  private final OpenResources resources;
  private long tick; // guarded by this
  /** Open channels by the tick they pinned: how many. */
  private final TreeMap<Long, Integer> pins = new TreeMap<>(); // guarded by this
  private final List<Retired> retired = new ArrayList<>(); // guarded by this
  private boolean closed; // guarded by this

  /** A resource no tree shows any more, and the ticks it was current between. */
  private record Retired(Closeable resource, long born, long retiredAt) {}

  Lifetimes(OpenResources resources) {
    this.resources = resources;
  }

  /** The tick now: a resource made now is born at it. */
  synchronized long born() {
    return tick;
  }

  /** Pins the tick now for a channel about to be opened; {@link #unpin} it when the channel closes. */
  synchronized long pin() {
    pins.merge(tick, 1, Integer::sum);
    return tick;
  }

  /** Whether nothing was retired since {@code pinned} (what a reader looked up is still covered by its pin). */
  synchronized boolean current(long pinned) {
    return tick == pinned;
  }

  /** A channel that pinned {@code pinned} closed: closes what only it kept alive. */
  void unpin(long pinned) throws IOException {
    List<Closeable> free;
    synchronized (this) {
      pins.computeIfPresent(pinned, (k, n) -> n == 1 ? null : n - 1);
      free = due();
    }
    close(free);
  }

  /**
   * Advances the tick: call it before swapping in a tree that drops resources. Resources made for
   * the new tree are born at the returned tick; what it drops was last current at the tick
   * before. A reader that pinned the old tick and then looked up the new tree sees the tick moved
   * and looks again ({@link #current}).
   */
  synchronized long advance() {
    return ++tick;
  }

  /**
   * The resources of {@code born} (each registered with the mount's {@link OpenResources}, with the
   * tick it was born at) are no longer in the tree, which last showed them at tick
   * {@code lastCurrent} ({@link #advance()} has moved past it): each is closed now, or when the
   * last channel that pinned a tick in {@code [born, lastCurrent]} closes.
   */
  void retire(Map<? extends Closeable, Long> born, long lastCurrent) throws IOException {
    if (born.isEmpty()) {
      return;
    }
    List<Closeable> free;
    synchronized (this) {
      if (lastCurrent >= tick) {
        throw new IllegalStateException("advance past tick " + lastCurrent + " before retiring what it showed");
      }
      born.forEach((resource, b) -> retired.add(new Retired(resource, b, lastCurrent)));
      free = due();
    }
    close(free);
  }

  /** The mount is closing: it closes everything itself; nothing is closed from here any more. */
  synchronized void shutdown() {
    closed = true;
    retired.clear();
  }

  /** Takes out the retired resources no pinned channel can read (hold the monitor). */
  private List<Closeable> due() {
    List<Closeable> free = new ArrayList<>();
    if (closed) {
      return free;
    }
    for (Iterator<Retired> it = retired.iterator(); it.hasNext(); ) {
      Retired r = it.next();
      if (pins.subMap(r.born(), true, r.retiredAt(), true).isEmpty()) {
        it.remove();
        free.add(r.resource());
      }
    }
    return free;
  }

  private void close(List<Closeable> free) throws IOException {
    for (Closeable c : free) {
      resources.remove(c);
    }
    Closer.closeAll(free);
  }
}
