package org.modelfs.testing;

/**
 * How many repetitions a test makes: a few in the default run ({@code mvn -Pinterop verify}, which
 * must finish within 10 minutes on 2 cores), the full count under {@code -Pslow} (the profile sets
 * the system property {@code modelfs.slow}); a property of the test's own (e.g.
 * {@code -Dcrash.kills=25}) overrides both.
 */
public final class SlowRuns {
  private SlowRuns() {}

  /** Whether this is the {@code -Pslow} run. */
  public static boolean full() {
    return Boolean.getBoolean("modelfs.slow");
  }

  /** {@code property} if set, else {@code quick} in the default run and {@code full} under {@code -Pslow}. */
  public static int count(String property, int quick, int full) {
    return Integer.getInteger(property, full() ? full : quick);
  }
}
