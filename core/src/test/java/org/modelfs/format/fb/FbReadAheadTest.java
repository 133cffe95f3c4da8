package org.modelfs.format.fb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.format.WriteOptions;
import org.modelfs.io.ByteSource;
import org.modelfs.io.ChannelSource;
import org.modelfs.model.GraphRef;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.SyntheticModels;

/**
 * Reading the index of an fb file whose tables lie one after another (many small inline arrays)
 * reads ahead ({@code FbBuffer}): a few reads per 64 KiB, not one per 4 KiB page — and never
 * more bytes than twice the file.
 */
class FbReadAheadTest {
  @TempDir Path tmp;

  /** Counts the reads and bytes of a source. */
  private static final class Counting implements ByteSource {
    final ByteSource inner;
    int reads;
    long bytes;

    Counting(ByteSource inner) {
      this.inner = inner;
    }

    @Override
    public String name() {
      return inner.name();
    }

    @Override
    public long size() throws IOException {
      return inner.size();
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      int n = inner.read(dst, position);
      reads++;
      bytes += Math.max(0, n);
      return n;
    }

    @Override
    public void close() throws IOException {
      inner.close();
    }
  }

  @Test
  void aWalkOverAdjacentTablesReadsAheadAndReadsEachByteAboutOnce() throws IOException {
    Path model = tmp.resolve("m.fb");
    var synthetic = SyntheticModels.floats(tmp.resolve("data.bin"), 2_000, 64); // 256 bytes each
    try (var data = synthetic.data()) {
      ModelFiles.write(synthetic.tag(), model, WriteOptions.of(ModelFormat.FB));
    }
    try (Counting src = new Counting(ChannelSource.open(model))) {
      long size = src.size();
      GraphReader.Content c = GraphReader.read(new GraphRef(src, 0, size, GraphRef.Convention.LEGACY), "m.fb");
      assertEquals(2_000, c.variables().size());
      long pages = (size + 4095) / 4096;
      // one read per 4 KiB page before read-ahead: about `pages` reads
      assertTrue(src.reads * 4L <= pages, src.reads + " reads for a " + size + "-byte graph of " + pages + " pages");
      assertTrue(src.bytes <= 2 * size, src.bytes + " bytes read of a " + size + "-byte graph");
    }
    Files.delete(model);
  }
}
