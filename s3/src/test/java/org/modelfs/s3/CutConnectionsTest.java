package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.testing.CutProxy;
import org.modelfs.testing.VersionedModel;

/**
 * A store whose connections are cut mid-answer (a GET answering fewer bytes than it said, the
 * connection closed in the middle of a body): a mount reads on with the same bytes (the request
 * retried) or fails with an IOException naming the object, never short or other bytes, never a hang.
 */
class CutConnectionsTest {
  static S3TestServer s3;
  static CutProxy proxy;
  @TempDir Path tmp;

  @BeforeAll
  static void start() throws Exception {
    s3 = S3TestServer.start();
    proxy = new CutProxy(s3.port());
  }

  @AfterAll
  static void stop() throws Exception {
    proxy.close();
    s3.close();
  }

  @ParameterizedTest
  @ValueSource(strings = {"sdnb", "sdz-deflated", "sdz"})
  void cutAnswersAreRetriedOrFailNeverShort(String format) throws Exception {
    Path local = tmp.resolve("m." + (format.equals("sdnb") ? "sdnb" : "sdz"));
    TestModels.floats(local, 6, 200_000, TestModels.options(format));
    String key = "cut-" + format + "/" + local.getFileName();
    s3.upload(local, key);
    byte[][] want = VersionedModel.bytes(local, 6);
    Path remote = S3TestServer.path(proxy.port(), key);
    proxy.cut(3, 20_000);
    byte[][] got = VersionedModel.bytes(remote, 6);
    for (int i = 0; i < 6; i++) {
      assertArrayEquals(want[i], got[i], "w" + i);
    }
    assertTrue(proxy.cutSoFar() > 0, "some answers were cut");
    proxy.cut(Integer.MAX_VALUE, 20_000);
    try {
      IOException e = assertThrows(IOException.class, () -> VersionedModel.bytes(remote, 6));
      assertTrue(e.getMessage().contains(key), "names the object: " + e);
    } finally {
      proxy.cut(0, Long.MAX_VALUE);
    }
  }
}
