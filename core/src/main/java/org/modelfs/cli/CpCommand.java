package org.modelfs.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.LongConsumer;
import org.modelfs.CommitRefusedException;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.DType;
import org.modelfs.store.ModelId;
import org.modelfs.store.OutputFile;

/**
 * {@code cp SRC DST}: copies one file between a model ({@code MODEL:PATH}) and the disk or
 * another model, then commits; {@code --dtype}, {@code --shape}, {@code --order} set the
 * attributes of the array written. A failed commit leaves the model file as it was.
 */
final class CpCommand implements Command {
  @Override
  public String summary() {
    return "Copy a parameter between a model and a file on disk, or between two models.";
  }

  @Override
  public String help() {
    return "SRC and DST are files on disk or MODEL:PATH (a file in a model). Disk to model creates or replaces" + "\n"
        + "a parameter (--dtype, --shape, --order set its attributes); model to disk writes its raw little-endian bytes." + "\n"
        + "- as SRC reads standard input, as DST writes standard output." + "\n"
        + "" + "\n"
        + "example:" + "\n"
        + "  modelfs cp model.fb:/params/layer0/W w.bin";
  }

  @Override
  public String usage() {
    return "cp SRC DST [--dtype T] [--shape a,b,c] [--order c|f]";
  }

  /**
   * {@code MODEL:PATH} split at the first ':' whose left part is an existing model file (or
   * shard set; {@link PathArgs#split}), or a disk file when {@code model} is {@code null}; an
   * argument with a ':' that names neither is refused rather than taken as a new disk file.
   */
  private record Location(String model, String path) {
    static Location parse(String arg) throws IOException, Args.UsageException {
      PathArgs.Ref r = PathArgs.split(arg, PathArgs.Form.MODEL_PATH);
      if (r != null) {
        return new Location(r.model(), r.path());
      }
      if (PathArgs.hasColon(arg) && !Files.exists(PathArgs.path(arg))) {
        throw new NoSuchFileException(arg, null, "no model file (expected MODEL:PATH or a file)");
      }
      return new Location(null, arg);
    }
  }

  @Override
  public int run(Args args, PrintStream out, PrintStream err) throws Exception {
    Args.Parsed p = args.parse(Set.of("dtype", "shape", "order"), Set.of());
    p.expectPositionals(2);
    Map<String, Object> attrs = attributes(p);
    Location src = Location.parse(p.positional().get(0));
    Location dst = Location.parse(p.positional().get(1));
    if (src.model() == null && dst.model() == null) {
      throw new Args.UsageException("SRC or DST must be MODEL:PATH");
    }
    if (dst.model() == null) {
      if (!attrs.isEmpty()) {
        throw new Args.UsageException("--dtype, --shape, --order apply to a file written into a model");
      }
      try (FileSystem fs = Listing.mount(src.model())) {
        Path from = Listing.inside(fs, src.path());
        if (Files.isDirectory(from)) {
          throw new FileSystemException(from.toString(), null, "is a directory");
        }
        if (dst.path().equals("-")) {
          Files.copy(from, out); // standard output, as cat(1) would
          out.flush();
          return Main.OK;
        }
        Path to = PathArgs.path(dst.path());
        writeInto(from, Files.isDirectory(to) ? to.resolve(from.getFileName().toString()) : to);
      }
      return Main.OK;
    }
    if (src.model() == null && src.path().equals("-")) {
      // standard input, as cat(1) would read it
      edit(p.progress("commit", 0), dst.model(), fs -> copy(System.in, Listing.inside(fs, dst.path()), attrs));
      return Main.OK;
    }
    if (src.model() != null && !sameModel(src.model(), dst.model())) {
      try (FileSystem from = Listing.mount(src.model())) {
        edit(p.progress("commit", 0), dst.model(), to -> copy(Listing.inside(from, src.path()), Listing.inside(to, dst.path()), attrs));
      }
    } else {
      Path disk = src.model() == null ? PathArgs.path(src.path()) : null;
      edit(p.progress("commit", 0), dst.model(), fs -> copy(disk != null ? disk : Listing.inside(fs, src.path()),
          Listing.inside(fs, dst.path()), attrs));
    }
    return Main.OK;
  }

  /**
   * Writes the bytes of {@code from} into the user's file {@code to} by
   * {@link OutputFile}'s rule, as cp(1) does: a symbolic link is written
   * through, a FIFO or device gets the bytes, and the file keeps its permissions, owner and hard
   * links (docs/CLI.md, "Output files").
   */
  static void writeInto(Path from, Path to) throws IOException {
    OutputFile.write(to, out -> Files.copy(from, Channels.newOutputStream(out)));
  }

  /** The attributes the options set, checked. */
  private static Map<String, Object> attributes(Args.Parsed p) throws Args.UsageException {
    Map<String, Object> attrs = new LinkedHashMap<>();
    String dtype = p.option("dtype");
    if (dtype != null) {
      if (DType.fromName(dtype) == null) {
        throw new Args.UsageException("--dtype: unknown data type '" + dtype + "'");
      }
      attrs.put("dtype", dtype);
    }
    String shape = p.option("shape");
    if (shape != null) {
      try {
        attrs.put("shape", shape.isBlank() ? new long[0]
            : Arrays.stream(shape.split(",")).mapToLong(d -> Long.parseLong(d.trim())).toArray());
      } catch (NumberFormatException e) {
        throw new Args.UsageException("--shape: '" + shape + "' is not a list of numbers like 2,3");
      }
      if (Arrays.stream((long[]) attrs.get("shape")).anyMatch(d -> d < 0)) {
        throw new Args.UsageException("--shape: negative dimension in '" + shape + "'");
      }
    }
    String order = p.option("order");
    if (order != null) {
      if (!order.equals("c") && !order.equals("f")) {
        throw new Args.UsageException("--order: '" + order + "'; expected c or f");
      }
      attrs.put("order", order);
    }
    return attrs;
  }

  /** Copies {@code from} (a disk file or a file of a mount) to {@code to} of a writable mount. */
  private static void copy(Path from, Path to, Map<String, Object> attrs) throws IOException {
    if (Files.isDirectory(from)) {
      throw new FileSystemException(from.toString(), null, "is a directory");
    }
    if (Files.isDirectory(to)) {
      to = to.resolve(from.getFileName().toString());
    }
    boolean same = Files.exists(to) && Files.isSameFile(from, to); // then only attributes change
    if (!same && from.getFileSystem().provider() == to.getFileSystem().provider()) {
      Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING); // keeps dtype, shape, order, kind
    } else if (!same) {
      // not Files.copy: replacing deletes first, and a deleted parameter loses its attributes
      try (OutputStream o = Channels.newOutputStream(Files.newByteChannel(to, Set.of(StandardOpenOption.WRITE,
          StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING)))) {
        Files.copy(from, o);
      }
    }
    for (Map.Entry<String, Object> a : attrs.entrySet()) {
      Files.setAttribute(to, "samediff:" + a.getKey(), a.getValue());
    }
  }

  /** Writes standard input to {@code to} of a writable mount, then sets {@code attrs}. */
  private static void copy(InputStream in, Path to, Map<String, Object> attrs) throws IOException {
    if (Files.isDirectory(to)) {
      throw new FileSystemException(to.toString(), null, "is a directory; name the file to write");
    }
    try (OutputStream o = Channels.newOutputStream(Files.newByteChannel(to, Set.of(StandardOpenOption.WRITE,
        StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING)))) {
      in.transferTo(o);
    }
    for (Map.Entry<String, Object> a : attrs.entrySet()) {
      Files.setAttribute(to, "samediff:" + a.getKey(), a.getValue());
    }
  }

  /** Whether two model arguments are one model (its identity: every spelling, links resolved). */
  static boolean sameModel(String a, String b) throws IOException, Args.UsageException {
    Path pa = PathArgs.path(a);
    Path pb = PathArgs.path(b);
    return pa.getFileSystem() == pb.getFileSystem()
        && ModelId.of(pa).equals(ModelId.of(pb));
  }

  /** A change to a writable mount. */
  interface Edit {
    void apply(FileSystem fs) throws IOException;
  }

  /**
   * Mounts {@code model} writable, applies {@code edit} and commits by closing. When the edit
   * or the commit fails, the changes are rolled back before the mount is closed, so the model
   * file stays as it was and the writer lock is released.
   */
  static void edit(Progress progress, String model, Edit edit) throws IOException, Args.UsageException {
    FileSystem fs = ModelFileSystems.open(PathArgs.path(model), Map.of("progress", (LongConsumer) progress::at));
    try {
      edit.apply(fs);
      try {
        ((JournaledFileSystem) fs).commit();
      } catch (CommitRefusedException refused) {
        // the CLI rolls back at once: say so, not "still pending"
        FileSystemException e = new FileSystemException(model, null, "nothing was written: "
            + String.join("; ", refused.problems()));
        e.initCause(refused);
        throw e;
      }
      progress.done();
      fs.close();
    } catch (IOException | RuntimeException e) {
      try {
        ((JournaledFileSystem) fs).rollback();
        fs.close();
      } catch (IOException | RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }
}
