package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.testing.CliRun.run;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.modelfs.testing.CliRun.Result;

/**
 * Each {@code s3x://KEY:SECRET@…} URI is served with its own credentials, in one JVM (the AWS NIO
 * provider 2.3.0 keeps one file system per access key, whatever the secret: docs/OBJECT-STORES.md
 * §1). S3Proxy checks every request's signature: a wrong secret first, then the right one, works;
 * the right one first, then a wrong secret or none, is refused — through the CLI's arguments and
 * through {@code samediff:} URIs, also while the right one's mount is open.
 */
class UriCredentialsTest {
  private static final Path FIXTURES = Path.of(System.getProperty("modelfs.fixtures"));
  private S3TestServer s3;

  @BeforeEach
  void start() throws Exception {
    s3 = S3TestServer.start(); // a new endpoint each time: nothing cached from another test
    s3.upload(FIXTURES.resolve("mlp_adam.fb"), "c/m.fb");
  }

  @AfterEach
  void stop() throws Exception {
    s3.close();
  }

  private String uri(String userInfo) {
    return "s3x://" + userInfo + "@" + s3.endpoint() + "/" + S3TestServer.BUCKET + "/c/m.fb";
  }

  private String right() {
    return uri(S3TestServer.ACCESS + ":" + S3TestServer.SECRET);
  }

  private String wrong() {
    return uri(S3TestServer.ACCESS + ":not-the-secret");
  }

  private static void refused(Result r) {
    assertNotEquals(0, r.code(), r.out());
    assertTrue(r.err().contains("c/m.fb") && !r.err().contains("not-the-secret"), r.err());
  }

  @Test
  void aWrongSecretFirstDoesNotMakeTheRightOneFail() {
    refused(run("info", wrong()));
    Result ok = run("info", right());
    assertEquals(0, ok.code(), ok.err());
  }

  @Test
  void theRightSecretFirstDoesNotLetAWrongOneOrNoneIn() {
    Result ok = run("info", right());
    assertEquals(0, ok.code(), ok.err());
    refused(run("info", wrong()));
    refused(run("info", uri(S3TestServer.ACCESS)));
    assertEquals(0, run("info", right()).code(), "the right one still works");
  }

  /** A URI with credentials but no bucket is a usage error naming it (the provider's own parser threw an index error). */
  @Test
  void aUriWithCredentialsAndNoBucketIsAUsageError() {
    for (String bad : new String[] {"s3x://k:s@" + "127.0.0.1:1/", "s3x://k:s@127.0.0.1:1"}) {
      Result r = run("info", bad);
      assertEquals(2, r.code(), r.err());
      assertTrue(r.err().contains("no bucket") && !r.err().contains("k:s@"), r.err());
    }
  }

  @Test
  void aMountByUriIsFoundOnlyWithItsOwnCredentials() throws Exception {
    URI rightRoot = URI.create("samediff:" + right() + "!/");
    URI wrongRoot = URI.create("samediff:" + wrong() + "!/");
    byte[] w;
    try (FileSystem fs = FileSystems.newFileSystem(rightRoot, Map.of("readOnly", "true"))) {
      w = Files.readAllBytes(fs.getPath("/params/layer0/W"));
      assertEquals(fs, FileSystems.getFileSystem(rightRoot));
      assertThrows(FileSystemNotFoundException.class, () -> FileSystems.getFileSystem(wrongRoot));
      assertThrows(FileSystemNotFoundException.class, () -> Path.of(URI.create("samediff:" + wrong()
          + "!/params/layer0/W")));
      assertThrows(IOException.class, () -> FileSystems.newFileSystem(wrongRoot, Map.of("readOnly", "true")).close());
    }
    assertThrows(IOException.class, () -> FileSystems.newFileSystem(wrongRoot, Map.of("readOnly", "true")).close());
    try (FileSystem again = FileSystems.newFileSystem(rightRoot, Map.of("readOnly", "true"))) {
      assertArrayEquals(w, Files.readAllBytes(again.getPath("/params/layer0/W")));
    }
  }
}
