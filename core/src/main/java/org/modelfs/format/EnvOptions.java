package org.modelfs.format;

import java.util.Locale;
import java.util.Map;
import org.modelfs.model.ModelFormat;

/**
 * The values of the {@code env} keys every writer of a model takes — a mount's
 * ({@code provider.MountOptions}) and the DL4J bridge's — checked the same way: a bad value is
 * refused with {@link IllegalArgumentException} naming the key.
 */
public final class EnvOptions {
  private EnvOptions() {}

  /** The format token (or {@link ModelFormat}) at {@code key}, or {@code null} when absent. */
  public static ModelFormat format(Map<String, ?> env, String key) {
    Object f = env.get(key);
    if (f == null) {
      return null;
    }
    try {
      return f instanceof ModelFormat mf ? mf : Codecs.fromToken(f.toString());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("option " + key + ": " + e.getMessage(), e);
    }
  }

  /** {@code stored} (false) or {@code deflate} (true) at {@code key}; false when absent. */
  public static boolean deflate(Map<String, ?> env, String key) {
    Object c = env.get(key);
    if (c == null) {
      return false;
    }
    String s = c.toString().toLowerCase(Locale.ROOT);
    if (!s.equals("stored") && !s.equals("deflate")) {
      throw new IllegalArgumentException("option " + key + ": '" + c + "'; expected stored or deflate");
    }
    return s.equals("deflate");
  }

  /** The positive byte count at {@code key}, or 0 when absent. */
  public static long positiveBytes(Map<String, ?> env, String key) {
    Object m = env.get(key);
    if (m == null) {
      return 0;
    }
    long n;
    try {
      n = m instanceof Number num ? num.longValue() : Long.parseLong(m.toString().trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("option " + key + ": '" + m + "' is not a number", e);
    }
    if (n <= 0) {
      throw new IllegalArgumentException("option " + key + ": " + n + " must be positive");
    }
    return n;
  }

  /** {@code true}/{@code false} (a Boolean or its text, any case) at {@code key}, else {@code dflt}. */
  public static boolean bool(Map<String, ?> env, String key, boolean dflt) {
    Object v = env.get(key);
    if (v == null) {
      return dflt;
    }
    if (v instanceof Boolean b) {
      return b;
    }
    String s = v.toString().trim().toLowerCase(Locale.ROOT);
    if (s.equals("true") || s.equals("false")) {
      return s.equals("true");
    }
    throw new IllegalArgumentException("option " + key + ": '" + v + "'; expected true or false");
  }
}
