package org.modelfs.provider;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.SyntheticModels;

/**
 * A journal file that grew after a commit mapped its first window: the next commit maps the
 * window again (found by the issue-18 review: IndexOutOfBoundsException from the short mapping).
 */
class GrownJournalTest {
  @TempDir Path tmp;

  @Test
  void aSecondCommitOfAJournalFileThatGrew() throws Exception {
    Path fb = tmp.resolve("m.fb");
    var synthetic = SyntheticModels.floats(tmp.resolve("d"), 1, 100);
    try (var data = synthetic.data()) {
      ModelFiles.write(synthetic.tag(), fb, WriteOptions.of(ModelFormat.FB));
    }
    int half = 1_500_000;
    try (FileSystem fs = ModelFileSystems.open(fb, Map.of("commitOnClose", "false"))) {
      Path fresh = fs.getPath("/params/fresh");
      FileChannel b;
      try (FileChannel a = FileChannel.open(fresh, StandardOpenOption.WRITE, StandardOpenOption.CREATE)) {
        b = FileChannel.open(fresh, StandardOpenOption.WRITE, StandardOpenOption.CREATE);
        a.write(ByteBuffer.allocate(half));
      }
      ((JournaledFileSystem) fs).commit();
      b.write(ByteBuffer.allocate(half), half);
      b.close();
      ((JournaledFileSystem) fs).commit();
    }
  }
}
