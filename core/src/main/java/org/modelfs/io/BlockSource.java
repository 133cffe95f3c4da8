package org.modelfs.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileSystemException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The bytes of one object in a store that serves byte ranges (S3's ranged GET, Azure's ranged Get
 * Blob), read in blocks: the one owner of how such a source reads, so that every store fetches
 * alike and is held to the same checks. A store says only how to fetch ranges ({@link #fetch})
 * and maps its own failures (a replaced object) to its exception; the sizes are its
 * {@link Shape}, the cache its {@link Cache}. Statistics are the store's (it counts its requests).
 *
 * <ul>
 *   <li>a read of at least one block fetches exactly what it asks for, up to
 *       {@link Shape#largeAtOnce} ranges of at most {@link Shape#maxFetch} bytes, sent as one
 *       {@link #fetch}, and is not cached;
 *   <li>a smaller read fetches its aligned block into the cache — the index of a model is read
 *       so, a few blocks per open;
 *   <li>small reads that walk forward (the block wanted is the one after the last fetch) fetch
 *       runs of blocks that double each time, up to {@link Shape#runBlocks}: a forward walk costs a
 *       logarithmic number of round trips, not one per block (issue 34);
 *   <li>a {@link #prefetch} fetches the blocks of its range that are not cached, at most
 *       {@link Shape#prefetchBlocks} from the first on, one range per run of adjacent missing
 *       blocks ({@link MissingBlocks}), all in one {@link #fetch}; a walk on from the last of them
 *       goes on doubling from there.
 * </ul>
 * Every range fetched must come back with exactly the bytes asked for, else the read fails with a
 * {@link FileSystemException} naming the source (a store that ignored the range). Any number of
 * threads read at once: nothing has a position, and the cache's lock is never held during a fetch.
 */
public abstract class BlockSource extends RemoteSource {

  /**
   * How a store's source fetches.
   *
   * @param block bytes per cached block
   * @param maxFetch bytes per range at most (a run or a prefetch is never longer)
   * @param runBlocks blocks a forward walk's run grows to at most
   * @param prefetchBlocks blocks one prefetch fetches at most (what the cache keeps until read)
   * @param largeAtOnce ranges one large read fetches at once
   */
  public record Shape(int block, int maxFetch, int runBlocks, int prefetchBlocks, int largeAtOnce) {
    public Shape {
      if (block < 1 || maxFetch < block || runBlocks < 1 || prefetchBlocks < 1 || largeAtOnce < 1
          || (long) runBlocks * block > maxFetch || (long) prefetchBlocks * block > maxFetch) {
        throw new IllegalArgumentException("block source shape " + block + ", " + maxFetch + ", " + runBlocks + ", "
            + prefetchBlocks + ", " + largeAtOnce);
      }
    }
  }

  /** The blocks one source has fetched (thread-safe; the source never holds its lock during a fetch). */
  public interface Cache {
    /** Block {@code index}, or {@code null} if not held (a get may count as a use). */
    byte[] get(long index);

    /** Holds {@code blocks}, blocks {@code first} on (one fetch's). */
    void put(long first, List<byte[]> blocks);

    /** Drops every block (the source closed). */
    void clear();
  }

  /** Takes the bytes of range {@code i} of a {@link #fetch}. */
  @FunctionalInterface
  protected interface Fetched {
    void got(int i, byte[] bytes) throws IOException;
  }

  private final Shape shape;
  private final Cache cache;
  /** The block after the last run fetched, and that run's length in blocks: the forward walk's state. */
  private volatile long nextBlock = -1;
  private volatile int run = 1;

  protected BlockSource(String name, long size, Shape shape, Cache cache) {
    super(name, size);
    this.shape = shape;
    this.cache = cache;
  }

  /**
   * Fetches the ranges {@code [positions[i], positions[i] + lengths[i])} of the object (as many as
   * the store sends at once) and hands each one's bytes to {@code got}, in order — as each arrives
   * or once all have. A failure is thrown as the read should throw it (the store's own exception
   * for a replaced or removed object); ranges handed over before it stay cached.
   */
  protected abstract void fetch(long[] positions, int[] lengths, Fetched got) throws IOException;

  @Override
  protected final int readAt(ByteBuffer dst, long position, int want) throws IOException {
    int block = shape.block();
    if (want >= block) {
      return readLarge(dst, position, want);
    }
    long index = position / block;
    byte[] bytes = cache.get(index);
    if (bytes == null) {
      bytes = fetchRun(index);
    }
    int off = (int) (position - index * block);
    int n = Math.min(want, bytes.length - off);
    dst.put(bytes, off, n);
    return n;
  }

  /** Fetches block {@code index} — and the blocks after it, when the reads walk forward — into the cache. */
  private byte[] fetchRun(long index) throws IOException {
    int block = shape.block();
    int blocks = index == nextBlock ? Math.min(run * 2, shape.runBlocks()) : 1;
    long from = index * block;
    int length = (int) Math.min((long) blocks * block, size() - from);
    byte[][] first = new byte[1][];
    fetchChecked(new long[] {from}, new int[] {length}, (i, b) -> first[0] = cache(index, b));
    run = blocks;
    nextBlock = index + (length + block - 1) / block;
    return first[0];
  }

  /** Caches {@code bytes}, the blocks from {@code index} on; returns the first block's. */
  private byte[] cache(long index, byte[] bytes) {
    int block = shape.block();
    int count = (bytes.length + block - 1) / block;
    List<byte[]> blocks = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int off = i * block;
      blocks.add(count == 1 ? bytes : Arrays.copyOfRange(bytes, off, Math.min(bytes.length, off + block)));
    }
    cache.put(index, blocks);
    return blocks.get(0);
  }

  @Override
  protected final void prefetchAt(long position, long length) throws IOException {
    int block = shape.block();
    List<MissingBlocks.Run> runs = MissingBlocks.of(position, length, size(), block, shape.prefetchBlocks(),
        i -> cache.get(i) != null);
    if (runs.isEmpty()) {
      return;
    }
    long[] positions = new long[runs.size()];
    int[] lengths = new int[runs.size()];
    for (int i = 0; i < positions.length; i++) {
      positions[i] = runs.get(i).from();
      lengths[i] = runs.get(i).length();
    }
    fetchChecked(positions, lengths, (i, b) -> cache(runs.get(i).first(), b));
    nextBlock = MissingBlocks.after(runs, block);
  }

  /** A read of at least one block, straight into {@code dst}: up to {@link Shape#largeAtOnce} ranges in one fetch. */
  private int readLarge(ByteBuffer dst, long position, int want) throws IOException {
    int maxFetch = shape.maxFetch();
    int count = (int) Math.min(shape.largeAtOnce(), ((long) want + maxFetch - 1) / maxFetch);
    long[] positions = new long[count];
    int[] lengths = new int[count];
    long at = position;
    for (int i = 0; i < count; i++) {
      positions[i] = at;
      lengths[i] = (int) Math.min(maxFetch, position + want - at);
      at += lengths[i];
    }
    int[] n = {0};
    fetchChecked(positions, lengths, (i, b) -> {
      dst.put(b);
      n[0] += b.length;
    });
    return n[0];
  }

  /** {@link #fetch}, each range checked to be as long as asked before it is used. */
  private void fetchChecked(long[] positions, int[] lengths, Fetched got) throws IOException {
    fetch(positions, lengths, (i, b) -> {
      if (b.length != lengths[i]) {
        throw new FileSystemException(name(), null, "a fetch of " + lengths[i] + " bytes at offset " + positions[i]
            + " returned " + b.length + " bytes (the store ignored the range, or the object is shorter than its"
            + " size said)");
      }
      got.got(i, b);
    });
  }

  @Override
  protected void release() throws IOException {
    cache.clear();
  }
}
