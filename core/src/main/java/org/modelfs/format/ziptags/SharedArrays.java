package org.modelfs.format.ziptags;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.modelfs.format.ziptags.Layout.Area;
import org.modelfs.model.ArrayStreams;
import org.modelfs.model.ArrayData;

/**
 * The arrays a zip-tags write has already stored, to find a new one's twin: the very same stored
 * array (a link, or a copy made inside the file system), or — under the same name in an earlier
 * tag — an array with equal type, shape, order and bytes, compared in blocks that stop at the
 * first difference.
 */
final class SharedArrays {
  /** Where an array is stored: array file {@code index} of {@code tag}. */
  record Stored(ArrayData array, String tag, int index) {}

  private static final int BLOCK = 64 * 1024;

  private final Map<Area, Map<ArrayData, Stored>> byArray = new HashMap<>();
  private final Map<Area, Map<String, List<Stored>>> byName = new HashMap<>();

  /** The stored twin of {@code a} under {@code key} (a name) in {@code area}, or {@code null}. */
  Stored find(Area area, String key, ArrayData a) throws IOException {
    Stored same = byArray.computeIfAbsent(area, k -> new HashMap<>()).get(a);
    if (same != null) {
      return same;
    }
    for (Stored s : byName.computeIfAbsent(area, k -> new HashMap<>()).getOrDefault(key, List.of())) {
      if (equalBytes(s.array(), a)) {
        return s;
      }
    }
    return null;
  }

  /** Records that {@code a} is stored as array {@code index} of {@code tag}. */
  void add(Area area, String key, ArrayData a, String tag, int index) {
    Stored s = new Stored(a, tag, index);
    byArray.computeIfAbsent(area, k -> new HashMap<>()).putIfAbsent(a, s);
    byName.computeIfAbsent(area, k -> new HashMap<>()).computeIfAbsent(key, k -> new ArrayList<>()).add(s);
  }

  /** True if both arrays read back as the same array: type, shape, order, emptiness and little-endian bytes. */
  static boolean equalBytes(ArrayData a, ArrayData b) throws IOException {
    if (a.dtype() != b.dtype() || a.order() != b.order() || a.empty() != b.empty() || a.length() != b.length()
        || !Arrays.equals(a.shape(), b.shape())) {
      return false;
    }
    try (InputStream x = ArrayStreams.littleEndianStream(a); InputStream y = ArrayStreams.littleEndianStream(b)) {
      byte[] bx = new byte[BLOCK];
      byte[] by = new byte[BLOCK];
      while (true) {
        int n = x.readNBytes(bx, 0, BLOCK);
        int m = y.readNBytes(by, 0, BLOCK);
        if (n != m || !Arrays.equals(bx, 0, n, by, 0, m)) {
          return false;
        }
        if (n < BLOCK) {
          return true;
        }
      }
    }
  }
}
