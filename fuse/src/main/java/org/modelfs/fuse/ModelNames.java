package org.modelfs.fuse;

import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * Which paths of the mount name a file of the model (docs/FILESYSTEM.md §1) — a file created
 * anywhere else (an editor's {@code sedXXXXXX} beside graph.json, a swap file, {@code .#lock})
 * is a scratch file of the mount, never of the model, until it is renamed onto a model name
 * (docs/MOUNT.md "Scratch files").
 */
final class ModelNames {
  private ModelNames() {}

  private static final Set<String> TAG_FILES = Set.of("graph", "graph.json", "training.json");
  static final Set<String> AREAS = Set.of("params", "updater", "metadata");
  /** The longest name a new file or directory may have, in bytes (statfs's f_namemax). */
  static final int NAME_MAX = 255;

  /**
   * Refuses a new name (create, mkdir, the target of a rename or link) longer than {@link
   * #NAME_MAX} bytes with ENAMETOOLONG, as ext4 and tmpfs do: the kernel leaves that check to the
   * FUSE file system, and such a name could not be copied out to any disk either (a refused
   * commit's copies, docs/MOUNT.md). Names the model already holds stay reachable, however long.
   */
  static void checkNew(String p) throws Refusal {
    int bytes = p.substring(p.lastIndexOf('/') + 1).getBytes(StandardCharsets.UTF_8).length;
    if (bytes > NAME_MAX) {
      throw Refusal.nameTooLong(p, bytes);
    }
  }

  /** Whether the FUSE path {@code p} ("/tags/t/params/W", "/params/W") can be a model file. */
  static boolean isModelFile(String p) {
    String rest = inTag(p);
    if (rest == null) {
      return false;
    }
    int slash = rest.indexOf('/');
    if (slash < 0) {
      return TAG_FILES.contains(rest);
    }
    return AREAS.contains(rest.substring(0, slash)) && slash < rest.length() - 1;
  }

  /** Whether {@code p} names a file of a tag's updater state ("/tags/t/updater/W/M", "/updater/W/M"). */
  static boolean isUpdaterFile(String p) {
    String rest = inTag(p);
    return rest != null && rest.startsWith("updater/") && isModelFile(p);
  }

  /** Whether {@code p} names an array's file: a parameter or updater state ("/tags/t/params/W", "/updater/W/M"). */
  static boolean isArrayFile(String p) {
    String rest = inTag(p);
    return rest != null && (rest.startsWith("params/") || rest.startsWith("updater/")) && isModelFile(p);
  }

  /** Whether {@code p} is the area directory params/, updater/ or metadata/ of a tag or the root aliases. */
  static boolean isArea(String p) {
    String rest = inTag(p);
    return rest != null && AREAS.contains(rest);
  }

  /** The part of {@code p} below its tag ("params/W" of "/tags/t/params/W" and of "/params/W"), or null. */
  static String inTag(String p) {
    if (p.startsWith("/tags/")) {
      int slash = p.indexOf('/', 6);
      return slash < 0 || slash == p.length() - 1 ? null : p.substring(slash + 1);
    }
    return p.length() > 1 && !p.equals("/tags") ? p.substring(1) : null;
  }

  /** The directory part of {@code p} ("/" for "/x"). */
  static String parent(String p) {
    int slash = p.lastIndexOf('/');
    return slash <= 0 ? "/" : p.substring(0, slash);
  }
}
