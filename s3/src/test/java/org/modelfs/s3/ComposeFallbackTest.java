package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ModelFormat;
import org.modelfs.testing.VersionedModel;

/**
 * A store that does not compose objects from parts of others ({@code UploadPartCopy} answered
 * 501, as some S3-compatible stores do): the commit that learns it uploads the whole object and
 * succeeds, and later commits to that store do not ask again. (A class of its own: what a store
 * refused is remembered for the server's endpoint.)
 */
class ComposeFallbackTest extends StoreTest {
  private static final int ELEMENTS = 512 * 1024;

  private static void change(String key, int version) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(s3.path(key));
        SeekableByteChannel ch = Files.newByteChannel(fs.getPath("/params/big/w3"), StandardOpenOption.WRITE)) {
      byte[] b = new byte[1024];
      Arrays.fill(b, (byte) version);
      ch.write(ByteBuffer.wrap(b));
    }
  }

  private static int first(String key) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(s3.path(key), Map.of("readOnly", "true"))) {
      return Files.readAllBytes(fs.getPath("/params/big/w3"))[0];
    }
  }

  @Test
  void aStoreThatCannotComposeGetsTheWholeObjectOnceItSaysSo() throws Exception {
    Path local = VersionedModel.local(tmp, "m.sdnb", ModelFormat.SDNB, 6, ELEMENTS, 0);
    String key = "fallback/m.sdnb";
    s3.upload(local, key);
    change(key, 1); // stores the part digests
    long size = s3.bytes(key).length;
    s3.refuseCopies(true);
    try {
      s3.resetCounts();
      change(key, 2);
      assertEquals(2, first(key));
      assertTrue(s3.copyRequests() >= 1, "the commit asked the store to copy a part");
      assertEquals(0, s3.bytesCopied());
      assertTrue(s3.bytesUploaded() >= size, s3.bytesUploaded() + " bytes uploaded: the whole object of " + size);
      s3.resetCounts();
      change(key, 3);
      assertEquals(3, first(key));
      assertEquals(0, s3.copyRequests(), "the store's refusal is remembered");
    } finally {
      s3.refuseCopies(false);
    }
  }
}
