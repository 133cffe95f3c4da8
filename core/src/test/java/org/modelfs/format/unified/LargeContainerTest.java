package org.modelfs.format.unified;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.cli.Main;
import org.modelfs.container.Models;
import org.modelfs.format.JsonText;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.ArrayData;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.ChildJvm;
import org.modelfs.testing.FloatPattern;
import org.modelfs.testing.SyntheticModels;

/**
 * An array larger than 2 GiB through the container (docs/FORMATS.md §13.5) in a JVM with
 * {@code -Xmx256m}: SDNB → stored container → deflated container → SDNB by {@code convert},
 * each container checked by {@code verify} (every chunk's CRC), the stored one's chunks one
 * mappable range, and the values past 2 GiB read back from every step. Slow: it writes about
 * 10 GB ({@code -Pslow}).
 */
@Tag("slow")
class LargeContainerTest {
  /** 2.4 GB of floats: past 2 GiB. */
  static final int ELEMENTS = 600_000_000;
  static final long BYTES = 4L * ELEMENTS;

  @TempDir Path tmp;

  @Test
  void aParameterPastTwoGigabytesWith256MegabyteHeap() throws Exception {
    var synthetic = SyntheticModels.floats(tmp.resolve("data.bin"), 1, ELEMENTS);
    try (var data = synthetic.data()) {
      ModelFiles.write(synthetic.tag(), tmp.resolve("big.sdnb"), WriteOptions.of(ModelFormat.SDNB));
    }
    Files.delete(tmp.resolve("data.bin"));

    cli("convert", "--quiet", s("big.sdnb"), s("big.sdmc"));
    Files.delete(tmp.resolve("big.sdnb"));
    verify("big.sdmc");
    cli("convert", "--quiet", s("big.sdmc"), s("deflated.sdmc"), "--compression", "deflate", "--level", "1");
    verify("deflated.sdmc");
    cli("convert", "--quiet", s("deflated.sdmc"), s("back.sdnb"));

    long tail = BYTES - 4096;
    byte[] want = FloatPattern.bytes(0, tail, 4096);
    try (Model m = Models.open(tmp.resolve("big.sdmc"))) {
      ArrayData a = m.newest().variable("big/w0").array();
      assertEquals(BYTES, a.length());
      assertEquals(ArrayData.Storage.RAW, a.storage());
      assertTrue(a.source().mappable(0) != null, "a stored container array is mappable in place");
      assertEquals(a.source().mappable(0).position() + tail, a.source().mappable(tail).position(),
          "one contiguous range of the file across its " + (BYTES + ContainerLayout.STORED_CHUNK - 1)
              / ContainerLayout.STORED_CHUNK + " chunks");
    }
    try (FileSystem fs = FileSystems.newFileSystem(tmp.resolve("big.sdmc"));
        FileChannel ch = FileChannel.open(fs.getPath("/tags/default/params/big/w0"))) {
      MappedByteBuffer mapped = ch.map(FileChannel.MapMode.READ_ONLY, tail, 4096);
      byte[] got = new byte[4096];
      mapped.get(got);
      assertArrayEquals(want, got, "map() past 2 GiB");
    }
    for (String f : List.of("deflated.sdmc", "back.sdnb")) {
      try (Model m = Models.open(tmp.resolve(f))) {
        ArrayData a = m.newest().variable("big/w0").array();
        ByteBuffer got = ByteBuffer.allocate(4096);
        a.source().readFully(got, a.offset() + tail);
        assertArrayEquals(want, got.array(), f + ": the values past 2 GiB");
      }
    }
  }

  private String s(String name) {
    return tmp.resolve(name).toString();
  }

  private String cli(String... args) throws Exception {
    ChildJvm.Result r = ChildJvm.run(tmp.resolve("child.log"), 1800, List.of("-Xmx256m", "-Djava.io.tmpdir=" + tmp),
        Main.class, args);
    assertFalse(r.outOfMemory(), String.join(" ", args) + ": " + r.output());
    assertEquals(0, r.exit(), String.join(" ", args) + ": " + r.output());
    return r.output();
  }

  private void verify(String name) throws Exception {
    String out = cli("verify", "--json", "--quiet", s(name));
    Map<?, ?> json = (Map<?, ?>) JsonText.parse(out, 8, true);
    assertEquals(List.of(), json.get("problems"), name + ": " + out);
    assertEquals(BYTES, json.get("bytes"), name + ": " + out);
  }
}
