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
 * The virtual tree of a model (docs/FILESYSTEM.md §1): {@code tags/<tag>/…} for every tag. The
 * root lists only {@code tags}; the root aliases ({@code /graph}, {@code /params}, …) resolve to
 * the newest tag's entries without being listed, so a walk of {@code /} sees each file once.
 * Built from the index alone; lookups take the canonical spelling of a path or any other
 * spelling of the same names.
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
  /** The names of a tag directory that the root also answers to (the newest tag's). */
  public static final Set<String> ALIASES = Set.of(GRAPH, GRAPH_JSON, PARAMS, UPDATER, TRAINING, METADATA);
  /** The directories of a tag that hold named entries (parameters, updater state, metadata keys). */
  public static final Set<String> AREAS = Set.of(PARAMS, UPDATER, METADATA);

  private final Dir root;
  /** The newest tag's name, or {@code null} without tags. */
  private final String newest;

  private ModelTree(Dir root, String newest) {
    this.root = root;
    this.newest = newest;
  }

  /** The tree of {@code tags} (oldest first); {@code file} names the container in messages. */
  public static ModelTree of(List<Tag> tagList, String file) {
    return of(tagList, Map.of(), file);
  }

  /**
   * The tree of {@code tags} (oldest first) as a write session shows them: {@code overlays} by
   * tag name (missing = {@link TagOverlay#NONE}).
   */
  public static ModelTree of(List<Tag> tagList, Map<String, TagOverlay> overlays, String file) {
    Dir root = new Dir(null, false);
    Dir tags = new Dir(null, true);
    root.put(TAGS, tags);
    String newest = null;
    for (Tag t : tagList) {
      tags.put(t.name(), tagDir(t, overlays.getOrDefault(t.name(), TagOverlay.NONE), file));
      newest = t.name();
    }
    return new ModelTree(root, newest);
  }

  private static Dir tagDir(Tag t, TagOverlay overlay, String file) {
    String tag = t.name();
    Dir dir = new Dir(tag, false);
    if (t.graph() != null) {
      dir.put(GRAPH, new FileNode(tag, new BytesContent(() -> stubGraph(t, file)), null));
    }
    if (overlay.graphJson() != null) {
      dir.put(GRAPH_JSON, new FileNode(tag, overlay.graphJson(), null));
    } else if (!overlay.graphJsonAbsent()) {
      dir.put(GRAPH_JSON, new FileNode(tag, new BytesContent(() -> GraphJson.render(t, file)), null));
    }

    if (!overlay.absentAreas().contains(PARAMS)) {
      Dir params = new Dir(tag, false);
      LinkedHashMap<String, Node> arrays = new LinkedHashMap<>();
      for (Variable v : t.variables()) {
        if (v.array() != null) {
          arrays.put(v.name(), arrayFile(tag, v.kind().name(), v.array()));
        }
      }
      NameSpace.build(params, arrays, overlay.kept(PARAMS));
      dir.put(PARAMS, params);
    }

    if (!overlay.absentAreas().contains(UPDATER)) {
      Dir updater = new Dir(tag, false);
      LinkedHashMap<String, Node> states = new LinkedHashMap<>();
      for (UpdaterState u : t.updater()) {
        Dir state = new Dir(tag, false);
        LinkedHashMap<String, Node> keys = new LinkedHashMap<>();
        for (Map.Entry<String, ArrayData> k : u.arrays().entrySet()) {
          keys.put(k.getKey(), arrayFile(tag, UPDATER_KIND, k.getValue()));
        }
        NameSpace.build(state, keys, Set.of());
        states.put(u.paramName(), state);
      }
      NameSpace.build(updater, states, overlay.kept(UPDATER));
      dir.put(UPDATER, updater);
    }

    if (t.trainingConfig() != null) {
      dir.put(TRAINING, new FileNode(tag, BytesContent.of(t.trainingConfig().getBytes(StandardCharsets.UTF_8)), null));
    }
    if (!overlay.absentAreas().contains(METADATA)) {
      Dir metadata = new Dir(tag, false);
      LinkedHashMap<String, Node> values = new LinkedHashMap<>();
      for (Map.Entry<String, String> m : t.metadata().entrySet()) {
        byte[] b = m.getValue() == null ? new byte[0] : m.getValue().getBytes(StandardCharsets.UTF_8);
        values.put(m.getKey(), new FileNode(tag, BytesContent.of(b), null));
      }
      NameSpace.build(metadata, values, overlay.kept(METADATA));
      dir.put(METADATA, metadata);
    }
    return dir;
  }

  /**
   * The {@code graph} file: the FlatGraph of shard 0 of a sharded SDNB, with its tail (op
   * arguments such as scalars, re-encoded from a legacy graph, live after the builder's bytes).
   */
  private static byte[] stubGraph(Tag t, String file) throws java.io.IOException {
    // the training configuration has its own file, training.json (docs/FILESYSTEM.md §3)
    Tag structure = new Tag(t.name(), t.graph(), t.variables(), t.updater(), null, t.metadata());
    GraphWriter.Built b = GraphWriter.build(structure, GraphWriter.Mode.SHARD_GRAPH, Set.of(), Map.of(), file);
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
   * the same name ({@code a/b} finds {@code a%2Fb}, even where {@code a} is itself a file). A
   * root alias is found at its tag: {@code /params/W} has the canonical path
   * {@code tags/<newest>/params/W}.
   */
  public Found lookup(List<String> segments) {
    if (!segments.isEmpty() && newest != null && ALIASES.contains(segments.get(0))) {
      segments = append(List.of(TAGS, newest), segments);
    }
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
