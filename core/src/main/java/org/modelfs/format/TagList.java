package org.modelfs.format;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Tag names and the {@code tags.txt} list both tagged formats keep (docs/FILESYSTEM.md §1.1, docs/FORMATS.md §7.5, §8.1): a name is
 * {@code [A-Za-z0-9][A-Za-z0-9._-]{0,127}}, unique ignoring case; the list is UTF-8, one name
 * per line, oldest first.
 */
public final class TagList {
  /** The rule, as users see it in messages. */
  public static final String RULE = "[A-Za-z0-9][A-Za-z0-9._-]{0,127}";
  /** The most tags one file may list. */
  public static final int MAX_TAGS = 1000;
  /** The most bytes a tag list may declare. */
  public static final int MAX_BYTES = 1 << 20;

  private TagList() {}

  /** True if {@code name} is a valid tag name. */
  public static boolean isValid(String name) {
    return name.matches(RULE);
  }

  /**
   * Parses a tag list: names oldest first, each valid and unique ignoring case, at least one and
   * at most {@link #MAX_TAGS}; blank lines and a CR before LF are allowed. A bad name is refused
   * with its line number appended to {@code what}.
   */
  public static List<String> parse(byte[] utf8, String file, String what, long offset) throws ModelFormatException {
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(utf8)).toString();
    } catch (CharacterCodingException e) {
      throw new ModelFormatException(file, what, offset, "is not UTF-8");
    }
    List<String> names = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    String[] lines = text.split("\n");
    for (int i = 0; i < lines.length; i++) {
      String n = lines[i].strip();
      if (n.isEmpty()) {
        continue;
      }
      if (!isValid(n)) {
        throw new ModelFormatException(file, what + " line " + (i + 1), offset,
            "'" + n + "' is not a valid tag name (" + RULE + ")");
      }
      if (!seen.add(n.toLowerCase(Locale.ROOT))) {
        throw new ModelFormatException(file, what + " line " + (i + 1), offset,
            "lists tag '" + n + "' twice (tag names ignore case)");
      }
      names.add(n);
    }
    if (names.isEmpty() || names.size() > MAX_TAGS) {
      throw new ModelFormatException(file, what, offset, "lists " + names.size() + " tags (1 to " + MAX_TAGS + " allowed)");
    }
    return names;
  }

  /** The list's bytes: one name per line, LF-terminated, UTF-8. */
  public static byte[] render(List<String> names) {
    StringBuilder sb = new StringBuilder();
    for (String n : names) {
      sb.append(n).append('\n');
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }
}
