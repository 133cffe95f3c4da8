package org.modelfs.tree;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.modelfs.format.fb.GraphJson;
import org.modelfs.format.fb.FlatBufferOut;
import org.modelfs.format.fb.GraphWriter;
import org.modelfs.io.CountingOutput;
import org.modelfs.model.ArrayData;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.Variable;

/**
 * The virtual tree of a model (docs/FILESYSTEM.md §1): {@code tags/<tag>/…} for every tag and, at the
 * root, the entries of the newest tag. Built from the index alone; lookups take the canonical
 * spelling of a path or any other spelling of the same names.
 */
public final class ModelTree {
  /** The file names of a tag directory. */
  public static final String TAGS = "tags";
  public static final String GRAPH = "graph";
  public static final String GRAPH_JSON = "graph.json";
  public static final String PARAMS = "params";
  public static final String UPDATER = "updater";
  public static final String TRAINING = "training.json";
  public static final String METADATA = "metadata";
  /** The {@code kind} of updater state files. */
  public static final String UPDATER_KIND = "UPDATER";

  private final Dir root;

  private ModelTree(Dir root) {
    this.root = root;
  }

  /** The tree of {@code tags} (oldest first); {@code file} names the container in messages. */
  public static ModelTree of(List<Tag> tagList, String file) {
    Dir root = new Dir(null, false);
    Dir tags = new Dir(null, true);
    root.put(TAGS, tags);
    Dir newest = null;
    for (Tag t : tagList) {
      newest = tagDir(t, file);
      tags.put(t.name(), newest);
    }
    if (newest != null) {
      for (Map.Entry<String, Node> e : newest.children().entrySet()) {
        root.put(e.getKey(), e.getValue());
      }
    }
    return new ModelTree(root);
  }

  private static Dir tagDir(Tag t, String file) {
    String tag = t.name();
    Dir dir = new Dir(tag, false);
    dir.put(GRAPH, new FileNode(tag, new BytesContent(() -> stubGraph(t, file)), null));
    dir.put(GRAPH_JSON, new FileNode(tag, new BytesContent(() -> GraphJson.render(t, file)), null));

    Dir params = new Dir(tag, false);
    LinkedHashMap<String, Node> arrays = new LinkedHashMap<>();
    for (Variable v : t.variables()) {
      if (v.array() != null) {
        arrays.put(v.name(), arrayFile(tag, v.kind().name(), v.array()));
      }
    }
    NameSpace.build(params, arrays);
    dir.put(PARAMS, params);

    Dir updater = new Dir(tag, false);
    LinkedHashMap<String, Node> states = new LinkedHashMap<>();
    for (UpdaterState u : t.updater()) {
      Dir state = new Dir(tag, false);
      LinkedHashMap<String, Node> keys = new LinkedHashMap<>();
      for (Map.Entry<String, ArrayData> k : u.arrays().entrySet()) {
        keys.put(k.getKey(), arrayFile(tag, UPDATER_KIND, k.getValue()));
      }
      NameSpace.build(state, keys);
      states.put(u.paramName(), state);
    }
    NameSpace.build(updater, states);
    dir.put(UPDATER, updater);

    if (t.trainingConfig() != null) {
      dir.put(TRAINING, new FileNode(tag, BytesContent.of(t.trainingConfig().getBytes(StandardCharsets.UTF_8)), null));
    }
    Dir metadata = new Dir(tag, false);
    LinkedHashMap<String, Node> values = new LinkedHashMap<>();
    for (Map.Entry<String, String> m : t.metadata().entrySet()) {
      byte[] b = m.getValue() == null ? new byte[0] : m.getValue().getBytes(StandardCharsets.UTF_8);
      values.put(m.getKey(), new FileNode(tag, BytesContent.of(b), null));
    }
    NameSpace.build(metadata, values);
    dir.put(METADATA, metadata);
    return dir;
  }

  /**
   * The {@code graph} file: the FlatGraph of shard 0 of a sharded SDNB, with its tail (op
   * arguments such as scalars, re-encoded from a legacy graph, live after the builder's bytes).
   */
  private static byte[] stubGraph(Tag t, String file) throws java.io.IOException {
    GraphWriter.Built b = GraphWriter.build(t, GraphWriter.Mode.SHARD_GRAPH, Set.of(), Map.of(), file);
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream((int) b.flatBufferLength());
    FlatBufferOut.write(b, new CountingOutput(out), false);
    return out.toByteArray();
  }

  private static FileNode arrayFile(String tag, String kind, ArrayData a) {
    return new FileNode(tag, new ArrayContent(a), kind);
  }

  /** The root directory. */
  public Dir root() {
    return root;
  }

  /** A node found by {@link #lookup}, with the canonical spelling of its path. */
  public record Found(Node node, List<String> canonical) {}

  /**
   * Finds the node at {@code segments} (an absolute, normalized path split into names), or
   * {@code null}. Each segment is matched exactly first; then tag names ignoring case, and names
   * below {@code params/}, {@code updater/}, {@code metadata/} in any spelling that decodes to
   * the same name ({@code a/b} finds {@code a%2Fb}, even where {@code a} is itself a file).
   */
  public Found lookup(List<String> segments) {
    return find(root, List.of(), 0, segments, 0);
  }

  /**
   * Continues a lookup at {@code node}, reached by the canonical path {@code canonical}, whose
   * innermost name space started at {@code canonical[nsStart]}.
   */
  private static Found find(Node node, List<String> canonical, int nsStart, List<String> segments, int i) {
    if (i == segments.size()) {
      return new Found(node, List.copyOf(canonical));
    }
    if (!(node instanceof Dir dir)) {
      return null;
    }
    if (dir.nameSpace() != null && dir.nameSpacePrefix().isEmpty()) {
      nsStart = canonical.size();
    }
    String name = dir.canonicalName(segments.get(i));
    if (name != null) {
      Found f = find(dir.children().get(name), append(canonical, List.of(name)), nsStart, segments, i + 1);
      if (f != null) {
        return f;
      }
    }
    if (dir.nameSpace() == null) {
      return null;
    }
    for (int j = segments.size(); j > i; j--) {
      NameSpace.Entry e = dir.nameSpace().get(dir.nameSpacePrefix(), segments.subList(i, j));
      if (e != null) {
        Found f = find(e.node(), append(canonical.subList(0, nsStart), e.segments()), nsStart, segments, j);
        if (f != null) {
          return f;
        }
      }
    }
    return null;
  }

  private static List<String> append(List<String> a, List<String> b) {
    List<String> out = new ArrayList<>(a.size() + b.size());
    out.addAll(a);
    out.addAll(b);
    return out;
  }
}
