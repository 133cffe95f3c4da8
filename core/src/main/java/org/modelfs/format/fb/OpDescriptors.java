package org.modelfs.format.fb;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * DL4J 1.0.0-M2.1's op descriptors: for each op name, its arguments by name, type and position
 * (docs/GRAPH.md "Op descriptors"). Read once, on first use, from the table
 * {@value #RESOURCE} that ships in the jar — generated from {@code nd4j-op-def.pbtxt} of
 * {@code org.nd4j:nd4j-api:1.0.0-M2.1} (Apache License 2.0, META-INF/NOTICE) and checked
 * against it by the interop test {@code OpDescriptorTableInteropTest}; the core never loads
 * nd4j.
 *
 * <p>The table's lines ({@value #COLUMNS}, tab-separated, one per argument; an op without
 * arguments has a line of its first two columns only), {@code #} comment lines before them and a
 * last line {@code # end <ops> <arguments>} that must match what was read. Anything else — an
 * unknown type, a repeated or missing position, an op split over two runs of lines, a truncated
 * table, a line or table beyond its bound — is refused with its line number, never skipped.
 */
public final class OpDescriptors {
  /** The table's class-path name. */
  static final String RESOURCE = "/org/modelfs/format/fb/op-descriptors.tsv";
  /** The columns of an argument's line. */
  static final String COLUMNS = "op, declarationType, argType, argIndex, argName";
  /** The last line's first word. */
  static final String END = "# end";
  /** Bounds of what is read: characters of the whole table, of one line, of one name, positions. */
  static final int MAX_CHARS = 1 << 20;
  static final int MAX_LINE = 512;
  static final int MAX_NAME = 200;
  static final int MAX_INDEX = 1024;

  /**
   * An argument's kind, as {@code ArgDescriptor.ArgType} names it, with where a FlatNode holds
   * its values (docs/FORMATS.md §3.4) and the name DL4J's op classes give that array.
   */
  public enum ArgType {
    /** {@code FlatNode.extraInteger} (slot 9). */
    INT64("iArgs", 9),
    /** {@code FlatNode.extraParams} (slot 8). */
    DOUBLE("tArgs", 8),
    /** {@code FlatNode.extraBools} (slot 10). */
    BOOL("bArgs", 10),
    /** {@code FlatNode.extraTypes} (slot 22), DType bytes. */
    DATA_TYPE("dArgs", 22),
    /** {@code FlatNode.extraStrings} (slot 23). */
    STRING("sArgs", 23),
    /** {@code FlatNode.inputPaired} (slot 6): the op's input variables, in order. */
    INPUT_TENSOR("inputs", 6),
    /** The op's output variables ({@code FlatNode.outputNames}, slot 15), in order. */
    OUTPUT_TENSOR("outputs", 15);

    private final String dl4jName;
    private final int nodeSlot;

    ArgType(String dl4jName, int nodeSlot) {
      this.dl4jName = dl4jName;
      this.nodeSlot = nodeSlot;
    }

    /** DL4J's name of the array these arguments are positions of: {@code iArgs}, {@code tArgs}, … */
    public String dl4jName() {
      return dl4jName;
    }

    /** The FlatNode slot that holds these arguments' values (docs/FORMATS.md §3.4). */
    public int nodeSlot() {
      return nodeSlot;
    }
  }

  /** How libnd4j declares an op ({@code OpDescriptor.OpDeclarationType}); absent in the pbtxt means {@code CUSTOM_OP_IMPL}. */
  public enum Declaration {
    CUSTOM_OP_IMPL, BOOLEAN_OP_IMPL, LIST_OP_IMPL, LOGIC_OP_IMPL, OP_IMPL, DIVERGENT_OP_IMPL,
    CONFIGURABLE_OP_IMPL, REDUCTION_OP_IMPL, BROADCASTABLE_OP_IMPL, BROADCASTABLE_BOOL_OP_IMPL,
    /** A legacy op (transform, scalar, reduce, …): a FlatNode of a non-CUSTOM {@code opType}. */
    LEGACY_XYZ, PLATFORM_IMPL
  }

  /**
   * One argument: its name (not unique within an op — {@code reduce_mean} has an INT64 and an
   * INPUT_TENSOR {@code dimensions}; the type and name together are), its type and its position
   * among the op's arguments of that type.
   */
  public record Arg(String name, ArgType type, int index) {}

  /** One op: its name as a FlatNode's {@code opName} carries it, its declaration, its arguments. */
  public static final class Op {
    private final String name;
    private final Declaration declaration;
    private final List<Arg> args;
    private final Map<ArgType, List<Arg>> byType;

    private Op(String name, Declaration declaration, List<Arg> args, Map<ArgType, List<Arg>> byType) {
      this.name = name;
      this.declaration = declaration;
      this.args = args;
      this.byType = byType;
    }

    /** The op's name (case matters: {@code Floor} and {@code floor} are two ops). */
    public String name() {
      return name;
    }

    /** How libnd4j declares it. */
    public Declaration declaration() {
      return declaration;
    }

    /** Every argument, in the descriptor's order. */
    public List<Arg> args() {
      return args;
    }

    /** The arguments of one type, by position: element {@code i} has {@code index() == i}. */
    public List<Arg> args(ArgType type) {
      return byType.getOrDefault(type, List.of());
    }

    /** The argument of this type at this position, if the descriptor names one. */
    public Optional<Arg> arg(ArgType type, int index) {
      List<Arg> of = args(type);
      return index >= 0 && index < of.size() ? Optional.of(of.get(index)) : Optional.empty();
    }

    @Override
    public String toString() {
      return name + " " + declaration + " " + args;
    }
  }

  private OpDescriptors() {}

  /** The table, read on first use (the holder idiom: once, safely published). */
  private static final class Table {
    static final Map<String, Op> OPS = load();

    private static Map<String, Op> load() {
      try (InputStream in = OpDescriptors.class.getResourceAsStream(RESOURCE)) {
        if (in == null) {
          throw new IllegalStateException("the op descriptor table " + RESOURCE + " is not on the class path");
        }
        return parse(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the op descriptor table " + RESOURCE, e);
      }
    }
  }

  /** The descriptor of the op of this name, or empty for an op DL4J 1.0.0-M2.1 does not describe. */
  public static Optional<Op> find(String opName) {
    return Optional.ofNullable(Table.OPS.get(opName));
  }

  /** How many ops the table describes. */
  public static int size() {
    return Table.OPS.size();
  }

  /**
   * Reads a table (the class comment says its form).
   *
   * @throws IllegalArgumentException naming the line, for anything that is not such a table
   */
  static Map<String, Op> parse(BufferedReader in) throws IOException {
    Map<String, Op> ops = new HashMap<>();
    Builder current = null;
    int lineNo = 0;
    long chars = 0;
    long argCount = 0;
    boolean ended = false;
    String line;
    while ((line = in.readLine()) != null) {
      lineNo++;
      chars += line.length() + 1;
      if (chars > MAX_CHARS) {
        throw bad(lineNo, "the table is longer than " + MAX_CHARS + " characters");
      }
      if (line.length() > MAX_LINE) {
        throw bad(lineNo, "a line longer than " + MAX_LINE + " characters");
      }
      if (ended) {
        throw bad(lineNo, "a line after the end line");
      }
      if (line.startsWith(END)) {
        if (current != null) {
          ops.put(current.name, current.build(lineNo));
          current = null;
        }
        String[] f = line.substring(END.length()).split(" ", -1);
        if (f.length != 3 || !f[0].isEmpty()
            || number(f[1], Integer.MAX_VALUE, lineNo) != ops.size()
            || number(f[2], Integer.MAX_VALUE, lineNo) != argCount) {
          throw bad(lineNo, "the end line says \"" + line + "\" but " + ops.size() + " ops and "
              + argCount + " arguments were read");
        }
        ended = true;
        continue;
      }
      if (line.startsWith("#")) {
        if (current != null || !ops.isEmpty()) {
          throw bad(lineNo, "a comment line among the descriptors");
        }
        continue;
      }
      String[] f = line.split("\t", -1);
      if (f.length != 2 && f.length != 5) {
        throw bad(lineNo, f.length + " tab-separated fields, expected 2 or 5 (" + COLUMNS + ")");
      }
      String opName = name(f[0], lineNo, "op name");
      Declaration declaration = constant(Declaration.class, f[1], lineNo, "declaration type");
      if (current == null || !current.name.equals(opName)) {
        if (current != null) {
          ops.put(current.name, current.build(lineNo));
        }
        if (ops.containsKey(opName)) {
          throw bad(lineNo, "op " + opName + " appears again after other ops");
        }
        current = new Builder(opName, declaration);
      } else if (current.declaration != declaration) {
        throw bad(lineNo, "op " + opName + " has two declaration types: " + current.declaration + ", " + declaration);
      }
      if (f.length == 2) {
        if (!current.args.isEmpty() || current.noArgs) {
          throw bad(lineNo, "op " + opName + " has a line without arguments beside other lines");
        }
        current.noArgs = true;
        continue;
      }
      if (current.noArgs) {
        throw bad(lineNo, "op " + opName + " has a line without arguments beside other lines");
      }
      ArgType type = constant(ArgType.class, f[2], lineNo, "argument type");
      int index = number(f[3], MAX_INDEX, lineNo);
      String argName = name(f[4], lineNo, "argument name");
      current.add(new Arg(argName, type, index), lineNo);
      argCount++;
    }
    if (!ended) {
      throw bad(lineNo, "the table has no end line (\"" + END + " <ops> <arguments>\"): truncated?");
    }
    return Collections.unmodifiableMap(ops);
  }

  /** One op's lines as they are read. */
  private static final class Builder {
    final String name;
    final Declaration declaration;
    final List<Arg> args = new ArrayList<>();
    final Map<ArgType, Map<Integer, Arg>> byType = new EnumMap<>(ArgType.class);
    boolean noArgs;

    Builder(String name, Declaration declaration) {
      this.name = name;
      this.declaration = declaration;
    }

    void add(Arg arg, int lineNo) {
      Arg before = byType.computeIfAbsent(arg.type(), t -> new HashMap<>()).putIfAbsent(arg.index(), arg);
      if (before != null) {
        throw bad(lineNo, "op " + name + " has two " + arg.type() + " arguments at position " + arg.index()
            + ": " + before.name() + ", " + arg.name());
      }
      args.add(arg);
    }

    /** Checks each type's positions are 0..n-1 (the line given is the one after the op's). */
    Op build(int lineNo) {
      Map<ArgType, List<Arg>> ordered = new EnumMap<>(ArgType.class);
      for (Map.Entry<ArgType, Map<Integer, Arg>> e : byType.entrySet()) {
        List<Arg> list = new ArrayList<>(e.getValue().size());
        for (int i = 0; i < e.getValue().size(); i++) {
          Arg a = e.getValue().get(i);
          if (a == null) {
            throw bad(lineNo - 1, "op " + name + " has " + e.getValue().size() + " " + e.getKey()
                + " arguments but none at position " + i);
          }
          list.add(a);
        }
        ordered.put(e.getKey(), List.copyOf(list));
      }
      return new Op(name, declaration, List.copyOf(args), Collections.unmodifiableMap(ordered));
    }
  }

  private static String name(String s, int lineNo, String what) {
    if (s.isEmpty() || s.length() > MAX_NAME) {
      throw bad(lineNo, "an " + what + " of " + s.length() + " characters (1 to " + MAX_NAME + ")");
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c <= ' ' || c == 0x7f || c == '"' || c == '\\') {
        throw bad(lineNo, "an " + what + " with a space, control character, quote or backslash: " + s);
      }
    }
    return s;
  }

  private static <E extends Enum<E>> E constant(Class<E> type, String s, int lineNo, String what) {
    for (E e : type.getEnumConstants()) {
      if (e.name().equals(s)) {
        return e;
      }
    }
    throw bad(lineNo, "unknown " + what + " \"" + s + "\"");
  }

  /** A decimal number 0..max, without sign or leading zeros. */
  private static int number(String s, int max, int lineNo) {
    if (s.isEmpty() || s.length() > 10 || (s.length() > 1 && s.charAt(0) == '0')) {
      throw bad(lineNo, "not a number: \"" + s + "\"");
    }
    long v = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        throw bad(lineNo, "not a number: \"" + s + "\"");
      }
      v = v * 10 + (c - '0');
    }
    if (v > max) {
      throw bad(lineNo, s + " is beyond " + max);
    }
    return (int) v;
  }

  private static IllegalArgumentException bad(int lineNo, String what) {
    return new IllegalArgumentException("op descriptor table, line " + lineNo + ": " + what);
  }
}
