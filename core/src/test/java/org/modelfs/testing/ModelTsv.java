package org.modelfs.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.modelfs.model.ArrayStreams;
import org.modelfs.model.ArrayData;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.Variable;

/**
 * Renders what our reader sees of a tag in the fixtures' {@code .expected.tsv} format: one line
 * per variable (KIND NAME DTYPE SHAPE SHA of C-order little-endian bytes), updater lines last.
 */
public final class ModelTsv {
  private ModelTsv() {}

  public static String of(Tag tag) throws IOException {
    List<String[]> vars = new ArrayList<>();
    for (Variable v : tag.variables()) {
      ArrayData a = v.array();
      if (a == null) {
        vars.add(new String[] {v.kind().name(), v.name(), v.dtype() == null ? "-" : v.dtype().nd4jName(), "-", "-"});
      } else {
        vars.add(line(v.kind().name(), v.name(), a));
      }
    }
    List<String[]> ups = new ArrayList<>();
    for (UpdaterState u : tag.updater()) {
      for (Map.Entry<String, ArrayData> e : u.arrays().entrySet()) {
        ups.add(line("UPDATER", u.paramName() + "/" + e.getKey(), e.getValue()));
      }
    }
    return render(vars, ups);
  }

  /** Variable lines then updater lines, each sorted by name, tab-separated. */
  static String render(List<String[]> vars, List<String[]> ups) {
    StringBuilder sb = new StringBuilder();
    for (List<String[]> part : List.of(vars, ups)) {
      part.sort((x, y) -> x[1].compareTo(y[1]));
      for (String[] l : part) {
        sb.append(String.join("\t", l)).append('\n');
      }
    }
    return sb.toString();
  }

  private static String[] line(String kind, String name, ArrayData a) throws IOException {
    return new String[] {kind, name, a.dtype().nd4jName(), shape(a.shape()), sha16(cOrderBytes(a))};
  }

  static String shape(long[] s) {
    return Arrays.toString(s);
  }

  /** The array's elements in C order, little-endian. */
  public static byte[] cOrderBytes(ArrayData a) throws IOException {
    byte[] raw;
    try (InputStream in = ArrayStreams.littleEndianStream(a)) {
      raw = in.readAllBytes();
    }
    if (a.order() == 'c' || a.dtype().width() == 0 || a.shape().length < 2) {
      return raw;
    }
    return fToC(raw, a.shape(), a.dtype().width());
  }

  /** Reorders f-ordered elements into C order. */
  public static byte[] fToC(byte[] f, long[] shape, int width) {
    int r = shape.length;
    int n = f.length / width;
    byte[] c = new byte[f.length];
    int[] idx = new int[r];
    for (int ci = 0; ci < n; ci++) {
      // ci -> multi-index (C order), then F offset
      int rem = ci;
      for (int d = r - 1; d >= 0; d--) {
        idx[d] = (int) (rem % shape[d]);
        rem /= shape[d];
      }
      int fo = 0;
      int stride = 1;
      for (int d = 0; d < r; d++) {
        fo += idx[d] * stride;
        stride *= shape[d];
      }
      System.arraycopy(f, fo * width, c, ci * width, width);
    }
    return c;
  }

  public static String sha16(byte[] bytes) {
    return sha256(bytes).substring(0, 16);
  }

  public static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  /** Reads an expected.tsv. */
  public static String read(Path p) throws IOException {
    return Files.readString(p);
  }
}
