package org.modelfs.provider;

import java.io.EOFException;
import java.util.Locale;
import java.util.function.Supplier;
import org.modelfs.container.Models;
import org.modelfs.format.Codecs;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.modelfs.format.TagList;
import org.modelfs.format.fb.Dl4jGraphRules;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.ArrayData;
import org.modelfs.model.ArrayRules;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.Variable;
import org.modelfs.tree.TreePath;
import org.modelfs.tree.TreePath.Area;

/**
 * What a commit of a mount checks before writing anything (docs/FILESYSTEM.md §7.4): every
 * VARIABLE and CONSTANT holds an array of exactly {@code prod(shape) × width} bytes (journal
 * UTF8 offsets too, journal BOOL and HALF values too), updater state arrays too, names and texts with a UTF-8 form, and the target
 * format can hold that many tags. Each problem names the path and the reason. What DL4J makes of
 * each tag's graph, and what the format's layout holds, is checked next by {@code ModelWriter.plan}
 * for every route ({@code format.fb.Dl4jGraphRules#structure}); its training configuration and
 * updater state here ({@code Dl4jGraphRules#training}).
 */
final class Validation {
  private Validation() {}

  static List<String> problems(List<Tag> tags, ModelFormat format) throws IOException {
    List<String> out = new ArrayList<>();
    if (format.holdsTags()) {
      // sdz, zip-tags and the container hold any number of tags
    } else if (tags.size() != 1) {
      out.add("/tags: the " + format.token() + " format holds exactly one tag ("
          + Codecs.list(f -> f.holdsTags() && !f.sharded(), "and") + " hold several), the tree has "
          + tags.size());
    } else if (!tags.get(0).name().equals(Models.DEFAULT_TAG)) {
      out.add(TreePath.ofTag(tags.get(0).name()) + ": the " + format.token() + " format keeps no tag name; its one tag is '"
          + Models.DEFAULT_TAG + "'");
    }
    for (Tag t : tags) {
      if (!TagList.isValid(t.name())) {
        out.add(TreePath.ofTag(t.name()) + ": a tag name is " + TagList.RULE);
      }
    }
    for (Tag t : tags) {
      String tag = TreePath.ofTag(t.name());
      text(out, tag, "the tag name", t.name());
      for (Variable v : t.variables()) {
        text(out, TreePath.ofArea(t.name(), Area.PARAM), "the name '" + v.name() + "'", v.name());
      }
      for (UpdaterState u : t.updater()) {
        for (String k : u.arrays().keySet()) {
          text(out, TreePath.ofArea(t.name(), Area.UPDATER), "the key '" + k + "' of '" + u.paramName() + "'", k);
        }
      }
      for (Map.Entry<String, String> m : t.metadata().entrySet()) {
        text(out, TreePath.ofArea(t.name(), Area.METADATA), "the key '" + m.getKey() + "'", m.getKey());
        text(out, TreePath.of(t, Area.METADATA, m.getKey()), "the value", m.getValue());
      }
      if (t.trainingConfig() != null) {
        text(out, TreePath.ofArea(t.name(), Area.TRAINING), "the text", t.trainingConfig());
      }
      for (Dl4jGraphRules.Problem pr : Dl4jGraphRules.training(t, format.loadedByDl4j())) {
        out.add(TreePath.of(t, pr.where()) + ": " + pr.reason());
      }
    }
    for (Tag t : tags) {
      // paths are worked out only for a problem: a million names need no million segment lists
      for (Variable v : t.variables()) {
        if (v.kind().holdsArray() && v.array() == null) {
          out.add(TreePath.of(t, Area.PARAM, v.name()) + ": " + v.kind() + " has no array");
        } else if (v.array() != null) {
          checkLazily(out, () -> TreePath.of(t, Area.PARAM, v.name()), v.array());
        }
      }
      for (UpdaterState u : t.updater()) {
        String path = TreePath.of(t, Area.UPDATER, u.paramName());
        Variable param = t.variable(u.paramName());
        if (param == null) {
          out.add(path + ": " + ArrayRules.NO_PARAMETER);
        } else if (param.array() != null) {
          for (Map.Entry<String, ArrayData> e : u.arrays().entrySet()) {
            String shape = ArrayRules.stateShape(e.getValue(), param.array());
            if (shape != null) {
              out.add(TreePath.stateFile(path, e.getKey()) + ": " + shape
                  + " (" + TreePath.inTag(Area.PARAM, u.paramName(), t.vars()::containsName) + "): change both");
            }
          }
        }
        for (Map.Entry<String, ArrayData> e : u.arrays().entrySet()) {
          check(out, TreePath.stateFile(path, e.getKey()), e.getValue());
        }
      }
    }
    return out;
  }

  /**
   * Every name and text of a model is stored as UTF-8: a Java string with an unpaired surrogate
   * has no UTF-8 form (it would be stored as '?', and two such names would become one).
   */
  private static void text(List<String> out, String path, String what, String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        out.add(path + ": " + what + " holds an unpaired surrogate (U+" + Integer.toHexString(c).toUpperCase(Locale.ROOT)
            + " at index " + i + "), which has no UTF-8 form");
        return;
      }
    }
  }

  /**
   * The byte count of every array (docs/FILESYSTEM.md §3), the offsets of a written UTF8 array
   * (docs/FORMATS.md §3.8) and the values of a written BOOL or HALF array: the rules of
   * {@link ArrayRules}. Stored arrays given such a dtype are checked when it is set
   * ({@code StructureEdits#setAttribute}).
   */
  private static void check(List<String> out, String path, ArrayData a) throws IOException {
    checkLazily(out, () -> path, a);
  }

  /** {@link #check}, naming the path only when there is a problem. */
  private static void checkLazily(List<String> out, Supplier<String> at, ArrayData a)
      throws IOException {
    String path;
    String count = ArrayRules.byteCount(a);
    if (count != null) {
      path = at.get();
      out.add(path + ": " + count + (a.dtype().width() == 0 ? "" : " (give it the right shape or dtype, or write the right bytes)"));
    } else if (a.dtype().width() == 0 && a.storage() == ArrayData.Storage.JOURNAL && !a.bigEndian()) {
      String offsets;
      try {
        offsets = ArrayRules.Utf8Offsets.check(a);
      } catch (EOFException e) {
        throw new EOFException(at.get() + ": the journal file ends inside the UTF8 offsets");
      }
      if (offsets != null) {
        out.add(at.get() + ": " + offsets);
      }
    } else if (a.storage() == ArrayData.Storage.JOURNAL && ArrayRules.Values.applies(a.dtype())) {
      String values;
      try {
        values = ArrayRules.Values.check(a);
      } catch (EOFException e) {
        throw new EOFException(at.get() + ": the journal file ends inside the array");
      }
      if (values != null) {
        out.add(at.get() + ": " + values);
      }
    }
  }
}
