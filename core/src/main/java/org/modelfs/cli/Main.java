package org.modelfs.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.modelfs.store.Shown;

/**
 * The {@code modelfs} command line: dispatches to one command per verb. Exit codes, as diff(1)
 * and git: 0 ok, 1 "differs" or "problems found" (diff, verify), 2 a usage mistake or an error
 * (the message goes to stderr).
 */
public final class Main {
  static final int OK = 0;
  /** The answer is "they differ" / "problems were found" (not an error). */
  static final int PROBLEMS = 1;
  static final int USAGE = 2;
  /** The command could not do its work (the reason is on stderr). */
  static final int ERROR = 2;

  static final Map<String, Command> COMMANDS = Map.ofEntries(
      Map.entry("info", new InfoCommand()),
      Map.entry("convert", new ConvertCommand()),
      Map.entry("tree", new TreeCommand()),
      Map.entry("ls", new LsCommand()),
      Map.entry("cp", new CpCommand()),
      Map.entry("rm", new RmCommand()),
      Map.entry("meta", new MetaCommand()),
      Map.entry("cat", new CatCommand()),
      Map.entry("graph", new GraphCommand()),
      Map.entry("tag", new TagCommand()),
      Map.entry("extract", new ExtractCommand()),
      Map.entry("avg", new AvgCommand()),
      Map.entry("diff", new DiffCommand()),
      Map.entry("export", new ExportCommand()),
      Map.entry("import", new ImportCommand()),
      Map.entry("verify", new VerifyCommand()),
      Map.entry("view", new ViewCommand()),
      Map.entry("clean", new CleanCommand()));

  private Main() {}

  /** The commands' names (OutputFilesTest checks each is declared by what it writes). */
  static Set<String> commandNames() {
    return COMMANDS.keySet();
  }

  /**
   * Runs the command line. Output is UTF-8 whatever the locale, and arguments are read as UTF-8
   * too: where the JVM decoded them with another charset (a {@code C}/POSIX locale turns every
   * non-ASCII byte into U+FFFD before {@code main} runs), they are read again from the raw
   * command line ({@code /proc/self/cmdline} on Linux), so a parameter named {@code ünï}
   * survives {@code LANG=C} (docs/CLI.md).
   */
  public static void main(String[] args) {
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true,
        StandardCharsets.UTF_8);
    PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true,
        StandardCharsets.UTF_8);
    stderr = err;
    int code;
    try {
      code = run(Utf8Args.of(args), out, err);
    } catch (Args.UsageException e) {
      err.println(Shown.text("modelfs" + (args.length > 0 && COMMANDS.containsKey(args[0]) ? " " + args[0] : "") + ": "
          + e.getMessage()));
      code = USAGE;
    }
    out.flush();
    err.flush();
    System.exit(code);
  }

  /** The process's standard error once {@link #main} made it UTF-8 (progress redraws only there). */
  static volatile PrintStream stderr;

  /** Whether the locale's charset can show {@code chars} (else the CLI draws ASCII). */
  static boolean canShow(String chars) {
    String enc = System.getProperty("native.encoding", System.getProperty("sun.jnu.encoding", "UTF-8"));
    try {
      return Charset.forName(enc).newEncoder().canEncode(chars);
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * Runs one command; returns its exit code. {@code modelfs help [COMMAND]}, {@code COMMAND
   * --help}/{@code -h} and {@code --version} answer on stdout with 0.
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    List<String> all = Arrays.asList(args);
    boolean quiet = all.contains("-q") || all.contains("--quiet");
    if (quiet) {
      args = all.stream().filter(a -> !a.equals("-q") && !a.equals("--quiet")).toArray(String[]::new);
    }
    if (args.length == 0) {
      usage(err);
      return USAGE;
    }
    if (args[0].equals("-h") || args[0].equals("--help") || args[0].equals("help") && args.length == 1) {
      usage(out);
      return OK;
    }
    if (args[0].equals("--version") || args[0].equals("version")) {
      out.println("modelfs " + version());
      return OK;
    }
    if (args[0].equals("help")) {
      Command c = COMMANDS.get(args[1]);
      if (c == null || args.length > 2) {
        err.println("modelfs help: unknown command '" + String.join(" ", Arrays.asList(args).subList(1, args.length)) + "'");
        usage(err);
        return USAGE;
      }
      help(c, out);
      return OK;
    }
    Command c = COMMANDS.get(args[0]);
    if (c == null) {
      err.println("modelfs: unknown command '" + args[0] + "'");
      usage(err);
      return USAGE;
    }
    List<String> rest = Arrays.asList(args).subList(1, args.length);
    if (rest.contains("--help") || rest.contains("-h")) {
      help(c, out);
      return OK;
    }
    try {
      // -q/--quiet, before or after the command: the command's stderr (progress, "wrote …",
      // warnings) goes nowhere; the error that ends a command is printed below, on the real one
      return quiet ? c.run(new Args(rest, null), out, QUIET) : c.run(new Args(rest, err), out, err);
    } catch (Args.UsageException e) {
      err.println(Shown.text("modelfs " + args[0] + ": " + e.getMessage()));
      err.println("usage: modelfs " + c.usage());
      return USAGE;
    } catch (NoSuchFileException e) {
      // a reason that names what is missing itself ("no such bucket 'b'") leads, the file after it;
      // one that names no thing ("no such array") follows its file, as the JDK's message has it
      String reason = e.getReason();
      err.println(Shown.text("modelfs " + args[0] + ": " + (reason != null && reason.startsWith("no such ")
          && reason.contains("'") ? reason + " (" + e.getFile() + ")" : reason != null && reason.startsWith("no such ")
          ? e.getMessage() : "no such file: " + e.getMessage())));
      return ERROR;
    } catch (Exception e) {
      err.println(Shown.text("modelfs " + args[0] + ": " + e.getMessage()));
      return ERROR;
    }
  }

  /** Where a command's stderr goes under {@code --quiet}. */
  private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream(), true,
      StandardCharsets.UTF_8);

  /** The version this build was made as ({@code project.version}), or "unknown". */
  static String version() {
    try (InputStream in = Main.class.getResourceAsStream("version.properties")) {
      if (in != null) {
        Properties p = new Properties();
        p.load(in);
        String v = p.getProperty("version");
        if (v != null && !v.startsWith("${")) {
          return v;
        }
      }
    } catch (IOException e) {
      // reported as unknown below
    }
    return "unknown";
  }

  private static void help(Command c, PrintStream out) {
    out.println("usage: modelfs " + c.usage());
    out.println();
    out.println(c.summary());
    out.println();
    out.println(c.help());
  }

  private static void usage(PrintStream s) {
    s.println("usage: modelfs <command> [arguments]   (java -jar modelfs.jar …)");
    s.println();
    s.println("commands:");
    COMMANDS.entrySet().stream().sorted(Map.Entry.comparingByKey())
        .forEach(e -> s.println(String.format(Locale.ROOT, "  %-9s %s", e.getKey(), e.getValue().summary())));
    s.println();
    s.println("modelfs help COMMAND (or COMMAND --help) shows its options and an example; modelfs --version");
    s.println("-q, --quiet (with any command): nothing on stderr but the error that ends the command");
  }
}
