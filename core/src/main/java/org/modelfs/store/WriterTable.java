package org.modelfs.store;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One writer per model per JVM, for a store module's {@link Backing}: the table of held leases,
 * keyed by the model's identity in its store (s3: endpoint, bucket, key; azure: account,
 * container, key; hdfs: cluster and path). Between processes the store decides — a conditional
 * commit (s3, azure), or a lock the store module takes across clients after the table's entry
 * (HDFS's lease on a lock file, {@code across}), released after it. The local directory's
 * counterpart, with an OS file lock, is {@link ModelLock}.
 *
 * <p>Each backing class keeps one table ({@code static final}), so identities of different stores never meet.
 */
public final class WriterTable {
  private final Map<Object, Lease> held = new ConcurrentHashMap<>();

  /** A store's own lock across processes, taken after the table's entry and released before it. */
  @FunctionalInterface
  public interface Across {
    Backing.Lease take() throws IOException;
  }

  /**
   * Takes the table's entry for {@code identity}, then {@code across} (may be {@code null}).
   *
   * @param model the model as the user names it, for the message
   * @param between what keeps writers of other processes apart, appended to the message (may be empty)
   * @throws FileSystemException if another writer of this JVM holds the model
   */
  public Lease take(Object identity, String model, String between, Across across) throws IOException {
    Lease l = new Lease(identity);
    if (held.putIfAbsent(identity, l) != null) {
      throw new FileSystemException(model, null, "another writer in this JVM has the model open for writing"
          + between);
    }
    if (across != null) {
      try {
        l.across = across.take();
      } catch (IOException | RuntimeException e) {
        held.remove(identity, l);
        throw e;
      }
    }
    return l;
  }

  /**
   * {@code lease} as a held lease of this table for {@code identity}.
   *
   * @throws IllegalStateException if it is not one (a caller's mistake, never the user's)
   */
  public Lease own(Backing.Lease lease, Object identity, String model) {
    if (!(lease instanceof Lease l) || l.table() != this || !l.identity.equals(identity) || !l.held()) {
      throw new IllegalStateException("not a held lock of " + model + ": " + lease);
    }
    return l;
  }

  /** A held entry of the table (and the store's lock across processes, if any); closing releases both. */
  public final class Lease implements Backing.Lease {
    private final Object identity;
    private volatile Backing.Lease across;
    /** Set by the first {@link #close}: a second one, from any thread, releases nothing again. */
    private final java.util.concurrent.atomic.AtomicBoolean closing = new java.util.concurrent.atomic.AtomicBoolean();

    private Lease(Object identity) {
      this.identity = identity;
    }

    private WriterTable table() {
      return WriterTable.this;
    }

    /** The store's lock across processes this lease holds, or {@code null}. */
    public Backing.Lease across() {
      return across;
    }

    @Override
    public boolean held() {
      Backing.Lease a = across;
      return held.get(identity) == this && (a == null || a.held());
    }

    /**
     * Releases the lock across processes first, then the table's entry: until the store's lock is
     * gone no other taker of this JVM gets in. (Before, the entry went first: a clean of the same
     * model in this JVM then met the releasing writer's HDFS lease — its own client's — and
     * ended it, or failed with Hadoop's bare "File does not exist" for the lock file.)
     */
    @Override
    public void close() throws IOException {
      if (held.get(identity) != this || !closing.compareAndSet(false, true)) {
        return;
      }
      try {
        if (across != null) {
          across.close();
        }
      } finally {
        held.remove(identity, this);
      }
    }
  }
}
