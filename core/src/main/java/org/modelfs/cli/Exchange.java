package org.modelfs.cli;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.modelfs.SamediffFileAttributes;
import org.modelfs.model.DType;
import org.modelfs.model.Shapes;
import org.modelfs.store.OutputFile;
import org.modelfs.tree.NameMapping;

/**
 * What {@code export} and {@code import} share: the {@code MODEL[#TAG][:PATH]} argument, the
 * arrays of a tag by variable name, the file format an argument names, and writing the output
 * file (by {@link OutputFile}'s rule).
 */
final class Exchange {
  private Exchange() {}

  /** The exchange formats, by file name or content. */
  enum Format { NPY, SAFETENSORS }

  /**
   * A model, one of its tags ({@code null}: the newest) and a path in it ({@code null}: none).
   */
  record Ref(String model, String tag, String path) {
    /**
     * {@code MODEL}, {@code MODEL#TAG}, {@code MODEL:PATH} or {@code MODEL#TAG:PATH}, split by
     * {@link PathArgs#split} (as {@code cp} and {@code diff} split theirs).
     */
    static Ref parse(String arg) throws IOException, Args.UsageException {
      PathArgs.Ref r = PathArgs.split(arg, PathArgs.Form.MODEL_TAG_PATH);
      if (r == null) {
        throw new NoSuchFileException(arg, null, "no model file (expected MODEL, MODEL#TAG, MODEL:PATH or MODEL#TAG:PATH)");
      }
      return new Ref(r.model(), r.tag(), r.path());
    }

    /** {@code MODEL[#TAG]} as the user wrote it, for messages. */
    String label() {
      return model + (tag == null ? "" : "#" + tag);
    }

    /** The tag directory ({@code /tags/<tag>}, the newest when no tag was given). */
    Path tagDir(FileSystem fs) throws IOException {
      return tag == null ? TagArrays.newest(fs) : TagArrays.tag(fs, model, tag);
    }

    /**
     * The array file {@code path} names: inside the tag when a tag was given, else from the root,
     * by the rule every command follows ({@link PathArgs#inModel}: {@code layer0/W} =
     * {@code params/layer0/W}).
     */
    Path file(FileSystem fs) throws IOException {
      return tag == null ? Listing.inside(fs, path) : tagDir(fs).resolve(PathArgs.inModel(path, true));
    }
  }

  /** The format a file name ends with, or {@code null}. */
  static Format byName(String file) {
    String f = file.toLowerCase(Locale.ROOT);
    return f.endsWith(".npy") ? Format.NPY : f.endsWith(".safetensors") ? Format.SAFETENSORS : null;
  }

  /** An array file of a tag: its variable name (or {@code updater/<param>/<key>}), path and attributes. */
  record Array(String name, Path path, SamediffFileAttributes attrs) {
    DType dtype() {
      return DType.fromName(attrs.dtype());
    }

    long size() {
      return attrs.size();
    }

    /**
     * The shape to write into an exchange file: the array's, except an ND4J "empty" array of
     * shape {@code []} (no bytes, but a shape of one element), which has no elements: {@code [0]}.
     */
    long[] exchangeShape() {
      long[] s = attrs.shape();
      DType t = dtype();
      return attrs.size() == 0 && t.width() > 0 && Shapes.elementCount(s) != 0 ? new long[] {0} : s;
    }

    /** {@code FLOAT [2, 3]}. */
    String describe() {
      return attrs.dtype() + " " + Arrays.toString(attrs.shape());
    }
  }

  /**
   * The arrays below {@code tag/area} in listing order, by name: the variable name for
   * {@code params}, {@code updater/<param>/<key>} for {@code updater}.
   */
  static Map<String, Array> arrays(Path tag, String area) throws IOException {
    Map<String, Array> out = new LinkedHashMap<>();
    Path dir = tag.resolve(area);
    if (!Files.isDirectory(dir)) {
      return out;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s.filter(Files::isRegularFile)::iterator) {
        SamediffFileAttributes a = Files.readAttributes(p, SamediffFileAttributes.class);
        if (a.dtype() == null) {
          continue;
        }
        String name = NameMapping.name(segments(dir.relativize(p)));
        out.put(area.equals(TagArrays.UPDATER) ? TagArrays.UPDATER + "/" + name : name, new Array(name, p, a));
      }
    }
    return out;
  }

  /** The metadata of a tag, key → value, in listing order. */
  static Map<String, String> metadata(Path tag) throws IOException {
    Map<String, String> out = new LinkedHashMap<>();
    Path dir = tag.resolve("metadata");
    if (!Files.isDirectory(dir)) {
      return out;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s.filter(Files::isRegularFile)::iterator) {
        out.put(NameMapping.name(segments(dir.relativize(p))), Files.readString(p));
      }
    }
    return out;
  }

  static List<String> segments(Path relative) {
    List<String> out = new ArrayList<>();
    relative.forEach(n -> out.add(n.toString()));
    return out;
  }

  /**
   * Writes the user's output file {@code out} by {@link OutputFile}'s rule
   * (docs/CLI.md, "Output files"): a failed writer leaves a regular file as it was, a FIFO or
   * device is streamed into, a link followed, the file's mode, owner, group and links kept.
   */
  static void writeFile(Path out, OutputFile.Writer writer) throws IOException {
    OutputFile.write(out, writer);
  }
}
