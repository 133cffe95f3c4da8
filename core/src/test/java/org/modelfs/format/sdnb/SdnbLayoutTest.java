package org.modelfs.format.sdnb;

import org.modelfs.store.ModelFiles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.model.ModelFormat;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.io.ChannelSource;
import org.modelfs.model.ArrayData;
import org.modelfs.model.Model;
import org.modelfs.model.Variable;
import org.modelfs.testing.SyntheticModels;

/** The SDNB files we write have the byte layout of docs/FORMATS.md §5.1 with 64-byte aligned blobs. */
class SdnbLayoutTest {
  @TempDir Path tmp;

  @Test
  void headerBlobsAndManifestFollowTheLayout() throws Exception {
    Path out = tmp.resolve("m.sdnb");
    var syn = SyntheticModels.floats(tmp.resolve("d.bin"), 3, 300_000); // 1.2 MB each: appended
    try (var d = syn.data()) {
      ModelFiles.write(syn.tag(), out, WriteOptions.of(ModelFormat.SDNB));
    }
    ByteBuffer h = ByteBuffer.wrap(Files.readAllBytes(out)).order(ByteOrder.BIG_ENDIAN);
    assertEquals(0x53444E42, h.getInt(0), "magic SDNB");
    assertEquals(1, h.getInt(4), "version");
    long mOff = h.getLong(8);
    long mLen = h.getLong(16);
    assertEquals(32, h.getLong(24), "metadata offset");
    assertEquals(Files.size(out), mOff + mLen, "manifest is last");
    assertEquals((byte) 0xAC, h.get((int) mOff));

    try (ChannelSource src = ChannelSource.open(out)) {
      SdnbHeader header = SdnbHeader.read(src);
      ByteBuffer mb = ByteBuffer.allocate((int) header.manifestLength());
      src.readFully(mb, header.manifestOffset());
      mb.flip();
      List<Manifest.Entry> entries = Manifest.read(mb, "m.sdnb", header.manifestOffset());
      assertEquals(3, entries.size());
      for (Manifest.Entry e : entries) {
        assertEquals(0, e.offset() % 64, e.name() + " blob is 64-byte aligned");
        assertEquals(1_200_000, e.length());
      }
    }
    try (Model m = Models.open(out)) {
      for (Variable v : m.newest().variables()) {
        ArrayData a = v.array();
        assertEquals(ArrayData.Storage.RAW, a.storage());
        assertEquals(0, a.offset() % 64);
        // bytes at the array's offset are the little-endian elements
        ByteBuffer first = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        a.source().readFully(first, a.offset() + 4);
        int i = Integer.parseInt(v.name().substring("big/w".length()));
        assertEquals(i + 1e-3f, first.getFloat(0), 1e-6f);
      }
    }
  }

  @Test
  void shardedWritePacksLargestFirstAndReadsBackByAnyName() throws Exception {
    var syn = SyntheticModels.floats(tmp.resolve("d.bin"), 4, 300_000);
    List<Path> files;
    try (var d = syn.data()) {
      files = ModelFiles.write(syn.tag(), tmp.resolve("s.sdnb"),
          WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(2_000_000));
    }
    assertEquals(5, files.size(), "graph shard + one weight shard per 1.2 MB array");
    assertTrue(files.get(0).getFileName().toString().equals("s.shard0-of-5.sdnb"));
    for (Path open : List.of(tmp.resolve("s.sdnb"), files.get(3), tmp.resolve("s"))) {
      try (Model m = Models.open(open)) {
        assertEquals(ModelFormat.SHARDED_SDNB, m.format());
        assertEquals(4, m.newest().arrays().size(), "opened as " + open.getFileName());
      }
    }
    // rewriting with another N removes the stale shards of the same base
    try (Model m = Models.open(tmp.resolve("s.sdnb"))) {
      ModelFiles.write(m.newest(), tmp.resolve("t.sdnb"), WriteOptions.of(ModelFormat.SDNB));
    }
    try (Model m = Models.open(tmp.resolve("t.sdnb"))) {
      ModelFiles.write(m.newest(), tmp.resolve("s.sdnb"),
          WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(3_000_000));
    }
    try (var ls = Files.list(tmp)) {
      assertEquals(3, ls.filter(p -> p.getFileName().toString().startsWith("s.shard")).count());
    }
  }
}
