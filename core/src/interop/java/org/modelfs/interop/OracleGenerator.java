package org.modelfs.interop;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import org.modelfs.ModelFileSystems;
import org.nd4j.shade.jackson.databind.JsonNode;
import org.nd4j.shade.jackson.databind.ObjectMapper;

/**
 * Makes a random {@link OracleScript} from a seed: a fixture, a format, and one to four commits
 * through every route that changes a model (Path API sessions, graph.json edits, CLI commands).
 * Names are drawn from the fixture's graph — its parameters, the variables ops compute, the ops,
 * and fresh names — so that collisions (a variable named like an op, an op like a variable, a
 * rename onto an existing name) and cycles (an op reading a variable computed downstream) come
 * up often.
 */
final class OracleGenerator {
  static final List<String> FIXTURES = List.of("mlp_adam.fb", "mlp_adam.fb", "mlp_noupdater.fb", "dtypes.fb",
      "tf-import/simplewhile_1.fb", "tf-import/non2d_1.fb", "tf-import/cond_true.fb", "tf-import/scatter_nd_update.fb");
  static final List<String> FORMATS = List.of("fb", "sdnb", "sdnb-sharded", "sdz", "zip-tags", "container");
  private static final List<String> DTYPES = List.of("FLOAT", "DOUBLE", "HALF", "INT", "LONG");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, Graph> GRAPHS = new ConcurrentHashMap<>();

  /** What the generator knows of a fixture's graph. */
  record Graph(List<JsonNode> params, List<String> arrays, List<String> ops, List<String> argOps) {}

  private final SplittableRandom r;
  private final Graph g;
  private final String format;
  private int fresh;

  private OracleGenerator(long seed) throws IOException {
    r = new SplittableRandom(seed);
    String fixture = pick(FIXTURES);
    format = pick(FORMATS);
    g = graph(fixture);
    this.fixture = fixture;
  }

  private final String fixture;

  static OracleScript script(long seed) throws IOException {
    OracleGenerator gen = new OracleGenerator(seed);
    List<String> lines = new ArrayList<>();
    int commits = 1 + gen.r.nextInt(4);
    for (int i = 0; i < commits; i++) {
      lines.addAll(gen.commit());
    }
    return new OracleScript(gen.fixture, gen.format, lines);
  }

  static Graph graph(String fixture) throws IOException {
    Graph known = GRAPHS.get(fixture);
    if (known != null) {
      return known;
    }
    List<JsonNode> params = new ArrayList<>();
    List<String> arrays = new ArrayList<>();
    List<String> ops = new ArrayList<>();
    List<String> argOps = new ArrayList<>();
    try (FileSystem fs = ModelFileSystems.open(Dl4jFixtures.model(fixture))) {
      JsonNode doc = JSON.readTree(Files.readAllBytes(fs.getPath("/graph.json")));
      for (JsonNode v : doc.path("variables")) {
        String kind = v.path("kind").asText();
        if (kind.equals("VARIABLE") || kind.equals("CONSTANT")) {
          params.add(v);
        } else {
          arrays.add(v.path("name").asText());
        }
      }
      for (JsonNode op : doc.path("ops")) {
        ops.add(op.path("name").asText());
        if (op.path("iArgs").size() > 0 || op.path("tArgs").size() > 0) {
          argOps.add(op.path("name").asText());
        }
      }
    }
    Graph g = new Graph(params, arrays, ops, argOps);
    GRAPHS.put(fixture, g);
    return g;
  }

  private <T> T pick(List<T> l) {
    return l.get(r.nextInt(l.size()));
  }

  private long seed() {
    return r.nextInt(1_000_000);
  }

  private JsonNode param() {
    return g.params().isEmpty() ? null : pick(g.params());
  }

  private String paramName() {
    JsonNode p = param();
    return p == null ? "p0" : p.path("name").asText();
  }

  /** A name for a variable: fresh, an op's, a computed variable's or another parameter's. */
  private String targetName() {
    int k = r.nextInt(10);
    if (k < 4 || g.ops().isEmpty()) {
      return "p" + (fresh++) + (r.nextBoolean() ? "/x" : "");
    }
    if (k < 7) {
      return pick(g.ops());
    }
    if (k < 9 && !g.arrays().isEmpty()) {
      return pick(g.arrays());
    }
    return paramName();
  }

  private String anyVariable() {
    return r.nextInt(3) == 0 && !g.arrays().isEmpty() ? pick(g.arrays()) : paramName();
  }

  private static String p(String name) {
    return "/params/" + Dl4jOracle.encode(name);
  }

  private String shape(JsonNode p) {
    if (p != null && r.nextInt(3) > 0) {
      StringBuilder sb = new StringBuilder();
      for (JsonNode d : p.path("shape")) {
        sb.append(sb.length() == 0 ? "" : ",").append(d.asLong());
      }
      return sb.length() == 0 ? "-" : sb.toString();
    }
    return pick(List.of("2,2", "4", "-", "8,3", "3,8"));
  }

  private String dtype(JsonNode p) {
    return p != null && r.nextBoolean() ? p.path("dtype").asText() : pick(DTYPES);
  }

  private List<String> commit() {
    int k = r.nextInt(10);
    if (k < 4) {
      List<List<String>> ops = new ArrayList<>();
      int n = 1 + r.nextInt(3);
      for (int i = 0; i < n; i++) {
        ops.addAll(fsOps());
      }
      return List.of(OracleScript.line("fs", ops));
    }
    if (k < 7) {
      List<List<String>> edits = new ArrayList<>();
      int n = 1 + r.nextInt(2);
      for (int i = 0; i < n; i++) {
        edits.add(jsonEdit());
      }
      return List.of(OracleScript.line("json", edits));
    }
    return cli();
  }

  private List<List<String>> fsOps() {
    JsonNode prm = param();
    String name = prm == null ? "p0" : prm.path("name").asText();
    switch (r.nextInt(17)) {
      case 14:
        return List.of(List.of("channel", p(r.nextInt(4) == 0 ? targetName() : name), "" + (4 * r.nextInt(40)),
            "" + (4 * (1 + r.nextInt(8))), "" + seed()));
      case 15: {
        // a tag changed and its graph.json copied back (the graph.json route of a copy)
        String t = "t" + (fresh++);
        return List.of(List.of("mkdir", t), List.of("tagcopy", "default", t),
            List.of("move", "/tags/" + t + "/params/" + Dl4jOracle.encode(name), "/tags/" + t + "/params/"
                + Dl4jOracle.encode(targetName())), List.of("jsoncopy", t, "default"), List.of("rmtag", t));
      }
      case 16: {
        String t = "t" + (fresh++);
        return List.of(List.of("mkdir", t), List.of("tagcopy", "default", t),
            List.of("copy", "/tags/" + t + "/params/" + Dl4jOracle.encode(name), "/tags/default/params/"
                + Dl4jOracle.encode(paramName()), "replace"));
      }
      case 0:
        return List.of(List.of("write", p(name), "" + seed()));
      case 1:
        return List.of(List.of("writen", p(name), "" + (4 * (1 + r.nextInt(40))), "" + seed()));
      case 2:
        return List.of(List.of("new", p(targetName()), dtype(prm), shape(prm), "" + seed()));
      case 3:
        return List.of(r.nextBoolean() ? List.of("move", p(name), p(targetName()))
            : List.of("move", p(name), p(targetName()), "replace"));
      case 4:
        return List.of(List.of("delete", p(name)));
      case 5:
        return List.of(r.nextBoolean() ? List.of("copy", p(name), p(targetName()))
            : List.of("copy", p(name), p(paramName()), "replace"));
      case 6: {
        String attr = pick(List.of("dtype", "shape", "order", "kind"));
        String v = switch (attr) {
          case "dtype" -> dtype(null);
          case "shape" -> shape(r.nextBoolean() ? null : param());
          case "order" -> pick(List.of("c", "f"));
          default -> pick(List.of("VARIABLE", "CONSTANT", "PLACEHOLDER"));
        };
        return List.of(List.of("setattr", p(name), attr, v));
      }
      case 7:
        return List.of(List.of("meta", pick(List.of("note", "author", "nd4j.format.version")), "v" + seed()));
      case 8:
        return List.of(r.nextBoolean() ? List.of("training", "l2", "0.5")
            : List.of("training", "lossVariables", anyVariable()));
      case 9: {
        // a graph from a changed copy of the tag, written back over the tag's own (door: declarations vs arrays)
        String t = "t" + (fresh++);
        return List.of(List.of("mkdir", t), List.of("tagcopy", "default", t),
            List.of("delete", "/tags/" + t + "/params/" + Dl4jOracle.encode(name)),
            List.of("new", "/tags/" + t + "/params/" + Dl4jOracle.encode(name), dtype(null), shape(null), "" + seed()),
            List.of("graphcopy", t, "default"), List.of("rmtag", t));
      }
      case 10: {
        String t = "t" + (fresh++);
        return List.of(List.of("mkdir", t), List.of("tagcopy", "default", t));
      }
      case 11: {
        String t = "t" + (fresh++);
        return List.of(List.of("mkdir", t), List.of("tagcopy", "default", t),
            List.of("move", "/tags/" + t + "/params/" + Dl4jOracle.encode(name), "/tags/default/params/"
                + Dl4jOracle.encode(targetName())));
      }
      case 12:
        return List.of(List.of("copy", p(name), "/tags/default/params/" + Dl4jOracle.encode(targetName())));
      default:
        return List.of(List.of("setattr", p(name), "shape", shape(null)));
    }
  }

  private List<String> jsonEdit() {
    switch (r.nextInt(11)) {
      case 0:
      case 1:
        return List.of("renamevar", anyVariable(), targetName());
      case 2:
        return List.of("renameop", pick(g.ops().isEmpty() ? List.of("x") : g.ops()),
            r.nextBoolean() ? "op" + (fresh++) : anyVariable());
      case 3:
      case 4:
        return List.of("input", pick(g.ops().isEmpty() ? List.of("x") : g.ops()), "" + r.nextInt(3), anyVariable());
      case 5:
        return List.of("arg", pick(g.argOps().isEmpty() ? List.of("x") : g.argOps()),
            pick(List.of("iArgs", "tArgs")), "" + (r.nextInt(4) - 1));
      case 6:
        return List.of("dropop", pick(g.ops().isEmpty() ? List.of("x") : g.ops()));
      case 7:
        return List.of("dropvar", anyVariable());
      case 8:
        return List.of("shape", anyVariable(), shape(null));
      case 9:
        return List.of("dtype", anyVariable(), dtype(null));
      default:
        return List.of("kind", anyVariable(), pick(List.of("VARIABLE", "CONSTANT", "ARRAY", "PLACEHOLDER")));
    }
  }

  private List<String> cli() {
    JsonNode prm = param();
    String name = prm == null ? "p0" : prm.path("name").asText();
    switch (r.nextInt(11)) {
      case 0:
        return List.of(cliLine("cp", "@bin:" + (4 * (1 + r.nextInt(40))) + ":" + seed(), "MODEL:" + p(targetName()),
            "--dtype", dtype(prm), "--shape", shape(prm).replace("-", "")));
      case 1:
        return List.of(cliLine("cp", "MODEL:" + p(name), "MODEL:" + p(targetName())));
      case 2:
        return List.of(cliLine("rm", "MODEL", p(name)));
      case 3:
        return List.of(cliLine("meta", "set", "MODEL", pick(List.of("note", "nd4j.format.type")), "v" + seed()));
      case 4:
        return List.of(cliLine("tag", "add", "MODEL", "t" + (fresh++)));
      case 5: {
        String t = "t" + (fresh++);
        return List.of(cliLine("tag", "add", "MODEL", t), cliLine("tag", r.nextBoolean() ? "rm" : "mv", "MODEL",
            r.nextBoolean() ? "default" : t, "u" + (fresh++)));
      }
      case 6:
      case 7:
        return List.of(cliLine("import", "@npy:" + dtype(prm) + ":" + shape(prm) + ":" + seed(),
            "MODEL:" + (r.nextInt(3) == 0 ? targetName() : name)));
      case 8:
        return List.of(cliLine("import", "@st:" + (r.nextBoolean() ? name : targetName()) + ":" + dtype(prm) + ":"
            + shape(prm) + ":" + seed(), "MODEL", r.nextBoolean() ? "--allow-new" : "--quiet"));
      case 9:
        return List.of(cliLine("export", "MODEL", "@out:all.safetensors", "--with-updater", "--quiet"),
            cliLine("import", "@out:all.safetensors", "MODEL", "--with-updater", "--quiet"));
      default: {
        String t = "t" + (fresh++);
        return List.of(cliLine("tag", "add", "MODEL", t),
            cliLine("avg", "MODEL", "--tags", "default," + t, "--into", "avg" + (fresh++), "--quiet"));
      }
    }
  }

  private static String cliLine(String... args) {
    return OracleScript.line("cli", List.of(List.of(args)));
  }
}
