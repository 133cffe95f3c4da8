package org.modelfs.cli;

import org.modelfs.format.Codecs;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.Model;
import org.modelfs.store.Shown;

/**
 * {@code convert IN OUT}: rewrites a model in another format, streaming every array from the
 * input through a bounded buffer. The format comes from {@code --format} or OUT's extension;
 * {@code --max-shard-bytes} makes SDNB output sharded (OUT names the base) and SDZ output hold
 * shards. Every tag is kept: a model with several tags converts only to sdz, zip-tags or container (take
 * one tag out with {@code extract}).
 */
final class ConvertCommand implements Command {
  @Override
  public String summary() {
    return "Write a model in another format (" + Codecs.tokens(", ") + ").";
  }

  @Override
  public String help() {
    return "Reads MODEL and writes every tag it holds to OUT in the format OUT's name says, or --format." + "\n"
        + "Options: --format F, --compression stored|deflate, --level 1-9 (with deflate), --max-shard-bytes N,"
        + " --drop-metadata." + "\n"
        + "" + "\n"
        + "example:" + "\n"
        + "  modelfs convert model.fb model.sdz";
  }

  @Override
  public String usage() {
    return "convert IN OUT [--format " + Codecs.tokens("|") + "] [--max-shard-bytes N]"
        + " [--compression stored|deflate] [--level 1-9] [--drop-metadata] [--quiet]";
  }

  @Override
  public int run(Args args, PrintStream out, PrintStream err) throws Exception {
    Args.Parsed p = args.parse(Set.of("format", "max-shard-bytes", "compression", "level"), Set.of("drop-metadata"));
    p.expectPositionals(2);
    Path in = PathArgs.path(p.positional().get(0));
    Path target = PathArgs.path(p.positional().get(1));
    WriteOptions opts = options(p, target);
    try (Model m = ModelFiles.open(in)) {
      if (m.tags().size() > 1 && !opts.format().holdsTags()) {
        throw new Args.UsageException(PathArgs.shown(in) + " holds " + m.tags().size() + " tags, and " + opts.format().token()
            + " holds one: convert to " + Codecs.tagHolders() + ", or take one tag out with extract");
      }
      long t0 = System.nanoTime();
      err.println("converting " + PathArgs.shown(in) + " (" + m.format().token() + ") to " + PathArgs.shown(target)
          + " (" + describe(opts) + ")");
      List<Path> written;
      // the total is the array bytes: about the output's size when stored, unknown when deflated
      Progress progress = p.progress("convert", opts.deflate() ? 0 : ModelFiles.arrayBytes(m.tags()));
      written = ModelFiles.writeTags(m.tags(), target, opts, progress::at);
      progress.done();
      for (Path w : written) {
        err.println("wrote " + PathArgs.shown(w) + (Files.isRegularFile(w) ? " (" + Files.size(w) + " bytes)" : "")); // a FIFO: no size
      }
      err.printf("done in %.1f s%n", (System.nanoTime() - t0) / 1e9);
    }
    return Main.OK;
  }

  private static WriteOptions options(Args.Parsed p, Path target) throws IOException, Args.UsageException {
    if (Files.isDirectory(target)) {
      throw new FileSystemException(Shown.path(target), null, "is a directory; OUT names the model file to write"
          + " (e.g. " + Shown.path(target.resolve("model.sdz")) + ")");
    }
    ModelFormat format;
    String f = p.option("format");
    try {
      format = f != null ? Codecs.fromToken(f) : Codecs.fromFileName(String.valueOf(target.getFileName()));
    } catch (IllegalArgumentException e) {
      throw new Args.UsageException(e.getMessage());
    }
    if (format == null) {
      throw new Args.UsageException("cannot tell the output format from '" + target.getFileName()
          + "'; give --format " + String.join("|", Codecs.formats().stream().filter(x -> !x.sharded())
          .map(ModelFormat::token).toList()));
    }
    WriteOptions o = WriteOptions.of(format);
    String max = p.option("max-shard-bytes");
    if (max != null) {
      long n;
      try {
        n = Long.parseLong(max);
      } catch (NumberFormatException e) {
        throw new Args.UsageException("--max-shard-bytes needs a number of bytes, got '" + max + "'");
      }
      if (n <= 0) {
        throw new Args.UsageException("--max-shard-bytes must be positive");
      }
      if (Codecs.shardedOf(format) != null) {
        format = Codecs.shardedOf(format);
      } else if (!format.sharded() && !Codecs.of(format).shardsInOneFile()) {
        throw new Args.UsageException("--max-shard-bytes applies to " + Codecs.list(x -> !x.sharded()
            && (Codecs.shardedOf(x) != null || Codecs.of(x).shardsInOneFile()), "and") + " output only");
      }
      o = WriteOptions.of(format).withMaxShardBytes(n);
    }
    String c = p.option("compression");
    if (c != null) {
      if (!c.equals("stored") && !c.equals("deflate")) {
        throw new Args.UsageException("--compression must be stored or deflate, got '" + c + "'");
      }
      if (!Codecs.of(o.format()).compresses()) {
        throw new Args.UsageException("--compression applies to " + Codecs.list(x -> !x.sharded()
            && Codecs.of(x).compresses(), "and") + " output only");
      }
      o = o.withDeflate(c.equals("deflate"));
    }
    String level = p.option("level");
    if (level != null) {
      if (!o.deflate()) {
        throw new Args.UsageException("--level needs --compression deflate");
      }
      try {
        o = o.withLevel(Integer.parseInt(level));
      } catch (IllegalArgumentException e) {
        throw new Args.UsageException("--level must be a number from 1 to 9, got '" + level + "'");
      }
    }
    return o.withDropMetadata(p.flag("drop-metadata"));
  }

  private static String describe(WriteOptions o) {
    String s = o.format().token();
    if (Codecs.of(o.format()).writesShards(o)) {
      s += ", shards of at most " + o.maxShardBytes() + " bytes";
    }
    if (Codecs.of(o.format()).compresses()) {
      s += o.deflate() ? ", deflated" + (o.level() > 0 ? " at level " + o.level() : "") : ", stored";
    }
    return s;
  }
}
