package org.modelfs.format.fb;

import java.util.Map;

import com.google.flatbuffers.FlatBufferBuilder;
import org.modelfs.format.ModelFormatException;

/**
 * Copies FlatBuffers tables from a file into a {@link FlatBufferBuilder} field by field, driven
 * by small schema descriptors of the SameDiff tables. Present fields stay present (even when
 * equal to their default) and absent ones stay absent, so ops and configuration survive a
 * format conversion unchanged. Slots beyond the descriptor (unknown future fields) are dropped.
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
   * graph moves between the legacy and the SDNB FlatArray conventions); returns its offset.
   */
  public interface ArrayRewrite {
    int write(FbTable array) throws ModelFormatException;
  }

  /** Nesting bound: the SameDiff schema nests at most 4 deep (node → props → array → chunk). */
  private static final int MAX_DEPTH = 8;

  private FbCopy() {}

  /** Copies {@code src} (a table of {@code schema}) into {@code b}; returns its offset. */
  public static int table(FlatBufferBuilder b, FbTable src, Schema schema) throws ModelFormatException {
    return table(b, src, schema, null, Map.of(), 0);
  }

  /** Copies a vector of tables; returns the vector's offset. */
  public static int tableVector(FlatBufferBuilder b, FbVector v, Schema schema) throws ModelFormatException {
    return tableVector(b, v, schema, null, Map.of(), 0);
  }

  /**
   * Copies a vector of tables, writing every FlatArray inside them through {@code rewrite}
   * (when not {@code null}) instead of copying it.
   */
  public static int tableVector(FlatBufferBuilder b, FbVector v, Schema schema, ArrayRewrite rewrite)
      throws ModelFormatException {
    return tableVector(b, v, schema, rewrite, Map.of(), 0);
  }

  /**
   * Copies a vector of tables as {@link #tableVector(FlatBufferBuilder, FbVector, Schema,
   * ArrayRewrite)} does, with each variable name in a {@code FlatNode.varControlDeps} replaced
   * as {@code renames} says (stored name → new name).
   */
  public static int tableVector(FlatBufferBuilder b, FbVector v, Schema schema, ArrayRewrite rewrite,
      Map<String, String> renames) throws ModelFormatException {
    return tableVector(b, v, schema, rewrite, renames, 0);
  }

  /** Copies a vector of strings; returns the vector's offset. */
  public static int stringVector(FlatBufferBuilder b, FbVector v) throws ModelFormatException {
    return stringVector(b, v, Map.of());
  }

  /** Copies a vector of strings, each replaced as {@code renames} says; returns the vector's offset. */
  public static int stringVector(FlatBufferBuilder b, FbVector v, Map<String, String> renames)
      throws ModelFormatException {
    int[] offs = new int[v.length()];
    for (int i = 0; i < offs.length; i++) {
      String str = v.getString(i);
      offs[i] = b.createString(renames.getOrDefault(str, str));
    }
    return offsetVector(b, offs);
  }

  private static int offsetVector(FlatBufferBuilder b, int[] offs) {
    b.startVector(4, offs.length, 4);
    for (int i = offs.length - 1; i >= 0; i--) {
      b.addOffset(offs[i]);
    }
    return b.endVector();
  }

  private static int tableVector(FlatBufferBuilder b, FbVector v, Schema schema, ArrayRewrite rewrite,
      Map<String, String> renames, int depth) throws ModelFormatException {
    int[] offs = new int[v.length()];
    for (int i = 0; i < offs.length; i++) {
      offs[i] = table(b, v.getTable(i), schema, rewrite, renames, depth + 1);
    }
    return offsetVector(b, offs);
  }

  private static int table(FlatBufferBuilder b, FbTable src, Schema schema, ArrayRewrite rewrite,
      Map<String, String> renames, int depth) throws ModelFormatException {
    if (depth > MAX_DEPTH) {
      throw src.buffer().error(src.position(), src.what(), "tables nested too deeply");
    }
    if (rewrite != null && schema == FLAT_ARRAY) {
      return rewrite.write(src);
    }
    Field[] fields = schema.fields;
    int n = Math.min(fields.length, src.slotCount());
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
        case STRING -> refs[s] = b.createString(src.getString(s, name));
        case TABLE -> refs[s] = table(b, src.getTable(s, name), fd.table(), rewrite, renames, depth + 1);
        case VEC_TABLE -> refs[s] = tableVector(b, src.getVector(s, name, 4), fd.table(), rewrite, renames, depth);
        case VEC_STRING -> refs[s] = stringVector(b, src.getVector(s, name, 4),
            schema == FLAT_NODE && s == GraphNames.N_VAR_CONTROL_DEPS ? renames : Map.of());
        case VEC1 -> refs[s] = b.createByteVector(src.getVector(s, name, 1).bytes());
        case VEC4, VEC8 -> refs[s] = scalarVector(b, src.getVector(s, name, width(fd.kind())), width(fd.kind()));
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
    return k == Kind.VEC4 ? 4 : 8;
  }

  private static int scalarVector(FlatBufferBuilder b, FbVector v, int width) throws ModelFormatException {
    int n = v.length();
    b.startVector(width, n, width);
    for (int i = n - 1; i >= 0; i--) {
      switch (width) {
        case 4 -> b.addInt(v.getInt(i));
        case 8 -> b.addLong(v.getLong(i));
        default -> throw new IllegalStateException("width " + width);
      }
    }
    return b.endVector();
  }
}
