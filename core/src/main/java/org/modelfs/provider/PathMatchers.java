package org.modelfs.provider;

import java.nio.file.PathMatcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The {@code glob:} and {@code regex:} matchers of {@link ModelFileSystem#getPathMatcher}, which
 * match {@code path.toString()} with the glob semantics of jdk.zipfs and the default Unix file
 * system. The one deliberate difference: {@code **} also crosses line terminators, which a
 * variable name may contain (the JDK's {@code .*} does not).
 */
final class PathMatchers {
  private PathMatchers() {}

  /**
   * A matcher for {@code syntax:pattern}; the syntax name is case-insensitive.
   *
   * @throws IllegalArgumentException if there is no {@code :} or nothing before it
   * @throws UnsupportedOperationException if the syntax is neither {@code glob} nor {@code regex}
   * @throws PatternSyntaxException if the pattern is malformed
   */
  static PathMatcher of(String syntaxAndPattern) {
    int colon = syntaxAndPattern.indexOf(':');
    if (colon <= 0) {
      throw new IllegalArgumentException(
          "expected 'syntax:pattern' (glob: or regex:), got '" + syntaxAndPattern + "'");
    }
    String syntax = syntaxAndPattern.substring(0, colon);
    String pattern = syntaxAndPattern.substring(colon + 1);
    String regex;
    if (syntax.equalsIgnoreCase("glob")) {
      regex = globToRegex(pattern);
    } else if (syntax.equalsIgnoreCase("regex")) {
      regex = pattern;
    } else {
      throw new UnsupportedOperationException("Syntax '" + syntax + "' not recognized");
    }
    Pattern compiled = Pattern.compile(regex);
    return path -> compiled.matcher(path.toString()).matches();
  }

  /**
   * Translates a glob: {@code *} is any run within a name, {@code **} any run across names,
   * {@code ?} one character other than {@code /}, {@code [...]} one character of a class (with
   * ranges, {@code [!...]} negated, a leading {@code -} literal, never {@code /}), {@code {a,b}}
   * one of the alternatives (not nested), and {@code \} makes the next character literal outside a
   * class; inside a class a backslash is literal, as in the JDK.
   *
   * @throws PatternSyntaxException if the glob is malformed
   */
  private static String globToRegex(String glob) {
    StringBuilder regex = new StringBuilder(glob.length() * 2);
    boolean inGroup = false;
    int i = 0;
    while (i < glob.length()) {
      char c = glob.charAt(i++);
      switch (c) {
        case '\\' -> {
          if (i == glob.length()) {
            throw new PatternSyntaxException("No character to escape", glob, i - 1);
          }
          literal(regex, glob.charAt(i++));
        }
        case '*' -> {
          if (i < glob.length() && glob.charAt(i) == '*') {
            regex.append("(?s:.*)");
            i++;
          } else {
            regex.append("[^/]*");
          }
        }
        case '?' -> regex.append("[^/]");
        case '[' -> i = charClass(glob, i, regex);
        case '{' -> {
          if (inGroup) {
            throw new PatternSyntaxException("Cannot nest groups", glob, i - 1);
          }
          regex.append("(?:");
          inGroup = true;
        }
        case ',' -> {
          if (inGroup) {
            regex.append('|');
          } else {
            literal(regex, c);
          }
        }
        case '}' -> {
          if (inGroup) {
            regex.append(')');
            inGroup = false;
          } else {
            literal(regex, c);
          }
        }
        default -> literal(regex, c);
      }
    }
    if (inGroup) {
      throw new PatternSyntaxException("Missing '}'", glob, glob.length() - 1);
    }
    return regex.toString();
  }

  /**
   * Translates the class whose {@code [} is just before {@code i} and returns the index after its
   * {@code ]}. Ranges are by char value; a {@code -} is literal first or just before the {@code ]}.
   */
  private static int charClass(String glob, int i, StringBuilder regex) {
    int open = i - 1;
    boolean negated = i < glob.length() && glob.charAt(i) == '!';
    if (negated) {
      i++;
    }
    // a negated class must not match '/'; an ordinary one must not reach it through a range
    StringBuilder members = new StringBuilder(negated ? "[^/" : "[");
    boolean empty = true;
    boolean rangeStart = false;
    char last = 0;
    if (i < glob.length() && glob.charAt(i) == '-') {
      members.append("\\-");
      empty = false;
      i++;
    }
    while (true) {
      if (i == glob.length()) {
        throw new PatternSyntaxException("Missing ']'", glob, open);
      }
      char c = glob.charAt(i++);
      if (c == ']') {
        break;
      }
      if (c == '/') {
        throw new PatternSyntaxException("Explicit 'name separator' in class", glob, i - 1);
      }
      if (c == '-' && !(i < glob.length() && glob.charAt(i) == ']')) {
        if (!rangeStart) {
          throw new PatternSyntaxException("Invalid range", glob, i - 1);
        }
        if (i == glob.length()) {
          throw new PatternSyntaxException("Missing ']'", glob, open);
        }
        char end = glob.charAt(i++);
        if (end < last) {
          throw new PatternSyntaxException("Invalid range", glob, i - 3);
        }
        members.append('-');
        literal(members, end);
        rangeStart = false;
      } else {
        literal(members, c);
        rangeStart = c != '-';
        last = c;
      }
      empty = false;
    }
    if (empty) {
      throw new PatternSyntaxException("Empty character class", glob, open);
    }
    regex.append(members).append(negated ? "]" : "&&[^/]]");
    return i;
  }

  /** Appends {@code c} to match itself, in or out of a character class. */
  private static void literal(StringBuilder regex, char c) {
    if (c < 128 && !Character.isLetterOrDigit(c)) {
      regex.append('\\');
    }
    regex.append(c);
  }
}
