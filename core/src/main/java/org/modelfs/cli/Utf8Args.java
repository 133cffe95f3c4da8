package org.modelfs.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
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
 * its last ones) and decoded as UTF-8. An argument whose bytes are not UTF-8 at all is refused,
 * naming it and the byte offset, on every command: it could only name something else.
 */
final class Utf8Args {
  private static final Path CMDLINE = Path.of("/proc/self/cmdline");

  private Utf8Args() {}

  /**
   * {@code args}, or the same arguments decoded as UTF-8 from the raw command line when the JVM
   * mangled them; an argument whose raw bytes are not UTF-8 is refused (naming it and the offset
   * of its first bad byte) rather than passed on with U+FFFD in place of its bytes.
   */
  static String[] of(String[] args) throws Args.UsageException {
    boolean mangled = false;
    for (String a : args) {
      mangled |= a.indexOf('\uFFFD') >= 0;
    }
    if (!mangled) {
      return args;
    }
    byte[] cmdline;
    try {
      cmdline = Files.readAllBytes(CMDLINE);
    } catch (IOException | RuntimeException e) {
      return args; // not Linux, or no /proc: the arguments stay as the JVM decoded them
    }
    return decode(cmdline, args);
  }

  /** {@link #of} given the raw command line: the program's arguments are its last {@code args.length}. */
  static String[] decode(byte[] cmdline, String[] args) throws Args.UsageException {
    List<byte[]> raw = split(cmdline);
    if (raw.size() < args.length) {
      return args;
    }
    raw = raw.subList(raw.size() - args.length, raw.size());
    String[] decoded = new String[args.length];
    for (int i = 0; i < decoded.length; i++) {
      decoded[i] = new String(raw.get(i), StandardCharsets.UTF_8);
    }
    if (!consistent(args, decoded) && !Arrays.equals(args, decoded)) {
      return args; // not our arguments after all
    }
    for (int i = 0; i < decoded.length; i++) {
      int bad = firstInvalid(raw.get(i));
      if (bad >= 0) {
        throw new Args.UsageException(String.format("argument %d ('%s') is not valid UTF-8: byte 0x%02X at byte offset %d"
            + " of it; names in a model are UTF-8", i + 1, decoded[i], raw.get(i)[bad] & 0xFF, bad));
      }
    }
    return decoded;
  }

  /** The offset of the first byte of {@code b} that does not start a valid UTF-8 sequence, or -1. */
  static int firstInvalid(byte[] b) {
    CharsetDecoder d = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(b);
    CharBuffer out = CharBuffer.allocate(b.length + 1);
    CoderResult r = d.decode(in, out, true);
    if (r.isError()) {
      return in.position();
    }
    r = d.flush(out);
    return r.isError() ? in.position() : -1;
  }

  private static List<byte[]> split(byte[] cmdline) {
    List<byte[]> all = new ArrayList<>();
    int start = 0;
    for (int i = 0; i <= cmdline.length; i++) {
      if (i == cmdline.length ? start < cmdline.length : cmdline[i] == 0) {
        all.add(Arrays.copyOfRange(cmdline, start, i));
        start = i + 1;
      }
    }
    return all;
  }

  /** The last {@code n} NUL-terminated arguments of a raw command line, decoded as UTF-8. */
  static String[] fromCmdline(byte[] cmdline, int n) {
    List<byte[]> all = split(cmdline);
    if (all.size() < n) {
      return null;
    }
    return all.subList(all.size() - n, all.size()).stream().map(b -> new String(b, StandardCharsets.UTF_8))
        .toArray(String[]::new);
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
