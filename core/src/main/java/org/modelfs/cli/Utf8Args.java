package org.modelfs.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Command-line arguments as UTF-8. The JVM decodes {@code argv} with the locale's charset
 * ({@code sun.jnu.encoding}); under {@code LANG=C} that is ASCII and every non-ASCII byte
 * becomes U+FFFD before {@code main} runs. Then the raw bytes are read again from
 * {@code /proc/self/cmdline} (Linux: the process's arguments, NUL-separated; the program's are
 * its last ones) and decoded as UTF-8.
 */
final class Utf8Args {
  private static final Path CMDLINE = Path.of("/proc/self/cmdline");

  private Utf8Args() {}

  /** {@code args}, or the same arguments decoded as UTF-8 from the raw command line when the JVM mangled them. */
  static String[] of(String[] args) {
    boolean mangled = false;
    for (String a : args) {
      mangled |= a.indexOf('\uFFFD') >= 0;
    }
    if (!mangled) {
      return args;
    }
    try {
      String[] raw = fromCmdline(Files.readAllBytes(CMDLINE), args.length);
      return raw != null && consistent(args, raw) ? raw : args;
    } catch (IOException | RuntimeException e) {
      return args; // not Linux, or no /proc: the arguments stay as the JVM decoded them
    }
  }

  /** The last {@code n} NUL-terminated arguments of a raw command line, decoded as UTF-8. */
  static String[] fromCmdline(byte[] cmdline, int n) {
    List<String> all = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < cmdline.length; i++) {
      if (cmdline[i] == 0) {
        all.add(new String(cmdline, start, i - start, StandardCharsets.UTF_8));
        start = i + 1;
      }
    }
    if (start < cmdline.length) {
      all.add(new String(cmdline, start, cmdline.length - start, StandardCharsets.UTF_8));
    }
    if (all.size() < n) {
      return null;
    }
    return all.subList(all.size() - n, all.size()).toArray(new String[0]);
  }

  /** Whether {@code raw} are the same arguments: equal wherever the JVM's decoding kept ASCII. */
  static boolean consistent(String[] decoded, String[] raw) {
    for (int i = 0; i < decoded.length; i++) {
      String ascii = decoded[i].replaceAll("\uFFFD+", "");
      StringBuilder kept = new StringBuilder();
      for (char c : raw[i].toCharArray()) {
        if (c < 0x80) {
          kept.append(c);
        }
      }
      if (!ascii.equals(kept.toString())) {
        return false;
      }
    }
    return !Arrays.equals(decoded, raw);
  }
}
