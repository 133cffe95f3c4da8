package org.modelfs.cli;

import java.io.PrintStream;

/** One verb of the command line. */
interface Command {
  /** Runs the command; returns the exit code. */
  int run(Args args, PrintStream out, PrintStream err) throws Exception;

  /** One line: the verb and its arguments. */
  String usage();
}
