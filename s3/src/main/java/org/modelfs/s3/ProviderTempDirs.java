package org.modelfs.s3;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.nio.spi.s3.S3FileSystem;

/**
 * The AWS NIO provider (2.3.0) makes an {@code aws-s3-nio-*} directory in {@code java.io.tmpdir}
 * for every file system (bucket) it opens, for its own writes' staging files, and never removes
 * it. ModelFS never writes through the provider (docs/OBJECT-STORES.md §4), so for our mounts
 * it stays empty: at JVM exit each such directory of a file system our mounts used is deleted
 * when it is empty — the provider's own field names it, so nothing but that directory is
 * touched, and a directory holding anything is left alone.
 */
final class ProviderTempDirs {
  private static final Set<Path> DIRS = ConcurrentHashMap.newKeySet();
  private static final Field FIELD = field();

  static {
    if (FIELD != null) {
      Runtime.getRuntime().addShutdownHook(new Thread(ProviderTempDirs::deleteEmpty, "modelfs-s3-tempdirs"));
    }
  }

  private ProviderTempDirs() {}

  /** Notes {@code fs}'s staging directory, deleted at exit if empty. */
  static void register(S3FileSystem fs) {
    if (FIELD == null) {
      return;
    }
    try {
      Object dir = FIELD.get(fs);
      if (dir instanceof Path p) {
        DIRS.add(p);
      }
    } catch (IllegalAccessException e) {
      // a provider that hides it: its directory stays, as it always did
    }
  }

  /** The directories noted so far (for tests). */
  static Set<Path> registered() {
    return Set.copyOf(DIRS);
  }

  /** Deletes every noted directory that is empty; leaves any other. */
  static void deleteEmpty() {
    for (Path p : DIRS) {
      try {
        Files.deleteIfExists(p);
      } catch (DirectoryNotEmptyException | NoSuchFileException e) {
        // not empty: the provider's staging files are not ours to remove
      } catch (IOException e) {
        // at exit there is no one to tell; the directory stays as the provider left it
      }
    }
  }

  private static Field field() {
    try {
      Field f = S3FileSystem.class.getDeclaredField("temporaryDirectory");
      f.setAccessible(true);
      return f;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null; // another provider version: nothing to clean
    }
  }
}
