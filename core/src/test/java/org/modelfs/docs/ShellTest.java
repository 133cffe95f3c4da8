package org.modelfs.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The doc test's reading of pages and command lines ({@link Shell}, {@link Docs}, the output match). */
class ShellTest {
  @Test
  void wordsQuotesCommentsListsAndRedirection() {
    assertEquals(List.of(new Shell.Simple(List.of("mvn", "-q", "package"), null),
        new Shell.Simple(List.of("java", "-jar", "j.jar", "graph", "m.sdz#v2", "--json"), "g.json")),
        Shell.parse(Shell.withoutComment("mvn -q package && java -jar j.jar graph m.sdz#v2 --json > g.json   # a comment")));
    assertEquals(List.of(new Shell.Simple(List.of("x", "iArgs.dimension=\"one\"", "a b", "$EDITOR", "c#d"), null)),
        Shell.parse("x 'iArgs.dimension=\"one\"' \"a b\" $EDITOR c#d"));
    assertEquals("x '# not a comment' ", Shell.withoutComment("x '# not a comment' # one"));
    for (String unknown : List.of("a | b", "a; b", "a < b", "echo $(date)", "a & b", "a 'open")) {
      assertThrows(IllegalArgumentException.class, () -> Shell.parse(unknown), unknown);
    }
  }

  @Test
  void promptsAndTheirOutputAndShellBlocks() {
    Docs.Page page = new Docs.Page(Path.of("p.md"), List.of("text", "```console", "$ modelfs a  # why", "out 1", "",
        "$ modelfs b", "```", "```bash", "modelfs c \\", "  --x", "# only a comment", "```", "```", "not a command", "```"));
    List<Docs.Command> c = Docs.commands(List.of(page));
    assertEquals(List.of("modelfs a", "modelfs b", "modelfs c --x"), c.stream().map(Docs.Command::text).toList());
    assertEquals(List.of("out 1", ""), c.get(0).output());
    assertEquals(List.of(), c.get(1).output());
    assertEquals(null, c.get(2).output());
    assertEquals("p.md:3", c.get(0).where());
    Docs.Page headed = new Docs.Page(Path.of("h.md"), List.of("# Top", "## Shell", "```sh", "# not a heading", "```", "```sh", "x", "```"));
    assertEquals("## Shell", Docs.heading(Docs.blocks(headed).get(1)), "a comment in a block is not a heading");
  }

  @Test
  void shownOutputMatchesLineByLineWithEllipsisForAnyText() {
    assertTrue(DocCommandsTest.matches(List.of("working in /tmp/x-…", "a … b", ""), "working in /tmp/x-123\na 1 2 b\n\n"));
    assertFalse(DocCommandsTest.matches(List.of("a"), "a\nb\n"), "a line more");
    assertFalse(DocCommandsTest.matches(List.of("12.6 KiB"), "11.8 KiB"));
    assertFalse(DocCommandsTest.matches(List.of("a.b"), "axb"), "a page's text is literal");
  }
}
