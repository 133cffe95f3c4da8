package org.modelfs.format;

/**
 * The one writer of JSON strings (every JSON text ModelFS makes: graph.json, training.json's
 * renames, safetensors headers, {@code --json} output, {@code modelfs graph}'s labels), as
 * serde_json, Python's {@code json.dumps(ensure_ascii=False)} and Jackson write them: {@code "} and
 * {@code \} escaped, the control characters {@code \b \f \n \r \t} by their short escapes and the
 * others below U+0020 as {@code \}{@code u00XX}; every other character as it is, U+2028 and U+2029
 * included (RFC 8259 allows them raw).
 *
 * <p>An unpaired surrogate (a Java string may hold one, UTF-8 cannot) is written as its
 * {@code \}{@code uXXXX} escape (U+D800 as {@code \}{@code ud800}): valid JSON, read back by any
 * parser as the same lone code unit, where writing it raw would turn it into {@code ?} on the way
 * to UTF-8. {@code JsonStringTest} holds this writer to Python's {@code json} module.
 */
public final class JsonString {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private JsonString() {}

  /** {@code s} as a quoted JSON string. */
  public static String quote(CharSequence s) {
    return quote(s, new StringBuilder(s.length() + 2)).toString();
  }

  /** Appends {@code s} as a quoted JSON string to {@code out}; returns {@code out}. */
  public static StringBuilder quote(CharSequence s, StringBuilder out) {
    out.append('"');
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          if (c < 0x20 || Character.isSurrogate(c) && !paired(s, i)) {
            out.append("\\u").append(HEX[c >> 12]).append(HEX[c >> 8 & 15]).append(HEX[c >> 4 & 15])
                .append(HEX[c & 15]);
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"');
  }

  /** Whether the surrogate at {@code i} is half of a pair. */
  private static boolean paired(CharSequence s, int i) {
    char c = s.charAt(i);
    if (Character.isHighSurrogate(c)) {
      return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
    }
    return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
  }
}
