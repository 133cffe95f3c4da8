package org.modelfs.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.function.BiConsumer;

/**
 * A commit's private local directory of temporaries, for a store whose new files are written
 * locally first and then uploaded (the codecs seek back to patch headers; an object or an HDFS
 * stream cannot): {@code modelfs-commit-*} in the system's temporary directory, {@code 0700}
 * where the file system has POSIX permissions. One per commit, removed with every file in it when
 * the commit ends, however it ends. Used by the s3, azure and hdfs modules' {@link CommitStorage}s.
 */
public final class LocalTemps {
  private final Path dir;

  private LocalTemps(Path dir) {
    this.dir = dir;
  }

  /** A new private directory. */
  public static LocalTemps create() throws IOException {
    try {
      return new LocalTemps(Files.createTempDirectory("modelfs-commit-", PosixFilePermissions.asFileAttribute(
          PosixFilePermissions.fromString("rwx------"))));
    } catch (UnsupportedOperationException e) {
      return new LocalTemps(Files.createTempDirectory("modelfs-commit-")); // the JDK makes it private to the user there
    }
  }

  /**
   * The local file for {@code name} in the directory (not created): {@code name} itself, or, for a
   * name longer than {@value #LONGEST} bytes, {@code long-<32 hex of its SHA-256>.<its extension>}.
   * An object's name may be up to 1,024 bytes (S3, Blob Storage); a local file system takes 255.
   */
  public Path file(String name) {
    return dir.resolve(local(name));
  }

  /** The longest name (UTF-8 bytes) used as it is for a local file. */
  static final int LONGEST = 128;

  /** The local name of the planned file {@code name}: short, one per name. */
  static String local(String name) {
    if (name.getBytes(StandardCharsets.UTF_8).length <= LONGEST) {
      return name;
    }
    int dot = name.lastIndexOf('.');
    String ext = dot < 0 || name.length() - dot > 12 || !name.substring(dot + 1).matches("[A-Za-z0-9]*") ? ""
        : name.substring(dot);
    try {
      byte[] sha = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
      return "long-" + HexFormat.of().formatHex(sha, 0, 16) + ext;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e); // every JDK has SHA-256
    }
  }

  /** A new, empty temporary for the planned file {@code name} ({@link CommitStorage#create}): created exclusively, open for writing and reading. */
  public CommitStorage.Temp temp(String name) throws IOException {
    Path t = file(name);
    return new CommitStorage.Temp(name, t, FileChannel.open(t, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.READ, StandardOpenOption.WRITE));
  }

  /** Deletes the directory and every file in it (already gone: nothing to do). */
  public void delete() throws IOException {
    try (var s = Files.list(dir)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Files.deleteIfExists(p);
      }
    } catch (NoSuchFileException e) {
      return;
    }
    Files.deleteIfExists(dir);
  }

  /** A commit's install, which uploads from the directory. */
  @FunctionalInterface
  public interface Install {
    void run() throws IOException;
  }

  /**
   * Runs {@code install}, then deletes the directory. If the install fails, a failure to delete is
   * added to its exception; if it succeeded, a failure to delete does not undo the commit: it goes
   * to {@code landed} (the store module's warning: what, and why) and the install returns.
   */
  public void install(Install install, BiConsumer<String, Exception> landed) throws IOException {
    try {
      install.run();
    } catch (IOException | RuntimeException e) {
      try {
        delete();
      } catch (IOException | RuntimeException again) {
        e.addSuppressed(again);
      }
      throw e;
    }
    try {
      delete();
    } catch (IOException | RuntimeException e) {
      landed.accept("the commit succeeded, but its local temporary directory " + dir + " could not be removed", e);
    }
  }
}
