package org.modelfs.cli;

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

  Args(List<String> raw) {
    this.raw = raw;
  }

  /** Parses against the allowed option names; {@code flags} take no value. */
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
    return new Parsed(positional, values);
  }

  /** The parsed arguments. */
  record Parsed(List<String> positional, Map<String, String> options) {
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
