package org.modelfs.provider;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import org.modelfs.ModelFileSystems;
import org.modelfs.io.StorageFullException;

/**
 * The child of {@link StorageFullTest}, run under {@code ulimit -f}: mounts the model
 * {@code args[0]}, writes {@code args[1]} bytes to {@code /params/big}, then (if {@code args[2]}
 * is given) that many to {@code /params/big2}, and closes (committing). Prints the exception's
 * class, message and its cause's message, one per line, or {@code ok}.
 */
public final class StorageFullMain {
  private StorageFullMain() {}

  /**
   * Runs the writes.
   *
   * @param args model, bytes, optional bytes of a second parameter
   */
  public static void main(String[] args) {
    try (FileSystem fs = ModelFileSystems.open(Path.of(args[0]))) {
      Files.write(fs.getPath("/params/big"), new byte[Integer.parseInt(args[1])]);
      if (args.length > 2) {
        Files.write(fs.getPath("/params/big2"), new byte[Integer.parseInt(args[2])]);
      }
    } catch (IOException e) {
      Throwable full = e;
      while (full.getCause() != null && !(full instanceof StorageFullException)) {
        full = full.getCause();
      }
      System.out.println(full.getClass().getName());
      System.out.println(full.getMessage());
      System.out.println(full.getCause() == null ? "-" : full.getCause().getMessage());
      return;
    }
    System.out.println("ok");
  }
}
