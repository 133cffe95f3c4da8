package org.modelfs.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A store module's open, tried again while commits replace what it reads. */
class OpenAgainTest {
  /** The store's exception for a pinned read of a replaced object (s3's ObjectChangedException). */
  static final class Changed extends FileSystemException {
    Changed() {
      super("x://m", null, "the object was replaced");
    }
  }

  private static final Snapshot OPENED = new Snapshot(null, new Generation(List.of("m@1")));

  @Test
  void aReplacedObjectAnywhereInTheCausesIsTriedAgain() throws IOException {
    int[] tries = {0};
    Snapshot s = OpenAgain.open("x://m", Changed.class, () -> {
      if (++tries[0] < 3) {
        throw new IOException("reading the graph", new Changed()); // a reader's wrapping
      }
      return OPENED;
    });
    assertSame(OPENED, s);
    assertEquals(3, tries[0]);
  }

  @Test
  void theLastTrysFailureIsThrownAsItIs() {
    int[] tries = {0};
    Changed last = new Changed();
    assertSame(last, assertThrows(Changed.class, () -> OpenAgain.open("x://m", Changed.class, () -> {
      tries[0]++;
      throw last;
    })));
    assertEquals(OpenAgain.TRIES, tries[0]);
  }

  @Test
  void anyOtherFailureIsThrownAtOnce() {
    int[] tries = {0};
    assertThrows(java.nio.file.NoSuchFileException.class, () -> OpenAgain.open("x://m", Changed.class, () -> {
      tries[0]++;
      throw new java.nio.file.NoSuchFileException("x://m");
    }));
    assertEquals(1, tries[0]);
    assertThrows(Changed.class, () -> OpenAgain.open("x://m", null, () -> {
      tries[0]++;
      throw new Changed();
    }));
    assertEquals(2, tries[0], "no exception type: nothing is tried again");
  }

  @Test
  void aCommitSeenByTheAttemptItselfIsTriedAgainThenSaid() throws IOException {
    int[] tries = {0};
    assertSame(OPENED, OpenAgain.open("x://m", null, () -> ++tries[0] < 2 ? null : OPENED));
    FileSystemException e = assertThrows(FileSystemException.class, () -> OpenAgain.open("hdfs://nn/m.fb", null,
        () -> null));
    assertEquals("hdfs://nn/m.fb: commits kept replacing the model while it was being opened", e.getMessage());
  }

  /** A clean overtaken by a commit: its call is made again while it meets the store's "changed", at most TRIES times. */
  @Test
  void againRepeatsACallOnlyWhileTheModelChanges() throws IOException {
    int[] tries = {0};
    assertEquals("cleaned", OpenAgain.again(Changed.class, () -> {
      if (++tries[0] < 3) {
        throw new Changed();
      }
      return "cleaned";
    }));
    assertEquals(3, tries[0]);
    tries[0] = 0;
    assertThrows(Changed.class, () -> OpenAgain.again(Changed.class, () -> {
      tries[0]++;
      throw new Changed();
    }));
    assertEquals(OpenAgain.TRIES, tries[0]);
    tries[0] = 0;
    assertThrows(java.nio.file.NoSuchFileException.class, () -> OpenAgain.again(Changed.class, () -> {
      tries[0]++;
      throw new java.nio.file.NoSuchFileException("x://m");
    }));
    assertEquals(1, tries[0], "another failure: at once");
  }
}
