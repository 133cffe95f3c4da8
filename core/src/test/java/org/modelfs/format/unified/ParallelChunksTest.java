package org.modelfs.format.unified;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.container.Models;
import org.modelfs.io.DeflateWorkers;
import org.modelfs.model.Model;
import org.modelfs.testing.ModelTsv;
import org.modelfs.testing.SyntheticModels;

/**
 * A deflated container's chunks are compressed on the {@link DeflateWorkers} and written in
 * order (docs/FORMATS.md §13.7): the file's bytes are the same whatever the threads and the
 * number in flight, and it reads back with every value.
 */
class ParallelChunksTest {
  private static final ExecutorService FOUR = Executors.newFixedThreadPool(4);

  @TempDir Path tmp;

  @AfterAll
  static void stop() {
    FOUR.shutdownNow();
  }

  private byte[] write(SyntheticModels.Synthetic s, String name, DeflateWorkers w) throws IOException {
    Path out = tmp.resolve(name);
    try (FileChannel ch = FileChannel.open(out, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
        StandardOpenOption.READ)) {
      ContainerWriter.write(List.of(s.tag()), ch, out.toString(), 6, w);
    }
    return Files.readAllBytes(out);
  }

  @Test
  void theSameBytesWhateverTheThreadsAndEveryValueReadsBack() throws Exception {
    // 3 arrays of 1.2 MB: 5 chunks each, the last one short
    SyntheticModels.Synthetic s = SyntheticModels.floats(tmp.resolve("data"), 3, 300_000);
    try (var data = s.data()) {
      byte[] serial = write(s, "one.sdmc", new DeflateWorkers(FOUR, 1));
      assertArrayEquals(serial, write(s, "many.sdmc", new DeflateWorkers(FOUR, 7)));
      assertArrayEquals(serial, write(s, "shared.sdmc", DeflateWorkers.shared()));
      try (Model m = Models.open(tmp.resolve("many.sdmc"))) {
        assertEquals(ModelTsv.of(s.tag()), ModelTsv.of(m.newest()));
      }
    }
  }
}
