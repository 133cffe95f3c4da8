package org.modelfs.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Command-line arguments split into positionals and {@code --name value} options. */
final class Args {
  /** A usage mistake: exit code 2. */
  static final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }

  private final List<String> raw;
  private final PrintStream err;

  Args(List<String> raw) {
    this(raw, null);
  }

  /** {@code err} is where progress lines go ({@link Parsed#progress}); {@code null}: nowhere (--quiet). */
  Args(List<String> raw, PrintStream err) {
    this.raw = raw;
    this.err = err;
  }

  /**
   * Parses against the allowed option names; {@code flags} take no value. {@code -q}/{@code
   * --quiet} never reach here: {@link Main#run} takes them for every command.
   */
  Parsed parse(Set<String> options, Set<String> flags) throws UsageException {
    List<String> positional = new ArrayList<>();
    Map<String, String> values = new HashMap<>();
    for (int i = 0; i < raw.size(); i++) {
      String a = raw.get(i);
      if (a.startsWith("--")) {
        String name = a.substring(2);
        String value = null;
        int eq = name.indexOf('=');
        if (eq >= 0) {
          value = name.substring(eq + 1);
          name = name.substring(0, eq);
        }
        if (flags.contains(name)) {
          values.put(name, "true");
        } else if (options.contains(name)) {
          if (value == null) {
            if (i + 1 >= raw.size()) {
              throw new UsageException("--" + name + " needs a value");
            }
            value = raw.get(++i);
          }
          values.put(name, value);
        } else {
          throw new UsageException("unknown option --" + name);
        }
      } else {
        positional.add(a);
      }
    }
    return new Parsed(positional, values, err);
  }

  /** The parsed arguments. */
  record Parsed(List<String> positional, Map<String, String> options, PrintStream err) {
    /** Progress of {@code what} on stderr, silent with {@code --quiet}; {@code total} bytes, 0 if unknown. */
    Progress progress(String what, long total) {
      return err == null ? Progress.NONE : Progress.start(err, what, total, false);
    }

    String option(String name) {
      return options.get(name);
    }

    boolean flag(String name) {
      return options.containsKey(name);
    }

    void expectPositionals(int n) throws UsageException {
      if (positional.size() != n) {
        throw new UsageException("expected " + n + " argument(s), got " + positional.size());
      }
    }
  }
}
