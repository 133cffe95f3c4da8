package org.modelfs.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.modelfs.SamediffFileAttributes;

/**
 * Renders what a mounted model's tree shows of one tag in the fixtures' {@code .expected.tsv}
 * format, using only the public NIO API: {@code Files.walk}, the {@code samediff} view and
 * {@code Files.readAllBytes}; names come back from paths by the docs/FILESYSTEM.md §2 decoding.
 */
public final class TreeTsv {
  private TreeTsv() {}

  /** Array lines of {@code tagDir} (params then updater state), as ModelTsv sorts them. */
  public static String of(Path tagDir) throws IOException {
    List<String[]> vars = new ArrayList<>();
    Path params = tagDir.resolve("params");
    for (Path p : files(params)) {
      SamediffFileAttributes a = Files.readAttributes(p, SamediffFileAttributes.class);
      vars.add(line(a.kind(), name(params.relativize(p)), p, a));
    }
    List<String[]> ups = new ArrayList<>();
    Path updater = tagDir.resolve("updater");
    for (Path p : files(updater)) {
      SamediffFileAttributes a = Files.readAttributes(p, SamediffFileAttributes.class);
      Path rel = updater.relativize(p);
      String param = name(rel.getParent());
      ups.add(line("UPDATER", param + "/" + decode(rel.getFileName().toString()), p, a));
    }
    return ModelTsv.render(vars, ups);
  }

  /** The lines of an expected.tsv that have an array (the ones a tree shows as files). */
  public static String arraysOnly(String expectedTsv) {
    StringBuilder sb = new StringBuilder();
    for (String line : expectedTsv.split("\n")) {
      String[] f = line.split("\t", -1);
      if (f.length == 5 && !f[4].equals("-")) {
        sb.append(line).append('\n');
      }
    }
    return sb.toString();
  }

  private static List<Path> files(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).toList();
    }
  }

  private static String[] line(String kind, String name, Path p, SamediffFileAttributes a) throws IOException {
    byte[] bytes = Files.readAllBytes(p);
    if (bytes.length != a.size()) {
      throw new AssertionError(p + ": read " + bytes.length + " bytes, size() says " + a.size());
    }
    long[] shape = a.shape();
    long n = 1;
    for (long d : shape) {
      n *= d;
    }
    if (a.order().equals("f") && shape.length >= 2 && n > 0 && !a.dtype().equals("UTF8")) {
      bytes = ModelTsv.fToC(bytes, shape, (int) (bytes.length / n));
    }
    return new String[] {kind, name, a.dtype(), Arrays.toString(shape), ModelTsv.sha16(bytes)};
  }

  /** The variable name a relative path under {@code params/} stands for. */
  public static String name(Path rel) {
    StringBuilder sb = new StringBuilder();
    for (Path seg : rel) {
      if (sb.length() > 0) {
        sb.append('/');
      }
      sb.append(decode(seg.toString()));
    }
    return sb.toString();
  }

  /** The docs/FILESYSTEM.md §2 decoding of one segment: {@code %XX} escapes are UTF-8 bytes. */
  public static String decode(String seg) {
    if (seg.equals("%")) {
      return "";
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < seg.length(); i++) {
      char c = seg.charAt(i);
      if (c == '%' && i + 2 < seg.length() && Character.digit(seg.charAt(i + 1), 16) >= 0
          && Character.digit(seg.charAt(i + 2), 16) >= 0) {
        out.write(Integer.parseInt(seg.substring(i + 1, i + 3), 16));
        i += 2;
      } else {
        byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        if (Character.isHighSurrogate(c) && i + 1 < seg.length()) {
          b = seg.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
          i++;
        }
        out.write(b, 0, b.length);
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
