package org.modelfs.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.modelfs.verify.Problem;
import org.modelfs.verify.Report;
import org.modelfs.verify.Verifier;

/**
 * {@code verify MODEL [--finite] [--json]}: checks a model completely and streaming
 * ({@link Verifier}); one line per problem, exit 1 if there is any (docs/CLI.md, "verify").
 */
final class VerifyCommand implements Command {
  @Override
  public String summary() {
    return "Check every structure and every array of a model (zip CRCs, shards, op inputs, updater shapes).";
  }

  @Override
  public String help() {
    return "Opens the model with every bounds check, reads every array to its end (UTF8 offsets too)," + "\n"
        + "recomputes the CRC-32 of every zip entry, checks that every shard is there, that every op" + "\n"
        + "input is a variable and that updater state has its parameter's shape. Streams through 1 MiB" + "\n"
        + "buffers: a 2 GiB model verifies with -Xmx64m." + "\n"
        + "" + "\n"
        + "One line per problem on stdout, '<path>: <problem>'; exit 0 when there is none, 1 when there" + "\n"
        + "is any (a file that is not a model, or that the readers refuse, is a problem: exit 1), 2 on a" + "\n"
        + "usage error or when there is no file to read." + "\n"
        + "" + "\n"
        + "  --finite  also report trainable parameters and updater state holding NaN or ±Inf" + "\n"
        + "            ('/tags/default/params/W: 3 NaN, 1 +Inf of 4096 values')" + "\n"
        + "  --json    print {\"model\", \"problems\": [{\"path\", \"message\"}], \"arrays\", \"bytes\"} instead" + "\n"
        + "  --quiet   no progress on stderr" + "\n"
        + "" + "\n"
        + "example:" + "\n"
        + "  modelfs verify --finite checkpoint.sdz && echo sound";
  }

  @Override
  public String usage() {
    return "verify MODEL [--finite] [--json]";
  }

  @Override
  public int run(Args args, PrintStream out, PrintStream err) throws Exception {
    Args.Parsed p = args.parse(Set.of(), Set.of("finite", "json"));
    p.expectPositionals(1);
    Report report;
    try (Verifier v = Verifier.open(PathArgs.path(p.positional().get(0)), new Verifier.Options(p.flag("finite")))) {
      Progress progress = p.progress("verify", v.totalBytes());
      report = v.run(progress::advance);
      progress.done();
    }
    if (p.flag("json")) {
      out.print(Json.write(json(report)));
    } else {
      for (Problem pr : report.problems()) {
        out.println(line(pr));
      }
    }
    return report.ok() ? Main.OK : Main.PROBLEMS;
  }

  /** {@code <path>: <message>} on one line: control characters (a newline in a name) as {@code \\xHH}. */
  static String line(Problem pr) {
    String s = pr.toString();
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == 0x7F) {
        sb.append(String.format(Locale.ROOT, "\\x%02x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  /** The report as one JSON value (docs/CLI.md, "verify"): keys in this order. */
  static Map<String, Object> json(Report r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("model", r.model());
    List<Map<String, Object>> problems = new ArrayList<>();
    for (Problem pr : r.problems()) {
      Map<String, Object> p = new LinkedHashMap<>();
      p.put("path", pr.path());
      p.put("message", pr.message());
      problems.add(p);
    }
    m.put("problems", problems);
    m.put("arrays", r.arrays());
    m.put("bytes", r.bytes());
    return m;
  }
}
