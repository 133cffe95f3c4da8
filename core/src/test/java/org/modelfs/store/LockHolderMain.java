package org.modelfs.store;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The child JVM of {@link ModelLockTest}: takes the {@link ModelLock} of the model named by its
 * argument, prints {@code LOCKED}, waits for a line on stdin, releases the lock (removing the
 * file), prints {@code RELEASED} and exits. A failure to lock prints {@code FAILED <reason>}.
 */
public final class LockHolderMain {
  private LockHolderMain() {}

  public static void main(String[] args) throws Exception {
    ModelId id = ModelId.of(Path.of(args[0]));
    ModelLock lock;
    try {
      lock = ModelLock.acquire(id);
    } catch (Exception e) {
      System.out.println("FAILED " + e);
      System.out.flush();
      System.exit(2);
      return;
    }
    System.out.println("LOCKED");
    System.out.flush();
    new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
    lock.close();
    System.out.println("RELEASED");
    System.out.flush();
  }
}
