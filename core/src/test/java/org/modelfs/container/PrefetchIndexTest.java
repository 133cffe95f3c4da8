package org.modelfs.container;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.format.WriteOptions;
import org.modelfs.io.ByteSource;
import org.modelfs.io.ChannelSource;
import org.modelfs.io.HeapSource;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.SyntheticModels;

/**
 * {@link Models#prefetch}: once a source's ends are held, what its format reads next is asked for
 * in one request — SDNB's FlatGraph, however large — and a format error found on the way is left
 * for the reader to report.
 */
class PrefetchIndexTest {
  @TempDir Path tmp;

  private record Asked(long position, long length) {}

  /** A source over {@code in} that says it prefetches and records what it is asked to. */
  private static final class Recording implements ByteSource {
    final ByteSource in;
    final List<Asked> asked = new CopyOnWriteArrayList<>();

    Recording(ByteSource in) {
      this.in = in;
    }

    @Override
    public String name() {
      return in.name();
    }

    @Override
    public long size() throws IOException {
      return in.size();
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      return in.read(dst, position);
    }

    @Override
    public boolean prefetches() {
      return true;
    }

    @Override
    public void prefetch(long position, long length) {
      asked.add(new Asked(position, length));
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }

  @Test
  void anSdnbFilesFlatGraphIsAskedForInOneRequestOnceItsEndsAreHeld() throws Exception {
    var synthetic = SyntheticModels.floats(tmp.resolve("m.data"), 40, 1024); // 40 arrays of 4 KiB, kept inline
    Path local = tmp.resolve("m.sdnb");
    try (var src = synthetic.data()) {
      ModelFiles.write(synthetic.tag(), local, WriteOptions.of(ModelFormat.SDNB));
    }
    try (Recording r = new Recording(ChannelSource.open(local))) {
      Models.prefetch(List.of(r), false);
      assertEquals(2, r.asked.size(), r.asked.toString());
      assertEquals(new Asked(0, 1), r.asked.get(0), "its head (a file under 1 MiB: no tail of its own)");
      Asked flatGraph = r.asked.get(1);
      assertEquals(32, flatGraph.position(), "the FlatGraph, right after the header");
      assertTrue(flatGraph.length() > 160 << 10 && flatGraph.length() < Files.size(local), flatGraph.toString());
    }
  }

  @Test
  void aFormatErrorIsLeftForTheReaderToReport() throws Exception {
    byte[] bad = new byte[4096];
    System.arraycopy("SDNB".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0, bad, 0, 4); // its magic, then nothing sane
    Recording r = new Recording(new HeapSource("bad.sdnb", bad));
    assertDoesNotThrow(() -> Models.prefetch(List.of(r), false));
    assertEquals(List.of(new Asked(0, 1)), r.asked);
  }
}
