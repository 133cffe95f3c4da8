package org.modelfs.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The store modules' one writer per model per JVM, and the store's own lock taken after it. */
class WriterTableTest {
  private final WriterTable table = new WriterTable();

  /** A stand-in for a store's lock across processes (HDFS's lease), recording what happens to it. */
  private static class Across implements Backing.Lease {
    final List<String> events;
    boolean held = true;

    Across(List<String> events) {
      this.events = events;
      events.add("taken");
    }

    @Override
    public boolean held() {
      return held;
    }

    @Override
    public void close() {
      held = false;
      events.add("released");
    }
  }

  @Test
  void aSecondWriterOfTheModelIsRefusedNamingItUntilTheFirstCloses() throws IOException {
    WriterTable.Lease l = table.take("m", "s3://b/m.fb", " (between processes the store decides)", null);
    FileSystemException e = assertThrows(FileSystemException.class, () -> table.take("m", "s3://b/m.fb",
        " (between processes the store decides)", null));
    assertEquals("s3://b/m.fb: another writer in this JVM has the model open for writing (between processes the"
        + " store decides)", e.getMessage());
    WriterTable.Lease other = table.take("n", "s3://b/n.fb", "", null);
    assertTrue(l.held() && other.held());
    l.close();
    assertFalse(l.held());
    l.close(); // twice: nothing more
    assertTrue(table.take("m", "s3://b/m.fb", "", null).held());
  }

  /**
   * The lock across processes is released before the table's entry: while it is being released
   * (HDFS: the lock file deleted, its stream closed) another taker of this JVM is still refused,
   * so it never meets the releasing writer's lease (before: the entry went first, and a clean of
   * the same model in this JVM ended that lease, or failed on the vanishing lock file).
   */
  @Test
  void whileTheLockAcrossIsReleasedTheModelIsStillHeld() throws IOException {
    List<String> events = new ArrayList<>();
    WriterTable.Lease l = table.take("m", "hdfs://nn/m.sdnb", "", () -> new Across(events) {
      @Override
      public void close() {
        try {
          table.take("m", "hdfs://nn/m.sdnb", "", null).close();
          events.add("another taker got in");
        } catch (IOException e) {
          events.add("another taker refused");
        }
        super.close();
      }
    });
    l.close();
    assertEquals(List.of("taken", "another taker refused", "released"), events);
    assertTrue(table.take("m", "hdfs://nn/m.sdnb", "", null).held(), "free once released");
  }

  @Test
  void ownAcceptsOnlyAHeldLeaseOfThisTableForThisModel() throws IOException {
    WriterTable.Lease l = table.take("m", "x://m", "", null);
    assertSame(l, table.own(l, "m", "x://m"));
    assertThrows(IllegalStateException.class, () -> table.own(l, "n", "x://n"));
    assertThrows(IllegalStateException.class, () -> new WriterTable().own(l, "m", "x://m"));
    assertThrows(IllegalStateException.class, () -> table.own(new Across(new ArrayList<>()), "m", "x://m"));
    l.close();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> table.own(l, "m", "x://m"));
    assertTrue(e.getMessage().startsWith("not a held lock of x://m"), e.getMessage());
  }

  @Test
  void theStoresLockIsTakenAfterTheEntryAndReleasedWithIt() throws IOException {
    List<String> events = new ArrayList<>();
    WriterTable.Lease l = table.take("m", "hdfs://nn/m.fb", "", () -> new Across(events));
    Across a = (Across) l.across();
    assertTrue(l.held());
    a.held = false; // the store lost it (HDFS: the lease expired)
    assertFalse(l.held(), "a lease whose store lock is lost is not held");
    assertThrows(IllegalStateException.class, () -> table.own(l, "m", "hdfs://nn/m.fb"));
    l.close();
    assertEquals(List.of("taken", "released"), events);
  }

  @Test
  void aStoreLockThatCannotBeTakenLeavesTheEntryFree() throws IOException {
    IOException refused = new FileSystemException("hdfs://nn/m.fb", null, "held by another client");
    assertSame(refused, assertThrows(IOException.class, () -> table.take("m", "hdfs://nn/m.fb", "", () -> {
      throw refused;
    })));
    assertTrue(table.take("m", "hdfs://nn/m.fb", "", null).held());
  }

  @Test
  void twoClosesAtOnceReleaseTheLockAcrossOnce() throws Exception {
    for (int round = 0; round < 200; round++) {
      List<String> events = java.util.Collections.synchronizedList(new ArrayList<>());
      WriterTable.Lease l = table.take("m", "hdfs://n/m.sdnb", "", () -> new Across(events));
      java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(2);
      Thread other = new Thread(() -> {
        try {
          start.await();
          l.close();
        } catch (Exception e) {
          throw new RuntimeException(e);
        }
      });
      other.start();
      start.await();
      l.close();
      other.join();
      assertEquals(List.of("taken", "released"), events, "round " + round);
      assertFalse(l.held());
    }
  }
}
