package org.modelfs.format.fb;

import java.nio.charset.StandardCharsets;
import org.modelfs.format.JsonString;
import org.modelfs.format.ModelFormatException;

/**
 * A minimal pretty-printing JSON writer (2-space indentation, scalar arrays on one line) that
 * escapes strings per RFC 8259 ({@link JsonString}), writes non-finite doubles as strings and refuses to grow past a
 * size limit, so that hostile input sharing one structure many times cannot exhaust the heap.
 */
final class JsonOut {
  private static final int MAX_DEPTH = 16;

  private final StringBuilder sb = new StringBuilder();
  private final long limit;
  private final String file;
  private final long offset;
  private final boolean[] first = new boolean[MAX_DEPTH];
  private final boolean[] inline = new boolean[MAX_DEPTH];
  private int depth;
  private boolean afterKey;

  /**
   * @param limit the most characters the document may take
   * @param file file name for the error raised past {@code limit}
   * @param offset offset of the structure being rendered, for that error
   */
  JsonOut(long limit, String file, long offset) {
    this.limit = limit;
    this.file = file;
    this.offset = offset;
  }

  JsonOut beginObject() throws ModelFormatException {
    return open('{', false);
  }

  JsonOut endObject() throws ModelFormatException {
    return close('}');
  }

  /** Starts an array; an {@code inline} one keeps its elements on one line. */
  JsonOut beginArray(boolean inlined) throws ModelFormatException {
    return open('[', inlined);
  }

  JsonOut endArray() throws ModelFormatException {
    return close(']');
  }

  /** Writes an object key; the next call writes its value. */
  JsonOut key(String name) throws ModelFormatException {
    separate();
    JsonString.quote(name, sb);
    sb.append(": ");
    afterKey = true;
    return this;
  }

  /** A string, or {@code null}. */
  JsonOut value(String s) throws ModelFormatException {
    separate();
    if (s == null) {
      sb.append("null");
    } else {
      JsonString.quote(s, sb);
    }
    return check();
  }

  JsonOut value(long v) throws ModelFormatException {
    separate();
    sb.append(v);
    return check();
  }

  JsonOut value(boolean v) throws ModelFormatException {
    separate();
    sb.append(v);
    return check();
  }

  /** A double; NaN and the infinities become the strings {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}. */
  JsonOut value(double v) throws ModelFormatException {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return value(Double.toString(v));
    }
    separate();
    sb.append(v);
    return check();
  }

  /** A float as Java prints it (the shortest text that reads back to the same float); NaN and the infinities as strings. */
  JsonOut value(float v) throws ModelFormatException {
    if (Float.isNaN(v) || Float.isInfinite(v)) {
      return value(Float.toString(v));
    }
    separate();
    sb.append(v);
    return check();
  }

  /** How many more characters the document may take. */
  long room() {
    return limit - sb.length();
  }

  /** The finished document as UTF-8, ending with a newline. */
  byte[] toBytes() {
    return (sb + "\n").getBytes(StandardCharsets.UTF_8);
  }

  private JsonOut open(char c, boolean inlined) throws ModelFormatException {
    separate();
    if (depth == MAX_DEPTH) {
      throw new IllegalStateException("JSON nested deeper than " + MAX_DEPTH);
    }
    sb.append(c);
    first[depth] = true;
    inline[depth] = inlined || (depth > 0 && inline[depth - 1]);
    depth++;
    return check();
  }

  private JsonOut close(char c) throws ModelFormatException {
    depth--;
    if (!first[depth] && !inline[depth]) {
      newline();
    }
    sb.append(c);
    return check();
  }

  /** Writes what goes before a value or key: nothing after a key, else a comma and a line break. */
  private void separate() {
    if (afterKey) {
      afterKey = false;
      return;
    }
    if (depth == 0) {
      return;
    }
    if (!first[depth - 1]) {
      sb.append(',');
      if (inline[depth - 1]) {
        sb.append(' ');
      }
    }
    first[depth - 1] = false;
    if (!inline[depth - 1]) {
      newline();
    }
  }

  private void newline() {
    sb.append('\n');
    for (int i = 0; i < depth; i++) {
      sb.append("  ");
    }
  }

  private JsonOut check() throws ModelFormatException {
    if (sb.length() > limit) {
      throw new ModelFormatException(file, "FlatGraph", offset,
          "its JSON rendering exceeds " + limit + " characters");
    }
    return this;
  }
}
