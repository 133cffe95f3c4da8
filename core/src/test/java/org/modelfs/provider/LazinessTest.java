package org.modelfs.provider;

import org.modelfs.store.ModelFiles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ModelFormat;
import org.modelfs.format.WriteOptions;
import org.modelfs.testing.SyntheticModels;

/**
 * Opening, walking, listing and reading attributes touch no array data (docs/FILESYSTEM.md §5, docs/FORMATS.md §9): on a
 * 200 MB model the process reads only a few hundred kilobytes, counted by the kernel
 * ({@code rchar} in {@code /proc/self/io}, every byte read by any read call; Linux only).
 * DEFLATED SDZ is left out: its entry must be inflated to reach the index at its end.
 */
class LazinessTest {
  private static final Path PROC_IO = Path.of("/proc/self/io");
  private static final int ARRAYS = 50;
  private static final int ELEMENTS = 1_000_000; // 4 MB each, 200 MB in all
  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"sdnb", "sdz", "fb", "sharded", "zip-tags", "container", "container-deflate",
      "container-sharded"})
  void indexOnlyOperationsReadNoArrayBytes(String format) throws IOException {
    assumeTrue(Files.isReadable(PROC_IO), "needs /proc/self/io");
    WriteOptions opts = switch (format) {
      case "sdnb" -> WriteOptions.of(ModelFormat.SDNB);
      case "sdz" -> WriteOptions.of(ModelFormat.SDZ);
      case "fb" -> WriteOptions.of(ModelFormat.FB);
      case "zip-tags" -> WriteOptions.of(ModelFormat.ZIP_TAGS);
      case "container" -> WriteOptions.of(ModelFormat.CONTAINER);
      case "container-deflate" -> WriteOptions.of(ModelFormat.CONTAINER).withDeflate(true);
      case "container-sharded" -> WriteOptions.of(ModelFormat.SHARDED_CONTAINER).withMaxShardBytes(30_000_000);
      default -> WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(30_000_000);
    };
    Path model = tmp.resolve(format.equals("sdz") ? "m.sdz" : format.equals("fb") ? "m.fb"
        : format.equals("zip-tags") ? "m.zip" : format.startsWith("container") ? "m.sdmc" : "m.sdnb");
    var synthetic = SyntheticModels.floats(tmp.resolve("data.bin"), ARRAYS, ELEMENTS);
    try (var data = synthetic.data()) {
      ModelFiles.write(synthetic.tag(), model, opts);
    }
    Files.delete(tmp.resolve("data.bin"));

    walkEverything(model); // load every class first: class loading reads jar bytes too
    long before = rchar();
    int files = walkEverything(model);
    long read = rchar() - before;
    // graph + graph.json, plus SDNB's three format keys as metadata (fb and zip-tags keep none)
    // (the container keeps no SDNB format keys either)
    assertEquals(ARRAYS + 2 + (format.equals("fb") || format.equals("zip-tags") || format.startsWith("container") ? 0
        : 3), files);
    assertTrue(read < 2_000_000, format + ": index-only operations read " + read + " bytes of a "
        + 4L * ARRAYS * ELEMENTS + "-byte model");
  }

  /** Mounts, walks with attributes of both views, checks existence and size; returns the file count. */
  private static int walkEverything(Path model) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(model)) {
      List<Path> all;
      try (Stream<Path> s = Files.walk(fs.getPath("/"))) {
        all = s.toList();
      }
      int files = 0;
      for (Path p : all) {
        Files.readAttributes(p, "samediff:*");
        if (Files.exists(p) && Files.isRegularFile(p)) {
          Files.size(p);
          files++;
        }
      }
      return files;
    }
  }

  private static long rchar() throws IOException {
    for (String line : Files.readAllLines(PROC_IO)) {
      if (line.startsWith("rchar:")) {
        return Long.parseLong(line.substring(6).trim());
      }
    }
    throw new IOException("no rchar in " + PROC_IO);
  }
}
