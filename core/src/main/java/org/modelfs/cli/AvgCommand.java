package org.modelfs.cli;

import org.modelfs.format.Codecs;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.modelfs.ModelFileSystems;
import org.modelfs.SamediffFileAttributes;
import org.modelfs.model.DType;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;

/**
 * {@code avg MODEL --tags A,B,… --into NEW}: a new newest tag whose floating-point parameters
 * are the element-wise means of those of the listed tags, with the structure (graph, training
 * configuration, metadata) of the last listed tag and no updater state; committed at once.
 */
final class AvgCommand implements Command {
  @Override
  public String summary() {
    return "Average the floating-point parameters of several tags of a model into a new tag.";
  }

  @Override
  public String help() {
    return "The mean of every floating-point parameter of the tags A, B, … of MODEL is written as a new" + "\n"
        + "newest tag NEW (checkpoint averaging), with the last tag's graph and metadata and no updater state." + "\n"
        + "" + "\n"
        + "example:" + "\n"
        + "  modelfs avg model.sdz --tags e1,e2,e3 --into avg";
  }

  @Override
  public String usage() {
    return "avg MODEL --tags A,B[,…] --into NEW   (NEW: mean parameters, the last tag's graph and metadata, no updater state)";
  }

  @Override
  public int run(Args args, PrintStream out, PrintStream err) throws Exception {
    Args.Parsed p = args.parse(Set.of("tags", "into"), Set.of());
    p.expectPositionals(1);
    if (p.option("tags") == null || p.option("into") == null) {
      throw new Args.UsageException("--tags and --into are required");
    }
    List<String> names = Arrays.stream(p.option("tags").split(",", -1)).map(String::trim).toList();
    if (names.contains("")) {
      throw new Args.UsageException("--tags: an empty tag name in '" + p.option("tags") + "'");
    }
    if (names.size() < 2) {
      throw new Args.UsageException("--tags: name at least two tags to average, got '" + p.option("tags") + "'");
    }
    String model = p.positional().get(0);
    String into = p.option("into");
    try (Model m = ModelFiles.open(PathArgs.path(model))) {
      if (!m.format().holdsTags()) {
        throw new FileSystemException(model, null, "the " + m.format().token()
            + " format holds one tag; convert to " + Codecs.tagHolders() + " first (convert " + model + " OUT.sdz)");
      }
    }
    int[] averaged = new int[2]; // floating-point means, other arrays taken as they are
    CpCommand.edit(p.progress("commit", 0), model, fs -> average(fs, model, names, into, averaged));
    err.println("averaged " + averaged[0] + " floating-point parameter(s) of " + String.join(", ", names)
        + " into tag " + into + " (" + averaged[1] + " other array(s) equal in every tag, kept)");
    err.println("updater state is not averaged: tag " + into + " has none");
    return Main.OK;
  }

  private static void average(FileSystem fs, String model, List<String> names, String into, int[] averaged)
      throws IOException {
    List<Path> tags = new ArrayList<>();
    for (String n : names) {
      tags.add(TagArrays.tag(fs, model, n));
    }
    Path last = tags.get(tags.size() - 1);
    Path target = fs.getPath("/tags").resolve(TagArrays.name(model, into));
    if (Files.exists(target)) {
      throw new FileAlreadyExistsException(model, null, "tag '" + target.toRealPath().getFileName()
          + "' exists; --into names a new tag");
    }
    List<String> params = TagArrays.arrays(last, TagArrays.PARAMS);
    checkAlike(model, tags, params);
    checkEqualNonFloat(model, tags, params);
    Files.createDirectory(target);
    Path created = target.toRealPath();
    copyStructure(last, created);
    for (String rel : params) {
      SamediffFileAttributes a = TagArrays.attributes(last.resolve(rel));
      DType t = DType.fromName(a.dtype());
      Path to = created.resolve(rel);
      if (!t.isFloatingPoint()) {
        Files.createLink(to, last.resolve(rel)); // one stored array, as in the last tag
        averaged[1]++;
        continue;
      }
      List<Path> sources = new ArrayList<>();
      tags.forEach(tag -> sources.add(tag.resolve(rel)));
      try (SeekableByteChannel ch = Files.newByteChannel(to, Set.of(StandardOpenOption.CREATE,
          StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING), ModelFileSystems.attribute("dtype", a.dtype()),
          ModelFileSystems.attribute("shape", a.shape()), ModelFileSystems.attribute("order", a.order()),
          ModelFileSystems.attribute("kind", a.kind()))) {
        ArrayMean.write(sources, t, ch);
      }
      averaged[0]++;
    }
  }

  /** Every tag has exactly the parameters of the last one, with the same dtype, shape and order. */
  private static void checkAlike(String model, List<Path> tags, List<String> params) throws IOException {
    Path last = tags.get(tags.size() - 1);
    List<String> problems = new ArrayList<>();
    for (Path tag : new LinkedHashSet<>(tags)) {
      if (tag.equals(last)) {
        continue;
      }
      Set<String> matched = new HashSet<>();
      for (String rel : params) {
        Path p = TagArrays.find(tag, rel);
        if (p == null) {
          problems.add(rel + " is in tag " + last.getFileName() + " but not in tag " + tag.getFileName());
          continue;
        }
        matched.add(TagArrays.canonical(tag, p));
        SamediffFileAttributes a = TagArrays.attributes(p);
        SamediffFileAttributes b = TagArrays.attributes(last.resolve(rel));
        if (!TagArrays.describe(a).equals(TagArrays.describe(b)) || !a.order().equals(b.order())) {
          problems.add(rel + " is " + TagArrays.describe(a) + " " + a.order() + " in tag " + tag.getFileName()
              + " but " + TagArrays.describe(b) + " " + b.order() + " in tag " + last.getFileName());
        }
      }
      for (String rel : TagArrays.arrays(tag, TagArrays.PARAMS)) {
        if (!matched.contains(rel)) {
          problems.add(rel + " is in tag " + tag.getFileName() + " but not in tag " + last.getFileName());
        }
      }
    }
    if (!problems.isEmpty()) {
      throw new FileSystemException(model, null, "cannot average tags whose parameters differ: "
          + String.join("; ", problems.size() > 10 ? problems.subList(0, 10) : problems)
          + (problems.size() > 10 ? "; and " + (problems.size() - 10) + " more" : ""));
    }
  }

  /** Arrays that are not floating-point cannot be averaged: they must be the same in every tag. */
  private static void checkEqualNonFloat(String model, List<Path> tags, List<String> params) throws IOException {
    Path last = tags.get(tags.size() - 1);
    for (String rel : params) {
      Path b = last.resolve(rel);
      SamediffFileAttributes a = TagArrays.attributes(b);
      if (DType.fromName(a.dtype()).isFloatingPoint()) {
        continue;
      }
      for (Path tag : tags) {
        if (!tag.equals(last) && !ArrayDiff.sameBytes(tag.resolve(rel), b)) {
          throw new FileSystemException(model, null, rel + " (" + TagArrays.describe(a) + ") differs between tags "
              + tag.getFileName() + " and " + last.getFileName() + "; only floating-point arrays are averaged,"
              + " other arrays must be equal in every tag");
        }
      }
    }
  }

  /** The graph, training configuration and metadata of tag {@code from}, copied into the new tag {@code to}. */
  private static void copyStructure(Path from, Path to) throws IOException {
    Files.copy(from.resolve("graph"), to.resolve("graph"), StandardCopyOption.REPLACE_EXISTING);
    if (Files.exists(from.resolve("training.json"))) {
      Files.copy(from.resolve("training.json"), to.resolve("training.json"), StandardCopyOption.REPLACE_EXISTING);
    }
    try (Stream<Path> s = Files.walk(from.resolve("metadata"))) {
      for (Path m : (Iterable<Path>) s.filter(Files::isRegularFile)::iterator) {
        Files.copy(m, to.resolve(from.relativize(m).toString()), StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }
}
