package org.modelfs.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The background writeback of a file being written: bytes intact, thread ended, failures surface. */
class EarlyWritebackTest {
  @TempDir Path tmp;

  @Test
  void aFileLargerThanSeveralStepsIsWrittenIntactAndTheThreadEnds() throws IOException {
    Path f = tmp.resolve("big.bin");
    byte[] chunk = new byte[1 << 20];
    new Random(1).nextBytes(chunk);
    int chunks = (int) (2 * EarlyWriteback.STEP / chunk.length) + 3;
    EarlyWriteback wb;
    try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      wb = EarlyWriteback.start(ch, f.toString());
      try (wb) {
        for (int i = 0; i < chunks; i++) {
          ByteBuffer b = ByteBuffer.wrap(chunk);
          while (b.hasRemaining()) {
            ch.write(b);
          }
        }
        wb.finish();
      }
      assertTrue(wb.ended(), "finish joins the thread");
      ch.force(true);
    }
    assertTrue(Files.size(f) == (long) chunks * chunk.length);
    try (FileChannel ch = FileChannel.open(f)) {
      ByteBuffer b = ByteBuffer.allocate(chunk.length);
      ch.read(b, (long) (chunks - 1) * chunk.length);
      assertArrayEquals(chunk, b.array(), "the last chunk reads back");
    }
  }

  /** Waits (up to 10 s) for the thread to end on its own, as it does when a force or size fails. */
  private static void awaitEnd(EarlyWriteback wb) {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (!wb.ended() && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertTrue(wb.ended(), "the thread ends when its channel fails");
  }

  @Test
  void aFailureOfTheBackgroundThreadReachesFinishNamingTheFile() throws IOException {
    Path f = tmp.resolve("closed.bin");
    FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    EarlyWriteback wb = EarlyWriteback.start(ch, f.toString());
    ch.close(); // the thread's next size() fails and ends it
    awaitEnd(wb);
    IOException e = assertThrows(IOException.class, wb::finish);
    assertTrue(e.getMessage().contains("closed.bin"), e.getMessage());
    assertTrue(e.getCause() instanceof ClosedChannelException, String.valueOf(e.getCause()));
    assertTrue(wb.ended());
  }

  @Test
  void closeWithoutFinishStillStopsTheThreadAndReportsItsFailure() throws IOException {
    Path f = tmp.resolve("early.bin");
    try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      EarlyWriteback ok = EarlyWriteback.start(ch, f.toString());
      ok.close(); // a write that ended early: no failure to report
      assertTrue(ok.ended());
    }
    FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE);
    EarlyWriteback failing = EarlyWriteback.start(ch, f.toString());
    ch.close();
    awaitEnd(failing);
    IOException primary = new IOException("the write failed");
    try (failing) {
      throw primary;
    } catch (IOException e) {
      assertTrue(e == primary);
      assertTrue(e.getSuppressed().length == 1 && e.getSuppressed()[0].getMessage().contains("early.bin"),
          "the background failure is added to the write's own");
    }
  }
}
