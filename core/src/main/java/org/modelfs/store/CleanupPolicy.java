package org.modelfs.store;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;

/**
 * When a store module's cleanup may delete what dead commits of shard sets left (s3's and azure's
 * {@code Cleanup}; docs/OBJECT-STORES.md): only objects written <em>strictly before</em> the model
 * object itself — a writer whose commit can still succeed mounted that object, so what it uploads
 * is younger — and more than the grace period ago ({@value #DEFAULT_GRACE_SECONDS} s by default,
 * system property {@code modelfs.<module>.cleanup-grace-seconds}, read at each run). The store's
 * clock dates all of them, so machines' clocks do not matter. A cleanup after a successful commit
 * that fails does not undo the commit: it is logged (WARNING) to the {@code System.Logger}
 * {@code org.modelfs.<module>} and the objects are removed next time.
 *
 * @param module the store module's name ({@code s3}, {@code azure}): its property and logger
 */
public record CleanupPolicy(String module) {
  /** The grace period's default: a day. */
  public static final long DEFAULT_GRACE_SECONDS = 24 * 3600;

  /** A store module's cleanup run. */
  @FunctionalInterface
  public interface Run {
    void run() throws IOException;
  }

  /** The grace period now. */
  public Duration grace() {
    return Duration.ofSeconds(Math.max(0, Long.getLong("modelfs." + module + ".cleanup-grace-seconds",
        DEFAULT_GRACE_SECONDS)));
  }

  /** What may be deleted was written before this: the earlier of {@code modelWritten} (may be {@code null}) and now minus the grace period. */
  public Instant bound(Instant modelWritten) {
    Instant g = Instant.now().minus(grace());
    return modelWritten == null || g.isBefore(modelWritten) ? g : modelWritten;
  }

  /** After a successful commit of {@code model}: {@code cleanup}, its failure logged (the commit stands). */
  public void afterCommit(String model, Run cleanup) {
    try {
      cleanup.run();
    } catch (IOException | RuntimeException e) {
      warn(model, "the commit succeeded, but removing what earlier commits left failed (the next commit or"
          + " 'modelfs clean' removes it)", e);
    }
  }

  /** Reports a failure that does not undo a successful commit of {@code model}. */
  public void warn(String model, String what, Exception e) {
    System.getLogger("org.modelfs." + module).log(System.Logger.Level.WARNING, model + ": " + what + ": " + e, e);
  }
}
