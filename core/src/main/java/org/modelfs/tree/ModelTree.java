package org.modelfs.tree;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.function.Supplier;
import org.modelfs.model.NamedList;
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
import org.modelfs.model.Where;

/**
 * The virtual tree of a model (docs/FILESYSTEM.md §1): {@code tags/<tag>/…} for every tag. The
 * root lists only {@code tags}; the root aliases ({@code /graph}, {@code /params}, …) resolve to
 * the newest tag's entries without being listed, so a walk of {@code /} sees each file once.
 * Built from the index alone; lookups take the canonical spelling of a path or any other
 * spelling of the same names.
 */
public final class ModelTree {
  /** The file names of a tag directory. */
  public static final String TAGS = Where.TAGS;
  public static final String GRAPH = Where.GRAPH;
  public static final String GRAPH_JSON = Where.GRAPH_JSON;
  public static final String PARAMS = Where.PARAMS;
  public static final String UPDATER = Where.UPDATER;
  public static final String TRAINING = Where.TRAINING;
  public static final String METADATA = Where.METADATA;
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
   * tag name (missing = {@link TagOverlay#NONE}). Costs O(tags): what lies below
   * {@code params/}, {@code updater/} and {@code metadata/} is worked out per lookup from the
   * tags' indexes ({@link NameSpace}).
   */
  public static ModelTree of(List<Tag> tagList, Map<String, TagOverlay> overlays, String file) {
    return of(tagList, overlays, file, false);
  }

  /**
   * {@link #of(List, Map, String)}; with {@code storedOrder}, the files of big-endian arrays show
   * their stored bytes unchanged instead of little-endian ones (the mount option
   * {@code byteOrder=stored}, docs/FILESYSTEM.md §6.1).
   */
  public static ModelTree of(List<Tag> tagList, Map<String, TagOverlay> overlays, String file, boolean storedOrder) {
    LinkedHashMap<String, Node> tags = new LinkedHashMap<>();
    String newest = null;
    for (Tag t : tagList) {
      tags.put(t.name(), tagDir(t, overlays.getOrDefault(t.name(), TagOverlay.NONE), file, storedOrder));
      newest = t.name();
    }
    LinkedHashMap<String, Node> top = new LinkedHashMap<>();
    top.put(TAGS, Dir.fixed(null, List.of(TAGS), tags, true));
    return new ModelTree(Dir.fixed(null, List.of(), top, false), newest);
  }

  private static Dir tagDir(Tag t, TagOverlay overlay, String file, boolean storedOrder) {
    String tag = t.name();
    List<String> at = List.of(TAGS, tag);
    LinkedHashMap<String, Node> dir = new LinkedHashMap<>();
    if (t.graph() != null && !overlay.absentAreas().contains(GRAPH)) {
      dir.put(GRAPH, new FileNode(tag, new BytesContent(() -> stubGraph(t, file)), null));
    }
    if (!overlay.graphJsonAbsent()) {
      dir.put(GRAPH_JSON, new FileNode(tag, new BytesContent(() -> GraphJson.render(t, file)), null));
    }
    if (!overlay.absentAreas().contains(PARAMS)) {
      dir.put(PARAMS, NameSpace.root(tag, PARAMS, Dir.append(at, List.of(PARAMS)), params(t, storedOrder), overlay.kept(PARAMS)));
    }
    if (!overlay.absentAreas().contains(UPDATER)) {
      dir.put(UPDATER, NameSpace.root(tag, UPDATER, Dir.append(at, List.of(UPDATER)), updater(t, storedOrder), overlay.kept(UPDATER)));
    }
    if (t.trainingConfig() != null) {
      dir.put(TRAINING, new FileNode(tag, BytesContent.of(t.trainingConfig().getBytes(StandardCharsets.UTF_8)), null));
    }
    if (!overlay.absentAreas().contains(METADATA)) {
      Map<String, String> values = t.metadata();
      NameSpace.Names names = NameSpace.ofMap(values, (name, canonical) -> {
        String v = values.get(name);
        byte[] b = v == null ? new byte[0] : v.getBytes(StandardCharsets.UTF_8);
        return new FileNode(tag, BytesContent.of(b), null, canonical.get());
      });
      dir.put(METADATA, NameSpace.root(tag, METADATA, Dir.append(at, List.of(METADATA)), names, overlay.kept(METADATA)));
    }
    return Dir.fixed(tag, at, dir, false);
  }

  /** The files of {@code params/}: the variables that hold an array. */
  private static NameSpace.Names params(Tag t, boolean storedOrder) {
    NamedList<Variable> vars = t.vars();
    String tag = t.name();
    return new NameSpace.Names() {
      @Override
      public boolean has(String name) {
        Variable v = vars.byName(name);
        return v != null && v.array() != null;
      }

      @Override
      public Node leaf(String name, Supplier<List<String>> canonical) {
        Variable v = vars.byName(name);
        return arrayFile(tag, v.kind().name(), v.array(), storedOrder);
      }

      @Override
      public Node leafIfName(String name, Supplier<List<String>> canonical) {
        Variable v = vars.byName(name);
        return v == null || v.array() == null ? null : arrayFile(tag, v.kind().name(), v.array(), storedOrder);
      }

      @Override
      public void range(String from, String to, NameSpace.Visit visit) {
        vars.rangeWithOrder(from, to, (n, v, o) -> v.array() == null || visit.name(n, o));
      }
    };
  }

  /** The directories of {@code updater/}: one per parameter with state, holding a file per state key. */
  private static NameSpace.Names updater(Tag t, boolean storedOrder) {
    NamedList<UpdaterState> states = t.states();
    String tag = t.name();
    return new NameSpace.Names() {
      @Override
      public boolean has(String name) {
        return states.containsName(name);
      }

      @Override
      public Node leaf(String name, Supplier<List<String>> canonical) {
        return stateDir(states.byName(name), name, canonical);
      }

      @Override
      public Node leafIfName(String name, Supplier<List<String>> canonical) {
        UpdaterState u = states.byName(name);
        return u == null ? null : stateDir(u, name, canonical);
      }

      private Node stateDir(UpdaterState u, String name, Supplier<List<String>> canonical) {
        Map<String, ArrayData> keys = u.arrays();
        return NameSpace.root(tag, UPDATER + "/" + name, canonical.get(),
            NameSpace.ofMap(keys, (k, c) -> arrayFile(tag, UPDATER_KIND, keys.get(k), storedOrder)), TagOverlay.NONE.kept(UPDATER));
      }

      @Override
      public void range(String from, String to, NameSpace.Visit visit) {
        states.rangeWithOrder(from, to, (n, u, o) -> visit.name(n, o));
      }
    };
  }

  /**
   * The {@code graph} file: the FlatGraph of shard 0 of a sharded SDNB, with its tail (op
   * arguments such as scalars, re-encoded from a legacy graph, live after the builder's bytes).
   */
  private static byte[] stubGraph(Tag t, String file) throws IOException {
    // the training configuration has its own file, training.json (docs/FILESYSTEM.md §3)
    Tag structure = new Tag(t.name(), t.graph(), t.variables(), t.updater(), null, t.metadata());
    GraphWriter.Built b = GraphWriter.build(structure, GraphWriter.Mode.SHARD_GRAPH, Set.of(), Map.of(), file);
    ByteArrayOutputStream out = new ByteArrayOutputStream((int) b.flatBufferLength());
    FlatBufferOut.write(b, new CountingOutput(out), false);
    return out.toByteArray();
  }

  private static FileNode arrayFile(String tag, String kind, ArrayData a, boolean storedOrder) {
    return new FileNode(tag, new ArrayContent(a, storedOrder), kind);
  }

  /** The root directory. */
  public Dir root() {
    return root;
  }

  /**
   * A node found by {@link #lookup}, with the canonical spelling of its path — worked out when
   * first asked for: reading a node's attributes needs the node only.
   */
  public static final class Found {
    private final Node node;
    private final Supplier<List<String>> spell;
    /** The canonical path once worked out (an immutable list: safe to share without a lock). */
    private List<String> canonical;

    Found(Node node, Supplier<List<String>> canonical) {
      this.node = node;
      this.spell = canonical;
    }

    /** The node. */
    public Node node() {
      return node;
    }

    /** The canonical spelling of the node's path, names from the root. */
    public List<String> canonical() {
      List<String> c = canonical;
      if (c == null) {
        c = List.copyOf(spell.get());
        canonical = c;
      }
      return c;
    }

    /**
     * The entry {@code segment} of this directory — a name its listing gave — found one step
     * from here instead of from the root, or {@code null}; what {@link ModelTree#lookup} of the
     * longer path finds in the same tree. {@code null} for a file.
     */
    public Found child(String segment) {
      return node instanceof Dir d ? d.find(this::canonical, List.of(segment), 0) : null;
    }
  }

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
      segments = Dir.append(List.of(TAGS, newest), segments);
    }
    return root.find(List::of, segments, 0);
  }
}
