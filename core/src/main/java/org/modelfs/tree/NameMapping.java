package org.modelfs.tree;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.file.InvalidPathException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Maps arbitrary variable (or state key) names to path segments and back (docs/FILESYSTEM.md §2): a name
 * is split on {@code /} into directories unless a segment would be empty, {@code .} or
 * {@code ..}, or a segment prefix of it is itself a name; then it stays one segment with
 * {@code /} written {@code %2F}. In every segment {@code %} is written {@code %25} and NUL
 * {@code %00}; a whole segment {@code .}/{@code ..} is written {@code %2E}/{@code %2E%2E}, and the
 * empty name is the lone segment {@code %}.
 */
public final class NameMapping {
  private NameMapping() {}

  /** The canonical segments of every name of one set, in the set's order. */
  public static Map<String, List<String>> canonical(Collection<String> names) {
    Set<String> all = new HashSet<>(names);
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (String name : names) {
      out.put(name, segments(name, (Predicate<String>) all::contains));
    }
    return out;
  }

  /**
   * The canonical segments of {@code name} beside the file names {@code files} of its name
   * space (a directory kept without files below it is laid out like a name of that set).
   */
  public static List<String> segments(String name, Set<String> files) {
    return segments(name, (Predicate<String>) files::contains);
  }

  /** The canonical segments of {@code name} in a name space whose names {@code isName} tells. */
  public static List<String> segments(String name, Predicate<String> isName) {
    return splittable(name, isName) ? split(name) : List.of(oneSegment(name));
  }

  /**
   * Whether {@code name} is laid out split on {@code /} in a name space whose names
   * {@code isName} tells: no part is empty, {@code .} or {@code ..}, and no proper prefix is a name.
   */
  public static boolean splittable(String name, Predicate<String> isName) {
    if (name.indexOf('/') < 0) {
      return false;
    }
    // every part first (no lookups), then the proper prefixes, shortest first
    for (int start = 0, end; start <= name.length(); start = end + 1) {
      end = name.indexOf('/', start);
      if (end < 0) {
        end = name.length();
      }
      if (!ordinary(name, start, end)) {
        return false;
      }
    }
    for (int end = name.indexOf('/'); end >= 0; end = name.indexOf('/', end + 1)) {
      if (isName.test(name.substring(0, end))) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code name[start, end)} may be a segment of a split name: not empty, {@code .} or {@code ..}. */
  private static boolean ordinary(String name, int start, int end) {
    int n = end - start;
    return n > 2 || n == 1 && name.charAt(start) != '.'
        || n == 2 && !(name.charAt(start) == '.' && name.charAt(start + 1) == '.');
  }

  private static List<String> split(String name) {
    List<String> segs = new ArrayList<>(4);
    for (int start = 0, end; start <= name.length(); start = end + 1) {
      end = name.indexOf('/', start);
      if (end < 0) {
        end = name.length();
      }
      segs.add(encode(name.substring(start, end), false));
    }
    return segs;
  }

  /** One part of a name laid out split on {@code /}, as its segment. */
  static String part(String part) {
    return encode(part, false);
  }

  /** The name as a single segment: {@code /} too is escaped. */
  public static String oneSegment(String name) {
    return encode(name, true);
  }

  private static String encode(String s, boolean slash) {
    if (s.isEmpty()) {
      return "%";
    }
    if (s.equals(".")) {
      return "%2E";
    }
    if (s.equals("..")) {
      return "%2E%2E";
    }
    if (plain(s, slash)) {
      return s;
    }
    StringBuilder sb = new StringBuilder(s.length() + 8);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '%' -> sb.append("%25");
        case '\0' -> sb.append("%00");
        case '/' -> sb.append(slash ? "%2F" : "/");
        default -> sb.append(c);
      }
    }
    return sb.toString();
  }

  /** Whether {@code s} has nothing to escape: no {@code %}, NUL, or ({@code slash}) {@code /}. */
  private static boolean plain(String s, boolean slash) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '%' || c == '\0' || slash && c == '/') {
        return false;
      }
    }
    return true;
  }

  /**
   * Decodes one path segment back to the text it stands for (docs/FILESYSTEM.md §2): the lone
   * {@code %} is the empty string; every other {@code %} starts an escape of exactly two ASCII
   * hex digits ({@code 0-9 A-F a-f}) standing for one UTF-8 byte, and each run of escapes must be
   * well-formed UTF-8 (no overlong form, no surrogate, nothing above U+10FFFF). Everything else
   * stands for itself.
   *
   * @throws InvalidPathException if the segment is not valid UTF-16 (an unpaired surrogate),
   *     has a {@code %} not followed by two ASCII hex digits, or escapes bytes that are not
   *     UTF-8; the index is where the fault starts
   */
  public static String decode(String segment) {
    if (segment.equals("%")) {
      return "";
    }
    int bad = unpairedSurrogate(segment);
    if (bad >= 0) {
      throw new InvalidPathException(segment, "unpaired UTF-16 surrogate in a name", bad);
    }
    if (segment.indexOf('%') < 0) {
      return segment;
    }
    StringBuilder sb = new StringBuilder(segment.length());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int run = 0;
    int i = 0;
    while (i < segment.length()) {
      char c = segment.charAt(i);
      if (c != '%') {
        flush(segment, run, bytes, sb);
        sb.append(c);
        i++;
        continue;
      }
      int v = hex(segment, i + 1);
      if (v < 0) {
        throw new InvalidPathException(segment,
            "'%' must be followed by two ASCII hex digits (write '%' itself as %25)", i);
      }
      if (bytes.size() == 0) {
        run = i;
      }
      bytes.write(v);
      i += 3;
    }
    flush(segment, run, bytes, sb);
    return sb.toString();
  }

  /**
   * Refuses a name that is not valid UTF-16: such a name has no UTF-8 form, so no format can
   * store it (docs/FILESYSTEM.md §2).
   *
   * @param name the name (variable, updater key, metadata key)
   * @return {@code name}
   * @throws InvalidPathException naming the index of the first unpaired surrogate
   */
  public static String checkName(String name) {
    int bad = unpairedSurrogate(name);
    if (bad >= 0) {
      throw new InvalidPathException(name, "unpaired UTF-16 surrogate in a name", bad);
    }
    return name;
  }

  /** The index of the first unpaired surrogate of {@code s}, or -1. */
  public static int unpairedSurrogate(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return i;
      }
    }
    return -1;
  }

  /** The byte value of the two ASCII hex digits at {@code at}, or -1. */
  private static int hex(String s, int at) {
    if (at + 1 >= s.length()) {
      return -1;
    }
    int a = asciiHex(s.charAt(at));
    int b = asciiHex(s.charAt(at + 1));
    return a < 0 || b < 0 ? -1 : a * 16 + b;
  }

  private static int asciiHex(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    return -1;
  }

  /** Appends the escaped bytes (starting at index {@code run} of the segment) as strict UTF-8. */
  private static void flush(String segment, int run, ByteArrayOutputStream bytes, StringBuilder sb) {
    if (bytes.size() == 0) {
      return;
    }
    try {
      sb.append(StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes.toByteArray())));
    } catch (CharacterCodingException e) {
      throw new InvalidPathException(segment, "escaped bytes are not UTF-8", run);
    }
    bytes.reset();
  }

  /** The name a list of segments stands for: each decoded, joined with {@code /}. */
  public static String name(List<String> segments) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < segments.size(); i++) {
      if (i > 0) {
        sb.append('/');
      }
      sb.append(decode(segments.get(i)));
    }
    return sb.toString();
  }
}
