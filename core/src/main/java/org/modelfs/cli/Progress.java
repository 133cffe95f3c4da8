package org.modelfs.cli;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Progress of long work on stderr (docs/CLI.md): bytes done of the total, the rate and the time
 * left. On a terminal one line is redrawn in place at most 10 times a second; otherwise a plain
 * line is printed at most every 5 seconds. {@code --quiet} makes it silent ({@link #NONE}).
 */
final class Progress {
  /** Prints nothing. */
  static final Progress NONE = new Progress(null, "", 0, false, System::nanoTime);

  private final PrintStream err;
  private final String what;
  private final long total;
  private final boolean terminal;
  private final LongSupplier clock;
  private final long start;
  private long done;
  private long lastPrint;
  private boolean drawn;

  Progress(PrintStream err, String what, long total, boolean terminal, LongSupplier clock) {
    this.err = err;
    this.what = what;
    this.total = total;
    this.terminal = terminal;
    this.clock = clock;
    this.start = clock.getAsLong();
    this.lastPrint = start;
  }

  /** Progress of {@code what} over {@code total} bytes on {@code err}; silent when {@code quiet}. */
  static Progress start(PrintStream err, String what, long total, boolean quiet) {
    if (quiet) {
      return NONE;
    }
    // a console means stdin and stdout are a terminal: then stderr most likely is one too
    boolean terminal = System.console() != null && (err == System.err || err == Main.stderr);
    return new Progress(err, what, total, terminal, System::nanoTime);
  }

  /** {@code bytes} more are done. */
  synchronized void advance(long bytes) {
    if (err == null) {
      return;
    }
    done += bytes;
    long now = clock.getAsLong();
    long every = terminal ? 100_000_000L : 5_000_000_000L;
    if (now - lastPrint >= every) {
      lastPrint = now;
      print(now, false);
    }
  }

  /** {@code bytes} are done in all (a listener of cumulative counts, e.g. a commit's). */
  synchronized void at(long bytes) {
    if (err != null && bytes > done) {
      advance(bytes - done);
    }
  }

  /** The work is finished: a last line (on a terminal, the redrawn one is completed). */
  synchronized void done() {
    if (err == null) {
      return;
    }
    long now = clock.getAsLong();
    if (terminal || drawn || now - start >= 1_000_000_000L) {
      print(now, true);
    }
  }

  private void print(long now, boolean last) {
    double secs = Math.max(1e-9, (now - start) / 1e9);
    double rate = done / secs;
    StringBuilder sb = new StringBuilder();
    sb.append(what).append(": ").append(Listing.size(done));
    // the total is an estimate (a convert's: the array bytes); once the work passes it, it is
    // no total at all ("6.8 KiB of 812 B" said nothing true): bytes and rate only
    boolean known = total > 0 && done <= total;
    if (known) {
      sb.append(" of ").append(Listing.size(total))
          .append(String.format(Locale.ROOT, " (%d%%)", Math.min(100, done * 100 / total)));
    }
    sb.append(", ").append(Listing.size((long) rate)).append("/s");
    if (!last && known && rate > 0 && done < total) {
      sb.append(String.format(Locale.ROOT, ", %ds left", (long) Math.ceil((total - done) / rate)));
    }
    if (last) {
      sb.append(String.format(Locale.ROOT, ", done in %.1fs", secs));
    }
    if (terminal) {
      err.print("\r" + sb + "\033[K" + (last ? "\n" : ""));
    } else {
      err.println(sb);
    }
    err.flush();
    drawn = true;
  }
}
