package org.modelfs.fuse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** What the kernel says is mounted where ({@code /proc/self/mounts}). */
final class MountPoints {
  private MountPoints() {}

  /** Whether a ModelFS FUSE mount (type {@code fuse.modelfs}) sits at {@code dir}. */
  static boolean isMounted(Path dir) {
    String want = dir.toAbsolutePath().normalize().toString();
    try {
      List<String> lines = Files.readAllLines(Path.of("/proc/self/mounts"));
      for (String l : lines) {
        String[] f = l.split(" ");
        if (f.length > 2 && f[2].equals("fuse.modelfs") && unescape(f[1]).equals(want)) {
          return true;
        }
      }
    } catch (IOException e) {
      return false;
    }
    return false;
  }

  /** /proc/mounts writes space, tab, newline and backslash as octal escapes. */
  static String unescape(String s) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 3 < s.length()) {
        try {
          sb.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
          i += 3;
          continue;
        } catch (NumberFormatException e) {
          // a lone backslash
        }
      }
      sb.append(c);
    }
    return sb.toString();
  }

  /** Waits until {@code dir} is mounted, the process ended, or {@code millis} passed. */
  static boolean await(Path dir, Process p, long millis) throws InterruptedException {
    long end = System.nanoTime() + millis * 1_000_000;
    while (System.nanoTime() < end) {
      if (isMounted(dir)) {
        return true;
      }
      if (p != null && !p.isAlive()) {
        return false;
      }
      Thread.sleep(50);
    }
    return isMounted(dir);
  }
}
