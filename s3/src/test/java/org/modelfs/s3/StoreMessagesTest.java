package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.CommitRefusedException;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.cli.Main;
import org.modelfs.testing.CliRun;

/**
 * What a user trying the module sees (issue 30, docs/OBJECT-STORES.md §6): messages name the
 * {@code s3x://} URI as typed (without the credentials), a missing bucket is said in one line,
 * an HTTPS client at a plain-HTTP endpoint is told the setting, a convert's progress never claims
 * more than 100% of a total, and a run leaves no {@code aws-s3-nio-*} directory behind.
 */
class StoreMessagesTest {
  private static final S3TestServer s3 = serve();

  @TempDir Path tmp;

  private static S3TestServer serve() {
    try {
      return S3TestServer.start();
    } catch (Exception e) {
      throw new IllegalStateException("S3Proxy did not start", e);
    }
  }

  @AfterAll
  static void closeTheServer() throws Exception {
    s3.close();
  }

  /** The fixture uploaded as {@code key}; its URI with the credentials. */
  private static String uploaded(String key) throws Exception {
    s3.upload(CliTest.FIXTURES.resolve("mlp_adam.fb"), key);
    return s3.uri(key).toString();
  }

  private static String fixture() {
    return CliTest.FIXTURES.resolve("mlp_adam.fb").toString();
  }

  @Test
  void convertNamesTheUrisAsTypedWithoutCredentials() {
    String typed = s3.uri("messages/m.sdnb").toString();
    CliRun.Result r = CliRun.ok("convert", fixture(), typed);
    String shown = "s3x://" + s3.endpoint() + "/" + S3TestServer.BUCKET + "/messages/m.sdnb";
    assertTrue(r.err().contains(" to " + shown + " (sdnb)") && r.err().contains("wrote " + shown + " ("), r.err());
    assertFalse(r.err().contains(S3TestServer.SECRET), "no secret in messages: " + r.err());
    assertFalse(r.err().matches("(?s).*\\s/messages/m\\.sdnb.*"), "not the bare key: " + r.err());
    // the progress line (if the commit took a second): bytes of a total never past it
    assertFalse(r.err().matches("(?s).*\\(1\\d\\d%\\).*|.*\\((?:[2-9]\\d\\d|\\d{4,})%\\).*"), r.err());
  }

  /**
   * The file system's own exceptions name the object by its URI without the secret, as the CLI
   * does (store.Shown): a refused commit, and a commit against a generation another writer
   * replaced — never the bare key.
   */
  @Test
  void theFileSystemsExceptionsNameTheUri() throws Exception {
    uploaded("messages/refused.fb");
    String shown = "s3x://" + s3.endpoint() + "/" + S3TestServer.BUCKET + "/messages/refused.fb";
    try (FileSystem fs = ModelFileSystems.open(s3.path("messages/refused.fb"), Map.of("commitOnClose", false))) {
      Files.writeString(fs.getPath("/metadata/nd4j.format.type"), "hello"); // a key fb does not keep
      CommitRefusedException e = assertThrows(CommitRefusedException.class, () -> ((JournaledFileSystem) fs).commit());
      assertTrue(e.getMessage().startsWith(shown + ": commit refused"), e.getMessage());
      assertFalse(e.getMessage().contains(S3TestServer.SECRET), e.getMessage());
      ((JournaledFileSystem) fs).rollback();
      s3.upload(CliTest.FIXTURES.resolve("mlp_noupdater.fb"), "messages/refused.fb"); // another writer's commit
      Files.writeString(fs.getPath("/metadata/note"), "mine");
      FileSystemException changed = assertThrows(FileSystemException.class, () -> ((JournaledFileSystem) fs).commit());
      assertTrue(changed.getMessage().startsWith(shown + ": "), changed.getMessage());
      assertFalse(changed.getMessage().contains(S3TestServer.SECRET), changed.getMessage());
      ((JournaledFileSystem) fs).rollback();
    }
  }

  @Test
  void aMissingBucketIsSaidInOneLine() {
    for (String name : List.of("m.sdnb", "m.shard0-of-2.sdnb")) {
      String typed = "s3x://" + S3TestServer.ACCESS + ":" + S3TestServer.SECRET + "@" + s3.endpoint() + "/nobucket/" + name;
      CliRun.Result r = CliRun.run("info", typed);
      assertEquals(2, r.code(), r.err());
      assertEquals("modelfs info: no such bucket 'nobucket' (s3x://" + s3.endpoint() + "/nobucket/m.sdnb)\n", r.err());
    }
  }

  @Test
  void anHttpsClientAtAPlainHttpEndpointIsToldTheSetting() throws Exception {
    uploaded("messages/plain.fb");
    String old = System.clearProperty("s3.spi.endpoint-protocol");
    try {
      // "localhost": a file system (and client) of its own, made without the protocol setting
      String typed = "s3x://" + S3TestServer.ACCESS + ":" + S3TestServer.SECRET + "@localhost:" + s3.port()
          + "/" + S3TestServer.BUCKET + "/messages/plain.fb";
      CliRun.Result r = CliRun.run("info", typed);
      assertEquals(2, r.code(), r.err());
      assertEquals(1, r.err().lines().count(), r.err());
      assertTrue(r.err().startsWith("modelfs info: s3x://localhost:" + s3.port() + "/" + S3TestServer.BUCKET
          + "/messages/plain.fb: "), r.err());
      assertTrue(r.err().contains(StoreFailures.PROTOCOL_HINT), r.err());
    } finally {
      System.setProperty("s3.spi.endpoint-protocol", old);
    }
  }

  @Test
  void aRunLeavesNoProviderDirectoryInTheTemporaryDirectory() throws Exception {
    String typed = uploaded("messages/temp.fb");
    Path tmpdir = Files.createDirectory(tmp.resolve("tmpdir"));
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Djava.io.tmpdir=" + tmpdir, "-Daws.region=us-east-1", "-Daws.disableEc2Metadata=true",
        "-Ds3.spi.endpoint-protocol=http", "-Ds3.spi.force-path-style=true",
        "-cp", System.getProperty("java.class.path"), Main.class.getName(), "info", typed));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(tmp.resolve("out.txt").toFile()).start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the CLI did not finish");
    String out = Files.readString(tmp.resolve("out.txt"), StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), out);
    assertTrue(out.contains("format: fb"), out);
    try (Stream<Path> s = Files.list(tmpdir)) {
      assertEquals(List.of(), s.map(x -> x.getFileName().toString()).filter(n -> n.startsWith("aws-s3-nio-")).toList());
    }
  }

  @Test
  void aProviderDirectoryHoldingAFileIsLeftAlone() throws Exception {
    CliRun.ok("info", uploaded("messages/kept.fb"));
    Set<Path> dirs = ProviderTempDirs.registered();
    assertFalse(dirs.isEmpty(), "the mount noted its file system's directory");
    Path staging = dirs.iterator().next().resolve("staging");
    Files.writeString(staging, "the provider's");
    try {
      ProviderTempDirs.deleteEmpty();
      assertTrue(Files.exists(staging), "a directory holding a file is not ours to remove");
    } finally {
      Files.deleteIfExists(staging);
      for (Path d : dirs) {
        Files.createDirectories(d); // the provider's file systems live on in this JVM
      }
    }
  }
}
