package org.modelfs.interop;

import java.io.IOException;
import java.util.List;
import org.nd4j.shade.jackson.databind.JsonNode;
import org.nd4j.shade.jackson.databind.ObjectMapper;
import org.nd4j.shade.jackson.databind.node.ArrayNode;
import org.nd4j.shade.jackson.databind.node.ObjectNode;
import org.nd4j.shade.jackson.databind.node.TextNode;

/**
 * The graph.json edits of a {@code json} line of an {@link OracleScript}, as a user makes them
 * with a JSON library (nd4j's shaded Jackson): parse, change, pretty-print.
 *
 * <ul>
 *   <li>{@code renamevar OLD NEW}: the variable and every mention of it (op inputs and outputs,
 *       the lists, control dependencies), as a search-and-replace of the name would;
 *   <li>{@code renameop OLD NEW}: the op's {@code name} and the control dependencies naming it;
 *   <li>{@code input OP I VAR}: input {@code I} (mod the count) of op {@code OP} becomes {@code VAR};
 *   <li>{@code arg OP KEY VALUE}: an {@code iArgs}/{@code tArgs} value ({@code KEY} = {@code iArgs}
 *       or {@code tArgs}: the first argument);
 *   <li>{@code dropop OP}, {@code dropvar V};
 *   <li>{@code shape V A,B}, {@code dtype V D}, {@code kind V K}: a variable's declaration.
 * </ul>
 * An edit naming something the document lacks changes nothing.
 */
final class OracleJsonEdits {
  private static final ObjectMapper JSON = new ObjectMapper();

  private OracleJsonEdits() {}

  static byte[] apply(byte[] json, List<List<String>> edits) throws IOException {
    ObjectNode g = (ObjectNode) JSON.readTree(json);
    for (List<String> e : edits) {
      edit(g, e);
    }
    return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(g);
  }

  private static void edit(ObjectNode g, List<String> e) {
    String a = e.get(1);
    switch (e.get(0)) {
      case "renamevar" -> {
        ObjectNode v = find(g.path("variables"), a);
        if (v != null) {
          v.put("name", e.get(2));
          replaceNames(g, a, e.get(2), true);
        }
      }
      case "renameop" -> {
        ObjectNode op = find(g.path("ops"), a);
        if (op != null) {
          op.put("name", e.get(2));
          replaceNames(g, a, e.get(2), false);
        }
      }
      case "input" -> {
        ObjectNode op = find(g.path("ops"), a);
        if (op != null && op.path("inputs").size() > 0) {
          ArrayNode in = (ArrayNode) op.get("inputs");
          in.set(Integer.parseInt(e.get(2)) % in.size(), new TextNode(e.get(3)));
        }
      }
      case "arg" -> {
        ObjectNode op = find(g.path("ops"), a);
        JsonNode args = op == null ? null : op.get(e.get(2));
        if (args instanceof ObjectNode o && o.size() > 0) {
          String key = o.fieldNames().next();
          if (e.get(2).equals("iArgs")) {
            o.put(key, Long.parseLong(e.get(3)));
          } else {
            o.put(key, Double.parseDouble(e.get(3)));
          }
        } else if (args instanceof ArrayNode arr && arr.size() > 0) {
          if (e.get(2).equals("iArgs")) {
            arr.set(0, JSON.getNodeFactory().numberNode(Long.parseLong(e.get(3))));
          } else {
            arr.set(0, JSON.getNodeFactory().numberNode(Double.parseDouble(e.get(3))));
          }
        }
      }
      case "dropop" -> remove(g.path("ops"), a);
      case "dropvar" -> remove(g.path("variables"), a);
      case "shape" -> {
        ObjectNode v = find(g.path("variables"), a);
        if (v != null) {
          ArrayNode s = v.putArray("shape");
          for (long d : OracleFiles.shape(e.get(2))) {
            s.add(d);
          }
        }
      }
      case "dtype", "kind" -> {
        ObjectNode v = find(g.path("variables"), a);
        if (v != null) {
          v.put(e.get(0), e.get(2));
        }
      }
      default -> throw new IllegalArgumentException("unknown graph.json edit " + e);
    }
  }

  private static ObjectNode find(JsonNode arr, String name) {
    for (JsonNode n : arr) {
      if (name.equals(n.path("name").asText(null))) {
        return (ObjectNode) n;
      }
    }
    return null;
  }

  private static void remove(JsonNode arr, String name) {
    for (int i = 0; i < arr.size(); i++) {
      if (name.equals(arr.get(i).path("name").asText(null))) {
        ((ArrayNode) arr).remove(i);
        return;
      }
    }
  }

  /** Every string {@code from} in a name list of the document, of its variables and of its ops → {@code to}. */
  private static void replaceNames(ObjectNode g, String from, String to, boolean variable) {
    if (variable) {
      replaceIn(g, from, to);
    }
    for (JsonNode n : g.path("variables")) {
      for (String k : variable ? List.of("controlDepsForVar") : List.of("controlDeps", "controlDepForOp")) {
        replaceList(n.get(k), from, to);
      }
    }
    for (JsonNode op : g.path("ops")) {
      if (variable) {
        for (String k : List.of("inputs", "outputs", "varControlDeps")) {
          replaceList(op.get(k), from, to);
        }
      } else {
        for (String k : List.of("controlDeps", "controlDepFor")) {
          replaceList(op.get(k), from, to);
        }
      }
    }
  }

  private static void replaceIn(JsonNode node, String from, String to) {
    for (String k : List.of("placeholders", "lossVariables", "outputs")) {
      replaceList(node.get(k), from, to);
    }
  }

  private static void replaceList(JsonNode list, String from, String to) {
    if (list instanceof ArrayNode arr) {
      for (int i = 0; i < arr.size(); i++) {
        if (from.equals(arr.get(i).asText(null))) {
          arr.set(i, new TextNode(to));
        }
      }
    }
  }
}
