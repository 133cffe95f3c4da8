package org.modelfs.format.unified;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.modelfs.io.HeapSource;
import org.modelfs.model.ArrayData;
import org.modelfs.model.ArrayStreams;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.Variable;

/**
 * The container reader (docs/FORMATS.md §13) on hostile bytes, without a mount: the frames, the
 * tables, the GRAPH, each ARRAYS index and then every array read in order (so every chunk's CRC
 * and inflation runs) — once as given, once with every section's CRC-32C made valid
 * ({@link Containers#withValidCrcs}), so changes reach the parsers behind the CRCs. It may only return tags or throw an {@link IOException}; what it accepts
 * and reads completely and our writer writes again (stored and deflated; the writer may refuse a
 * graph part the reader never needed), the reader gives back the same arrays (docs/RELIABILITY.md "Fuzzing"). In this package to reach the package-private
 * reader entry points; the mount-level target is {@code ReaderFuzzTest#container}.
 */
class ContainerFuzzTest {
  /** The most bytes read of one array: enough for every chunk of a fuzzed input, bounded per input. */
  private static final int READ_CAP = 4 << 20;

  @FuzzTest(maxDuration = "30s")
  void read(byte[] input) {
    readAndRewrite(input);
    byte[] repaired = Containers.withValidCrcs(input);
    if (!Arrays.equals(repaired, input)) {
      readAndRewrite(repaired);
    }
  }

  /** Reads the bytes as a container; what it accepts must survive a rewrite. */
  private static void readAndRewrite(byte[] input) {
    Map<String, byte[]> arrays;
    List<Tag> tags;
    try {
      tags = ContainerReader.read(new HeapSource("m.sdmc", input));
      arrays = arrays(tags);
    } catch (IOException refused) {
      return;
    }
    if (arrays == null) {
      return; // an array beyond the read cap: not rewritten
    }
    for (int level : new int[] {0, 1}) {
      rewrite(tags, arrays, level);
    }
  }

  /**
   * Writes the tags again at {@code level}, reads them back, and compares every array. The writer
   * may refuse (it walks parts of the graph the reader leaves to whoever needs them); what it
   * writes must read back.
   */
  private static void rewrite(List<Tag> tags, Map<String, byte[]> arrays, int level) {
    try (FileSystem fs = Jimfs.newFileSystem(Configuration.unix())) {
      Path p = fs.getPath("/again.sdmc");
      try (SeekableByteChannel ch = Files.newByteChannel(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        ContainerWriter.write(tags, ch, "again.sdmc", level);
      } catch (IOException refused) {
        return;
      }
      Map<String, byte[]> again;
      try {
        again = arrays(ContainerReader.read(new HeapSource("again.sdmc", Files.readAllBytes(p))));
      } catch (IOException e) {
        throw new AssertionError("level " + level + ": our own rewrite of an accepted container is refused", e);
      }
      if (again == null || !again.keySet().equals(arrays.keySet())) {
        throw new AssertionError("level " + level + ": arrays " + arrays.keySet() + " come back as "
            + (again == null ? null : again.keySet()));
      }
      for (Map.Entry<String, byte[]> e : arrays.entrySet()) {
        if (!Arrays.equals(e.getValue(), again.get(e.getKey()))) {
          throw new AssertionError("level " + level + ": " + e.getKey() + " comes back with other bytes");
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("an in-memory file system failed", e);
    }
  }

  /** Every array of every tag by tag/name(/key), read in order; {@code null} if one exceeds the cap. */
  private static Map<String, byte[]> arrays(List<Tag> tags) throws IOException {
    Map<String, byte[]> out = new LinkedHashMap<>();
    for (Tag t : tags) {
      for (Variable v : t.variables()) {
        if (v.array() != null && !put(out, t.name() + "/" + v.name(), v.array())) {
          return null;
        }
      }
      for (UpdaterState u : t.updater()) {
        for (Map.Entry<String, ArrayData> e : u.arrays().entrySet()) {
          if (!put(out, t.name() + "/" + u.paramName() + "/" + e.getKey(), e.getValue())) {
            return null;
          }
        }
      }
    }
    return out;
  }

  private static boolean put(Map<String, byte[]> out, String key, ArrayData a) throws IOException {
    if (a.length() > READ_CAP) {
      return false;
    }
    try (InputStream in = ArrayStreams.littleEndianStream(a)) {
      out.put(key, in.readAllBytes());
    }
    return true;
  }
}
