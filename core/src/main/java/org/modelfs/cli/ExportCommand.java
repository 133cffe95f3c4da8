package org.modelfs.cli;

import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.modelfs.SamediffFileAttributes;
import org.modelfs.exchange.Npy;
import org.modelfs.exchange.Safetensors;
import org.modelfs.model.DType;

/**
 * {@code export MODEL[#TAG]:PATH OUT.npy} (one array) and {@code export MODEL[#TAG]
 * OUT.safetensors} (a tag's parameters): streamed from the read-only mounted model into a new
 * file that replaces OUT only when complete (docs/CLI.md, "export and import").
 */
final class ExportCommand implements Command {
  @Override
  public String summary() {
    return "Export an array to NumPy .npy, or a tag's parameters to .safetensors.";
  }

  @Override
  public String usage() {
    return "export MODEL[#TAG]:PATH OUT.npy [--raw-bfloat16] | export MODEL[#TAG] OUT.safetensors [--with-updater] [--quiet]";
  }

  @Override
  public String help() {
    return "OUT.npy gets one array (a parameter, or updater state: PATH params/NAME, updater/NAME/KEY, or just NAME)," + "\n"
        + "in its stored order (fortran_order True for f), little-endian. BFLOAT16 has no NumPy dtype:" + "\n"
        + "--raw-bfloat16 writes its bit patterns as uint16 ('<u2'). UTF8 arrays are refused." + "\n"
        + "OUT.safetensors gets every parameter of the tag (the newest without #TAG) under its variable name," + "\n"
        + "row-major (f-ordered arrays are transposed while streaming), and the tag's metadata as __metadata__;" + "\n"
        + "--with-updater adds the updater state as updater/NAME/KEY. Arrays safetensors cannot hold (UTF8) are" + "\n"
        + "skipped with a warning. Progress goes to stderr unless --quiet. OUT is replaced only when complete." + "\n"
        + "" + "\n"
        + "examples:" + "\n"
        + "  modelfs export model.fb:layer0/W w.npy" + "\n"
        + "  modelfs export model.sdz#v2 weights.safetensors --with-updater";
  }

  @Override
  public int run(Args args, PrintStream out, PrintStream err) throws Exception {
    Args.Parsed p = args.parse(Set.of(), Set.of("raw-bfloat16", "with-updater"));
    p.expectPositionals(2);
    String target = p.positional().get(1);
    Exchange.Format format = Exchange.byName(target);
    if (format == null) {
      throw new Args.UsageException("OUT must end in .npy (one array) or .safetensors (a tag): " + target);
    }
    Exchange.Ref ref = Exchange.Ref.parse(p.positional().get(0));
    if (format == Exchange.Format.NPY) {
      if (p.flag("with-updater")) {
        throw new Args.UsageException("--with-updater applies to .safetensors");
      }
      if (ref.path() == null) {
        throw new Args.UsageException("a .npy file holds one array: give MODEL[#TAG]:PATH, e.g. " + ref.model() + ":layer0/W");
      }
      npy(ref, PathArgs.path(target), p.flag("raw-bfloat16"), p);
    } else {
      if (p.flag("raw-bfloat16")) {
        throw new Args.UsageException("--raw-bfloat16 applies to .npy (safetensors has BF16)");
      }
      if (ref.path() != null) {
        throw new Args.UsageException("a .safetensors file holds a whole tag: give MODEL or MODEL#TAG without :PATH");
      }
      safetensors(ref, PathArgs.path(target), p.flag("with-updater"), p, err);
    }
    return Main.OK;
  }

  private static void npy(Exchange.Ref ref, Path target, boolean rawBfloat16, Args.Parsed p)
      throws Exception {
    try (FileSystem fs = Listing.mount(ref.model())) {
      Path file = ref.file(fs);
      String what = ref.label() + ":" + file;
      if (!Files.exists(file)) {
        throw new NoSuchFileException(what, null, "no such array");
      }
      if (Files.isDirectory(file)) {
        throw new FileSystemException(what, null, "is a directory; export one array, or the tag to .safetensors");
      }
      SamediffFileAttributes a = Files.readAttributes(file, SamediffFileAttributes.class);
      if (a.dtype() == null) {
        throw new FileSystemException(what, null, "is not an array (arrays are params/… and updater/…/…)");
      }
      Exchange.Array array = new Exchange.Array(file.toString(), file, a);
      DType t = array.dtype();
      Npy.header(t, array.exchangeShape(), a.order().charAt(0), rawBfloat16, what); // refusals before OUT is touched
      Progress progress = p.progress("export", a.size());
      Exchange.writeFile(target, out -> {
        try (FileChannel in = FileChannel.open(file)) {
          Npy.write(out, t, array.exchangeShape(), a.order().charAt(0), rawBfloat16, in, 0, in.size(), what,
              progress::advance);
        }
      });
      progress.done();
    }
  }

  private static void safetensors(Exchange.Ref ref, Path target, boolean withUpdater, Args.Parsed p, PrintStream err)
      throws Exception {
    try (FileSystem fs = Listing.mount(ref.model())) {
      Path tag = ref.tagDir(fs);
      Map<String, Exchange.Array> arrays = new LinkedHashMap<>(Exchange.arrays(tag, TagArrays.PARAMS));
      if (withUpdater) {
        for (Map.Entry<String, Exchange.Array> e : Exchange.arrays(tag, TagArrays.UPDATER).entrySet()) {
          if (arrays.putIfAbsent(e.getKey(), e.getValue()) != null) {
            throw new FileSystemException(ref.label(), null, "a parameter is named '" + e.getKey()
                + "', as updater state would be in the file; export without --with-updater");
          }
        }
      }
      List<Safetensors.Entry> entries = new ArrayList<>();
      long total = 0;
      for (Map.Entry<String, Exchange.Array> e : arrays.entrySet()) {
        Exchange.Array a = e.getValue();
        if (Safetensors.dtypeName(a.dtype()) == null) {
          err.println("modelfs export: skipped " + e.getKey() + " (" + a.describe() + "): safetensors has no "
              + a.dtype() + " dtype");
          continue;
        }
        Path path = a.path();
        entries.add(new Safetensors.Entry(e.getKey(), a.dtype(), a.exchangeShape(), a.attrs().order().charAt(0),
            () -> FileChannel.open(path)));
        total += a.size();
      }
      Map<String, String> metadata = Exchange.metadata(tag);
      Progress progress = p.progress("export", total);
      Exchange.writeFile(target, out -> Safetensors.write(out, entries, metadata, target.toString(), progress::advance));
      progress.done();
    }
  }
}
