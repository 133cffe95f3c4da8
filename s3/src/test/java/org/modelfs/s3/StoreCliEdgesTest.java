package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.testing.CliRun.ok;
import static org.modelfs.testing.CliRun.run;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.modelfs.ModelFileSystems;
import org.modelfs.store.StoreKeys;
import org.modelfs.testing.CliRun.Result;

/**
 * What a hostile trial of the CLI on {@code s3x://} paths found (issue 34): a key whose name is
 * longer than a local file name may be, a command's error naming a credentialed URI, and
 * {@code clean} in a bucket that does not exist.
 */
class StoreCliEdgesTest extends StoreTest {
  static final Path FIXTURES = Path.of(System.getProperty("modelfs.fixtures"));

  private static String uri(String key) {
    return s3.uri(key).toString();
  }

  /**
   * S3 takes names of up to 1,024 bytes; a local file system 255. The commit's local temporaries
   * are not named after the object: before, {@code convert} failed with "File name too long",
   * naming the local temporary.
   */
  @Test
  void aKeyLongerThanALocalFileNameIsWrittenAndEdited() throws Exception {
    Path fb = FIXTURES.resolve("mlp_adam.fb");
    String name = "l".repeat(600);
    String single = uri("long/" + name + ".fb");
    String shards = uri("long/" + name + ".sdnb");
    ok("convert", fb.toString(), single, "--quiet");
    ok("convert", fb.toString(), shards, "--max-shard-bytes", "256", "--quiet");
    byte[] w;
    try (FileSystem fs = ModelFileSystems.open(fb, Map.of("readOnly", "true"))) {
      w = Files.readAllBytes(fs.getPath("/params/layer0/W"));
    }
    byte[] zeros = new byte[w.length];
    Path z = Files.write(tmp.resolve("z.bin"), zeros);
    for (String m : new String[] {single, shards}) {
      assertEquals("", ok("verify", m, "--quiet").out());
      assertArrayEquals(w, ok("cat", m, "params/layer0/W").bytes());
      ok("cp", z.toString(), m + ":params/layer0/W", "--quiet"); // a commit of the model in the store
      assertArrayEquals(zeros, ok("cat", m, "params/layer0/W").bytes());
    }
  }

  /** Every error line names a URI without its {@code KEY:SECRET@} (store.Shown), whatever built the message. */
  @Test
  void noErrorShowsTheSecretOfAUri() throws Exception {
    String m = uri("secret/m.fb");
    assertTrue(m.contains(S3TestServer.SECRET), m);
    ok("convert", FIXTURES.resolve("mlp_adam.fb").toString(), m, "--quiet");
    Path bad = Files.write(tmp.resolve("b.bin"), new byte[3]);
    Result refused = run("cp", bad.toString(), m + ":params/layer0/W"); // the CLI's own message, from the argument
    assertEquals(2, refused.code());
    assertTrue(refused.err().contains("s3x://127.0.0.1:" + s3.port() + "/models/secret/m.fb"), refused.err());
    Result json = ok("clean", m, "--json");
    for (Result r : new Result[] {refused, json, run("diff", m, uri("secret/none.fb"), "--json")}) {
      assertFalse(r.err().contains(S3TestServer.SECRET) || r.out().contains(S3TestServer.SECRET), r.err() + r.out());
    }
  }

  /** As a local model in a directory that does not exist: said, not "nothing to remove". */
  @Test
  void cleanInABucketThatDoesNotExistSaysSo() {
    Result r = run("clean", s3.uri("m.fb").toString().replace("/models/", "/nobucket/"));
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("no such bucket 'nobucket'"), r.err());
    assertEquals("", ok("clean", uri("nothing/here.fb")).out(), "a missing model in a bucket: nothing to remove");
  }

  /**
   * Objects one character off what cleanup removes survive it: in a dead generation directory of
   * the model, shard names spelt otherwise than ModelFS writes them (leading zeros, a shard
   * number no set has); beside it, a plain "shard" no set can have. Before, the first two kinds
   * were deleted.
   */
  @Test
  void cleanKeepsLookAlikesOfItsOwnKeys() throws Exception {
    Path fb = FIXTURES.resolve("mlp_adam.fb");
    String m = uri("alike/m.sdnb");
    ok("convert", fb.toString(), m, "--max-shard-bytes", "256", "--quiet");
    String dead = "alike/" + StoreKeys.newGeneration("m.sdnb") + "/";
    List<String> ours = List.of(dead + "m.shard0-of-2.sdnb", dead + "m.shard1-of-2.sdnb");
    List<String> foreign = List.of(dead + "m.shard00-of-2.sdnb", dead + "m.shard0-of-02.sdnb",
        dead + "m.shard2-of-2.sdnb");
    Path any = Files.write(tmp.resolve("x"), new byte[] {1, 2, 3});
    for (String k : ours) {
      s3.upload(any, k);
    }
    for (String k : foreign) {
      s3.upload(any, k);
    }
    // the model object written again, strictly after them: they are leftovers by its clock
    ObjectLocation at = ObjectLocation.of(s3.path("alike/m.sdnb"));
    ObjectStore.Info base = at.store().head(at.bucket(), at.key());
    Instant written = at.store().head(at.bucket(), ours.get(0)).lastModified();
    while (!Instant.now().isAfter(written.plusSeconds(1))) {
      Thread.sleep(100); // the store's clock has one-second resolution
    }
    Path pointer = Files.write(tmp.resolve("pointer"), s3.bytes("alike/m.sdnb"));
    at.store().put(at.bucket(), at.key(), pointer, ObjectStore.Condition.etag(base.etag()), base.metadata());
    assertEquals(ours, ok("clean", m).out().lines().sorted().toList());
    for (String k : foreign) {
      assertArrayEquals(new byte[] {1, 2, 3}, s3.bytes(k), k);
    }
  }

  /** No credentials anywhere: one line that says where they are read from (the SDK's is a paragraph per provider). */
  @Test
  void noCredentialsAtAllSaysWhereTheyAreRead() {
    Assumptions.assumeTrue(System.getenv("AWS_ACCESS_KEY_ID") == null && System.getProperty("aws.accessKeyId") == null
        && !Files.exists(Path.of(System.getProperty("user.home"), ".aws")), "this machine has AWS credentials");
    // "LOCALHOST", no KEY:SECRET@: a file system (and client) of its own, with the SDK's default chain
    Result r = run("info", "s3x://LOCALHOST:" + s3.port() + "/" + S3TestServer.BUCKET + "/m.fb");
    assertEquals(2, r.code(), r.err());
    assertEquals(1, r.err().lines().count(), r.err());
    assertTrue(r.err().startsWith("modelfs info: s3x://LOCALHOST:" + s3.port() + "/models/m.fb: HEAD failed: no AWS"
        + " credentials were found — give them in the URI"), r.err());
  }
}
