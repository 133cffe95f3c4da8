package org.modelfs.cli;

import java.io.PrintStream;

/** One verb of the command line. */
interface Command {
  /** Runs the command; returns the exit code ({@link Main#OK}, {@link Main#PROBLEMS}, {@link Main#ERROR}, {@link Main#USAGE}). */
  int run(Args args, PrintStream out, PrintStream err) throws Exception;

  /** One line: the verb and its arguments. */
  String usage();

  /** One line: what the command does (shown by {@code modelfs help}). */
  String summary();

  /**
   * What {@code modelfs help COMMAND} and {@code COMMAND --help} print after the usage line:
   * what it does, its options, at least one example.
   */
  String help();
}
