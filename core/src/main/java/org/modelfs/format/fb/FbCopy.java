package org.modelfs.format.fb;

import java.util.HashMap;
import java.util.Map;

import com.google.flatbuffers.FlatBufferBuilder;
import org.modelfs.format.ModelFormatException;

/**
 * Copies FlatBuffers tables from a file into a {@link FlatBufferBuilder} field by field, driven
 * by small schema descriptors of the SameDiff tables. Present fields stay present (even when
 * equal to their default) and absent ones stay absent, so ops and configuration survive a
 * format conversion unchanged. Slots beyond the descriptor (unknown future fields) are dropped.
 *
 * <p>One instance copies out of one source FlatGraph into one builder. A table, vector or
 * string referenced from several places (FlatBuffers allows sharing: a DAG) is copied once and
 * referenced again, so an honest DAG costs its size, not its unfolded size; and everything copied
 * is charged to a {@link Budget} proportional to the source before it enters the builder
 * (docs/FORMATS.md §2, §12).
 */
public final class FbCopy {

  /** The kind of one field. */
  enum Kind { BYTE, INT, LONG, STRING, TABLE, VEC1, VEC4, VEC8, VEC_STRING, VEC_TABLE }

  /** One field of a table schema; {@code table} for TABLE and VEC_TABLE. */
  record Field(Kind kind, Schema table) {}

  /** A table schema: its fields in slot order. */
  public static final class Schema {
    final String name;
    Field[] fields;

    Schema(String name) {
      this.name = name;
    }
  }

  private static Field f(Kind k) {
    return new Field(k, null);
  }

  private static Field t(Kind k, Schema s) {
    return new Field(k, s);
  }

  public static final Schema BUFFER_CHUNK = new Schema("BufferChunk");
  public static final Schema FLAT_ARRAY = new Schema("FlatArray");
  public static final Schema INT_PAIR = new Schema("IntPair");
  public static final Schema FLAT_PROPERTIES = new Schema("FlatProperties");
  public static final Schema FLAT_NODE = new Schema("FlatNode");
  public static final Schema FLAT_CONFIGURATION = new Schema("FlatConfiguration");
  public static final Schema SUB_INSTANCE = new Schema("SameDiffSubInstance");

  static {
    BUFFER_CHUNK.fields = new Field[] {f(Kind.LONG), f(Kind.VEC1)};
    FLAT_ARRAY.fields = new Field[] {
      f(Kind.VEC8), f(Kind.VEC1), f(Kind.BYTE), f(Kind.BYTE), t(Kind.VEC_TABLE, BUFFER_CHUNK),
      f(Kind.LONG), f(Kind.VEC_STRING), f(Kind.BYTE), f(Kind.LONG), f(Kind.LONG)
    };
    INT_PAIR.fields = new Field[] {f(Kind.INT), f(Kind.INT)};
    FLAT_PROPERTIES.fields = new Field[] {
      f(Kind.STRING), f(Kind.VEC4), f(Kind.VEC8), f(Kind.VEC8), t(Kind.VEC_TABLE, FLAT_ARRAY),
      f(Kind.VEC1), f(Kind.VEC_STRING), f(Kind.VEC4)
    };
    FLAT_NODE.fields = new Field[] {
      f(Kind.INT), f(Kind.STRING), f(Kind.BYTE), f(Kind.LONG), t(Kind.VEC_TABLE, FLAT_PROPERTIES),
      f(Kind.VEC4), t(Kind.VEC_TABLE, INT_PAIR), f(Kind.VEC4), f(Kind.VEC8), f(Kind.VEC8),
      f(Kind.VEC1), f(Kind.VEC4), f(Kind.INT), f(Kind.INT), f(Kind.STRING), f(Kind.VEC_STRING),
      f(Kind.STRING), f(Kind.VEC1), t(Kind.TABLE, FLAT_ARRAY), f(Kind.VEC_STRING),
      f(Kind.VEC_STRING), f(Kind.VEC_STRING), f(Kind.VEC1), f(Kind.VEC_STRING)
    };
    FLAT_CONFIGURATION.fields = new Field[] {
      f(Kind.LONG), f(Kind.BYTE), f(Kind.BYTE), f(Kind.BYTE), f(Kind.BYTE), f(Kind.LONG),
      f(Kind.LONG), f(Kind.BYTE)
    };
    SUB_INSTANCE.fields = new Field[] {f(Kind.STRING), f(Kind.VEC1)};
  }

  /**
   * Writes a FlatArray found inside a copied table in another encoding (op arguments when a
   * graph moves between the legacy and the SDNB FlatArray conventions, and chunked or appended
   * ones, which are written plain); returns its offset, or {@link #COPY} to copy it as it is.
   */
  public interface ArrayRewrite {
    /** What {@link #write} answers for an array to be copied unchanged. */
    int COPY = -1;

    int write(FbTable array) throws ModelFormatException;
  }

  /** Nesting bound: the SameDiff schema nests at most 4 deep (node → props → array → chunk). */
  private static final int MAX_DEPTH = 8;

  /**
   * What a memoized copy was: a buffer position read as a table or a vector of {@code as} (a
   * schema or a kind), with or without the variant (rewritten arrays, renamed strings).
   */
  private record Key(long pos, Object as, boolean vector, boolean variant) {}

  private final FlatBufferBuilder b;
  private final Budget budget;
  private final Map<String, String> renames;
  private final Map<Key, Integer> copied = new HashMap<>();

  /**
   * @param b the builder to copy into
   * @param source the FlatGraph copied from (its size sets the budget)
   * @param renames variable names to replace in {@code FlatNode.varControlDeps} and in string
   *     vectors copied with renaming (stored name → new name)
   */
  public FbCopy(FlatBufferBuilder b, FbBuffer source, Map<String, String> renames) {
    this.b = b;
    this.budget = Budget.copy(source);
    this.renames = renames;
  }

  /** Copies {@code src} (a table of {@code schema}); returns its offset. */
  public int table(FbTable src, Schema schema) throws ModelFormatException {
    return table(src, schema, null, 0);
  }

  /**
   * Copies {@code src} (a table of {@code schema}), writing every FlatArray inside it through
   * {@code rewrite} (when not {@code null}) instead of copying it; returns its offset.
   */
  public int table(FbTable src, Schema schema, ArrayRewrite rewrite) throws ModelFormatException {
    return table(src, schema, rewrite, 0);
  }

  /**
   * Copies a vector of tables, writing every FlatArray inside them through {@code rewrite}
   * (when not {@code null}) instead of copying it; returns the vector's offset.
   */
  public int tableVector(FbVector v, Schema schema, ArrayRewrite rewrite) throws ModelFormatException {
    return tableVector(v, schema, rewrite, 0);
  }

  /**
   * Copies a vector of strings, each replaced as the renames say when {@code rename}; returns
   * the vector's offset.
   */
  public int stringVector(FbVector v, boolean rename) throws ModelFormatException {
    Key key = new Key(v.position(), Kind.STRING, true, rename);
    Integer done = copied.get(key);
    if (done != null) {
      return done;
    }
    budget.charge(4L * v.length() + 4, v.position(), v.what());
    int[] offs = new int[v.length()];
    for (int i = 0; i < offs.length; i++) {
      offs[i] = string(v.stringPosition(i), v.getString(i), rename);
    }
    int off = offsetVector(offs);
    copied.put(key, off);
    return off;
  }

  /** A string at buffer position {@code pos} (its uoffset's target), copied once. */
  private int string(long pos, String str, boolean rename) throws ModelFormatException {
    Key key = new Key(pos, Kind.STRING, false, rename);
    Integer done = copied.get(key);
    if (done != null) {
      return done;
    }
    String out = rename ? renames.getOrDefault(str, str) : str;
    budget.charge(out.length() * 3L + 8, pos, "string");
    int off = b.createString(out);
    copied.put(key, off);
    return off;
  }

  private int offsetVector(int[] offs) {
    b.startVector(4, offs.length, 4);
    for (int i = offs.length - 1; i >= 0; i--) {
      b.addOffset(offs[i]);
    }
    return b.endVector();
  }

  private int tableVector(FbVector v, Schema schema, ArrayRewrite rewrite, int depth) throws ModelFormatException {
    Key key = new Key(v.position(), schema, true, rewrite != null);
    Integer done = copied.get(key);
    if (done != null) {
      return done;
    }
    budget.charge(4L * v.length() + 4, v.position(), v.what());
    int[] offs = new int[v.length()];
    for (int i = 0; i < offs.length; i++) {
      offs[i] = table(v.getTable(i), schema, rewrite, depth + 1);
    }
    int off = offsetVector(offs);
    copied.put(key, off);
    return off;
  }

  private int table(FbTable src, Schema schema, ArrayRewrite rewrite, int depth) throws ModelFormatException {
    if (depth > MAX_DEPTH) {
      throw src.buffer().error(src.position(), src.what(), "tables nested too deeply");
    }
    Key key = new Key(src.position(), schema, false, rewrite != null);
    Integer done = copied.get(key);
    if (done != null) {
      return done;
    }
    int off = rewrite != null && schema == FLAT_ARRAY ? rewrite.write(src) : ArrayRewrite.COPY;
    if (off == ArrayRewrite.COPY) {
      off = copyTable(src, schema, rewrite, depth);
    }
    copied.put(key, off);
    return off;
  }

  private int copyTable(FbTable src, Schema schema, ArrayRewrite rewrite, int depth) throws ModelFormatException {
    Field[] fields = schema.fields;
    int n = Math.min(fields.length, src.slotCount());
    budget.charge(src.inlineSize() + 8, src.position(), src.what());
    int[] refs = new int[n];
    boolean[] present = new boolean[n];
    for (int s = 0; s < n; s++) {
      present[s] = src.has(s);
      if (!present[s]) {
        continue;
      }
      Field fd = fields[s];
      String name = schema.name + "." + s;
      switch (fd.kind()) {
        case STRING -> refs[s] = string(src.stringPosition(s, name), src.getString(s, name), false);
        case TABLE -> refs[s] = table(src.getTable(s, name), fd.table(), rewrite, depth + 1);
        case VEC_TABLE -> refs[s] = tableVector(src.getVector(s, name, 4), fd.table(), rewrite, depth);
        case VEC_STRING -> refs[s] = stringVector(src.getVector(s, name, 4),
            schema == FLAT_NODE && s == GraphNames.N_VAR_CONTROL_DEPS);
        case VEC1, VEC4, VEC8 -> refs[s] = scalarVector(src.getVector(s, name, width(fd.kind())), fd.kind());
        default -> { }
      }
    }
    b.forceDefaults(true);
    b.startTable(n);
    // Larger scalars first keeps padding small, like flatc's generated builders.
    for (int pass = 0; pass < 2; pass++) {
      for (int s = 0; s < n; s++) {
        if (!present[s]) {
          continue;
        }
        Field fd = fields[s];
        boolean big = fd.kind() == Kind.LONG;
        if ((pass == 0) != big) {
          continue;
        }
        switch (fd.kind()) {
          case BYTE -> b.addByte(s, src.getByte(s, (byte) 0), 0);
          case INT -> b.addInt(s, src.getInt(s, 0), 0);
          case LONG -> b.addLong(s, src.getLong(s, 0), 0L);
          default -> b.addOffset(s, refs[s], 0);
        }
      }
    }
    int end = b.endTable();
    b.forceDefaults(false);
    return end;
  }

  private static int width(Kind k) {
    return switch (k) {
      case VEC1 -> 1;
      case VEC4 -> 4;
      default -> 8;
    };
  }

  private int scalarVector(FbVector v, Kind kind) throws ModelFormatException {
    Key key = new Key(v.position(), kind, true, false);
    Integer done = copied.get(key);
    if (done != null) {
      return done;
    }
    budget.charge(v.byteLength() + 8, v.position(), v.what());
    int off;
    if (kind == Kind.VEC1) {
      off = b.createByteVector(v.bytes());
    } else {
      int width = width(kind);
      int n = v.length();
      b.startVector(width, n, width);
      for (int i = n - 1; i >= 0; i--) {
        if (width == 4) {
          b.addInt(v.getInt(i));
        } else {
          b.addLong(v.getLong(i));
        }
      }
      off = b.endVector();
    }
    copied.put(key, off);
    return off;
  }
}
