package org.modelfs.provider;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.modelfs.provider.GraphJsonMutations.Kind;
import org.modelfs.provider.GraphJsonMutations.Token;

/**
 * The seeds of {@link GraphJsonFuzzTest#write} (written by {@code org.modelfs.fuzz.FuzzSeeds}):
 * each fixture's rendering as it is (raw, and as edits of none), and a handful of the edits
 * docs/GRAPH.md §4 describes and of the bad ones its table refuses — an op argument changed, an op
 * renamed, a placeholder's shape changed, an output added, two variables' names swapped, a
 * variable or an op left out or given twice, a line deleted, a value that breaks the syntax, an
 * unknown op written into a tag without a graph.
 */
public final class GraphJsonFuzzSeeds {
  private GraphJsonFuzzSeeds() {}

  /** Every seed. */
  public static List<byte[]> seeds() {
    List<byte[]> out = new ArrayList<>();
    for (int k = 0; k < GraphJsonFuzzTest.RENDERED.size(); k++) {
      out.add(GraphJsonMutations.raw(k, false, GraphJsonFuzzTest.RENDERED.get(k)));
      out.add(GraphJsonMutations.edited(k, false));
    }
    out.add(GraphJsonMutations.raw(1, true, GraphJsonFuzzTest.RENDERED.get(1)));
    // mlp_adam: the common edits (docs/GRAPH.md §4) and bad ones
    out.add(edits(0).interesting(find(0, "\"alpha\"", "1.0", 0), "0.5").input());
    out.add(edits(0).replaceString(find(0, "\"name\"", "\"add\"", 1), "add_renamed").input());
    out.add(edits(0).interesting(find(0, "\"name\"", "\"input\"", 0) + 6, "[-1]").input());
    out.add(edits(0).replaceText(find(0, "\"outputs\"", "[]", 0), "[\"logits\"]").input());
    out.add(edits(0).swapNames(find(0, "\"name\"", "\"layer0/W\"", 0), find(0, "\"name\"", "\"layer0/b\"", 0)).input());
    out.add(edits(0).swapNames(find(0, "\"name\"", "\"input\"", 0), find(0, "\"name\"", "\"label\"", 0)).input());
    out.add(edits(0).edit(Kind.REMOVE_ELEMENT, find(0, "\"name\"", "\"const/scale\"", 0) - 2, 0).input());
    out.add(edits(0).edit(Kind.DUPLICATE_ELEMENT, find(0, "\"name\"", "\"relu\"", 1) - 2, 0).input());
    out.add(edits(0).edit(Kind.DELETE_LINE, 7, 0).input());
    out.add(edits(0).replaceText(find(0, "\"tArgs\"", "{", 0), "{").input());
    // the TF imports: a legacy reduce op's axes and flags, a custom op's input; an unknown op into a tag without a graph
    out.add(edits(1).interesting(find(1, "\"dimensions\"", "[0]", 0), "[1, 2, 3]").input());
    out.add(edits(1).edit(Kind.SWAP_TOKENS, find(1, "\"bArgs\"", "[true, true]", 0), find(1, "\"iArgs\"", "[]", 0)).input());
    out.add(edits(2).replaceString(find(2, "\"opName\"", "\"scatter_nd_update\"", 0), "no_such_op").emptyTag().input());
    out.add(edits(2).replaceString(find(2, "\"inputs\"", "[\"Assign\", \"in_1\", \"in_2\"]", 0) + 2, "#9:0").input());
    return out;
  }

  /**
   * The index of the {@code occurrence}-th token (from 0) of fixture {@code k}'s rendering that
   * starts with {@code value} and follows a token {@code key}; a seed that names no token is a
   * mistake here.
   */
  private static int find(int k, String key, String value, int occurrence) {
    byte[] doc = GraphJsonFuzzTest.RENDERED.get(k);
    List<Token> tokens = GraphJsonMutations.tokens(doc);
    int seen = 0;
    for (int i = 1; i < tokens.size(); i++) {
      if (text(doc, tokens.get(i - 1)).equals(key) && text(doc, tokens.get(i)).startsWith(value) && seen++ == occurrence) {
        return i;
      }
    }
    throw new IllegalStateException("no token " + value + " after " + key + " in " + GraphJsonFuzzTest.FIXTURES.get(k));
  }

  private static String text(byte[] doc, Token t) {
    return new String(doc, t.start(), t.end() - t.start(), StandardCharsets.UTF_8);
  }

  private static Edits edits(int fixture) {
    return new Edits(fixture);
  }

  /** An input being built: a fixture and its edits (each indexing the rendering as the edits before it left it). */
  private static final class Edits {
    private final int fixture;
    private boolean emptyTag;
    private final ByteArrayOutputStream edits = new ByteArrayOutputStream();

    Edits(int fixture) {
      this.fixture = fixture;
    }

    Edits emptyTag() {
      emptyTag = true;
      return this;
    }

    Edits edit(Kind kind, int a, int b) {
      return edit(kind, a, b, new byte[0]);
    }

    Edits edit(Kind kind, int a, int b, byte[] text) {
      edits.writeBytes(GraphJsonMutations.edit(kind, a, b, text));
      return this;
    }

    /** Token {@code a} replaced by an entry of {@link GraphJsonMutations#INTERESTING}. */
    Edits interesting(int a, String interesting) {
      int b = GraphJsonMutations.INTERESTING.indexOf(interesting);
      if (b < 0) {
        throw new IllegalArgumentException(interesting + " is not an interesting value");
      }
      return edit(Kind.INTERESTING_VALUE, a, b);
    }

    Edits replaceString(int a, String s) {
      return edit(Kind.REPLACE_STRING, a, 0, s.getBytes(StandardCharsets.UTF_8));
    }

    Edits replaceText(int a, String s) {
      return edit(Kind.REPLACE_TEXT, a, 0, s.getBytes(StandardCharsets.UTF_8));
    }

    Edits swapNames(int a, int b) {
      List<Token> tokens = GraphJsonMutations.tokens(GraphJsonFuzzTest.RENDERED.get(fixture));
      List<Token> strings = tokens.stream().filter(t -> t.string() && !t.key()).toList();
      return edit(Kind.SWAP_NAMES, strings.indexOf(tokens.get(a)), strings.indexOf(tokens.get(b)));
    }

    byte[] input() {
      byte[] e = edits.toByteArray();
      byte[] out = GraphJsonMutations.edited(fixture, emptyTag);
      byte[] all = new byte[out.length + e.length];
      System.arraycopy(out, 0, all, 0, out.length);
      System.arraycopy(e, 0, all, out.length, e.length);
      return all;
    }
  }
}
