package org.modelfs.format.badinput;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.modelfs.format.badinput.ZipTagsSamples.refused;
import static org.modelfs.format.badinput.ZipTagsSamples.refusedByMount;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.format.badinput.ZipTagsSamples.Entries;

/**
 * zip-tags (docs/FORMATS.md "zip-tags") under hostile entry names and tag lists: zip slip,
 * entries below unlisted or mis-cased tag directories, a missing {@code graph.fb}, and every way
 * {@code tags.txt} can be wrong.
 */
class ZipTagsNamesBadInputTest {
  @TempDir Path dir;

  @Test
  void sampleOpens() throws IOException {
    for (boolean deflate : new boolean[] {false, true}) {
      Path z = ZipTagsSamples.entries().write(dir, "ok.zip", deflate);
      assertNull(BadInput.openTimed(z, "the valid sample"), "the valid sample opens");
    }
  }

  // ---- zip slip --------------------------------------------------------------------------------

  /** Stand-ins for characters commons-compress would rewrite on writing, patched in afterwards. */
  private static final char BACKSLASH = '\u0001';
  private static final char NUL = '\u0002';

  static Stream<Arguments> unsafeNames() {
    List<String> bare = List.of("../x", "a/../../x", "/abs/graph.fb", "C:/x", "a\\b", "a//b", "./a", "a\0b", "..",
        "x/.", "../d/");
    List<Arguments> out = new ArrayList<>();
    for (String n : bare) {
      out.add(Arguments.of("top level", n));
      out.add(Arguments.of("under v1", "v1/" + n));
    }
    for (String n : List.of("v1/../v2/graph.fb", "v1/params/../../../x", "v1\\..\\..\\x", "v1/graph.fb\0.txt",
        "v1/params/C:0.fb")) {
      out.add(Arguments.of("under v1", n));
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0}: \"{1}\"")
  @MethodSource("unsafeNames")
  void unsafeEntryNameIsRefused(String where, String name) throws IOException {
    for (boolean deflate : new boolean[] {false, true}) {
      String placeholder = name.replace('\\', BACKSLASH).replace('\0', NUL);
      Path z = ZipTagsSamples.entries().put(placeholder, "evil".getBytes(StandardCharsets.UTF_8))
          .write(dir, "slip.zip", deflate);
      if (!placeholder.equals(name)) {
        Files.write(z, BadInput.replaceAll(Files.readAllBytes(z), placeholder.getBytes(StandardCharsets.UTF_8),
            name.getBytes(StandardCharsets.UTF_8)));
      }
      refused(z, where + " \"" + name + "\"" + (deflate ? " (deflated)" : ""), "ZIP entry '" + name + "'",
          "unsafe entry name", "zip slip");
      try (Stream<Path> s = Files.list(dir)) {
        assertEquals(List.of("slip.zip"), s.map(p -> p.getFileName().toString()).toList(), "files created beside the zip");
      }
    }
  }

  @Test
  void unsafeNameIsRefusedByMount() throws IOException {
    Path z = ZipTagsSamples.entries().put("v1/../../x", new byte[1]).write(dir, "slip.zip", false);
    refusedByMount(z, "mount with entry v1/../../x", "ZIP entry 'v1/../../x'", "zip slip");
  }

  // ---- directories -----------------------------------------------------------------------------

  static Stream<Arguments> foreignDirectories() {
    return Stream.of(
        Arguments.of("graph of an unlisted tag", "v3/graph.fb", "lies below 'v3/', but tags.txt lists no tag of that name"),
        Arguments.of("file below an unlisted directory", "docs/readme.md", "lies below 'docs/'"),
        Arguments.of("deep below an unlisted directory", "x/y/z/params/0.fb", "lies below 'x/'"),
        Arguments.of("listed tag in upper case", "V1/notes.txt", "(it lists 'v1')"),
        Arguments.of("listed tag in upper case, a known file", "V2/graph.fb", "(it lists 'v2')"),
        Arguments.of("listed tag in upper case, an array file", "V1/params/9.fb", "(it lists 'v1')"));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("foreignDirectories")
  void entryBelowAnUnlistedDirectoryIsRefused(String name, String entry, String message) throws IOException {
    Path z = ZipTagsSamples.entries().put(entry, new byte[] {1, 2, 3}).write(dir, "dir.zip", false);
    refused(z, name, "ZIP entry '" + entry + "'", message);
  }

  /** Directory entries ({@code zip -r} writes them) of listed tags are no files: accepted. */
  @Test
  void directoryEntriesOfListedTagsAreAccepted() throws IOException {
    Entries e = new Entries().put("v1/", new byte[0]).put("v1/params/", new byte[0]).put("v2/updater/", new byte[0]);
    e.map.putAll(ZipTagsSamples.entries().map);
    assertNull(BadInput.openTimed(e.write(dir, "dirs.zip", false), "directory entries"));
  }

  @Test
  void graphMissingForAListedTagIsRefused() throws IOException {
    for (boolean deflate : new boolean[] {false, true}) {
      Path z = ZipTagsSamples.entries().remove("v1/graph.fb").write(dir, "nograph.zip", deflate);
      refused(z, "v1/graph.fb removed" + (deflate ? " (deflated)" : ""), "tag 'v1'", "has no v1/graph.fb");
    }
    Path z = ZipTagsSamples.entries().remove("v2/graph.fb").write(dir, "nograph.zip", true);
    refusedByMount(z, "v2/graph.fb removed, mounted", "tag 'v2'", "has no v2/graph.fb");
  }

  // ---- tags.txt --------------------------------------------------------------------------------

  /**
   * Without tags.txt (or without any graph.fb) the zip is an SDZ by detection, whose entries must
   * be flat: the message says so and what zip-tags would need.
   */
  @Test
  void missingTagsTxtMakesItAnSdzThatIsRefused() throws IOException {
    Path z = ZipTagsSamples.entries().remove("tags.txt").write(dir, "notags.zip", false);
    refused(z, "no tags.txt", "ZIP entry 'v1/graph.fb'", "entry names in an SDZ must be flat file names",
        "zip-tags only with a tags.txt and a <tag>/graph.fb");
    Entries one = ZipTagsSamples.entries().text("tags.txt", "v1\n").remove("v1/graph.fb");
    one.map.keySet().removeIf(n -> n.startsWith("v2/"));
    refused(one.write(dir, "nograph.zip", false), "one tag, no graph.fb", "ZIP entry 'v1/params.txt'",
        "zip-tags only with a tags.txt and a <tag>/graph.fb");
  }

  static Stream<Arguments> badTagLists() {
    StringBuilder many = new StringBuilder("v1\nv2\n");
    for (int i = 3; i <= 1001; i++) {
      many.append("t").append(i).append('\n');
    }
    return Stream.of(
        Arguments.of("empty", b(""), "lists 0 tags (1 to 1000 allowed)", ""),
        Arguments.of("blank lines only", b("\n\r\n  \n"), "lists 0 tags", ""),
        Arguments.of("name with a leading dash", b("v1\n-v2\n"), "'-v2' is not a valid tag name", " line 2"),
        Arguments.of("name with a slash", b("v1\nv1/x\n"), "'v1/x' is not a valid tag name", " line 2"),
        Arguments.of("name '..'", b("..\nv1\n"), "'..' is not a valid tag name", " line 1"),
        Arguments.of("name with an inner space", b("v1\nv 2\n"), "'v 2' is not a valid tag name", " line 2"),
        Arguments.of("name of 129 characters", b("v1\n" + "a".repeat(129) + "\n"), "is not a valid tag name", " line 2"),
        Arguments.of("non-ASCII name", b("v1\nv\u00e9\n"), "is not a valid tag name", " line 2"),
        Arguments.of("same name in another case", b("v1\nv2\nV1\n"), "lists tag 'V1' twice (tag names ignore case)",
            " line 3"),
        Arguments.of("same name twice", b("v1\nv2\nv2\n"), "lists tag 'v2' twice", " line 3"),
        Arguments.of("not UTF-8", new byte[] {'v', '1', '\n', (byte) 0xFF, 'v', '2', '\n'}, "is not UTF-8", ""),
        Arguments.of("more than 1000 tags", b(many.toString()), "lists 1001 tags (1 to 1000 allowed)", ""),
        Arguments.of("more than 1 MiB", b("v1\nv2\n" + "\n".repeat(1 << 20)), "at most 1048576 are allowed here", ""));
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @ParameterizedTest(name = "tags.txt {0}")
  @MethodSource("badTagLists")
  void badTagListIsRefused(String name, byte[] content, String message, String line) throws IOException {
    for (boolean deflate : new boolean[] {false, true}) {
      Path z = ZipTagsSamples.entries().put("tags.txt", content).write(dir, "tags.zip", deflate);
      refused(z, "tags.txt " + name + (deflate ? " (deflated)" : ""), "ZIP entry 'tags.txt'" + line, message);
    }
  }

  /** The order of entries in the zip does not matter, only what they say. */
  @Test
  void unlistedDirectoryIsRefusedWhereverItIs() throws IOException {
    Entries e = ZipTagsSamples.entries();
    Entries first = new Entries().put("zz/graph.fb", e.get("v1/graph.fb"));
    first.map.putAll(e.map);
    refused(first.write(dir, "first.zip", false), "unlisted directory first", "ZIP entry 'zz/graph.fb'", "lies below 'zz/'");
  }
}
