package org.modelfs.architecture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * docs/ARCHITECTURE.md's two tables as data, so that the ArchUnit rules are read from the page
 * and page and rules cannot drift apart: "Layers" (each row's packages and the packages it never
 * depends on) and "Modules" (the core packages and classes each module uses).
 *
 * <p>A layer's "never depends on" cell is {@code —}, "any other package of ours", "everything
 * else" or "everything but" a list of packages, or a list of {@code `package`} and {@code `package` and above} (that row and every row
 * above it; "codecs" names the row of the codec packages). A module's "depends on" cell names what
 * it uses of the core in backticks: packages ({@code `model`}), classes ({@code `store.ModelFiles`},
 * siblings as {@code `format.fb.FbFormat`/`GraphWriter`}) or "its public API" (the package
 * {@code org.modelfs}).
 */
public final class ArchitecturePage {
  /** The packages' prefix. */
  public static final String ROOT = "org.modelfs";
  private static final Pattern CODE = Pattern.compile("`([^`]+)`");

  /** One row of "Layers": its packages (relative to {@link #ROOT}; {@code ""} is the root). */
  public record Layer(List<String> packages, String never) {}

  private final List<Layer> layers = new ArrayList<>();
  private final Map<String, String> modules = new LinkedHashMap<>();

  private ArchitecturePage(String text) {
    for (String[] row : table(text, "## Layers")) {
      List<String> pkgs = new ArrayList<>();
      for (String p : codes(row[0])) {
        pkgs.add(p.equals(ROOT) ? "" : p);
      }
      layers.add(new Layer(pkgs, row[2].trim()));
    }
    for (String[] row : table(text, "## Modules")) {
      modules.put(codes(row[0]).get(0).replace("/", ""), row[3]);
    }
  }

  /** The page, found from the working directory (a module's, or the repository's root) upwards. */
  public static ArchitecturePage read() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.isRegularFile(dir.resolve("docs/ARCHITECTURE.md"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("docs/ARCHITECTURE.md not found above " + Path.of("").toAbsolutePath());
    }
    try {
      return new ArchitecturePage(Files.readString(dir.resolve("docs/ARCHITECTURE.md")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public List<Layer> layers() {
    return layers;
  }

  /** Every package the layer table names. */
  public List<String> packages() {
    List<String> all = new ArrayList<>();
    layers.forEach(l -> all.addAll(l.packages()));
    return all;
  }

  /** The ArchUnit package identifier of a package of the table: with its subpackages unless another row holds one. */
  public String identifier(String pkg) {
    if (pkg.isEmpty()) {
      return ROOT;
    }
    for (String p : packages()) {
      if (p.startsWith(pkg + ".")) {
        return ROOT + "." + pkg;
      }
    }
    return ROOT + "." + pkg + "..";
  }

  /** The packages row {@code i} never depends on, as the page's cell says. */
  public List<String> never(int i) {
    String cell = layers.get(i).never();
    List<String> out = new ArrayList<>();
    if (cell.equals("—") || cell.equals("-")) {
      return out;
    }
    if (cell.equals("any other package of ours") || cell.equals("everything else") || cell.startsWith("everything but ")) {
      out.addAll(packages());
      out.removeAll(layers.get(i).packages());
      if (cell.startsWith("everything but ")) {
        out.removeAll(codes(cell)); // "everything but `model`": what it may use, named
      }
      return out;
    }
    for (String item : cell.split(",\\s*")) {
      List<String> named = codes(item);
      String name = named.isEmpty() ? item.replace(" and above", "").trim() : named.get(0);
      int row = row(name.equals("codecs") ? "format.fb" : name);
      if (item.trim().endsWith("and above")) {
        for (int r = 0; r <= row; r++) {
          out.addAll(layers.get(r).packages());
        }
      } else {
        out.add(name);
      }
    }
    return out;
  }

  private int row(String pkg) {
    for (int r = 0; r < layers.size(); r++) {
      if (layers.get(r).packages().contains(pkg)) {
        return r;
      }
    }
    throw new IllegalArgumentException("docs/ARCHITECTURE.md: \"" + pkg + "\" is no package of the layer table");
  }

  /** The "depends on" cell of the module in directory {@code module}. */
  public String moduleDependencies(String module) {
    String cell = modules.get(module);
    if (cell == null) {
      throw new IllegalArgumentException("docs/ARCHITECTURE.md: no row for the module " + module + "/");
    }
    return cell;
  }

  /**
   * The core classes and packages a module's row names inside its "core (…)" (fully qualified);
   * the root package for "its public API".
   */
  public List<String> coreNamedBy(String module) {
    String cell = moduleDependencies(module);
    int open = cell.indexOf("core (");
    if (open < 0) {
      throw new IllegalArgumentException("docs/ARCHITECTURE.md: the module " + module
          + "/ does not say what it uses of the core, as \"core (`package`, `package.Class`, …)\"");
    }
    int depth = 0;
    int end = open + "core ".length();
    for (; end < cell.length(); end++) {
      depth += cell.charAt(end) == '(' ? 1 : cell.charAt(end) == ')' ? -1 : 0;
      if (depth == 0) {
        break;
      }
    }
    String core = cell.substring(open, end);
    List<String> out = new ArrayList<>();
    if (core.contains("its public API")) {
      out.add(ROOT);
    }
    for (String code : codes(core.replace("`/`", "/"))) {
      String[] parts = code.split("/");
      String first = ROOT + "." + parts[0];
      out.add(first);
      String pkg = first.substring(0, first.lastIndexOf('.'));
      for (int k = 1; k < parts.length; k++) {
        out.add(pkg + "." + parts[k]);
      }
    }
    return out;
  }

  private static List<String> codes(String cell) {
    List<String> out = new ArrayList<>();
    Matcher m = CODE.matcher(cell);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  /** The rows of the first table after {@code heading} (cells split on {@code |}, header and rule skipped). */
  private static List<String[]> table(String text, String heading) {
    int at = text.indexOf("\n" + heading);
    if (at < 0) {
      throw new IllegalStateException("docs/ARCHITECTURE.md has no section " + heading);
    }
    List<String[]> rows = new ArrayList<>();
    boolean in = false;
    for (String line : text.substring(at + 1).split("\n")) {
      if (line.startsWith("|")) {
        in = true;
        String[] cells = line.substring(1, line.length() - (line.endsWith("|") ? 1 : 0)).split("\\|", -1);
        if (!cells[0].trim().startsWith("---") && !cells[0].trim().equals("package") && !cells[0].trim().equals("module")) {
          rows.add(cells);
        }
      } else if (in) {
        break;
      }
    }
    return rows;
  }
}
