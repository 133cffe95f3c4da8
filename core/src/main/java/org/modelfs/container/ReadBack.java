package org.modelfs.container;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import org.modelfs.format.Codecs;
import org.modelfs.format.WriteOptions;
import org.modelfs.format.sdnb.SdnbFormat;
import org.modelfs.model.Where;
import org.modelfs.model.ArrayData;
import org.modelfs.model.Model;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.Variable;

/**
 * The check a commit makes on the files it just wrote, before they replace anything: the readers
 * opened them (so every limit a reader enforces held), and what they see is what was meant to be
 * written — the same tags in the same order, every stored array with its dtype and shape, every
 * updater state array, the training configuration, and the metadata the format keeps. A writer
 * that silently merges two names (two metadata keys that differ only in an unpaired surrogate),
 * drops an array, or produces something its own reader refuses is caught here.
 *
 * <p>Array bytes are not compared (that would read the whole model); they are streamed from the
 * sources the writer was given and their lengths are checked by the format's own layout.
 */
final class ReadBack {
  private ReadBack() {}

  static List<String> differences(List<Tag> planned, WriteOptions options, Model reread) {
    List<String> out = new ArrayList<>();
    List<Tag> got = reread.tags();
    List<String> plannedNames = planned.stream().map(Tag::name).toList();
    List<String> gotNames = got.stream().map(Tag::name).toList();
    if (!plannedNames.equals(gotNames)) {
      out.add("tags " + gotNames + " read back, " + plannedNames + " written");
      return out;
    }
    for (int i = 0; i < planned.size(); i++) {
      compare(planned.get(i), got.get(i), options, out);
    }
    return out;
  }

  private static void compare(Tag want, Tag got, WriteOptions options, List<String> out) {
    String at = Where.inTag(want.name());
    // lookups through the tags' own name index: no second map of a million names
    for (Variable v : want.variables()) {
      ArrayData a = v.array();
      if (a == null) {
        continue;
      }
      Variable g = got.variable(v.name());
      if (g == null || g.array() == null) {
        out.add(at + Where.PARAMS + ": '" + v.name() + "' was written but reads back without an array");
        continue;
      }
      check(out, at + Where.PARAMS + ": '" + v.name() + "'", a, g.array());
    }
    for (UpdaterState u : got.updater()) {
      if (got.state(u.paramName()) != u) { // the index finds the first of two with one name
        out.add(at + Where.UPDATER + ": '" + u.paramName() + "' reads back with two updater states");
      }
    }
    for (UpdaterState u : want.updater()) {
      UpdaterState gs = got.state(u.paramName());
      Map<String, ArrayData> g = gs == null ? null : gs.arrays();
      if (g == null || !g.keySet().equals(u.arrays().keySet())) {
        out.add(at + Where.UPDATER + ": '" + u.paramName() + "' holds " + new TreeSet<>(u.arrays().keySet())
            + " but reads back with " + (g == null ? "none" : new TreeSet<>(g.keySet())));
        continue;
      }
      for (Map.Entry<String, ArrayData> e : u.arrays().entrySet()) {
        check(out, at + Where.UPDATER + ": '" + u.paramName() + "/" + e.getKey() + "'", e.getValue(), g.get(e.getKey()));
      }
    }
    if (!Objects.equals(want.trainingConfig() == null, got.trainingConfig() == null)) {
      out.add(at + Where.TRAINING + ": " + (want.trainingConfig() == null ? "appears" : "is lost") + " on reading back");
    }
    if (keepsMetadata(options)) {
      Map<String, String> w = userMetadata(want.metadata());
      Map<String, String> g = userMetadata(got.metadata());
      if (!w.equals(g)) {
        out.add(at + Where.METADATA + ": keys " + w.keySet() + " read back as " + g.keySet()
            + (w.size() != g.size() ? " (two keys the format cannot tell apart?)" : ""));
      }
    }
  }

  private static boolean keepsMetadata(WriteOptions options) {
    return Codecs.of(options.format()).keepsMetadata() && !options.dropMetadata();
  }

  private static Map<String, String> userMetadata(Map<String, String> m) {
    Map<String, String> out = new TreeMap<>();
    m.forEach((k, v) -> {
      if (!SdnbFormat.isFormatKey(k)) {
        out.put(k, v);
      }
    });
    return out;
  }

  private static void check(List<String> out, String what, ArrayData want, ArrayData got) {
    if (want.dtype() != got.dtype()) {
      out.add(what + " is " + want.dtype() + " but reads back as " + got.dtype());
    } else if (!Arrays.equals(want.shape(), got.shape())) {
      out.add(what + " has shape " + Arrays.toString(want.shape()) + " but reads back as " + Arrays.toString(got.shape()));
    }
  }
}
