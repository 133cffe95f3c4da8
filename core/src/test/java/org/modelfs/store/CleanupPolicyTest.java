package org.modelfs.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** When a store module's cleanup may delete: before the model object, and past the grace period. */
class CleanupPolicyTest {
  private static final String PROPERTY = "modelfs.testmodule.cleanup-grace-seconds";
  private final CleanupPolicy policy = new CleanupPolicy("testmodule");

  @AfterEach
  void clear() {
    System.clearProperty(PROPERTY);
  }

  @Test
  void theGraceIsADayUnlessTheModulesPropertySaysOtherwiseAndNeverNegative() {
    assertEquals(Duration.ofDays(1), policy.grace());
    System.setProperty(PROPERTY, "30");
    assertEquals(Duration.ofSeconds(30), policy.grace());
    System.setProperty(PROPERTY, "-5");
    assertEquals(Duration.ZERO, policy.grace());
  }

  @Test
  void theBoundIsTheEarlierOfTheModelsTimeAndNowMinusTheGrace() {
    System.setProperty(PROPERTY, "0");
    Instant old = Instant.parse("2020-01-01T00:00:00Z");
    assertEquals(old, policy.bound(old));
    Instant future = Instant.now().plusSeconds(3600);
    assertTrue(policy.bound(future).isBefore(future));
    System.setProperty(PROPERTY, "3600");
    assertTrue(policy.bound(null).isBefore(Instant.now().minusSeconds(3590)));
  }

  @Test
  void aFailedCleanupAfterACommitIsLoggedNotThrown() {
    boolean[] ran = {false};
    policy.afterCommit("x://m", () -> {
      ran[0] = true;
      throw new IOException("listing failed");
    });
    assertTrue(ran[0]);
  }
}
