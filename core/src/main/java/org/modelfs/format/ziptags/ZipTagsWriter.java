package org.modelfs.format.ziptags;

import com.google.flatbuffers.FlatBufferBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.modelfs.format.TagList;
import org.modelfs.format.fb.FlatBufferOut;
import org.modelfs.format.fb.GraphWriter;
import org.modelfs.format.fb.gen.FlatGraph;
import org.modelfs.format.sdnb.SdnbFormat;
import org.modelfs.format.sdz.SdzFormat;
import org.modelfs.format.ziptags.Layout.Area;
import org.modelfs.io.CountingOutput;
import org.modelfs.model.Where;
import org.modelfs.model.ArrayData;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.Variable;

/**
 * Lays out tags (oldest first) as the entries of a zip-tags file (docs/FORMATS.md "zip-tags"),
 * for {@link SdzFormat#write} to store. An array already stored for an earlier entry — the same
 * stored array, or equal bytes under the same name in an older tag — becomes a reference to it
 * instead of another copy.
 */
public final class ZipTagsWriter {
  private ZipTagsWriter() {}

  /** Reasons {@code tag} cannot be written as zip-tags, each {@code "<where in the tag>: <reason>"}; empty if it can. */
  public static List<String> problems(Tag tag) {
    List<String> out = new ArrayList<>();
    for (Variable v : tag.arrays()) {
      tooLarge(out, Where.param(v.name()).toString(), v.array());
    }
    for (UpdaterState u : tag.updater()) {
      for (Map.Entry<String, ArrayData> e : u.arrays().entrySet()) {
        tooLarge(out, Where.state(u.paramName()) + "/" + e.getKey(), e.getValue());
      }
    }
    return out;
  }

  private static void tooLarge(List<String> out, String path, ArrayData a) {
    if (a.length() > FlatArrayFile.MAX_BYTES) {
      out.add(path + ": " + a.length() + " bytes; a zip-tags array file is one FlatBuffer, under 2 GiB (use sdz)");
    }
  }

  /** The entries for {@code tags}: {@code tags.txt} first, then each tag's files. */
  public static List<SdzFormat.Part> parts(List<Tag> tags, String file) throws IOException {
    List<SdzFormat.Part> parts = new ArrayList<>();
    parts.add(new SdzFormat.Part(Layout.TAGS, SdzFormat.Body.of(TagList.render(tags.stream().map(Tag::name).toList()))));
    SharedArrays shared = new SharedArrays();
    for (Tag t : tags) {
      tag(t, shared, parts, file);
    }
    return parts;
  }

  private static void tag(Tag t, SharedArrays shared, List<SdzFormat.Part> parts, String file) throws IOException {
    String name = t.name();
    Tag structure = new Tag(name, t.graph(), t.variables(), List.of(), null, Map.of());
    GraphWriter.Built graph = GraphWriter.build(structure, GraphWriter.Mode.SHARD_GRAPH, Set.of(), Map.of(), file);
    parts.add(new SdzFormat.Part(Layout.file(name, Layout.GRAPH), new SdzFormat.Body() {
      @Override
      public long size() {
        return graph.flatBufferLength();
      }

      @Override
      public void writeTo(CountingOutput out) throws IOException {
        FlatBufferOut.write(graph, out, false);
      }
    }));
    List<SdzFormat.Part> arrays = new ArrayList<>();
    int[] next = new int[Area.values().length];
    StringBuilder params = new StringBuilder();
    for (Variable v : t.arrays()) {
      String ref = store(shared, name, Area.PARAMS, v.name(), v.array(), next, arrays);
      params.append(TxtCodec.escape(v.name(), "")).append(' ').append(ref).append('\n');
    }
    text(parts, Layout.file(name, Layout.PARAMS_TXT), params);
    parts.addAll(arrays);
    arrays.clear();
    StringBuilder updater = new StringBuilder();
    for (UpdaterState u : t.updater()) {
      updater.append(TxtCodec.escape(u.paramName(), ""));
      for (Map.Entry<String, ArrayData> e : u.arrays().entrySet()) {
        String ref = store(shared, name, Area.UPDATER, u.paramName() + "\0" + e.getKey(), e.getValue(), next, arrays);
        updater.append(' ').append(TxtCodec.escape(e.getKey(), "=")).append('=').append(ref);
      }
      updater.append('\n');
    }
    if (!t.updater().isEmpty()) {
      text(parts, Layout.file(name, Layout.UPDATER_TXT), updater);
      parts.addAll(arrays);
    }
    if (t.trainingConfig() != null) {
      parts.add(new SdzFormat.Part(Layout.file(name, Layout.TRAINING), SdzFormat.Body.of(trainingConfig(t.trainingConfig()))));
    }
    StringBuilder meta = new StringBuilder();
    for (Map.Entry<String, String> e : t.metadata().entrySet()) {
      if (!SdnbFormat.isFormatKey(e.getKey())) {
        meta.append(TxtCodec.escape(e.getKey(), "")).append(' ').append(TxtCodec.escape(e.getValue(), "")).append('\n');
      }
    }
    if (meta.length() > 0) {
      text(parts, Layout.file(name, Layout.METADATA_TXT), meta);
    }
  }

  /** Stores {@code a} as the next array file of this tag, or returns a reference to where it already is. */
  private static String store(SharedArrays shared, String tag, Area area, String key, ArrayData a, int[] next,
      List<SdzFormat.Part> out) throws IOException {
    SharedArrays.Stored s = shared.find(area, key, a);
    if (s != null) {
      return s.tag().equals(tag) ? Integer.toString(s.index()) : s.tag() + "/" + s.index();
    }
    int index = next[area.ordinal()]++;
    shared.add(area, key, a, tag, index);
    out.add(new SdzFormat.Part(Layout.array(tag, area, index), new SdzFormat.Body() {
      @Override
      public long size() {
        return FlatArrayFile.size(a);
      }

      @Override
      public void writeTo(CountingOutput o) throws IOException {
        FlatArrayFile.write(a, o);
      }
    }));
    return Integer.toString(index);
  }

  private static void text(List<SdzFormat.Part> parts, String name, CharSequence body) {
    parts.add(new SdzFormat.Part(name, SdzFormat.Body.of(body.toString().getBytes(StandardCharsets.UTF_8))));
  }

  /** {@code trainingConfig.fb}: a FlatGraph whose only field is the training configuration JSON. */
  static byte[] trainingConfig(String json) {
    FlatBufferBuilder b = new FlatBufferBuilder(json.length() + 64);
    int s = b.createString(json);
    FlatGraph.startFlatGraph(b);
    FlatGraph.addTrainingConfig(b, s);
    b.finish(FlatGraph.endFlatGraph(b));
    return b.sizedByteArray();
  }
}
