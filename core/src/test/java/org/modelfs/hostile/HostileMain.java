package org.modelfs.hostile;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;

/**
 * Child-JVM programs of the hostile suite, chosen by the first argument. Each prints one line
 * per outcome on stdout: {@code COMMITTED}, {@code REFUSED <exception>} (an IOException),
 * {@code ERROR <throwable>} (anything else), {@code GEN k}, {@code FAIL k <exception>}.
 */
public final class HostileMain {
  private HostileMain() {}

  public static void main(String[] args) throws Exception {
    Path model = Path.of(args[1]);
    switch (args[0]) {
      case "write" -> write(model, args[2], Float.parseFloat(args[3]));
      case "loop" -> loop(model, Integer.parseInt(args[2]), args.length > 3 ? Long.parseLong(args[3]) : 0);
      case "try-writer" -> {
        for (int i = 1; i < args.length; i++) {
          tryWriter(Path.of(args[i]));
        }
      }
      default -> throw new IllegalArgumentException(args[0]);
    }
    System.out.flush();
  }

  /** Writes every float of {@code param} as {@code v} (same size) and commits by closing. */
  private static void write(Path model, String param, float v) {
    try {
      try (FileSystem fs = ModelFileSystems.open(model)) {
        Path p = fs.getPath(param);
        Files.write(p, HostileSupport.fill((int) (Files.size(p) / 4), v));
      }
      System.out.println("COMMITTED");
    } catch (IOException e) {
      System.out.println("REFUSED " + e);
    } catch (Throwable t) {
      System.out.println("ERROR " + t);
    }
  }

  /** {@code count} commits; commit k writes the value k into every param. */
  private static void loop(Path model, int count, long maxShardBytes) {
    Map<String, Object> env = maxShardBytes > 0 ? Map.of("maxShardBytes", maxShardBytes) : Map.of();
    for (int k = 1; k <= count; k++) {
      try {
        try (FileSystem fs = ModelFileSystems.open(model, env)) {
          List<Path> params;
          try (Stream<Path> s = Files.walk(fs.getPath("/params"))) {
            params = s.filter(Files::isRegularFile).toList();
          }
          for (Path p : params) {
            Files.write(p, HostileSupport.fill((int) (Files.size(p) / 4), k));
          }
          System.out.println("COMMIT " + k);
          System.out.flush();
        }
        System.out.println("GEN " + k);
      } catch (Throwable t) {
        System.out.println("FAIL " + k + " " + t.toString().replace('\n', ' '));
      }
      System.out.flush();
    }
    System.out.println("DONE");
  }

  /** Tries to become a writer (a metadata change), reports, rolls back. */
  private static void tryWriter(Path model) {
    try (FileSystem fs = ModelFileSystems.open(model)) {
      try {
        Path w0 = fs.getPath("/params/w0");
        Files.write(w0, HostileSupport.fill((int) (Files.size(w0) / 4), -1));
        System.out.println("ACQUIRED " + model.getFileName());
      } catch (IOException e) {
        System.out.println("REFUSED " + model.getFileName() + " " + e);
      } finally {
        ((JournaledFileSystem) fs).rollback();
      }
    } catch (IOException e) {
      System.out.println("REFUSED " + model.getFileName() + " " + e);
    } catch (Throwable t) {
      System.out.println("ERROR " + model.getFileName() + " " + t);
    }
    System.out.flush();
  }
}
