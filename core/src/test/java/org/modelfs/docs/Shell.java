package org.modelfs.docs;

import java.util.ArrayList;
import java.util.List;

/**
 * The little of sh(1)'s syntax the documented commands use: words with {@code '…'} and
 * {@code "…"} quoting and {@code \} escapes, {@code #} comments, {@code &&} lists and a
 * {@code > FILE} redirection of standard output. Anything else (pipes, {@code ;}, {@code <},
 * substitutions) is refused, so a page that starts using it fails the doc test until it is taught here.
 */
final class Shell {
  private Shell() {}

  /** One simple command: its words, and the file its standard output goes to ({@code null}: none). */
  record Simple(List<String> words, String stdoutTo) {}

  /** {@code line} without a trailing comment: a {@code #} that starts a word, outside quotes. */
  static String withoutComment(String line) {
    char quote = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else if (c == '\\' && quote == '"') {
          i++;
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '\\') {
        i++;
      } else if (c == '#' && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
        return line.substring(0, i);
      }
    }
    return line;
  }

  /** The simple commands of a command line joined by {@code &&}, each split into words. */
  static List<Simple> parse(String line) {
    List<Simple> out = new ArrayList<>();
    List<String> words = new ArrayList<>();
    String stdoutTo = null;
    boolean redirect = false;
    StringBuilder w = null;
    char quote = 0;
    for (int i = 0; i <= line.length(); i++) {
      char c = i < line.length() ? line.charAt(i) : ' ';
      boolean end = i == line.length();
      if (quote != 0 && !end) {
        if (c == quote) {
          quote = 0;
        } else if (c == '\\' && quote == '"' && i + 1 < line.length() && "\"\\$`".indexOf(line.charAt(i + 1)) >= 0) {
          w.append(line.charAt(++i));
        } else {
          w.append(c);
        }
        continue;
      }
      if (quote != 0) {
        throw new IllegalArgumentException("unclosed quote: " + line);
      }
      if (Character.isWhitespace(c) || c == '>' || c == '&') {
        if (w != null) {
          if (redirect) {
            stdoutTo = w.toString();
            redirect = false;
          } else {
            words.add(w.toString());
          }
          w = null;
        }
        if (c == '>') {
          redirect = true;
        } else if (c == '&') {
          if (i + 1 >= line.length() || line.charAt(i + 1) != '&') {
            throw new IllegalArgumentException("only && is understood here: " + line);
          }
          i++;
          out.add(new Simple(List.copyOf(words), stdoutTo));
          words.clear();
          stdoutTo = null;
        }
        continue;
      }
      if ("|;<`".indexOf(c) >= 0 || c == '$' && i + 1 < line.length() && line.charAt(i + 1) == '(') {
        throw new IllegalArgumentException("'" + c + "' is not understood here (teach docs.Shell): " + line);
      }
      if (w == null) {
        w = new StringBuilder();
      }
      if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '\\' && i + 1 < line.length()) {
        w.append(line.charAt(++i));
      } else {
        w.append(c);
      }
    }
    if (redirect) {
      throw new IllegalArgumentException("> without a file: " + line);
    }
    out.add(new Simple(List.copyOf(words), stdoutTo));
    return out;
  }
}
