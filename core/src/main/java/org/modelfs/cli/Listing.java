package org.modelfs.cli;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.modelfs.ModelFileSystems;
import org.modelfs.SamediffFileAttributes;

/**
 * What the {@code tree} and {@code ls} commands share: mounting a model read-only, listing a
 * directory, and describing one entry from its attributes (never its bytes).
 */
final class Listing {
  private Listing() {}

  /** Mounts {@code model} read-only. */
  static FileSystem mount(String model) throws IOException, Args.UsageException {
    return ModelFileSystems.open(PathArgs.path(model), Map.of("readOnly", "true"));
  }

  /**
   * The path {@code path} inside {@code fs}, as every command takes it ({@link PathArgs#inModel}:
   * from the root, a bare parameter name under {@code /params}).
   */
  static Path inside(FileSystem fs, String path) {
    return fs.getPath(PathArgs.inModel(path, false));
  }

  static List<Path> children(Path dir) throws IOException {
    List<Path> out = new ArrayList<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
      s.forEach(out::add);
    }
    return out;
  }

  /** {@code name/} for a directory; for a file its name, size, and the array it holds. */
  static String describe(Path p) throws IOException {
    return describe(p, false);
  }

  /**
   * {@code name/} for a directory; for a file its name, size ({@code bytes}: exact, else
   * rounded to KiB, MiB, …), and the array it holds.
   */
  static String describe(Path p, boolean bytes) throws IOException {
    SamediffFileAttributes a = Files.readAttributes(p, SamediffFileAttributes.class);
    String name = p.getFileName() == null ? "/" : p.getFileName().toString();
    if (a.isDirectory()) {
      return name + "/";
    }
    StringBuilder sb = new StringBuilder(name).append("  ").append(bytes ? a.size() + " B" : size(a.size()));
    if (a.dtype() != null) {
      sb.append("  ").append(a.kind()).append(' ').append(a.dtype()).append(' ')
          .append(Arrays.toString(a.shape())).append(' ').append(a.order()).append(' ').append(a.stored());
    }
    return sb.toString();
  }

  /**
   * One entry for {@code --json} (docs/CLI.md): {@code name}, {@code path}, {@code type}
   * ({@code "directory"} or {@code "file"}), {@code size} in bytes, and for arrays
   * {@code kind}, {@code dtype}, {@code shape}, {@code order}, {@code stored}.
   */
  static Map<String, Object> entry(Path p) throws IOException {
    SamediffFileAttributes a = Files.readAttributes(p, SamediffFileAttributes.class);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", p.getFileName() == null ? "/" : p.getFileName().toString());
    m.put("path", p.toString());
    m.put("type", a.isDirectory() ? "directory" : "file");
    if (!a.isDirectory()) {
      m.put("size", a.size());
    }
    if (a.dtype() != null) {
      m.put("kind", a.kind());
      m.put("dtype", a.dtype());
      m.put("shape", Json.longs(a.shape()));
      m.put("order", String.valueOf(a.order()));
      m.put("stored", a.stored());
    }
    return m;
  }

  static String size(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    double v = bytes;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }
}
