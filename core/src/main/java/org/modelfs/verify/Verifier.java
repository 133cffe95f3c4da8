package org.modelfs.verify;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongConsumer;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.fb.Dl4jGraphRules;
import org.modelfs.format.sdz.SdzFormat;
import org.modelfs.io.ByteSource;
import org.modelfs.io.ChannelSource;
import org.modelfs.model.ArrayData;
import org.modelfs.model.ArrayRules;
import org.modelfs.model.DType;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.VarKind;
import org.modelfs.model.Variable;
import org.modelfs.store.ModelFiles;
import org.modelfs.model.Where;
import org.modelfs.tree.TreePath;
import org.modelfs.tree.TreePath.Area;

/**
 * {@code modelfs verify}: checks a model completely, streaming, and reports every problem as a
 * {@link Problem} (docs/CLI.md, "verify"):
 *
 * <ol>
 *   <li>opening it: the readers bounds-check every structure (docs/FORMATS.md §11); a model they
 *       refuse is one problem (for a shard set, one per missing or misnumbered shard);
 *   <li>zip models (SDZ, zip-tags): every entry's CRC-32 over its (inflated) bytes against the
 *       central directory and the local header;
 *   <li>every array read to its end, exactly {@code prod(shape) × width} bytes; UTF8 offsets that
 *       start at 0, never decrease and stay inside the data (docs/FORMATS.md §3.8);
 *   <li>every VARIABLE and CONSTANT holds an array (in a shard set: some weight shard holds it);
 *   <li>updater state: one per parameter, of a parameter the graph has, each array of its
 *       parameter's shape;
 *   <li>what DL4J makes of each tag ({@link Dl4jGraphRules}, the rules every commit holds a model
 *       to): every op input ({@code FlatNode.inputPaired}) the id of a variable, op names
 *       unique, no variable named like an op it is not an output of, one producing op per
 *       variable, no cycle of ops through no merge, declarations that are the arrays', updater
 *       state that training.json's updater keeps;
 *   <li>with {@link Options#finite}: NaN and ±Inf in trainable parameters (VARIABLE) and updater
 *       state of a floating-point type.
 * </ol>
 *
 * Arrays are read through one 1 MiB buffer and zip entries through another, so the heap needed
 * does not grow with the model. {@link #open} reads the index (so {@link #totalBytes} is known
 * for progress); {@link #run} reads the bytes.
 */
public final class Verifier implements Closeable {
  /**
   * What to check beyond the structure.
   *
   * @param finite count NaN and ±Inf in parameters and updater state
   */
  public record Options(boolean finite) {
    /** The default checks (no finiteness). */
    public static Options defaults() {
      return new Options(false);
    }
  }

  /** The bytes, type and shape of one stored array: arrays several tags share are read once. */
  private record ArrayKey(ByteSource source, long offset, long length, boolean bigEndian, DType dtype, String shape) {
    static ArrayKey of(ArrayData a) {
      return new ArrayKey(a.source(), a.offset(), a.length(), a.bigEndian(), a.dtype(), Arrays.toString(a.shape()));
    }
  }

  private final Path path;
  private final Options options;
  private final Model model;
  private final ZipCheck zip;
  /** Problems found on opening: the zip directory's ({@link #zipCount} of them) first, then the readers'. */
  private final List<Problem> opening;
  private final int zipCount;
  private final long total;

  private Verifier(Path path, Options options, Model model, ZipCheck zip, List<Problem> opening, int zipCount,
      long total) {
    this.path = path;
    this.options = options;
    this.model = model;
    this.zip = zip;
    this.opening = opening;
    this.zipCount = zipCount;
    this.total = total;
  }

  /** Checks the model at {@code path} completely (see {@link #open} and {@link #run}). */
  public static Report verify(Path path, Options options) throws IOException {
    try (Verifier v = open(path, options)) {
      return v.run(n -> {});
    }
  }

  /**
   * Opens the model at {@code path} (a file, a shard set's base name or one of its shards) the
   * way every reader does (never two generations of a shard set) and reads its index and, for a
   * zip, its central directory. A model the readers refuse is not an exception but the first
   * problem of the report.
   *
   * @throws java.nio.file.NoSuchFileException if there is no such file nor shards of that base
   * @throws IOException if the path is a directory or the file cannot be read at all
   */
  public static Verifier open(Path path, Options options) throws IOException {
    if (Files.isDirectory(path)) {
      throw new FileSystemException(path.toString(), null, "is a directory, not a model file");
    }
    List<Problem> problems = new ArrayList<>();
    Model model = null;
    try {
      model = ModelFiles.open(path);
    } catch (ModelFormatException e) {
      List<Problem> shards = ShardCheck.names(path);
      problems.addAll(shards.isEmpty() ? List.of(Problem.of(e)) : shards);
    } catch (EOFException e) {
      problems.add(Problem.of(fileName(path), e));
    }
    ZipCheck zip = null;
    int zipCount = 0;
    try {
      if (Files.isRegularFile(path) && isZip(path)) {
        List<Problem> central = new ArrayList<>();
        zip = ZipCheck.open(path, central);
        problems.addAll(0, central);
        zipCount = central.size();
      }
      long total = zip == null ? 0 : zip.total();
      if (model != null) {
        Set<ArrayKey> seen = new HashSet<>();
        for (Tag t : model.tags()) {
          for (ArrayData a : arrays(t)) {
            if (seen.add(ArrayKey.of(a))) {
              total += a.length();
            }
          }
        }
      }
      return new Verifier(path, options, model, zip, problems, zipCount, total);
    } catch (IOException | RuntimeException e) {
      if (zip != null) {
        zip.close();
      }
      if (model != null) {
        model.close();
      }
      throw e;
    }
  }

  private static String fileName(Path path) {
    Path n = path.getFileName();
    return n == null ? path.toString() : n.toString();
  }

  private static boolean isZip(Path path) throws IOException {
    try (ChannelSource src = ChannelSource.open(path)) {
      return SdzFormat.sniff(src);
    }
  }

  /** Every stored array of a tag: parameters, then updater state. */
  private static List<ArrayData> arrays(Tag t) {
    List<ArrayData> out = new ArrayList<>();
    for (Variable v : t.variables()) {
      if (v.array() != null) {
        out.add(v.array());
      }
    }
    for (UpdaterState u : t.updater()) {
      out.addAll(u.arrays().values());
    }
    return out;
  }

  /** The bytes {@link #run} reads: every distinct array, and every zip entry for its CRC. */
  public long totalBytes() {
    return total;
  }

  /** The model's format, or {@code null} when it could not be opened. */
  public ModelFormat format() {
    return model == null ? null : model.format();
  }

  /** Reads everything and reports; {@code progress} hears of the bytes read as they are. */
  public Report run(LongConsumer progress) throws IOException {
    Run r = new Run(progress);
    List<Problem> first = new ArrayList<>(opening);
    if (zip != null) {
      // the zip's own problems (directory, then CRCs) before what the readers made of its entries
      List<Problem> crc = new ArrayList<>();
      zip.run(crc, progress);
      first.addAll(zipCount, crc);
    }
    r.problems.addAll(first);
    if (model != null) {
      for (Tag t : model.tags()) {
        r.tag(t);
      }
    }
    return new Report(path.toString(), new ArrayList<>(r.problems), r.outcomes.size(), r.bytes);
  }

  /** One pass over the model's arrays. */
  private final class Run {
    final Set<Problem> problems = new LinkedHashSet<>();
    final Map<ArrayKey, ArrayCheck.Outcome> outcomes = new HashMap<>();
    final ArrayCheck reader = new ArrayCheck();
    final LongConsumer progress;
    long bytes;

    Run(LongConsumer progress) {
      this.progress = progress;
    }

    void tag(Tag t) {
      for (Variable v : t.variables()) {
        String p = TreePath.of(t, Area.PARAM, v.name());
        if (v.kind().holdsArray() && v.array() == null) {
          problems.add(new Problem(p, v.kind() + " has no array" + (model.format().sharded()
              ? ": no weight shard holds it" : ": the file stores no bytes for it")));
        } else if (v.array() != null) {
          array(p, v.array(), v.kind() == VarKind.VARIABLE);
        }
      }
      Set<String> seen = new HashSet<>();
      for (UpdaterState u : t.updater()) {
        String p = TreePath.of(t, Area.UPDATER, u.paramName());
        if (!seen.add(u.paramName())) {
          problems.add(new Problem(p, "the file holds a second updater state for this parameter"));
        }
        Variable param = t.variable(u.paramName());
        if (param == null) {
          problems.add(new Problem(p, ArrayRules.NO_PARAMETER));
        }
        for (Map.Entry<String, ArrayData> e : u.arrays().entrySet()) {
          String sp = TreePath.stateFile(p, e.getKey());
          String shape = param == null || param.array() == null ? null : ArrayRules.stateShape(e.getValue(), param.array());
          if (shape != null) {
            problems.add(new Problem(sp, shape + " (" + TreePath.inTag(Area.PARAM, u.paramName(), t.vars()::containsName) + ")"));
          }
          array(sp, e.getValue(), true);
        }
      }
      String file = t.graph() == null ? model.format().token() : t.graph().source().name();
      try {
        for (Dl4jGraphRules.Problem pr : Dl4jGraphRules.problems(t, model.format().loadedByDl4j(), file)) {
          problems.add(new Problem(TreePath.of(t, pr.where()), pr.reason()));
        }
      } catch (ModelFormatException e) {
        problems.add(new Problem(TreePath.of(t, Where.graph()), e.getMessage()));
      }
    }

    /** Checks one array at tree path {@code p}; {@code trainable}: its finiteness matters. */
    void array(String p, ArrayData a, boolean trainable) {
      String count = ArrayRules.byteCount(a);
      if (count != null) {
        problems.add(new Problem(p, count));
      }
      ArrayKey key = ArrayKey.of(a);
      ArrayCheck.Outcome o = outcomes.get(key);
      if (o == null) {
        o = reader.read(a, count == null, options.finite(), progress);
        outcomes.put(key, o);
        bytes += o.read();
      }
      if (o.unreadable() != null) {
        problems.add(new Problem(p, o.unreadable()));
      }
      if (o.content() != null) {
        problems.add(new Problem(p, o.content()));
      }
      if (options.finite() && trainable && o.nonFinite() != null) {
        problems.add(new Problem(p, o.nonFinite()));
      }
    }
  }

  @Override
  public void close() throws IOException {
    try {
      if (zip != null) {
        zip.close();
      }
    } finally {
      if (model != null) {
        model.close();
      }
    }
  }
}
