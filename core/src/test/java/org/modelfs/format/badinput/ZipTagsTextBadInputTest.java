package org.modelfs.format.badinput;

import static org.modelfs.format.badinput.ZipTagsSamples.refused;
import static org.modelfs.format.badinput.ZipTagsSamples.refusedByMount;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.format.badinput.ZipTagsSamples.Entries;

/**
 * zip-tags text files under bad input: every malformed line of {@code params.txt},
 * {@code updater.txt} and {@code metadata.txt} is refused naming the entry and the line, in a
 * STORED and in a DEFLATED zip.
 */
class ZipTagsTextBadInputTest {
  private static final String P = "v1/params.txt";
  private static final String U = "v1/updater.txt";
  private static final String M = "v2/metadata.txt";

  @TempDir Path dir;

  /** One broken line: how to break the sample, the entry and line blamed, what the message says. */
  record Case(String name, UnaryOperator<Entries> edit, String entry, int line, String message) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Case c(String name, UnaryOperator<Entries> edit, String entry, int line, String message) {
    return new Case(name, edit, entry, line, message);
  }

  private static UnaryOperator<Entries> line(String entry, int n, String text) {
    return e -> e.line(entry, n, text);
  }

  static List<Case> paramsCases() {
    return List.of(
        c("one field", line(P, 3, "layer0/W"), P, 3, "expected '<name> <index>' or '<name> <tag>/<index>', found 1 fields"),
        c("three fields", line(P, 3, "layer0/W 2 3"), P, 3, "found 3 fields"),
        c("tab instead of space", line(P, 3, "layer0/W\t2"), P, 3, "found 1 fields"),
        c("name not in the graph", line(P, 3, "layer9/W 2"), P, 3, "'layer9/W' is not a variable of v1/graph.fb"),
        c("array for a placeholder of another shape", line(P, 3, "input 2"), P, 3,
            "'input': array of shape [4, 8], but the graph says [-1, 4]"),
        c("same name twice", e -> e.append(P, "layer0/W 2"), P, 7, "'layer0/W' has its array twice"),
        c("same name twice, escaped the second time", e -> e.append(P, "layer0%2FW 2"), P, 7,
            "'layer0/W' has its array twice"),
        c("escape %G1", line(P, 3, "layer0%G1W 2"), P, 3, "'%' not followed by two hex digits in 'layer0%G1W'"),
        c("escape %4 at the end", line(P, 3, "layer0/W%4 2"), P, 3, "'%' not followed by two hex digits"),
        c("escape %4 inside", line(P, 3, "layer%4/W 2"), P, 3, "'%' not followed by two hex digits"),
        c("trailing %", line(P, 3, "layer0/W% 2"), P, 3, "'%' not followed by two hex digits in 'layer0/W%'"),
        c("escape to a lone continuation byte", line(P, 3, "layer0%80W 2"), P, 3, "does not decode to UTF-8"),
        c("escape to 0xFF", line(P, 3, "%FF 2"), P, 3, "'%FF' does not decode to UTF-8"),
        c("escape to an overlong '/'", line(P, 3, "layer0%C0%AFW 2"), P, 3, "does not decode to UTF-8"),
        c("escape to a UTF-16 surrogate", line(P, 3, "layer0%ED%A0%80 2"), P, 3, "does not decode to UTF-8"),
        c("reference to an unlisted tag", line(P, 3, "layer0/W v9/2"), P, 3,
            "reference 'v9/2' names a tag tags.txt does not list"),
        c("reference to the empty tag", line(P, 3, "layer0/W /2"), P, 3, "reference '/2' names a tag"),
        c("reference to a missing entry", line(P, 3, "layer0/W 99"), P, 3,
            "reference '99': the zip has no entry 'v1/params/99.fb'"),
        c("reference to a missing entry of another tag", line("v2/params.txt", 3, "layer0/W v1/99"), "v2/params.txt", 3,
            "the zip has no entry 'v1/params/99.fb'"),
        c("reference to an updater array number", line(P, 3, "layer0/W 7"), P, 3, "the zip has no entry 'v1/params/7.fb'"),
        c("non-numeric index", line(P, 3, "layer0/W two"), P, 3, "reference 'two' is not <index> or <tag>/<index>"),
        c("negative index", line(P, 3, "layer0/W -1"), P, 3, "reference '-1' is not <index>"),
        c("signed index", line(P, 3, "layer0/W +2"), P, 3, "reference '+2' is not <index>"),
        c("hex index", line(P, 3, "layer0/W 0x2"), P, 3, "is not <index>"),
        c("non-ASCII digit", line(P, 3, "layer0/W \u0662"), P, 3, "is not <index>"),
        c("10-digit index", line(P, 3, "layer0/W 1234567890"), P, 3, "reference '1234567890' is not <index>"),
        c("10-digit index of another tag", line("v2/params.txt", 3, "layer0/W v1/0000000002"), "v2/params.txt", 3,
            "reference 'v1/0000000002' is not <index> or <tag>/<index>"),
        c("tag without index", line("v2/params.txt", 3, "layer0/W v1/"), "v2/params.txt", 3, "is not <index>"),
        c("nested reference", line("v2/params.txt", 3, "layer0/W v1/params/2"), "v2/params.txt", 3, "is not <index>"));
  }

  static List<Case> updaterCases() {
    return List.of(
        c("bare indexes (the decision's form)", line(U, 1, "layer1/W 0 1"), U, 1,
            "'0' names no state key; zip-tags writes each state as <key>=<index>"),
        c("one bare index among keys", line(U, 1, "layer1/W V=0 1"), U, 1, "'1' names no state key"),
        c("param only", line(U, 1, "layer1/W"), U, 1, "expected '<param> <key>=<index> …'"),
        c("empty key", line(U, 1, "layer1/W =0 M=1"), U, 1, "'=0' has an empty key; an empty key is written '%'"),
        c("key given twice", line(U, 1, "layer1/W V=0 V=1"), U, 1, "state key 'V' of 'layer1/W' given twice"),
        c("key given twice, escaped once", line(U, 1, "layer1/W V=0 %56=1"), U, 1, "state key 'V' of 'layer1/W' given twice"),
        c("param listed twice", e -> e.append(U, "layer1/W V=0 M=1"), U, 5, "updater state of 'layer1/W' listed twice"),
        c("reference to a missing entry", line(U, 1, "layer1/W V=0 M=99"), U, 1,
            "reference '99': the zip has no entry 'v1/updater/99.fb'"),
        c("reference to a missing entry of another tag", line("v2/updater.txt", 1, "layer1/W V=v1/0 M=v1/42"),
            "v2/updater.txt", 1, "the zip has no entry 'v1/updater/42.fb'"),
        c("reference to an unlisted tag", line(U, 1, "layer1/W V=v7/0 M=1"), U, 1, "reference 'v7/0' names a tag"),
        c("empty index", line(U, 1, "layer1/W V= M=1"), U, 1, "reference '' is not <index>"),
        c("10-digit index", line(U, 1, "layer1/W V=1234567890 M=1"), U, 1, "reference '1234567890' is not <index>"),
        c("bad escape in the key", line(U, 1, "layer1/W V%Z0=0 M=1"), U, 1, "'%' not followed by two hex digits"),
        c("bad escape in the param", line(U, 1, "layer1%/W V=0 M=1"), U, 1, "'%' not followed by two hex digits"));
  }

  static List<Case> metadataCases() {
    return List.of(
        c("three fields", line(M, 1, "model.name two words"), M, 1, "expected '<key> <value>', found 3 fields"),
        c("one field", line(M, 2, "note"), M, 2, "found 1 fields"),
        c("duplicate key", e -> e.append(M, "note again"), M, 3, "key 'note' given twice"),
        c("duplicate key, escaped the second time", e -> e.append(M, "no%74e again"), M, 3, "key 'note' given twice"),
        c("bad escape in the value", line(M, 2, "note 100%"), M, 2, "'%' not followed by two hex digits in '100%'"),
        c("escape to invalid UTF-8 in the key", line(M, 2, "%C3 x"), M, 2, "does not decode to UTF-8"));
  }

  static Stream<Arguments> cases() {
    return Stream.of(paramsCases(), updaterCases(), metadataCases()).flatMap(List::stream)
        .flatMap(c -> Stream.of(Arguments.of(c, false), Arguments.of(c, true)));
  }

  @ParameterizedTest(name = "{0} (deflated: {1})")
  @MethodSource("cases")
  void brokenLineIsRefused(Case c, boolean deflate) throws IOException {
    Path z = c.edit().apply(ZipTagsSamples.entries()).write(dir, "text.zip", deflate);
    refused(z, c.entry() + ": " + c.name() + (deflate ? " (deflated)" : ""),
        "ZIP entry '" + c.entry() + "' line " + c.line() + " at offset ", c.message());
  }

  static Stream<String> textEntries() {
    return Stream.of(P, U, M, "v2/params.txt", "v2/updater.txt");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("textEntries")
  void textNotUtf8IsRefused(String entry) throws IOException {
    for (boolean deflate : new boolean[] {false, true}) {
      Entries e = ZipTagsSamples.entries();
      byte[] bad = BadInput.concat(e.get(entry), new byte[] {'x', (byte) 0xC3, ' ', '1', '\n'});
      Path z = e.put(entry, bad).write(dir, "utf8.zip", deflate);
      refused(z, entry + " not UTF-8", "ZIP entry '" + entry + "' at offset ", "is not UTF-8");
    }
  }

  @Test
  void representativeLinesAreRefusedByMount() throws IOException {
    Path z = ZipTagsSamples.entries().line(U, 2, "&MyParam* 2 3").write(dir, "bare.zip", true);
    refusedByMount(z, "bare updater indexes, mounted", "ZIP entry 'v1/updater.txt' line 2", "<key>=<index>");
    z = ZipTagsSamples.entries().line(P, 1, "&MyParam%2 0").write(dir, "escape.zip", false);
    refusedByMount(z, "bad escape, mounted", "ZIP entry 'v1/params.txt' line 1", "not followed by two hex digits");
  }
}
