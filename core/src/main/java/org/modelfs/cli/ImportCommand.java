package org.modelfs.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.modelfs.ModelFileSystems;
import org.modelfs.SamediffFileAttributes;
import org.modelfs.exchange.Npy;
import org.modelfs.exchange.Safetensors;
import org.modelfs.model.DType;
import org.modelfs.model.Shapes;
import org.modelfs.tree.NameMapping;

/**
 * {@code import IN.npy MODEL[#TAG]:PATH} (creates or replaces one array) and {@code import
 * IN.safetensors MODEL[#TAG]} (replaces the tag's parameters of the same names): checked
 * completely before anything is written, then streamed through the file system and committed
 * once (docs/CLI.md, "export and import").
 */
final class ImportCommand implements Command {
  private static final Set<StandardOpenOption> WRITE = Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE,
      StandardOpenOption.TRUNCATE_EXISTING);

  @Override
  public String summary() {
    return "Import a NumPy .npy array, or a .safetensors file's tensors, into a model (one commit).";
  }

  @Override
  public String usage() {
    return "import IN.npy MODEL[#TAG]:PATH [--raw-bfloat16] [--change-dtype] [--change-shape] | import IN.safetensors MODEL[#TAG]"
        + " [--allow-new] [--with-updater] [--change-dtype] [--change-shape] [--quiet]";
  }

  @Override
  public String help() {
    return "IN.npy creates or replaces the array at PATH (params/NAME, updater/NAME/KEY, or just NAME) with the" + "\n"
        + "shape and order of its header (big-endian files are converted; --raw-bfloat16 reads '<u2' as" + "\n"
        + "BFLOAT16 bit patterns). IN.safetensors replaces the tag's parameters of the same names (newest tag" + "\n"
        + "without #TAG), keeping each parameter's order; any dtype or shape mismatch refuses the whole import," + "\n"
        + "listed. Either way an array's dtype changes only with --change-dtype, and not while the parameter's" + "\n"
        + "updater state stays in its old dtype; its shape only with --change-shape (the graph's ops must take" + "\n"
        + "it), and not while its updater state keeps the old shape;" + "\n"
        + "listed; parameters the file lacks are left alone; names the model lacks are refused unless --allow-new" + "\n"
        + "(then added). --with-updater also reads updater/NAME/KEY tensors as updater state. A file that starts" + "\n"
        + "as .npy files do, or is named .npy, is read as .npy; any other as safetensors. Everything is one commit;" + "\n"
        + "a refusal writes nothing. --quiet: no progress." + "\n"
        + "" + "\n"
        + "examples:" + "\n"
        + "  modelfs import w.npy model.fb:layer0/W" + "\n"
        + "  modelfs import weights.safetensors model.sdz#v2 --allow-new";
  }

  @Override
  public int run(Args args, PrintStream out, PrintStream err) throws Exception {
    Args.Parsed p = args.parse(Set.of(), Set.of("raw-bfloat16", "allow-new", "with-updater", "change-dtype", "change-shape"));
    p.expectPositionals(2);
    Path in = PathArgs.path(p.positional().get(0));
    Exchange.Ref ref = Exchange.Ref.parse(p.positional().get(1));
    try (FileChannel ch = FileChannel.open(in)) {
      if (isNpy(ch) || Exchange.byName(in.toString()) == Exchange.Format.NPY) {
        if (p.flag("allow-new") || p.flag("with-updater")) {
          throw new Args.UsageException("--allow-new and --with-updater apply to .safetensors");
        }
        if (ref.path() == null) {
          throw new Args.UsageException("a .npy file holds one array: give MODEL[#TAG]:PATH, e.g. " + ref.model() + ":layer0/W");
        }
        npy(in, ch, ref, p.flag("raw-bfloat16"), p);
      } else {
        if (p.flag("raw-bfloat16")) {
          throw new Args.UsageException("--raw-bfloat16 applies to .npy (safetensors has BF16)");
        }
        if (ref.path() != null) {
          throw new Args.UsageException("a .safetensors file fills a tag: give MODEL or MODEL#TAG without :PATH");
        }
        safetensors(in, ch, ref, p.flag("allow-new"), p.flag("with-updater"), p.flag("change-dtype"), p);
      }
    }
    return Main.OK;
  }

  /** Whether the file starts with NumPy's magic (anything else not named .npy is read as safetensors). */
  private static boolean isNpy(FileChannel ch) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(6);
    while (b.hasRemaining() && ch.read(b, b.position()) > 0) {
      // short reads
    }
    return b.position() == 6 && b.get(0) == (byte) 0x93 && new String(b.array(), 1, 5, StandardCharsets.US_ASCII).equals("NUMPY");
  }

  private static void npy(Path inPath, FileChannel in, Exchange.Ref ref, boolean rawBfloat16, Args.Parsed p)
      throws Exception {
    Npy.Header h = Npy.readHeader(in, inPath.toString(), rawBfloat16);
    Progress progress = p.progress("import", h.dataLength());
    CpCommand.edit(p.progress("commit", 0), ref.model(), fs -> {
      Path file = ref.file(fs);
      String what = ref.label() + ":" + file;
      checkArrayPath(fs, file, what);
      if (Files.isDirectory(file)) {
        throw new FileSystemException(what, null, "is a directory");
      }
      if (Files.exists(file)) {
        SamediffFileAttributes a = Files.readAttributes(file, SamediffFileAttributes.class);
        if (a.size() == 0 && h.dataLength() == 0 && h.dtype().nd4jName().equals(a.dtype())) {
          return; // no elements onto no elements: nothing changes (keeps an ND4J empty array's shape [])
        }
        if (!h.dtype().nd4jName().equals(a.dtype())) {
          List<String> problems = new ArrayList<>();
          Path tag = ref.tagDir(fs);
          for (Map.Entry<String, Exchange.Array> e : Exchange.arrays(tag, TagArrays.PARAMS).entrySet()) {
            if (Files.isSameFile(e.getValue().path(), file)) {
              dtypeChange(e.getKey(), e.getValue(), h.dtype(), p.flag("change-dtype"),
                  Exchange.arrays(tag, TagArrays.UPDATER), Map.of(), problems);
            }
          }
          if (problems.isEmpty() && !p.flag("change-dtype")) {
            problems.add(DType.fromName(a.dtype()) + " in the model, " + h.dtype() + " in the file: a dtype changes"
                + " only when asked (--change-dtype)");
          }
          if (!problems.isEmpty()) {
            throw new FileSystemException(inPath.toString(), null, "does not fit " + what + "; nothing was imported: "
                + String.join("; ", problems));
          }
        }
        if (!Arrays.equals(a.shape(), h.shape()) && !p.flag("change-shape")) {
          throw new FileSystemException(inPath.toString(), null, "does not fit " + what + "; nothing was imported: "
              + shapeChange(a.shape(), h.shape()));
        }
      }
      List<FileAttribute<?>> attrs = new ArrayList<>(List.of(
          ModelFileSystems.attribute("dtype", h.dtype().nd4jName()),
          ModelFileSystems.attribute("shape", h.shape())));
      if (!Npy.orderFree(h.shape())) {
        // where c and f lay the array out alike, NumPy always says False: the array keeps its order
        attrs.add(ModelFileSystems.attribute("order", String.valueOf(h.order())));
      }
      try (SeekableByteChannel out = Files.newByteChannel(file, WRITE, attrs.toArray(FileAttribute<?>[]::new))) {
        Npy.copyData(in, h, out, progress::advance);
      }
      progress.done(); // before the commit reports its own progress
    });
  }

  /** Refuses a path outside {@code params/} and {@code updater/} (metadata, graph.json, …). */
  private static void checkArrayPath(FileSystem fs, Path file, String what) throws IOException {
    Path abs = file.toAbsolutePath().normalize();
    int area = abs.getNameCount() > 0 && abs.getName(0).toString().equals("tags") ? 2 : 0;
    String first = abs.getNameCount() > area + 1 ? abs.getName(area).toString() : "";
    if (!first.equals(TagArrays.PARAMS) && !first.equals(TagArrays.UPDATER)) {
      throw new FileSystemException(what, null, "is not an array file; arrays live in params/ and updater/");
    }
  }

  private static void safetensors(Path inPath, FileChannel in, Exchange.Ref ref, boolean allowNew, boolean withUpdater,
      boolean changeDtype, Args.Parsed p) throws Exception {
    String file = inPath.toString();
    Safetensors.Header h = Safetensors.read(in, file);
    long total = h.tensors().stream().mapToLong(Safetensors.Tensor::length).sum();
    Progress progress = p.progress("import", total);
    CpCommand.edit(p.progress("commit", 0), ref.model(), fs -> {
      Path tag = ref.tagDir(fs);
      Map<String, Exchange.Array> params = Exchange.arrays(tag, TagArrays.PARAMS);
      Map<String, Exchange.Array> updater = withUpdater ? Exchange.arrays(tag, TagArrays.UPDATER) : Map.of();
      List<String> problems = new ArrayList<>();
      Map<Safetensors.Tensor, Exchange.Array> matched = new LinkedHashMap<>();
      List<Safetensors.Tensor> added = new ArrayList<>();
      Map<String, DType> importedStates = new HashMap<>();
      for (Safetensors.Tensor t : h.tensors()) {
        if (withUpdater && t.name().startsWith(TagArrays.UPDATER + "/")) {
          importedStates.put(t.name(), t.dtype());
        }
      }
      Map<String, Exchange.Array> allState = withUpdater ? updater : Exchange.arrays(tag, TagArrays.UPDATER);
      for (Safetensors.Tensor t : h.tensors()) {
        boolean state = withUpdater && t.name().startsWith(TagArrays.UPDATER + "/");
        Exchange.Array a = state ? updater.get(t.name()) : params.get(t.name());
        String got = Safetensors.dtypeName(t.dtype()) + " " + Arrays.toString(t.shape());
        if (a == null) {
          if (!withUpdater && t.name().startsWith(TagArrays.UPDATER + "/")) {
            problems.add(t.name() + ": " + got + " looks like updater state (export --with-updater names it so);"
                + " give --with-updater to import it as such");
          } else if (state && newState(t.name()) == null) {
            problems.add(t.name() + ": not updater/PARAM/KEY");
          } else if (!allowNew) {
            problems.add(t.name() + ": " + got + " is not in " + ref.label() + " (--allow-new adds it)");
          } else {
            added.add(t);
          }
        } else if (!sameShape(a, t) && !p.flag("change-shape")) {
          problems.add(t.name() + ": the file has " + got + " (" + t.dtype() + "), the model " + a.describe()
              + " — " + shapeChange(a.attrs().shape(), t.shape()));
        } else if (a.dtype() != t.dtype() && (!changeDtype || state)) {
          if (state && changeDtype) {
            matched.put(t, a); // checked with its parameter below
          } else {
            problems.add(t.name() + ": the file has " + got + " (" + t.dtype() + "), the model " + a.describe()
                + " — a dtype changes only when asked (--change-dtype)");
          }
        } else {
          if (a.dtype() != t.dtype()) {
            dtypeChange(t.name(), a, t.dtype(), true, allState, importedStates, problems);
          }
          matched.put(t, a);
        }
      }
      if (!problems.isEmpty()) {
        throw new FileSystemException(file, null, problems.size() + " tensor(s) do not fit tag "
            + tag.getFileName() + " of " + ref.model() + "; nothing was imported:\n  " + String.join("\n  ", problems));
      }
      Set<String> names = new HashSet<>(params.keySet());
      for (Safetensors.Tensor t : added) {
        names.add(t.name());
      }
      for (Safetensors.Tensor t : h.tensors()) {
        Exchange.Array a = matched.get(t);
        if (a != null) {
          if (t.length() == 0 && a.size() == 0) {
            continue; // nothing to write; keeps an ND4J empty array's shape []
          }
          try (SeekableByteChannel out = a.dtype() == t.dtype() && sameShape(a, t) ? Files.newByteChannel(a.path(), WRITE)
              : Files.newByteChannel(a.path(), WRITE, ModelFileSystems.attribute("dtype", t.dtype().nd4jName()),
                  ModelFileSystems.attribute("shape", sameShape(a, t) ? a.attrs().shape() : t.shape()))) {
            Safetensors.copyData(in, h, t, a.attrs().order().charAt(0), out, progress::advance);
          }
        } else {
          Path path = newPath(tag, t.name(), withUpdater, names);
          try (SeekableByteChannel out = Files.newByteChannel(path, WRITE,
              ModelFileSystems.attribute("dtype", t.dtype().nd4jName()),
              ModelFileSystems.attribute("shape", t.shape()),
              ModelFileSystems.attribute("order", "c"))) {
            Safetensors.copyData(in, h, t, 'c', out, progress::advance);
          }
        }
      }
      progress.done(); // before the commit reports its own progress
    });
  }

  /**
   * A parameter {@code name} ({@code a}) whose dtype would become {@code to}: refused without
   * {@code --change-dtype}; with it, refused while updater state of the parameter stays in another
   * dtype (an optimizer's state is kept in its parameter's dtype; docs/CLI.md "export and import"),
   * unless this import replaces that state in {@code to} ({@code importedStates}: name → dtype).
   */
  private static void dtypeChange(String name, Exchange.Array a, DType to, boolean asked, Map<String, Exchange.Array> updater,
      Map<String, DType> importedStates, List<String> problems) {
    if (!asked) {
      problems.add(name + ": " + a.dtype() + " in the model, " + to + " in the file — a dtype changes only when asked"
          + " (--change-dtype)");
      return;
    }
    String prefix = TagArrays.UPDATER + "/" + name + "/";
    for (Map.Entry<String, Exchange.Array> e : updater.entrySet()) {
      String key = e.getKey();
      if (key.startsWith(prefix) && key.indexOf('/', prefix.length()) < 0 && e.getValue().dtype() != to
          && importedStates.get(key) != to) {
        problems.add(name + ": becomes " + to + ", but its updater state " + key + " is " + e.getValue().dtype()
            + " — replace the state in " + to + " as well (.safetensors: --with-updater; .npy: import it first,"
            + " with --change-dtype) or remove it (modelfs rm MODEL " + key + ")");
      }
    }
  }

  /**
   * The refusal of a shape change not asked for: DL4J loads an array of any shape, and its ops
   * fail at the first run (oracle scripts 33, 48). With {@code --change-shape} the commit still
   * refuses updater state left in the old shape ({@code model.ArrayRules#stateShape}).
   */
  private static String shapeChange(long[] model, long[] file) {
    return "shape " + Arrays.toString(model) + " in the model, " + Arrays.toString(file) + " in the file: a shape changes"
        + " only when asked (--change-shape), and the graph's ops must take the new one";
  }

  /** Same shape, or both without elements where the model's is an ND4J empty array ({@code []}, no bytes). */
  private static boolean sameShape(Exchange.Array a, Safetensors.Tensor t) {
    return Arrays.equals(a.attrs().shape(), t.shape())
        || a.size() == 0 && Shapes.elementCount(t.shape()) == 0 && Arrays.equals(a.exchangeShape(), t.shape());
  }

  /** {@code [param, key]} of an {@code updater/<param>/<key>} name, or {@code null}. */
  private static String[] newState(String name) {
    String rest = name.substring(TagArrays.UPDATER.length() + 1);
    int slash = rest.lastIndexOf('/');
    return slash <= 0 || slash == rest.length() - 1 ? null : new String[] {rest.substring(0, slash), rest.substring(slash + 1)};
  }

  /** The path of a new array named {@code name} in {@code tag}, laid out as the tree lays out its names. */
  private static Path newPath(Path tag, String name, boolean withUpdater, Set<String> paramNames) {
    if (withUpdater && name.startsWith(TagArrays.UPDATER + "/")) {
      String[] pk = newState(name);
      Path p = tag.resolve(TagArrays.UPDATER);
      for (String s : NameMapping.segments(pk[0], paramNames)) {
        p = p.resolve(s);
      }
      return p.resolve(NameMapping.oneSegment(pk[1]));
    }
    Path p = tag.resolve(TagArrays.PARAMS);
    for (String s : NameMapping.segments(name, paramNames)) {
      p = p.resolve(s);
    }
    return p;
  }
}
