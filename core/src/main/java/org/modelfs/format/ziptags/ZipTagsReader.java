package org.modelfs.format.ziptags;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipFile;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.TagList;
import org.modelfs.format.fb.GraphReader;
import org.modelfs.format.fb.GraphWriter;
import org.modelfs.format.zip.DeflatedEntries;
import org.modelfs.format.zip.ZipIo;
import org.modelfs.format.ziptags.Layout.Area;
import org.modelfs.io.ByteSource;
import org.modelfs.io.Closer;
import org.modelfs.io.SliceSource;
import org.modelfs.model.ArrayData;
import org.modelfs.model.GraphRef;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.Variable;

/**
 * Reads a zip-tags file (docs/FORMATS.md "zip-tags") into its tags, oldest first. STORED entries
 * are read in place; DEFLATED ones are inflated on demand, in memory, only as far as a read
 * needs ({@link DeflatedEntries}): opening reads the array files' headers, never their elements. An array file shared by several tags becomes one {@link ArrayData}
 * seen from each of them.
 */
public final class ZipTagsReader {
  /** The most entries we accept (each array is one). */
  public static final int MAX_ENTRIES = 1 << 20;
  /** The most bytes a text entry may declare. */
  static final int MAX_TEXT = 64 << 20;

  private final ByteSource zipSource;
  private final Closer closer;
  private final String file;
  private final Map<String, ZipIo.Entry> entries = new LinkedHashMap<>();
  private final Map<String, ZipArchiveEntry> raw = new HashMap<>();
  private final Map<String, String> tagsByLower = new HashMap<>();
  private final Map<String, ArrayData> arrays = new HashMap<>();
  private final Map<String, ByteSource> inflated = new HashMap<>();
  private ZipFile zf;
  private DeflatedEntries deflated;

  private ZipTagsReader(ByteSource zipSource, Closer closer) {
    this.zipSource = zipSource;
    this.closer = closer;
    this.file = zipSource.name();
  }

  /** True if the zip {@code zipSource} has a {@code tags.txt} and some {@code <tag>/graph.fb}: zip-tags, not SDZ. */
  public static boolean sniff(ByteSource zipSource) throws IOException {
    String file = zipSource.name();
    ZipIo.checkEntryCount(zipSource, file, MAX_ENTRIES, "a zip-tags file");
    try (ZipFile z = ZipIo.open(zipSource, file)) {
      boolean tags = false;
      boolean graph = false;
      for (ZipArchiveEntry ze : Collections.list(z.getEntries())) {
        String n = ze.getName();
        tags |= n.equals(Layout.TAGS);
        graph |= n.endsWith("/" + Layout.GRAPH) && n.indexOf('/') == n.length() - Layout.GRAPH.length() - 1;
        if (tags && graph) {
          return true;
        }
      }
      return false;
    }
  }

  /** Reads every tag, oldest first; sources opened on the way are registered with {@code closer}. */
  public static List<Tag> read(ByteSource zipSource, Closer closer) throws IOException {
    ZipTagsReader r = new ZipTagsReader(zipSource, closer);
    try (ZipFile z = ZipIo.open(zipSource, zipSource.name())) {
      r.zf = z;
      return r.readAll();
    }
  }

  private List<Tag> readAll() throws IOException {
    List<ZipArchiveEntry> all = Collections.list(zf.getEntriesInPhysicalOrder());
    if (all.size() > MAX_ENTRIES) {
      throw new ModelFormatException(file, "ZIP central directory", 0,
          all.size() + " entries, more than the " + MAX_ENTRIES + " a zip-tags file may hold");
    }
    long zipSize = zipSource.size();
    for (ZipArchiveEntry ze : all) {
      String name = ze.getName();
      if (ZipIo.unsafeName(name)) {
        throw new ModelFormatException(file, "ZIP entry '" + name + "'", Math.max(ze.getDataOffset(), 0),
            "unsafe entry name: absolute, '.', '..', empty segment, backslash, drive or NUL (zip slip)");
      }
      if (ze.isDirectory()) {
        continue;
      }
      ZipIo.Entry e = ZipIo.bounds(ze, file, zipSize);
      if (entries.put(name, e) != null) {
        throw new ModelFormatException(file, "ZIP entry '" + name + "'", e.dataOffset(), "duplicate entry name");
      }
      raw.put(name, ze);
    }
    ZipIo.checkNoOverlap(entries.values(), file);
    ZipIo.Entry list = entries.get(Layout.TAGS);
    if (list == null) {
      throw new ModelFormatException(file, "ZIP entries", 0, "no " + Layout.TAGS + ": not a zip-tags file");
    }
    List<String> names = TagList.parse(ZipIo.readSmall(zf, raw.get(Layout.TAGS), list, file, TagList.MAX_BYTES),
        file, "ZIP entry '" + Layout.TAGS + "'", list.dataOffset());
    for (String n : names) {
      tagsByLower.put(n.toLowerCase(Locale.ROOT), n);
    }
    checkEntryTags();
    List<Tag> tags = new ArrayList<>();
    for (String n : names) {
      tags.add(readTag(n));
    }
    return tags;
  }

  /** Every entry below a directory must belong to a listed tag, spelled as listed; array indexes must be unique. */
  private void checkEntryTags() throws ModelFormatException {
    Map<String, String> seenArrays = new HashMap<>();
    for (Map.Entry<String, ZipIo.Entry> en : entries.entrySet()) {
      String tag = Layout.tagOf(en.getKey());
      if (tag == null) {
        continue;
      }
      String what = "ZIP entry '" + en.getKey() + "'";
      String listed = tagsByLower.get(tag.toLowerCase(Locale.ROOT));
      if (listed == null || !listed.equals(tag)) {
        throw new ModelFormatException(file, what, en.getValue().dataOffset(),
            "lies below '" + tag + "/', but " + Layout.TAGS + " lists no tag of that name"
                + (listed == null ? "" : " (it lists '" + listed + "')"));
      }
      Layout.Name n = Layout.parse(en.getKey());
      if (n != null && n.isArray()) {
        String key = Layout.array(n.tag(), n.area(), n.index());
        String before = seenArrays.put(key, en.getKey());
        if (before != null) {
          throw new ModelFormatException(file, what, en.getValue().dataOffset(), "same array number as entry '" + before + "'");
        }
        if (!key.equals(en.getKey())) {
          throw new ModelFormatException(file, what, en.getValue().dataOffset(), "array number with leading zeros; write '" + key + "'");
        }
      }
    }
  }

  private Tag readTag(String tag) throws IOException {
    String graphName = Layout.file(tag, Layout.GRAPH);
    ByteSource graphSrc = flatBuffer(graphName, "a FlatGraph");
    if (graphSrc == null) {
      throw new ModelFormatException(file, "tag '" + tag + "'", 0, "has no " + graphName);
    }
    GraphRef ref = new GraphRef(graphSrc, 0, graphSrc.size(), GraphRef.Convention.SDNB);
    GraphReader.Content g = GraphReader.read(ref, graphSrc.name());
    if (!g.stubs().isEmpty()) {
      throw new ModelFormatException(graphSrc.name(), "FlatGraph", 0, "variable '" + g.stubs().keySet().iterator().next()
          + "' is an appended-array stub; zip-tags keeps arrays in " + tag + "/params/");
    }
    List<Variable> vars = attachParams(tag, new ArrayList<>(g.variables()));
    List<UpdaterState> updater = new ArrayList<>(g.updater());
    updater.addAll(readUpdater(tag, updater));
    String training = g.trainingConfig();
    ByteSource tc = flatBuffer(Layout.file(tag, Layout.TRAINING), "a FlatGraph");
    if (tc != null) {
      training = GraphReader.read(new GraphRef(tc, 0, tc.size(), GraphRef.Convention.SDNB), tc.name()).trainingConfig();
    }
    Map<String, String> metadata = new TreeMap<>(g.metadata());
    metadata.putAll(readMetadata(tag));
    return new Tag(tag, ref, vars, updater, training, metadata);
  }

  private List<Variable> attachParams(String tag, List<Variable> vars) throws IOException {
    String entry = Layout.file(tag, Layout.PARAMS_TXT);
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < vars.size(); i++) {
      index.put(vars.get(i).name(), i);
    }
    for (TxtCodec.Line line : text(entry)) {
      String what = "ZIP entry '" + entry + "' line " + line.number();
      if (line.tokens().size() != 2) {
        throw error(entry, what, "expected '<name> <index>' or '<name> <tag>/<index>', found " + line.tokens().size() + " fields");
      }
      String name = unescape(entry, what, line.tokens().get(0));
      Integer i = index.get(name);
      if (i == null) {
        throw error(entry, what, "'" + name + "' is not a variable of " + tag + "/" + Layout.GRAPH);
      }
      Variable v = vars.get(i);
      if (v.array() != null) {
        throw error(entry, what, "'" + name + "' has its array twice");
      }
      ArrayData a = array(tag, Area.PARAMS, line.tokens().get(1), entry, what);
      if (v.dtype() != null && v.dtype() != a.dtype() && !a.empty()) {
        throw error(entry, what, "'" + name + "': array of type " + a.dtype() + ", but the graph says " + v.dtype());
      }
      long[] declared = v.shape();
      if (declared != null && !a.empty() && !Arrays.equals(declared, a.shape())) {
        throw error(entry, what, "'" + name + "': array of shape " + Arrays.toString(a.shape())
            + ", but the graph says " + Arrays.toString(declared));
      }
      vars.set(i, v.withArray(a));
    }
    return vars;
  }

  private List<UpdaterState> readUpdater(String tag, List<UpdaterState> fromGraph) throws IOException {
    String entry = Layout.file(tag, Layout.UPDATER_TXT);
    List<UpdaterState> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    fromGraph.forEach(u -> seen.add(u.paramName()));
    for (TxtCodec.Line line : text(entry)) {
      String what = "ZIP entry '" + entry + "' line " + line.number();
      if (line.tokens().size() < 2) {
        throw error(entry, what, "expected '<param> <key>=<index> …'");
      }
      String param = unescape(entry, what, line.tokens().get(0));
      if (!seen.add(param)) {
        throw error(entry, what, "updater state of '" + param + "' listed twice");
      }
      Map<String, ArrayData> states = new LinkedHashMap<>();
      for (String t : line.tokens().subList(1, line.tokens().size())) {
        int eq = t.indexOf('=');
        if (eq == 0) {
          throw error(entry, what, "'" + t + "' has an empty key; an empty key is written '%'");
        }
        if (eq < 0) {
          throw error(entry, what, "'" + t + "' names no state key; zip-tags writes each state as <key>=<index>");
        }
        String key = unescape(entry, what, t.substring(0, eq));
        if (states.put(key, array(tag, Area.UPDATER, t.substring(eq + 1), entry, what)) != null) {
          throw error(entry, what, "state key '" + key + "' of '" + param + "' given twice");
        }
      }
      out.add(new UpdaterState(param, states));
    }
    return out;
  }

  private Map<String, String> readMetadata(String tag) throws IOException {
    String entry = Layout.file(tag, Layout.METADATA_TXT);
    Map<String, String> out = new TreeMap<>();
    for (TxtCodec.Line line : text(entry)) {
      String what = "ZIP entry '" + entry + "' line " + line.number();
      if (line.tokens().size() != 2) {
        throw error(entry, what, "expected '<key> <value>', found " + line.tokens().size() + " fields");
      }
      String key = unescape(entry, what, line.tokens().get(0));
      if (out.put(key, unescape(entry, what, line.tokens().get(1))) != null) {
        throw error(entry, what, "key '" + key + "' given twice");
      }
    }
    return out;
  }

  /** The array a reference ({@code <i>} in this tag, or {@code <tag>/<i>}) points to; each file is read once. */
  private ArrayData array(String tag, Area area, String ref, String entry, String what) throws IOException {
    String owner = tag;
    String num = ref;
    int slash = ref.indexOf('/');
    if (slash >= 0) {
      owner = tagsByLower.get(ref.substring(0, slash).toLowerCase(Locale.ROOT));
      if (owner == null) {
        throw error(entry, what, "reference '" + ref + "' names a tag " + Layout.TAGS + " does not list");
      }
      num = ref.substring(slash + 1);
    }
    if (!num.matches("[0-9]{1,9}")) {
      throw error(entry, what, "reference '" + ref + "' is not <index> or <tag>/<index>");
    }
    String target = Layout.array(owner, area, Integer.parseInt(num));
    ArrayData a = arrays.get(target);
    if (a == null) {
      ByteSource src = flatBuffer(target, "an array file (one FlatArray FlatBuffer)");
      if (src == null) {
        throw error(entry, what, "reference '" + ref + "': the zip has no entry '" + target + "'");
      }
      a = FlatArrayFile.read(src, src.name());
      if (inflated.containsKey(target)) {
        a = a.movedTo(a.source(), a.offset(), a.bigEndian(), ArrayData.Storage.DEFLATED);
      }
      arrays.put(target, a);
    }
    return a;
  }

  /**
   * A FlatBuffer entry's bytes ({@link #binary}), refusing one that declares 2 GiB or more before
   * inflating any of it; {@code null} if absent.
   */
  private ByteSource flatBuffer(String name, String kind) throws IOException {
    ZipIo.Entry e = entries.get(name);
    if (e != null && e.size() > GraphWriter.MAX_FLATBUFFER) {
      throw new ModelFormatException(file, "ZIP entry '" + name + "'", e.dataOffset(),
          "declares " + e.size() + " bytes; " + kind + " is under 2 GiB");
    }
    return binary(name);
  }

  /** A binary entry's bytes: a window of the zip, or inflated on demand; {@code null} if absent. */
  private ByteSource binary(String name) throws IOException {
    ZipIo.Entry e = entries.get(name);
    if (e == null) {
      return null;
    }
    String label = file + "!" + name;
    if (e.stored()) {
      return new SliceSource(zipSource, label, e.dataOffset(), e.size());
    }
    ByteSource done = inflated.get(name);
    if (done != null) {
      return done;
    }
    if (deflated == null) {
      deflated = closer.register(new DeflatedEntries(zipSource, file));
    }
    ByteSource s = deflated.source(e);
    inflated.put(name, s);
    return s;
  }

  private List<TxtCodec.Line> text(String entry) throws IOException {
    ZipIo.Entry e = entries.get(entry);
    if (e == null) {
      return List.of();
    }
    try {
      return TxtCodec.lines(ZipIo.readSmall(zf, raw.get(entry), e, file, MAX_TEXT));
    } catch (TxtCodec.Malformed m) {
      throw new ModelFormatException(file, "ZIP entry '" + entry + "'", e.dataOffset(), m.getMessage());
    }
  }

  private String unescape(String entry, String what, String token) throws ModelFormatException {
    try {
      return TxtCodec.unescape(token);
    } catch (TxtCodec.Malformed m) {
      throw error(entry, what, m.getMessage());
    }
  }

  private ModelFormatException error(String entry, String what, String message) {
    ZipIo.Entry e = entries.get(entry);
    return new ModelFormatException(file, what, e == null ? 0 : e.dataOffset(), message);
  }
}
