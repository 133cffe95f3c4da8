package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.modelfs.testing.CliRun;

/**
 * The local server of docs/OBJECT-STORES.md §6 ("Trying it locally"): the documented command is
 * the one s3/pom.xml's {@code s3proxy} profile runs, and {@link S3ProxyMain} serves its bucket on
 * 127.0.0.1 to the commands it prints.
 */
class S3ProxyMainTest {
  private static final String COMMAND = "mvn -q -pl s3 -Ps3proxy test-compile exec:java@s3proxy";

  @Test
  void theDocumentedCommandIsThePomsProfile() throws Exception {
    String doc = Files.readString(Path.of("..", "docs", "OBJECT-STORES.md"));
    assertTrue(doc.contains(COMMAND), "docs/OBJECT-STORES.md shows " + COMMAND);
    String pom = Files.readString(Path.of("pom.xml"));
    assertTrue(pom.contains("<id>s3proxy</id>") && pom.contains("<mainClass>org.modelfs.s3.S3ProxyMain</mainClass>"),
        "s3/pom.xml's s3proxy profile runs S3ProxyMain");
  }

  @Test
  void itServesItsBucketOnLoopbackToTheCommandsItPrints() throws Exception {
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    try (S3TestServer s3 = S3ProxyMain.start(0, new PrintStream(text, true, StandardCharsets.UTF_8))) {
      String printed = text.toString(StandardCharsets.UTF_8);
      String uri = "s3x://" + s3.endpoint() + "/" + S3TestServer.BUCKET + "/m.sdnb";
      assertTrue(printed.contains("http://127.0.0.1:" + s3.port()) && printed.contains(uri), printed);
      assertTrue(printed.contains("AWS_ACCESS_KEY_ID=" + S3TestServer.ACCESS) && printed.contains("S3_SPI_ENDPOINT_PROTOCOL=http"),
          printed);
      String withKeys = "s3x://" + S3TestServer.ACCESS + ":" + S3TestServer.SECRET + "@" + s3.endpoint() + "/"
          + S3TestServer.BUCKET + "/m.sdnb";
      CliRun.ok("convert", CliTest.FIXTURES.resolve("mlp_adam.fb").toString(), withKeys, "-q");
      assertTrue(CliRun.ok("info", withKeys).out().contains("format: sdnb"));
    }
  }
}
