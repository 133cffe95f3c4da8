package org.modelfs.cli;

import java.io.PrintStream;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The {@code modelfs} command line: dispatches to one command per verb. Exit codes: 0 ok,
 * 1 failed (the message goes to stderr), 2 usage error.
 */
public final class Main {
  static final int OK = 0;
  static final int FAILED = 1;
  static final int USAGE = 2;

  private static final Map<String, Command> COMMANDS = Map.ofEntries(
      Map.entry("info", new InfoCommand()),
      Map.entry("convert", new ConvertCommand()),
      Map.entry("tree", new TreeCommand()),
      Map.entry("ls", new LsCommand()),
      Map.entry("cp", new CpCommand()),
      Map.entry("rm", new RmCommand()),
      Map.entry("meta", new MetaCommand()),
      Map.entry("cat", new CatCommand()),
      Map.entry("tag", new TagCommand()),
      Map.entry("extract", new ExtractCommand()),
      Map.entry("avg", new AvgCommand()),
      Map.entry("diff", new DiffCommand()));

  private Main() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs one command; returns its exit code. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help")) {
      usage(args.length == 0 ? err : out);
      return args.length == 0 ? USAGE : OK;
    }
    Command c = COMMANDS.get(args[0]);
    if (c == null) {
      err.println("modelfs: unknown command '" + args[0] + "'");
      usage(err);
      return USAGE;
    }
    List<String> rest = Arrays.asList(args).subList(1, args.length);
    try {
      return c.run(new Args(rest), out, err);
    } catch (Args.UsageException e) {
      err.println("modelfs " + args[0] + ": " + e.getMessage());
      err.println("usage: modelfs " + c.usage());
      return USAGE;
    } catch (NoSuchFileException e) {
      err.println("modelfs " + args[0] + ": no such file: " + e.getMessage());
      return FAILED;
    } catch (Exception e) {
      err.println("modelfs " + args[0] + ": " + e.getMessage());
      return FAILED;
    }
  }

  private static void usage(PrintStream s) {
    s.println("usage: java -jar modelfs.jar <command> …");
    COMMANDS.values().stream().map(Command::usage).sorted().forEach(u -> s.println("  " + u));
  }
}
