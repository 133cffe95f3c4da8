package org.modelfs.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ModelLock}: one owner per model per JVM (without a second descriptor), OS lock across processes. */
class ModelLockTest {
  @TempDir Path tmp;

  private ModelId id(String name) throws IOException {
    return ModelId.of(tmp.resolve(name));
  }

  private Path lockFile(ModelId id) {
    return id.dir().resolve(SidecarNames.lock(id.key()));
  }

  @Test
  void acquireCreatesTheLockFileAndCloseRemovesIt() throws IOException {
    ModelId id = id("m.fb");
    assertFalse(ModelLock.heldHere(id));
    ModelLock l = ModelLock.acquire(id);
    try {
      assertSame(id, l.id());
      assertTrue(l.held());
      assertTrue(ModelLock.heldHere(id));
      assertTrue(Files.isRegularFile(lockFile(id), LinkOption.NOFOLLOW_LINKS));
      assertEquals(".m.fb.modelfs-lock", lockFile(id).getFileName().toString());
    } finally {
      l.close();
    }
    assertFalse(l.held());
    assertFalse(ModelLock.heldHere(id));
    assertFalse(Files.exists(lockFile(id), LinkOption.NOFOLLOW_LINKS), "the holder removes the lock file");
    ModelLock again = ModelLock.tryAcquire(id);
    assertNotNull(again, "released: a new owner can take it");
    again.close();
    assertFalse(Files.exists(lockFile(id), LinkOption.NOFOLLOW_LINKS));
  }

  @Test
  void aSecondOwnerInThisJvmIsRefused() throws IOException {
    ModelId id = id("m.fb");
    try (ModelLock l = ModelLock.acquire(id)) {
      assertNull(ModelLock.tryAcquire(id));
      assertNull(ModelLock.tryAcquire(ModelId.of(tmp.resolve("m.fb"))), "an equal identity is the same lock");
      FileSystemException e = assertThrows(FileSystemException.class, () -> ModelLock.acquire(id));
      assertEquals(lockFile(id).toString(), e.getOtherFile());
      assertEquals(id.toString(), e.getFile());
      assertTrue(e.getReason().contains("another writer"), e.getReason());
      assertTrue(l.held(), "the refused taker did not disturb the owner");
      assertTrue(ModelLock.heldHere(id));
    }
  }

  @Test
  void everySpellingOfAShardSetSharesOneLock() throws IOException {
    for (int k = 0; k < 2; k++) {
      Files.writeString(tmp.resolve("m.shard" + k + "-of-2.sdnb"), "SDNB x"); // a shard starts as one
    }
    try (ModelLock l = ModelLock.acquire(id("m.sdnb"))) {
      assertNull(ModelLock.tryAcquire(id("m")));
      assertNull(ModelLock.tryAcquire(id("m.SDNB")));
      assertNull(ModelLock.tryAcquire(id("m.shard1-of-2.sdnb")));
      assertTrue(Files.exists(tmp.resolve(".m.sdnb.modelfs-lock")));
      try (ModelLock other = ModelLock.acquire(id("m.fb"))) {
        assertTrue(other.held(), "another model's lock is another lock");
      }
    }
  }

  /**
   * The refusal of a second owner in this JVM never opens the lock file: with a directory at the
   * lock's name it would fail with an exception; it returns {@code null} instead. The number of
   * descriptors of this process on the lock file stays one.
   */
  @Test
  void aSecondOwnerInThisJvmDoesNotOpenTheLockFile() throws IOException {
    ModelId id = id("m.fb");
    Path file = lockFile(id);
    ModelLock l = ModelLock.acquire(id);
    try {
      Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")));
      assertEquals(1, descriptorsOn(file));
      for (int i = 0; i < 20; i++) {
        assertNull(ModelLock.tryAcquire(id));
        assertThrows(FileSystemException.class, () -> ModelLock.acquire(id));
      }
      assertEquals(1, descriptorsOn(file), "a refused taker opened the lock file");

      Files.delete(file);
      Files.createDirectory(file);
      assertNull(ModelLock.tryAcquire(id), "refused by the table, without looking at the file");
      assertTrue(l.held());
    } finally {
      l.close();
    }
    assertTrue(Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS), "close removes only the file it locked");
    assertFalse(ModelLock.heldHere(id));
    FileSystemException e = assertThrows(FileSystemException.class, () -> ModelLock.tryAcquire(id));
    assertEquals(file.toString(), e.getFile());
    assertFalse(ModelLock.heldHere(id));
  }

  private static int descriptorsOn(Path file) throws IOException {
    int n = 0;
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
      for (Path fd : ds) {
        try {
          if (Files.readSymbolicLink(fd).equals(file)) {
            n++;
          }
        } catch (IOException e) {
          // closed meanwhile (the directory stream's own descriptor)
        }
      }
    }
    return n;
  }

  @Test
  void aDanglingSymlinkAtTheLockNameIsRefusedAndNotFollowed() throws IOException {
    ModelId id = id("m.fb");
    Path target = tmp.resolve("created-through-the-link");
    Files.createSymbolicLink(lockFile(id), target);
    FileSystemException e = assertThrows(FileSystemException.class, () -> ModelLock.tryAcquire(id));
    assertEquals(lockFile(id).toString(), e.getFile());
    assertFalse(Files.exists(target, LinkOption.NOFOLLOW_LINKS), "the link's target was created");
    assertTrue(Files.isSymbolicLink(lockFile(id)), "the planted link is left");
    assertFalse(ModelLock.heldHere(id), "a failed take leaves no table entry");
    FileSystemException e2 = assertThrows(FileSystemException.class, () -> ModelLock.acquire(id));
    assertEquals(lockFile(id).toString(), e2.getFile());
    assertFalse(Files.exists(target, LinkOption.NOFOLLOW_LINKS));
  }

  @Test
  void aSymlinkToAFileAtTheLockNameIsRefusedAndTheFileUntouched() throws IOException {
    ModelId id = id("m.fb");
    Path victim = Files.writeString(tmp.resolve("victim.txt"), "precious");
    FileTime time = FileTime.fromMillis(1_000_000_000_000L);
    Files.setLastModifiedTime(victim, time);
    Files.createSymbolicLink(lockFile(id), victim);
    FileSystemException e = assertThrows(FileSystemException.class, () -> ModelLock.acquire(id));
    assertEquals(lockFile(id).toString(), e.getFile());
    assertArrayEquals("precious".getBytes(StandardCharsets.UTF_8), Files.readAllBytes(victim));
    assertEquals(time, Files.getLastModifiedTime(victim));
    assertTrue(Files.isSymbolicLink(lockFile(id)));
    assertFalse(ModelLock.heldHere(id));
  }

  @Test
  void aDirectoryAtTheLockNameIsRefused() throws IOException {
    ModelId id = id("m.fb");
    Files.createDirectory(lockFile(id));
    FileSystemException e = assertTimeoutPreemptively(Duration.ofSeconds(10),
        () -> assertThrows(FileSystemException.class, () -> ModelLock.tryAcquire(id)));
    assertEquals(lockFile(id).toString(), e.getFile());
    assertTrue(Files.isDirectory(lockFile(id), LinkOption.NOFOLLOW_LINKS), "left where it is");
    assertFalse(ModelLock.heldHere(id));
  }

  @Test
  void aFifoAtTheLockNameIsRefusedWithoutBlocking() throws Exception {
    ModelId id = id("m.fb");
    Path fifo = lockFile(id);
    mkfifo(fifo);
    try {
      FileSystemException e = assertTimeoutPreemptively(Duration.ofSeconds(10),
          () -> assertThrows(FileSystemException.class, () -> ModelLock.tryAcquire(id)));
      assertEquals(fifo.toString(), e.getFile());
      assertTrue(Files.exists(fifo, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(fifo), "left where it is");
      assertFalse(ModelLock.heldHere(id));
    } finally {
      // unblock an open that might hang (a reader and writer at once never blocks)
      try (var ch = FileChannel.open(fifo, StandardOpenOption.READ,
          StandardOpenOption.WRITE)) {
        // nothing
      } catch (IOException ignored) {
        // gone
      }
    }
  }

  static void mkfifo(Path p) throws Exception {
    Process proc;
    try {
      proc = new ProcessBuilder("mkfifo", p.toString()).redirectErrorStream(true).start();
    } catch (IOException e) {
      Assumptions.abort("no mkfifo: " + e);
      return;
    }
    Assumptions.assumeTrue(proc.waitFor(10, TimeUnit.SECONDS) && proc.exitValue() == 0, "mkfifo failed");
  }

  @Test
  void closeIsIdempotentAndNeverTouchesALaterOwnersFile() throws IOException {
    ModelId id = id("m.fb");
    ModelLock first = ModelLock.acquire(id);
    first.close();
    first.close();
    ModelLock second = ModelLock.acquire(id);
    try {
      first.close();
      assertTrue(second.held());
      assertTrue(ModelLock.heldHere(id), "a closed lock's second close removed the new owner's table entry");
      assertTrue(Files.isRegularFile(lockFile(id)), "a closed lock's second close removed the new owner's file");
      assertNull(ModelLock.tryAcquire(id));
    } finally {
      second.close();
    }
    second.close();
    assertFalse(ModelLock.heldHere(id));
    assertFalse(Files.exists(lockFile(id)));
  }

  @Test
  void aStaleLockFileIsTakenOverAndRemoved() throws IOException {
    ModelId id = id("m.fb");
    Files.createFile(lockFile(id)); // what a killed writer leaves: ModelFS never writes into a lock file
    try (ModelLock l = ModelLock.acquire(id)) {
      assertTrue(l.held());
    }
    assertFalse(Files.exists(lockFile(id)));
    // a file with content at the name is not one ModelFS made: it locks with it, and leaves it
    Files.writeString(lockFile(id), "planted");
    try (ModelLock l = ModelLock.acquire(id)) {
      assertTrue(l.held());
    }
    assertEquals("planted", Files.readString(lockFile(id)));
  }

  @Test
  void aLockInAnotherProcessRefusesThisOneUntilReleased() throws Exception {
    ModelId id = id("m.sdnb");
    Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx64m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
        LockHolderMain.class.getName(), tmp.resolve("m.sdnb").toString())
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    ExecutorService reader = Executors.newSingleThreadExecutor();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        OutputStream in = child.getOutputStream()) {
      assertEquals("LOCKED", readLine(reader, out));
      assertTrue(Files.isRegularFile(lockFile(id)));

      assertNull(ModelLock.tryAcquire(id), "the other process holds the lock");
      assertFalse(ModelLock.heldHere(id), "a refused take leaves no table entry");
      FileSystemException e = assertThrows(FileSystemException.class, () -> ModelLock.acquire(id));
      assertEquals(lockFile(id).toString(), e.getOtherFile());
      assertNull(ModelLock.tryAcquire(ModelId.of(tmp.resolve("m.SDNB"))), "still held: our attempts dropped nothing");
      assertTrue(Files.isRegularFile(lockFile(id)), "our attempts left the holder's file");

      in.write("release\n".getBytes(StandardCharsets.UTF_8));
      in.flush();
      assertEquals("RELEASED", readLine(reader, out));
      assertTrue(child.waitFor(30, TimeUnit.SECONDS));
      assertEquals(0, child.exitValue());
      assertFalse(Files.exists(lockFile(id), LinkOption.NOFOLLOW_LINKS), "the holder removed the lock file");

      try (ModelLock l = ModelLock.acquire(id)) {
        assertTrue(l.held());
        assertTrue(Files.isRegularFile(lockFile(id)));
      }
      assertFalse(Files.exists(lockFile(id)));
    } finally {
      child.destroyForcibly();
      reader.shutdownNow();
    }
  }

  private static String readLine(ExecutorService reader, BufferedReader out) throws Exception {
    Future<String> f = reader.submit(out::readLine);
    try {
      return f.get(60, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      fail("the child said nothing for 60 s");
      return null;
    }
  }
}
