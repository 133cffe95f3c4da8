package org.modelfs.format.fb;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.modelfs.format.fb.OpDescriptors.Arg;
import org.modelfs.format.fb.OpDescriptors.ArgType;
import org.modelfs.format.fb.OpDescriptors.Op;

/**
 * The {@code properties} of a custom op that repeat its named arguments (docs/GRAPH.md §1.7):
 * DL4J M2.1 saves each argument again as a property of the same name, and computes with the
 * argument alone. So when a written graph.json changes an argument and leaves such a property
 * as it was, the property follows the argument — as DL4J writes it on its next save — and a
 * property changed to disagree with its argument is refused: editing it would change nothing
 * DL4J computes.
 */
final class PropertyEcho {
  private PropertyEcho() {}

  /**
   * {@code op} (a changed op of graph.json whose op of the same id the tag's graph shows as
   * {@code shown}, with the same {@code opName}) with its echoing properties brought in line.
   */
  @SuppressWarnings("unchecked")
  static Map<String, Object> follow(Map<String, Object> op, Map<String, Object> shown, Op desc, String where,
      JsonFields f) {
    List<Object> props = new ArrayList<>((List<Object>) op.get("properties"));
    List<Object> shownProps = GraphJsonReader.listOf(shown.get("properties"));
    boolean changed = false;
    for (OpArgs.Field field : OpArgs.Field.values()) {
      String key = valueKey(field.type);
      if (key == null || !(op.get(field.key()) instanceof Map<?, ?> args)
          || !(shown.get(field.key()) instanceof Map<?, ?> shownArgs)) {
        continue;
      }
      for (Arg a : desc.args(field.type)) {
        Object now = args.get(a.name());
        Object before = shownArgs.get(a.name());
        int at = index(props, a.name());
        int shownAt = index(shownProps, a.name());
        if (now == null || before == null || at < 0 || shownAt < 0 || !sameKind(now, before)) {
          continue; // nothing to follow (a value of another kind is the argument's own problem)
        }
        Object prop = ((Map<String, Object>) props.get(at)).get(key);
        Object shownProp = ((Map<String, Object>) shownProps.get(shownAt)).get(key);
        if (!(shownProp instanceof List<?> sp) || sp.size() != 1 || !same(sp.get(0), before)) {
          continue; // this property never repeated the argument
        }
        if (prop instanceof List<?> p && p.size() == 1 && same(p.get(0), now)) {
          continue; // agrees already
        }
        if (same(prop, shownProp)) {
          Map<String, Object> echo = new LinkedHashMap<>((Map<String, Object>) props.get(at));
          echo.put(key, List.of(now));
          props.set(at, echo);
          changed = true;
        } else {
          f.problem(where + ", property '" + a.name() + "'", "says " + JsonFields.show(prop) + ", but " + field.key()
              + " \"" + a.name() + "\" is " + JsonFields.show(now) + ": DL4J computes with " + field.key()
              + " (docs/GRAPH.md §1.7) — edit " + field.key() + " and the property follows");
        }
      }
    }
    if (!changed) {
      return op;
    }
    Map<String, Object> out = new LinkedHashMap<>(op);
    out.put("properties", props);
    return out;
  }

  /** The FlatProperties field that holds a value of an argument of this type, or null. */
  private static String valueKey(ArgType t) {
    return switch (t) {
      case INT64 -> "l";
      case DOUBLE -> "d";
      case BOOL -> "b";
      case STRING -> "s";
      default -> null;
    };
  }

  private static int index(List<Object> props, String name) {
    for (int i = 0; i < props.size(); i++) {
      if (props.get(i) instanceof Map<?, ?> p && name.equals(p.get("name"))) {
        return i;
      }
    }
    return -1;
  }

  private static boolean sameKind(Object a, Object b) {
    return a instanceof Number ? b instanceof Number : a.getClass() == b.getClass();
  }

  /** JSON values equal, numbers by value (an edit may write 1 for 1.0). */
  private static boolean same(Object a, Object b) {
    if (a instanceof Number x && b instanceof Number y) {
      return x.doubleValue() == y.doubleValue();
    }
    return Objects.equals(a, b);
  }
}
