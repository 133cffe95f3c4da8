package org.modelfs.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.modelfs.SamediffFileAttributes;
import org.modelfs.model.DType;
import org.modelfs.store.Shown;

/**
 * {@code diff A B [--exit-code]}: the parameter and updater arrays that were added, removed or
 * changed between two models or tags ({@code MODEL} for its newest tag, or {@code MODEL#tag}),
 * with the largest absolute difference of a changed floating-point array, compared in chunks.
 */
final class DiffCommand implements Command {
  @Override
  public String summary() {
    return "Compare two models or tags parameter by parameter.";
  }

  @Override
  public String help() {
    return "One line per parameter that differs (shape, dtype or values, with the largest difference);" + "\n"
        + "--exit-code exits 1 when they differ." + "\n"
        + "" + "\n"
        + "example:" + "\n"
        + "  modelfs diff a.fb b.fb#default";
  }

  @Override
  public String usage() {
    return "diff A B [--exit-code] [--json]   (A, B: MODEL or MODEL#TAG)";
  }

  /** A model file and one of its tags ({@code null}: the newest). */
  record Ref(String model, String tag) {
    /**
     * {@code MODEL#TAG} split by {@link PathArgs#split}: at the last '#' when the whole argument
     * names no model and its left part does; else the whole argument (a model that does not exist
     * is reported by name when it is opened).
     */
    static Ref parse(String arg) throws IOException, Args.UsageException {
      PathArgs.Ref r = PathArgs.split(arg, PathArgs.Form.MODEL_TAG);
      return r == null ? new Ref(arg, null) : new Ref(r.model(), r.tag());
    }

    Path tagDir(FileSystem fs) throws IOException {
      return tag == null ? TagArrays.newest(fs) : TagArrays.tag(fs, model, tag);
    }
  }

  @Override
  public int run(Args args, PrintStream out, PrintStream err) throws Exception {
    Args.Parsed p = args.parse(Set.of(), Set.of("exit-code", "json"));
    p.expectPositionals(2);
    Ref a = Ref.parse(p.positional().get(0));
    Ref b = Ref.parse(p.positional().get(1));
    List<Change> changes = new ArrayList<>();
    int[] counts = new int[4]; // changed, added, removed, identical
    try (FileSystem fa = Listing.mount(a.model());
        FileSystem own = CpCommand.sameModel(a.model(), b.model()) ? null : Listing.mount(b.model())) {
      FileSystem fb = own == null ? fa : own;
      Path ta = a.tagDir(fa);
      Path tb = b.tagDir(fb);
      for (String area : List.of(TagArrays.PARAMS, TagArrays.UPDATER)) {
        compare(ta, tb, area, changes, counts);
      }
    }
    if (p.flag("json")) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("a", Shown.text(p.positional().get(0)));
      doc.put("b", Shown.text(p.positional().get(1)));
      List<Object> json = new ArrayList<>();
      changes.forEach(c -> json.add(c.json()));
      doc.put("changes", json);
      Map<String, Object> c = new LinkedHashMap<>();
      c.put("changed", (long) counts[0]);
      c.put("added", (long) counts[1]);
      c.put("removed", (long) counts[2]);
      c.put("identical", (long) counts[3]);
      doc.put("counts", c);
      out.print(Json.write(doc));
    } else {
      for (Change ch : changes) {
        out.println(ch.line());
      }
      out.printf(Locale.ROOT, "%d changed, %d added, %d removed, %d identical%n", counts[0], counts[1], counts[2], counts[3]);
    }
    boolean different = counts[0] + counts[1] + counts[2] > 0;
    return p.flag("exit-code") && different ? Main.PROBLEMS : Main.OK;
  }

  /** One change: its {@code --json} fields and its line of text. */
  private record Change(Map<String, Object> json, String line) {}

  /** One change of {@code kind} at {@code path}. */
  private static Change change(String kind, String path, SamediffFileAttributes aa,
      SamediffFileAttributes ab, String line) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("change", kind);
    m.put("path", path);
    m.put("a", aa == null ? null : attrs(aa));
    m.put("b", ab == null ? null : attrs(ab));
    return new Change(m, line);
  }

  private static Map<String, Object> attrs(SamediffFileAttributes a) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("dtype", a.dtype());
    m.put("shape", Json.longs(a.shape()));
    m.put("order", String.valueOf(a.order()));
    m.put("size", a.size());
    return m;
  }

  /** Adds one change per array of {@code area} added to, removed from or changed between the two tags. */
  private static void compare(Path ta, Path tb, String area, List<Change> changes, int[] counts)
      throws IOException {
    Set<String> matched = new HashSet<>();
    for (String rel : TagArrays.arrays(ta, area)) {
      Path pa = ta.resolve(rel);
      Path pb = TagArrays.find(tb, rel);
      SamediffFileAttributes aa = TagArrays.attributes(pa);
      if (pb == null) {
        changes.add(change("removed", rel, aa, null, "- " + rel + "  " + TagArrays.describe(aa)));
        counts[2]++;
        continue;
      }
      matched.add(TagArrays.canonical(tb, pb));
      SamediffFileAttributes ab = TagArrays.attributes(pb);
      Map<String, Object> extra = new LinkedHashMap<>();
      String change = change(pa, aa, pb, ab, extra);
      if (change == null) {
        counts[3]++;
      } else {
        Change c = change("changed", rel, aa, ab, "~ " + rel + "  " + change);
        c.json().putAll(extra);
        changes.add(c);
        counts[0]++;
      }
    }
    for (String rel : TagArrays.arrays(tb, area)) {
      if (!matched.contains(rel)) {
        SamediffFileAttributes ab = TagArrays.attributes(tb.resolve(rel));
        changes.add(change("added", rel, null, ab, "+ " + rel + "  " + TagArrays.describe(ab)));
        counts[1]++;
      }
    }
  }

  /**
   * How array {@code pa} became {@code pb}, or {@code null} when they are the same; the numbers
   * go into {@code extra} too ({@code maxAbsDifference}, {@code differingElements},
   * {@code nanMismatches}).
   */
  private static String change(Path pa, SamediffFileAttributes aa, Path pb, SamediffFileAttributes ab,
      Map<String, Object> extra) throws IOException {
    String da = TagArrays.describe(aa);
    String db = TagArrays.describe(ab);
    if (!da.equals(db)) {
      return da + " -> " + db;
    }
    if (!Objects.equals(aa.order(), ab.order())) {
      return da + " order " + aa.order() + " -> " + ab.order();
    }
    if (Objects.equals(Files.readAttributes(pa, BasicFileAttributes.class).fileKey(),
        Files.readAttributes(pb, BasicFileAttributes.class).fileKey())) {
      return null; // one stored array
    }
    DType t = DType.fromName(aa.dtype());
    ArrayDiff d = ArrayDiff.of(pa, pb, t);
    if (d.identical()) {
      return null;
    }
    if (t.width() == 0) {
      return da + "  content differs";
    }
    long n = aa.size() / t.width();
    extra.put("differingElements", d.differing());
    if (!t.isFloatingPoint()) {
      return da + "  " + d.differing() + " of " + n + " elements differ";
    }
    extra.put("maxAbsDifference", d.maxAbs());
    extra.put("nanMismatches", d.nanMismatches());
    String s = da + "  max|Δ| " + number(d.maxAbs());
    return d.nanMismatches() == 0 ? s : s + "  (" + d.nanMismatches() + " NaN on one side only)";
  }

  /** {@code x} with six significant digits and no trailing zeros: {@code 0.0123}, {@code 1.5e-07}. */
  static String number(double x) {
    if (x == 0 || Double.isInfinite(x) || Double.isNaN(x)) {
      return x == 0 ? "0" : Double.toString(x);
    }
    String s = String.format(Locale.ROOT, "%.6g", x);
    int e = s.indexOf('e');
    String mant = e < 0 ? s : s.substring(0, e);
    if (mant.indexOf('.') >= 0) {
      mant = mant.replaceAll("0+$", "").replaceAll("\\.$", "");
    }
    return e < 0 ? mant : mant + s.substring(e);
  }
}
