package org.modelfs.format.fb;

import com.google.flatbuffers.FlatBufferBuilder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.fb.OpDescriptors.Arg;
import org.modelfs.format.fb.OpDescriptors.ArgType;
import org.modelfs.format.fb.OpDescriptors.Op;
import org.modelfs.format.fb.gen.FlatNode;
import org.modelfs.model.DType;

/**
 * The five argument lists of a FlatNode in graph.json (docs/GRAPH.md §2.3), under DL4J's names:
 * {@code iArgs} ({@code extraInteger}), {@code tArgs} ({@code extraParams}), {@code bArgs}
 * ({@code extraBools}), {@code dArgs} ({@code extraTypes}) and {@code sArgs}
 * ({@code extraStrings}). Named — an object, argument name → value, in position order — for a
 * {@code CUSTOM} op whose {@code opName} the op descriptors know; a value past the descriptor's
 * last position under {@code "#<position>"}. Positional — an array — for every other op: legacy
 * op types (their descriptor is libnd4j's op of that name, not the FlatNode's layout: GRAPH.md
 * §1.6) and ops the descriptors do not know. The one owner of what an argument key means, for
 * rendering and for reading back.
 */
final class OpArgs {
  /** {@code FlatNode.opType} of a custom op (docs/FORMATS.md §3.6). */
  static final int CUSTOM = 21;
  /** The key prefix of a value at a position the descriptor does not name. */
  static final String POSITION = "#";

  /** One argument list: its descriptor type, and where and how wide a FlatNode stores it. */
  enum Field {
    I(ArgType.INT64, 8), T(ArgType.DOUBLE, 8), B(ArgType.BOOL, 1), D(ArgType.DATA_TYPE, 1), S(ArgType.STRING, 4);

    final ArgType type;
    final int width;

    Field(ArgType type, int width) {
      this.type = type;
      this.width = width;
    }

    /** The graph.json key: DL4J's name of the array. */
    String key() {
      return type.dl4jName();
    }

    int slot() {
      return type.nodeSlot();
    }
  }

  private OpArgs() {}

  /** The descriptor that names the arguments of a node with this {@code opType} and {@code opName}, or empty. */
  static Optional<Op> naming(int opType, String opName) {
    return opType == CUSTOM && opName != null ? OpDescriptors.find(opName) : Optional.empty();
  }

  /** Renders each argument list {@code n} holds (absent ones are not shown; an empty one is). */
  static void render(JsonOut out, FbTable n, Optional<Op> op) throws ModelFormatException {
    for (Field f : Field.values()) {
      FbVector v = n.getVector(f.slot(), f.key(), f.width);
      if (v == null) {
        continue;
      }
      out.key(f.key());
      if (op.isEmpty()) {
        out.beginArray(true);
        for (int i = 0; i < v.length(); i++) {
          value(out, f, v, i);
        }
        out.endArray();
      } else {
        List<Arg> names = op.get().args(f.type);
        out.beginObject();
        for (int i = 0; i < v.length(); i++) {
          out.key(i < names.size() ? names.get(i).name() : POSITION + i);
          value(out, f, v, i);
        }
        out.endObject();
      }
    }
  }

  private static void value(JsonOut out, Field f, FbVector v, int i) throws ModelFormatException {
    switch (f) {
      case I -> out.value(v.getLong(i));
      case T -> out.value(v.getDouble(i));
      case B -> out.value(v.getByte(i) != 0);
      case D -> {
        int code = v.getByte(i) & 0xff;
        DType t = DType.fromCode(code);
        if (t != null) {
          out.value(t.nd4jName());
        } else {
          out.value(code);
        }
      }
      case S -> out.value(v.getString(i));
    }
  }

  /**
   * The values of list {@code f} that graph.json gives as {@code json}, in position order
   * ({@code Long}, {@code Double}, {@code Boolean}, {@code Integer} data type codes,
   * {@code String}), or {@code null} after recording what is wrong.
   *
   * @param op the descriptor naming this op's arguments, if any
   * @param beyond how many values past the descriptor's last position are accepted: as many as
   *     the op of the same id already held (DL4J writes some ops so: GRAPH.md §1.6), else none
   * @param shown the values the tag's graph shows for this list of this op (a data type code no
   *     type has is accepted only as it was)
   * @param where the op, for messages ({@code op 'clip' (clipbyvalue)})
   */
  static List<Object> parse(Field f, Object json, Optional<Op> op, int beyond, Collection<?> shown,
      String where, JsonFields jf) {
    String at = where + ", " + f.key();
    List<Arg> names = op.map(o -> o.args(f.type)).orElse(List.of());
    String declared = op.map(o -> declared(o, f)).orElse("");
    List<Object> raw;
    if (json instanceof List<?> l) {
      raw = new ArrayList<>(l);
    } else if (json instanceof Map<?, ?> m) {
      if (op.isEmpty()) {
        jf.problem(at, "this op's " + f.key() + " are positional (a legacy op type, or an op the descriptors of"
            + " DL4J 1.0.0-M2.1 do not know): write an array");
        return null;
      }
      Object[] byPos = new Object[m.size()];
      boolean ok = true;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        String key = (String) e.getKey();
        int pos = position(key, names);
        if (pos < 0) {
          jf.problem(at, "no argument " + JsonFields.show(key) + "; " + declared);
          ok = false;
        } else if (pos >= byPos.length) {
          jf.problem(at, JsonFields.show(key) + " is position " + pos + ", but " + m.size() + " values are given: positions"
              + " 0 to " + pos + " must all be given (" + declared + ")");
          ok = false;
        } else {
          byPos[pos] = e.getValue();
        }
      }
      if (!ok) {
        return null;
      }
      raw = new ArrayList<>(Arrays.asList(byPos));
    } else {
      jf.problem(at, "expected " + (op.isPresent() ? "an object of named arguments (" + declared + ")" : "an array")
          + ", found " + JsonFields.show(json));
      return null;
    }
    if (op.isPresent() && raw.size() > names.size() + beyond) {
      jf.problem(at, raw.size() + " values, but " + op.get().name() + " takes " + names.size() + " " + f.key()
          + (names.isEmpty() ? "" : " (" + declared + ")") + (beyond > 0 ? " and this op held " + beyond + " more" : ""));
      return null;
    }
    List<Object> out = new ArrayList<>(raw.size());
    for (int i = 0; i < raw.size(); i++) {
      String name = i < names.size() ? "\"" + names.get(i).name() + "\" (position " + i + ")" : "position " + i;
      Object v = typed(f, raw.get(i), at + " " + name, shown, jf);
      if (v == null) {
        return null;
      }
      out.add(v);
    }
    return out;
  }

  private static int position(String key, List<Arg> names) {
    for (Arg a : names) {
      if (a.name().equals(key)) {
        return a.index();
      }
    }
    if (key.startsWith(POSITION)) {
      try {
        int p = Integer.parseInt(key.substring(POSITION.length()));
        return p >= names.size() && String.valueOf(p).equals(key.substring(POSITION.length())) ? p : -1;
      } catch (NumberFormatException e) {
        return -1;
      }
    }
    return -1;
  }

  private static String declared(Op op, Field f) {
    List<Arg> names = op.args(f.type);
    if (names.isEmpty()) {
      return op.name() + " takes no " + f.key();
    }
    StringBuilder sb = new StringBuilder(op.name() + "'s " + f.key() + " are ");
    for (Arg a : names) {
      sb.append(a.index() == 0 ? "" : ", ").append(a.name()).append(" (").append(a.type().name()).append(')');
    }
    return sb.toString();
  }

  private static Object typed(Field f, Object v, String at, Collection<?> shown, JsonFields jf) {
    return switch (f) {
      case I -> jf.integer(v, Long.MIN_VALUE, Long.MAX_VALUE, at);
      case T -> jf.number(v, at);
      case B -> jf.bool(v, at);
      case D -> jf.dtypeCode(v, at, shown);
      case S -> jf.string(v, at);
    };
  }

  /** Builds list {@code f}'s vector from {@link #parse}'s values; returns its offset. */
  static int build(FlatBufferBuilder b, Field f, List<Object> values) {
    int n = values.size();
    switch (f) {
      case I -> {
        long[] a = new long[n];
        for (int i = 0; i < n; i++) {
          a[i] = (Long) values.get(i);
        }
        return FlatNode.createExtraIntegerVector(b, a);
      }
      case T -> {
        double[] a = new double[n];
        for (int i = 0; i < n; i++) {
          a[i] = (Double) values.get(i);
        }
        return FlatNode.createExtraParamsVector(b, a);
      }
      case B -> {
        boolean[] a = new boolean[n];
        for (int i = 0; i < n; i++) {
          a[i] = (Boolean) values.get(i);
        }
        return FlatNode.createExtraBoolsVector(b, a);
      }
      case D -> {
        byte[] a = new byte[n];
        for (int i = 0; i < n; i++) {
          a[i] = (byte) (int) (Integer) values.get(i);
        }
        return FlatNode.createExtraTypesVector(b, a);
      }
      default -> {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
          a[i] = b.createString((String) values.get(i));
        }
        return FlatNode.createExtraStringsVector(b, a);
      }
    }
  }
}
