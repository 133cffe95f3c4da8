package org.modelfs.provider;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.modelfs.io.ByteSource;
import org.modelfs.io.ChannelSource;
import org.modelfs.io.DescriptorPool;
import org.modelfs.model.ArrayData;
import org.modelfs.model.Tag;

/**
 * The journal files a session's tree reads (written arrays, graphs, graph.json): each one a
 * {@linkplain ChannelSource#pooled pooled} source (no descriptor while idle) that deletes its file
 * when closed. A file the tree no longer shows — rewritten, deleted, or committed into the
 * container — is {@linkplain Lifetimes#retire retired}: closed and deleted once no open channel
 * may read it (docs/FILESYSTEM.md §8).
 *
 * <p>Which files the tree still shows is found by walking the tags (a sweep). A sweep runs after a
 * commit and after edits — after every edit while the tags hold at most {@link #SWEEP_RATIO}
 * arrays, else once every {@code arrays / SWEEP_RATIO} edits — so its cost is at most
 * {@code SWEEP_RATIO} array visits per edit amortised, and superseded files kept meanwhile are at
 * most one per {@code SWEEP_RATIO} arrays of the model. Guarded by the session's change lock.
 */
final class JournalSources {
  /** Edits between sweeps: one per this many arrays in the tags (at least every edit). */
  static final int SWEEP_RATIO = 256;

  private final Lifetimes lifetimes;
  private final OpenResources resources;
  private final DescriptorPool pool;
  /** The live journal sources and the tick each was born at. */
  private final Map<ChannelSource, Long> live = new IdentityHashMap<>();
  /** Sources of files that write channels still write into: kept whatever the tree shows. */
  private final Set<ChannelSource> held = Collections.newSetFromMap(new IdentityHashMap<>());
  private long editsSinceSweep;
  private long arraysAtSweep;

  JournalSources(Lifetimes lifetimes, OpenResources resources, DescriptorPool pool) {
    this.lifetimes = lifetimes;
    this.resources = resources;
    this.pool = pool;
  }

  /** A source on the journal file {@code data}, deleted when it is closed. */
  ChannelSource open(Path data) throws IOException {
    long born = lifetimes.born();
    ChannelSource src = resources.add(ChannelSource.pooled(String.valueOf(data.getFileName()), data, pool, true));
    live.put(src, born);
    return src;
  }

  /** Keeps {@code source} while write channels still write into its file, whatever the tree shows. */
  void hold(ChannelSource source) {
    held.add(source);
  }

  /** The last write channel into {@code source}'s file closed: the next sweep may retire it. */
  void release(ChannelSource source) {
    held.remove(source);
  }

  /** An edit swapped in {@code tags}: sweeps when it is due. */
  void edited(List<Tag> tags) throws IOException {
    editsSinceSweep++;
    if (!live.isEmpty() && editsSinceSweep * SWEEP_RATIO >= arraysAtSweep) {
      sweep(tags);
    }
  }

  /** Retires every journal source {@code tags} do not read. */
  void sweep(List<Tag> tags) throws IOException {
    editsSinceSweep = 0;
    if (live.isEmpty()) {
      return;
    }
    Set<ByteSource> used = Collections.newSetFromMap(new IdentityHashMap<>());
    used.addAll(held);
    long[] arrays = {0};
    // only journal sources are collected (the set stays as small as the journal), and the
    // index is walked in place (no list laid out per sweep)
    Consumer<ByteSource> use = s -> {
      ByteSource r = root(s);
      if (live.containsKey(r)) {
        used.add(r);
      }
    };
    for (Tag t : tags) {
      t.vars().range("", null, (n, v) -> {
        arrays[0]++;
        if (v.array() != null) {
          use.accept(v.array().source());
        }
        return true;
      });
      t.states().range("", null, (n, u) -> {
        for (ArrayData a : u.arrays().values()) {
          arrays[0]++;
          use.accept(a.source());
        }
        return true;
      });
      if (t.graph() != null) {
        use.accept(t.graph().source());
      }
    }
    arraysAtSweep = arrays[0];
    Map<ChannelSource, Long> gone = new IdentityHashMap<>();
    for (var it = live.entrySet().iterator(); it.hasNext(); ) {
      var e = it.next();
      ChannelSource source = e.getKey();
      long born = e.getValue();
      if (!used.contains(source)) {
        it.remove(); // (an IdentityHashMap entry is invalid once removed: key and tick read first)
        gone.put(source, born);
      }
    }
    if (!gone.isEmpty()) {
      lifetimes.retire(gone, lifetimes.advance() - 1);
    }
  }

  private static ByteSource root(ByteSource s) {
    while (s.viewOf() != null) {
      s = s.viewOf();
    }
    return s;
  }
}
