package org.modelfs.cli;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.modelfs.SamediffFileAttributes;
import org.modelfs.format.TagList;

/**
 * The tags of a mounted model and the array files in a tag ({@code params/…},
 * {@code updater/<param>/<key>}), by their canonical paths below the tag directory, as
 * {@code avg} and {@code diff} see them.
 */
final class TagArrays {
  static final String PARAMS = "params";
  static final String UPDATER = "updater";

  private TagArrays() {}

  /**
   * {@code name}, if it is a tag name ({@link TagList#RULE}); else refused naming the model file
   * {@code model} — every command's tag argument passes here ({@code ..}, {@code .}, {@code a/b}
   * and the empty name would resolve to other directories of the tree).
   */
  static String name(String model, String name) throws FileSystemException {
    if (!TagList.isValid(name)) {
      throw new FileSystemException(model, null, "'" + name + "' is not a tag name: a tag name is "
          + TagList.RULE + " (a letter or digit, then up to 127 letters, digits, '.', '_' or '-')");
    }
    return name;
  }

  /** The directory of tag {@code name} (any case) in its stored spelling; {@code model} names the file in errors. */
  static Path tag(FileSystem fs, String model, String name) throws IOException {
    Path p = fs.getPath("/tags").resolve(name(model, name));
    if (!name.isEmpty() && Files.isDirectory(p)) {
      Path real = p.toRealPath();
      if (real.getNameCount() == 2 && real.getName(0).toString().equals("tags")) {
        return real;
      }
    }
    throw new NoSuchFileException(model, null, "no tag '" + name + "' (its tags: " + String.join(", ", names(fs)) + ")");
  }

  /** The directory of the newest tag. */
  static Path newest(FileSystem fs) throws IOException {
    List<Path> tags = Listing.children(fs.getPath("/tags"));
    return tags.get(tags.size() - 1).toRealPath();
  }

  /** The tag names, oldest first. */
  static List<String> names(FileSystem fs) throws IOException {
    List<String> out = new ArrayList<>();
    for (Path t : Listing.children(fs.getPath("/tags"))) {
      out.add(t.getFileName().toString());
    }
    return out;
  }

  /** The array files below {@code tag/area} ({@link #PARAMS} or {@link #UPDATER}) in listing order, e.g. {@code params/layer0/W}. */
  static List<String> arrays(Path tag, String area) throws IOException {
    Path dir = tag.resolve(area);
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).map(p -> tag.relativize(p).toString()).toList();
    }
  }

  /**
   * The file {@code rel} (a path from {@link #arrays}) of another tag, looked up by the same
   * name even where that tag spells it differently; {@code null} if it has no such array file.
   */
  static Path find(Path tag, String rel) {
    Path p = tag.resolve(rel);
    return Files.isRegularFile(p) ? p : null;
  }

  /** {@code p}'s canonical path below {@code tag}, as {@link #arrays} lists it. */
  static String canonical(Path tag, Path p) throws IOException {
    return tag.relativize(p.toRealPath()).toString();
  }

  /** The array's type and shape, e.g. {@code FLOAT[784,256]}. */
  static String describe(SamediffFileAttributes a) {
    StringBuilder sb = new StringBuilder(a.dtype()).append('[');
    long[] shape = a.shape();
    for (int i = 0; i < shape.length; i++) {
      sb.append(i > 0 ? "," : "").append(shape[i]);
    }
    return sb.append(']').toString();
  }

  /** The attributes of an array file. */
  static SamediffFileAttributes attributes(Path p) throws IOException {
    return Files.readAttributes(p, SamediffFileAttributes.class);
  }
}
