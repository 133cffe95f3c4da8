package org.modelfs.provider;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.modelfs.container.Models;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.fb.GraphJson;
import org.modelfs.format.fb.GraphJsonException;
import org.modelfs.format.fb.GraphJsonReader;
import org.modelfs.format.fb.GraphWriter;
import org.modelfs.model.Model;
import org.modelfs.model.Tag;
import org.modelfs.testing.Fixtures;

/**
 * A written {@code graph.json} (docs/GRAPH.md §3) on hostile edits of real renderings
 * ({@link GraphJsonMutations}: a fixture's graph.json with values, lines, elements and names
 * changed; or the bytes as they are), read by {@link GraphJsonReader} into the fixture's tag or
 * into a tag without a graph. The rule of docs/RELIABILITY.md "Fuzzing" with the refusal the
 * reader documents: it may only accept or throw {@link GraphJsonException} (a
 * {@link ModelFormatException} would mean the fixture's own graph is unreadable: a finding here).
 * A refusal's message stays under {@link #MAX_MESSAGE} characters, and malformed JSON (or text
 * that is not UTF-8) names a line and a column inside the document. What it accepts:
 * {@link GraphJsonWrites#applied} makes it the tag's graph, that tag renders, each writer
 * ({@link GraphWriter.Mode#LEGACY}, {@code SDNB}, {@code SHARD_GRAPH}) lays it out or refuses
 * with a {@link ModelFormatException}, and it is a fixpoint: its rendering read back into it
 * renames nothing, renders to the same bytes and lays out to the same graph bytes. Every input
 * takes less than {@link #MAX_MILLIS}. In this package to reach the package-private
 * {@link GraphJsonWrites}; the other targets are in {@code org.modelfs.fuzz}.
 */
class GraphJsonFuzzTest {
  /** The fixtures edited: an MLP with an updater (custom ops and a scalar op) and two TF imports (a legacy reduce op; custom ops). */
  static final List<String> FIXTURES = List.of("mlp_adam.fb", "tf-import/reduce_all_rank2_d0_keep.fb",
      "tf-import/scatter_nd_update.fb");
  /** The bound on a refusal's message, in characters. */
  static final int MAX_MESSAGE = 64 * 1024;
  /** The bound on one input's checks (measured twice before it counts, so a pause of the JVM is not a finding). */
  static final long MAX_MILLIS = 2_000;

  private static final String PATH = "/tags/t/graph.json";
  private static final String FILE = "m.fb";
  private static final Pattern LINE_COLUMN = Pattern.compile("\\(line (\\d+), column (\\d+)\\)$");
  private static final GraphWriter.Mode[] MODES = {
      GraphWriter.Mode.LEGACY, GraphWriter.Mode.SDNB, GraphWriter.Mode.SHARD_GRAPH};

  /** Each fixture's newest tag, opened once (the models stay open for the JVM's life). */
  static final List<Tag> TAGS = new ArrayList<>();
  /** Each fixture's graph.json as rendered. */
  static final List<byte[]> RENDERED = new ArrayList<>();

  static {
    try {
      for (String f : FIXTURES) {
        Model m = Models.open(Fixtures.get(f));
        TAGS.add(m.newest());
        RENDERED.add(GraphJson.render(m.newest(), FILE));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @FuzzTest(maxDuration = "30s")
  void write(byte[] input) {
    long t0 = System.nanoTime();
    outcome(input);
    long millis = (System.nanoTime() - t0) / 1_000_000;
    if (millis > MAX_MILLIS) {
      t0 = System.nanoTime();
      outcome(input);
      long again = (System.nanoTime() - t0) / 1_000_000;
      if (again > MAX_MILLIS) {
        throw new AssertionError("one input took " + millis + " ms, and " + again + " ms again");
      }
    }
  }

  /**
   * What {@code input} gives — {@code refused: <first problem>}, {@code accepted}, or
   * {@code accepted; <mode> refused: <message>} for each writer that refuses it — after every
   * property is checked; an {@link AssertionError} (or whatever escapes) is a finding.
   */
  static String outcome(byte[] input) {
    int k = GraphJsonMutations.fixture(input, TAGS.size());
    Tag tag = TAGS.get(k);
    if (GraphJsonMutations.emptyTag(input)) {
      tag = new Tag(tag.name(), null, List.of(), List.of(), null, Map.of());
    }
    byte[] json = GraphJsonMutations.document(input, RENDERED);
    GraphJsonReader.Result r;
    try {
      r = GraphJsonReader.read(json, tag, PATH);
    } catch (GraphJsonException refused) {
      checkRefusal(refused, json);
      return "refused: " + cut(refused.problems().get(0));
    } catch (ModelFormatException e) {
      throw new AssertionError("a fixture's own graph is refused", e);
    }
    Tag accepted = applied(tag, r, "the accepted graph.json");
    byte[] shown = render(accepted, "the accepted graph");
    StringBuilder notes = new StringBuilder("accepted");
    Map<GraphWriter.Mode, byte[]> built = new EnumMap<>(GraphWriter.Mode.class);
    for (GraphWriter.Mode mode : MODES) {
      try {
        built.put(mode, GraphWriter.build(accepted, mode, Set.of(), Map.of(), FILE).bytes());
      } catch (ModelFormatException refused) {
        notes.append("; ").append(mode).append(" refused: ").append(cut(refused.getMessage()));
      }
    }
    fixpoint(accepted, shown, built);
    return notes.toString();
  }

  /** The accepted tag's rendering, read back into it, changes nothing: no rename, the same rendering, the same graph bytes. */
  private static void fixpoint(Tag accepted, byte[] shown, Map<GraphWriter.Mode, byte[]> built) {
    GraphJsonReader.Result r;
    try {
      r = GraphJsonReader.read(shown, accepted, PATH);
    } catch (IOException e) {
      throw new AssertionError("the rendering of an accepted graph.json is refused when written back:\n"
          + new String(shown, StandardCharsets.UTF_8), e);
    }
    if (!r.renames().isEmpty()) {
      throw new AssertionError("writing back a rendering renames " + r.renames());
    }
    Tag again = applied(accepted, r, "the rendering written back");
    byte[] shownAgain = render(again, "the rendering written back");
    if (!Arrays.equals(shown, shownAgain)) {
      throw new AssertionError("not a fixpoint: the rendering written back renders otherwise; "
          + firstDifference(shown, shownAgain));
    }
    for (Map.Entry<GraphWriter.Mode, byte[]> e : built.entrySet()) {
      byte[] b;
      try {
        b = GraphWriter.build(again, e.getKey(), Set.of(), Map.of(), FILE).bytes();
      } catch (ModelFormatException refused) {
        throw new AssertionError(e.getKey() + " lays out the accepted graph but not its rendering written back", refused);
      }
      if (!Arrays.equals(e.getValue(), b)) {
        throw new AssertionError("not a fixpoint: the rendering written back lays out other " + e.getKey()
            + " bytes (" + e.getValue().length + " → " + b.length + ")");
      }
    }
  }

  private static Tag applied(Tag tag, GraphJsonReader.Result r, String what) {
    try {
      return GraphJsonWrites.applied(tag, r, PATH);
    } catch (IOException e) {
      throw new AssertionError(what + " cannot be applied", e);
    }
  }

  private static byte[] render(Tag tag, String what) {
    try {
      return GraphJson.render(tag, FILE);
    } catch (ModelFormatException e) {
      throw new AssertionError(what + " cannot be rendered", e);
    }
  }

  /** A refusal: at least one problem, a bounded message, and a line and column inside the text for a syntax error. */
  private static void checkRefusal(GraphJsonException refused, byte[] json) {
    String message = refused.getMessage();
    if (refused.problems().isEmpty() || message.length() >= MAX_MESSAGE) {
      throw new AssertionError("a refusal of " + refused.problems().size() + " problems in " + message.length()
          + " characters: " + cut(message));
    }
    for (String p : refused.problems()) {
      if (p.startsWith("malformed JSON") || p.startsWith("graph.json is UTF-8 text")) {
        Matcher m = LINE_COLUMN.matcher(p);
        if (!m.find()) {
          throw new AssertionError("a syntax error without line and column: " + cut(p));
        }
        long line = Long.parseLong(m.group(1));
        long column = Long.parseLong(m.group(2));
        byte[] text = lineText(json, line);
        if (text == null || column < 1 || column > text.length + 1) {
          throw new AssertionError("a syntax error at a line and column outside the text: " + cut(p));
        }
      }
    }
  }

  /** The bytes of line {@code line} (1-based) of {@code json}, or null if it has fewer lines. */
  private static byte[] lineText(byte[] json, long line) {
    int from = 0;
    for (long l = 1; l < line; l++) {
      int nl = indexOf(json, (byte) '\n', from);
      if (nl < 0) {
        return null;
      }
      from = nl + 1;
    }
    int end = indexOf(json, (byte) '\n', from);
    return Arrays.copyOfRange(json, from, end < 0 ? json.length : end);
  }

  private static int indexOf(byte[] b, byte c, int from) {
    for (int i = from; i < b.length; i++) {
      if (b[i] == c) {
        return i;
      }
    }
    return -1;
  }

  private static String firstDifference(byte[] a, byte[] b) {
    String[] x = new String(a, StandardCharsets.UTF_8).split("\n", -1);
    String[] y = new String(b, StandardCharsets.UTF_8).split("\n", -1);
    for (int i = 0; i < Math.min(x.length, y.length); i++) {
      if (!x[i].equals(y[i])) {
        return "line " + (i + 1) + ": " + cut(x[i]) + " → " + cut(y[i]);
      }
    }
    return x.length + " lines → " + y.length + " lines";
  }

  private static String cut(String s) {
    return s.length() <= 300 ? s : s.substring(0, 300) + "… (" + s.length() + " characters)";
  }
}
