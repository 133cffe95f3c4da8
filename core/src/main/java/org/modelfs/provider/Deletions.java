package org.modelfs.provider;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.modelfs.format.fb.GraphNames;
import org.modelfs.model.Tag;
import org.modelfs.model.Variable;
import org.modelfs.tree.TreePath;

/**
 * Parameters deleted in a session, settled at commit (docs/FILESYSTEM.md §7.4): deleting a
 * parameter's file takes away only its array, so that a new array arriving in the same change
 * (the JDK's foreign {@code Files.copy(…, REPLACE_EXISTING)} deletes, then creates) keeps the
 * variable's place in the graph. At commit, a deleted parameter that no op uses goes away
 * entirely, with its updater state; one that ops use is refused, naming them.
 */
final class Deletions {
  private Deletions() {}

  /**
   * {@code tags} with every deleted, unused parameter removed; each deleted parameter that ops
   * use is added to {@code problems}.
   *
   * @param committed the tags as last committed (what "deleted" is measured against)
   */
  static List<Tag> settle(List<Tag> tags, List<Tag> committed, String file, List<String> problems) throws IOException {
    List<Tag> out = new ArrayList<>(tags.size());
    for (Tag t : tags) {
      Set<String> deleted = deleted(t, committed);
      if (deleted.isEmpty()) {
        out.add(t);
        continue;
      }
      Map<String, List<String>> users = GraphNames.users(t, deleted, file);
      for (String name : deleted) {
        List<String> ops = users.get(name);
        if (ops != null) {
          Tag in = t;
          problems.add(TreePath.of(in, TreePath.Area.PARAM, name) + DELETED_BUT
              + (ops.size() == 1 ? "op " : "ops ") + String.join(", ", ops)
              + (ops.size() == 1 ? " uses" : " use") + " it — write a new array there, or keep it");
        } else {
          t = TagEdits.withoutVariable(t, name);
        }
      }
      out.add(t);
    }
    return out;
  }

  private static final String DELETED_BUT = ": deleted, but ";
  private static final String NO_ARRAY = " has no array";

  /**
   * {@code validation}'s problems without those a refused deletion in {@code deletions} already
   * explains: a used parameter whose file was deleted also "has no array", which only repeats it.
   */
  static List<String> withoutConsequences(List<String> validation, List<String> deletions) {
    Set<String> refused = new HashSet<>();
    for (String d : deletions) {
      int at = d.indexOf(DELETED_BUT);
      if (at > 0) {
        refused.add(d.substring(0, at));
      }
    }
    if (refused.isEmpty()) {
      return validation;
    }
    List<String> out = new ArrayList<>();
    for (String v : validation) {
      int colon = v.lastIndexOf(": ");
      if (!(v.endsWith(NO_ARRAY) && colon > 0 && refused.contains(v.substring(0, colon)))) {
        out.add(v);
      }
    }
    return out;
  }

  /**
   * The parameters of {@code t} whose array was deleted: variables of the stored graph that
   * hold none now but held one when last committed (the same graph, the same place in it).
   */
  private static Set<String> deleted(Tag t, List<Tag> committed) {
    Set<String> out = new LinkedHashSet<>();
    for (Variable v : t.variables()) {
      if (v.array() == null && v.kind().holdsArray() && v.graphVariable() >= 0 && t.graph() != null
          && heldArray(t, v, committed)) {
        out.add(v.name());
      }
    }
    return out;
  }

  private static boolean heldArray(Tag t, Variable v, List<Tag> committed) {
    for (Tag c : committed) {
      if (c.graph() == t.graph()) {
        for (Variable w : c.variables()) {
          if (w.graphVariable() == v.graphVariable()) {
            return w.array() != null;
          }
        }
      }
    }
    return false;
  }
}
