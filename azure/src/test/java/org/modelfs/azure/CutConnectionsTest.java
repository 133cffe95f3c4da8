package org.modelfs.azure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.storage.blob.BlobContainerClient;
import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.model.ModelFormat;
import org.modelfs.testing.CutProxy;
import org.modelfs.testing.VersionedModel;

/**
 * Azurite behind a proxy that cuts connections mid-answer (a download answering fewer bytes than
 * it said, the connection closed in the middle of a body): a mount reads on with the same bytes
 * (the request retried) or fails with an IOException naming the blob, never short or other bytes,
 * never a hang (as s3's CutConnectionsTest).
 */
class CutConnectionsTest extends AzureTest {
  static CutProxy proxy;
  static BlobContainerClient cut;
  static FileSystem store;

  @BeforeAll
  static void startProxy() throws Exception {
    proxy = new CutProxy(azurite.port);
    cut = azurite.newContainer("cut");
    store = FileSystems.newFileSystem(URI.create("azb://" + cut.getBlobContainerName() + "/"),
        Map.of("connectionString", Azurite.connectionString(proxy.port())));
  }

  @AfterAll
  static void stopProxy() throws Exception {
    store.close();
    proxy.close();
  }

  /** A model of 6 parameters of 200,000 floats in {@code format}, uploaded; its path through the proxy. */
  private Path model(String format) throws IOException {
    String name = "m." + format;
    Path local = VersionedModel.local(tmp, name, format.equals("sdnb") ? ModelFormat.SDNB : ModelFormat.SDZ, 6,
        200_000, 0);
    cut.getBlobClient(format + "/" + name).uploadFromFile(local.toString(), true);
    return local;
  }

  /** One answer cut: the SDK's retry (after its 4 s back-off) reads the same bytes. */
  @ParameterizedTest
  @ValueSource(strings = {"sdnb", "sdz"})
  void aCutAnswerIsRetried(String format) throws Exception {
    Path local = model(format);
    byte[][] want = VersionedModel.bytes(local, 6);
    proxy.cut(1, 20_000);
    byte[][] got = VersionedModel.bytes(store.getPath("/" + format + "/" + local.getFileName()), 6);
    for (int i = 0; i < 6; i++) {
      assertArrayEquals(want[i], got[i], "w" + i);
    }
    assertTrue(proxy.cutSoFar() > 0, "an answer was cut");
  }

  /** Every answer cut: an IOException naming the blob once the SDK's retries are spent (~30 s: slow). */
  @Test
  @Tag("slow")
  void everyAnswerCutFailsNamingTheBlob() throws Exception {
    Path local = model("sdnb");
    proxy.cut(Integer.MAX_VALUE, 20_000);
    try {
      IOException e = assertThrows(IOException.class, () -> VersionedModel.bytes(store.getPath("/sdnb/" + local.getFileName()), 6));
      assertTrue(e.getMessage().contains("sdnb/m.sdnb"), "names the blob: " + e);
    } finally {
      proxy.cut(0, Long.MAX_VALUE);
    }
  }
}
