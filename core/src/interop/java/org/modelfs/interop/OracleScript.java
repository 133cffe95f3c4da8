package org.modelfs.interop;

import java.util.ArrayList;
import java.util.List;

/**
 * One edit script of {@link Dl4jOracleInteropTest}: a fixture, the format it is converted to, and
 * the commits made on it, one per line (tab-separated tokens). The text form is what a failure
 * prints and what {@code oracle/dl4j-oracle-regressions.txt} keeps:
 *
 * <pre>
 * script  mlp_adam.fb  sdz
 * fs      move  /params/layer0/W  /params/p1  ;  delete  /params/layer1/b
 * json    renamevar  layer0/W  softmax_cross_entropy_loss
 * cli     tag  add  MODEL  t1
 * </pre>
 *
 * <p>A line is one commit: {@code fs} a mount session ({@link org.modelfs.ModelFileSystems#open}) with the
 * Path API operations separated by {@code ;} tokens, closed (the commit); {@code json} a
 * read-edit-write of the newest tag's {@code graph.json} with its edits separated by {@code ;};
 * {@code cli} one CLI command run in-process ({@code MODEL} is the model's path, {@code @…} tokens
 * are files the runner makes: {@link OracleRun}).
 *
 * @param fixture the fixture model, relative to {@link Dl4jFixtures#root()}
 * @param format the format token the fixture is converted to before the commits
 * <p>A regression script may carry, after its {@code script} line, an {@code open<TAB>ID<TAB>reason}
 * line: it stays failing with the {@link OracleOpenClasses open class} {@code ID} (it is still run).
 *
 * @param fixture the fixture model, relative to {@link Dl4jFixtures#root()}
 * @param format the format token the fixture is converted to before the commits
 * @param commits the commit lines
 * @param open the open class id this script is marked with, or null
 */
record OracleScript(String fixture, String format, List<String> commits, String open) {
  OracleScript {
    commits = List.copyOf(commits);
  }

  OracleScript(String fixture, String format, List<String> commits) {
    this(fixture, format, commits, null);
  }

  /** The sub-operations of one line ({@code fs}/{@code json}: split on {@code ;}; {@code cli}: the one command). */
  static List<List<String>> parts(String line) {
    String[] t = line.split("\t", -1);
    List<List<String>> out = new ArrayList<>();
    if (t[0].equals("cli")) {
      out.add(List.of(t).subList(1, t.length));
      return out;
    }
    List<String> cur = new ArrayList<>();
    for (int i = 1; i < t.length; i++) {
      if (t[i].equals(";")) {
        out.add(cur);
        cur = new ArrayList<>();
      } else {
        cur.add(t[i]);
      }
    }
    out.add(cur);
    return out;
  }

  /** A line of {@code kind} with these sub-operations. */
  static String line(String kind, List<List<String>> parts) {
    StringBuilder sb = new StringBuilder(kind);
    for (int i = 0; i < parts.size(); i++) {
      if (i > 0) {
        sb.append("\t;");
      }
      for (String t : parts.get(i)) {
        sb.append('\t').append(t);
      }
    }
    return sb.toString();
  }

  /** Same script with other commits. */
  OracleScript with(List<String> other) {
    return new OracleScript(fixture, format, other, open);
  }

  /** The text form: a {@code script} header line, then one line per commit (the open mark is not part of it). */
  String text() {
    return "script\t" + fixture + '\t' + format + '\n' + commitText();
  }

  /** The commit lines, each ended by a newline. */
  String commitText() {
    StringBuilder sb = new StringBuilder();
    commits.forEach(c -> sb.append(c).append('\n'));
    return sb.toString();
  }

  /** Parses scripts from text: each begins with a {@code script} line; {@code #} lines and blank lines are skipped. */
  static List<OracleScript> parse(String text) {
    List<OracleScript> out = new ArrayList<>();
    String fixture = null;
    String format = null;
    String open = null;
    List<String> lines = new ArrayList<>();
    for (String l : text.split("\n")) {
      if (l.isBlank() || l.startsWith("#")) {
        continue;
      }
      if (l.startsWith("script\t")) {
        if (fixture != null) {
          out.add(new OracleScript(fixture, format, lines, open));
        }
        String[] t = l.split("\t");
        fixture = t[1];
        format = t[2];
        open = null;
        lines = new ArrayList<>();
      } else if (l.startsWith("open\t")) {
        open = l.split("\t")[1];
      } else {
        lines.add(l);
      }
    }
    if (fixture != null) {
      out.add(new OracleScript(fixture, format, lines, open));
    }
    return out;
  }

  @Override
  public String toString() {
    return text();
  }
}
