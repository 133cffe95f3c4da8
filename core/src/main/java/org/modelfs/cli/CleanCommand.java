package org.modelfs.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.modelfs.store.Backings;
import org.modelfs.store.Shown;

/**
 * {@code clean MODEL}: removes what crashed or failed commits of the model left behind, through its
 * {@link org.modelfs.store.Backing#clean} (a directory: the crash recovery every writer runs; an
 * object store: generation objects no commit can still need), and prints what it removed.
 */
final class CleanCommand implements Command {
  @Override
  public String summary() {
    return "Remove what crashed or failed commits of a model left behind; print what was removed.";
  }

  @Override
  public String help() {
    return "One line per removed item on stdout: beside a local model the name of a leftover file or journal" + "\n"
        + "directory (a commit that had passed its point of no return is finished), in an object store the" + "\n"
        + "key of a deleted object. Nothing is printed when there was nothing to remove. Refused (exit 2)" + "\n"
        + "while a writer is changing the model. --json: {\"model\", \"removed\": [...]}." + "\n"
        + "" + "\n"
        + "example:" + "\n"
        + "  modelfs clean model.sdnb" + "\n"
        + "  modelfs clean s3://bucket/checkpoints/model.sdnb";
  }

  @Override
  public String usage() {
    return "clean MODEL [--json]";
  }

  @Override
  public int run(Args args, PrintStream out, PrintStream err) throws Exception {
    Args.Parsed p = args.parse(Set.of(), Set.of("json"));
    p.expectPositionals(1);
    String model = p.positional().get(0);
    List<String> removed = Backings.of(PathArgs.path(model)).clean();
    if (p.flag("json")) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("model", Shown.text(model));
      doc.put("removed", new ArrayList<Object>(removed));
      out.print(Json.write(doc));
    } else {
      removed.forEach(out::println);
    }
    return Main.OK;
  }
}
