package org.modelfs.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The store modules' SIGKILL test (issue 34: a writer killed mid-commit leaves the old model or
 * the new, never a mix): one unkilled {@link CommitChild} writer measures how long a commit
 * takes; then, {@code kills} times, a child writing the next version is killed at a random moment
 * of its commit (from a seeded {@link Random}: a failure names the seed), the model must read as
 * the old version or the new one, and the module checks what lies beside it.
 */
public final class KillLoop {
  private KillLoop() {}

  /** Starts a child writer (its temporary directory named {@code name}) of {@code version}. */
  @FunctionalInterface
  public interface Child {
    CommitChild.Running start(String name, int version) throws Exception;
  }

  /** The version the model reads as now ({@link VersionedModel#version}). */
  @FunctionalInterface
  public interface Version {
    int read() throws Exception;
  }

  /** The module's check after each kill (only the model's own objects beside it; a lease's expiry). */
  @FunctionalInterface
  public interface Check {
    void run() throws Exception;
  }

  /** What the kills left: how long an unkilled commit took, how many kills left the old model and how many the new. */
  public record Outcome(long commitNanos, int olds, int news) {}

  /** Runs the loop (the model stored as version 1's predecessor or anything the first child replaces). */
  public static Outcome run(long seed, int kills, Child child, Version version, Check afterEach) throws Exception {
    Random random = new Random(seed);
    int now = 1;
    long commitNanos;
    try (CommitChild.Running c = child.start("child0", now)) {
      c.await("WRITTEN");
      long t0 = System.nanoTime();
      assertEquals("COMMITTED", c.await("COMMITTED", "REFUSED"));
      commitNanos = System.nanoTime() - t0;
    }
    assertEquals(now, version.read());
    int olds = 0;
    int news = 0;
    for (int i = 1; i <= kills; i++) {
      int next = now + 1;
      long delay = (long) (random.nextDouble() * commitNanos * 1.2);
      try (CommitChild.Running c = child.start("child" + i, next)) {
        assertEquals("WRITTEN", c.await("WRITTEN", "REFUSED", "Exception"), "the child writer after a kill (seed "
            + seed + ")");
        TimeUnit.NANOSECONDS.sleep(delay);
        c.process.destroyForcibly(); // SIGKILL
        c.process.waitFor(30, TimeUnit.SECONDS);
      }
      int seen = version.read();
      assertTrue(seen == now || seen == next, "after a kill " + delay / 1000 + " µs into the commit: version "
          + seen + ", not the old " + now + " or the new " + next + " (seed " + seed + ")");
      if (seen == next) {
        news++;
        now = next;
      } else {
        olds++;
      }
      afterEach.run();
    }
    return new Outcome(commitNanos, olds, news);
  }

  /** The line a test prints: {@code model: N kills over a T ms commit: O old, W new (seed S)}. */
  public static String summary(String model, int kills, Outcome o, long seed) {
    return model + ": " + kills + " kills over a " + o.commitNanos() / 1_000_000 + " ms commit: " + o.olds() + " old, "
        + o.news() + " new (seed " + seed + ")";
  }
}
