package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.testing.CliRun.ok;
import static org.modelfs.testing.CliRun.run;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.cli.Main;
import org.modelfs.store.Backings;
import org.modelfs.store.StoreKeys;
import org.modelfs.testing.CliRun.Result;

/**
 * The {@code modelfs} commands on {@code s3x://} paths, run in this JVM through {@link Main#run}
 * against S3Proxy on 127.0.0.1: reading ({@code info}, {@code tree}, {@code cat}, {@code export},
 * {@code verify}), copying a parameter each way (into the store: a commit), {@code convert} both
 * ways (into the store as fb, sdnb and a sharded sdnb: a generation and its pointer), and
 * {@code clean}.
 */
class CliTest {
  static final Path FIXTURES = Path.of(System.getProperty("modelfs.fixtures"));
  private static S3TestServer s3;
  private static byte[] w;

  @TempDir Path tmp;

  @BeforeAll
  static void start() throws Exception {
    s3 = S3TestServer.start();
    try (FileSystem fs = ModelFileSystems.open(FIXTURES.resolve("mlp_adam.fb"), Map.of("readOnly", "true"))) {
      w = Files.readAllBytes(fs.getPath("/params/layer0/W"));
    }
  }

  @AfterAll
  static void stop() throws Exception {
    s3.close();
  }

  /** The user's spelling of a key: {@code s3x://access:secret@127.0.0.1:PORT/models/KEY}. */
  static String uri(String key) {
    return s3.uri(key).toString();
  }

  /** The fixture uploaded as {@code key}. */
  static String uploaded(String key) throws Exception {
    s3.upload(FIXTURES.resolve("mlp_adam.fb"), key);
    return uri(key);
  }

  private byte[] localW(Path model) throws Exception {
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      return Files.readAllBytes(fs.getPath("/params/layer0/W"));
    }
  }

  private Path zeroedCopy(String name) throws Exception {
    Path local = Files.copy(FIXTURES.resolve("mlp_adam.fb"), tmp.resolve(name));
    try (FileSystem fs = ModelFileSystems.open(local)) {
      Files.write(fs.getPath("/params/layer0/W"), new byte[w.length]);
    }
    return local;
  }

  @Test
  void infoTreeCatVerifyOfAStoreModel() throws Exception {
    String m = uploaded("read/m.fb");
    Result info = ok("info", m);
    assertTrue(info.out().contains("format: fb"), info.out());
    assertTrue(info.out().matches("(?s).*VARIABLE\\s+FLOAT\\s+\\[4, 8]\\s+128\\s+big-endian\\s+layer0/W\n.*"), info.out());
    Result tree = ok("tree", m, "/params/layer0");
    assertTrue(tree.out().contains("W  128 B  VARIABLE FLOAT [4, 8] c big-endian"), tree.out());
    assertArrayEquals(w, ok("cat", m, "/params/layer0/W").bytes());
    assertEquals("", ok("verify", m, "--quiet").out());
    Result missing = run("info", uri("read/none.fb"));
    assertEquals(2, missing.code());
    assertTrue(missing.err().startsWith("modelfs info: ") && missing.err().contains("none.fb"), missing.err());
  }

  @Test
  void cpOfAParameterFromTheStoreIntoALocalModel() throws Exception {
    String m = uploaded("cp-from/m.fb");
    Path local = zeroedCopy("local.fb");
    ok("cp", m + ":/params/layer0/W", local + ":/params/layer0/W", "--quiet");
    assertArrayEquals(w, localW(local));
    Path disk = tmp.resolve("w.bin");
    ok("cp", m + ":params/layer0/W", disk.toString());
    assertArrayEquals(w, Files.readAllBytes(disk));
  }

  @Test
  void cpOfAParameterFromALocalModelIntoTheStoreCommits() throws Exception {
    String m = uploaded("cp-to/m.fb");
    byte[] before = s3.bytes("cp-to/m.fb");
    Path local = zeroedCopy("local.fb");
    ok("cp", local + ":/params/layer0/W", m + ":/params/layer0/W", "--quiet");
    assertNotEquals(List.of(before), List.of(s3.bytes("cp-to/m.fb")));
    assertArrayEquals(new byte[w.length], ok("cat", m, "/params/layer0/W").bytes());
    assertEquals(List.of("cp-to/m.fb"), keysUnder("cp-to/"), "one object, nothing beside it");
  }

  @Test
  void exportOfAStoreModelsParameterToALocalFile() throws Exception {
    String m = uploaded("export/m.fb");
    Path fromStore = tmp.resolve("s.npy");
    Path fromLocal = tmp.resolve("l.npy");
    ok("export", m + "#default:layer0/W", fromStore.toString(), "--quiet");
    ok("export", FIXTURES.resolve("mlp_adam.fb") + ":layer0/W", fromLocal.toString(), "--quiet");
    assertArrayEquals(Files.readAllBytes(fromLocal), Files.readAllBytes(fromStore));
    Path st = tmp.resolve("m.safetensors");
    ok("export", m, st.toString(), "--quiet");
    assertTrue(Files.size(st) > w.length);
  }

  @Test
  void convertFromTheStoreToALocalFile() throws Exception {
    String m = uploaded("convert-from/m.fb");
    Path out = tmp.resolve("m.sdnb");
    ok("convert", m, out.toString(), "--quiet");
    assertArrayEquals(w, localW(out));
    assertTrue(ok("diff", m, out.toString()).out().matches("0 changed, 0 added, 0 removed, \\d+ identical\n"));
  }

  @Test
  void convertFromALocalModelToStoreKeys() throws Exception {
    Path local = FIXTURES.resolve("mlp_adam.fb");
    for (String name : List.of("m.fb", "m.sdnb")) {
      ok("convert", local.toString(), uri("convert-to/" + name), "--quiet");
      assertArrayEquals(w, ok("cat", uri("convert-to/" + name), "/params/layer0/W").bytes(), name);
    }
    ok("convert", local.toString(), uri("convert-to/s.sdnb"), "--max-shard-bytes", "256", "--quiet");
    List<String> keys = keysUnder("convert-to/");
    List<String> shards = keys.stream().filter(k -> k.startsWith("convert-to/s.sdnb.modelfs-g")).toList();
    assertTrue(shards.size() > 1, keys.toString());
    String generation = shards.get(0).substring(0, shards.get(0).indexOf('/', "convert-to/".length()) + 1);
    for (String s : shards) {
      assertTrue(s.startsWith(generation) && s.matches(".*/s\\.shard\\d+-of-" + shards.size() + "\\.sdnb"), s);
    }
    assertTrue(keys.contains("convert-to/s.sdnb"), "the pointer, the commit point: " + keys);
    String s = uri("convert-to/s.sdnb");
    assertTrue(ok("info", s).out().contains("format: sdnb-sharded"), ok("info", s).out());
    assertEquals("", ok("verify", s, "--quiet").out());
    assertTrue(ok("diff", s, local.toString()).out().matches("0 changed, 0 added, 0 removed, \\d+ identical\n"));
  }

  /**
   * A dead commit's generation objects older than the model object go; the current and the
   * previous generation stay; objects that are not ours (other keys, look-alike names, another
   * model's generation) are never touched.
   */
  @Test
  void cleanRemovesDeadGenerationsOnly() throws Exception {
    Path local = FIXTURES.resolve("mlp_adam.fb");
    String m = uri("clean/m.sdnb");
    ok("convert", local.toString(), m, "--max-shard-bytes", "256", "--quiet"); // generation 1
    ok("convert", local.toString(), m, "--max-shard-bytes", "256", "--quiet"); // generation 2, previous 1
    List<String> committed = keysUnder("clean/");
    String dead = "clean/" + StoreKeys.newGeneration("m.sdnb") + "/";
    List<String> deadKeys = List.of(dead + "m.shard0-of-2.sdnb", dead + "m.shard1-of-2.sdnb");
    String other = "clean/" + StoreKeys.newGeneration("n.sdnb") + "/n.shard0-of-2.sdnb";
    List<String> notOurs = List.of(
        other,                                                    // another model's generation
        "clean/m.sdnb.modelfs-gnot-hex/m.shard0-of-2.sdnb",       // a look-alike directory
        dead + "notes.txt",                                       // not a shard name
        dead + "n.shard0-of-2.sdnb",                              // another base's shard name
        "clean/m.sdnb.backup",                                    // another key
        "clean/m.shard0-of-2.sdnb.old");
    Path any = Files.write(tmp.resolve("x"), new byte[] {1, 2, 3});
    for (String k : concat(deadKeys, notOurs)) {
      s3.upload(any, k);
    }
    // the model object replaced later (a commit that died after its commit point, before its own
    // cleanup): the same pointer PUT again with its metadata, strictly after the dead objects
    ObjectLocation at = ObjectLocation.of(s3.path("clean/m.sdnb"));
    ObjectStore.Info base = at.store().head(at.bucket(), at.key());
    ObjectStore.Info deadInfo = at.store().head(at.bucket(), deadKeys.get(0));
    while (!Instant.now().isAfter(deadInfo.lastModified().plusSeconds(1))) {
      Thread.sleep(100); // the store's clock has one-second resolution
    }
    Path pointer = Files.write(tmp.resolve("pointer"), s3.bytes("clean/m.sdnb"));
    at.store().put(at.bucket(), at.key(), pointer, ObjectStore.Condition.etag(base.etag()), base.metadata());

    Result r = ok("clean", m);
    assertEquals(deadKeys, r.out().lines().sorted().toList());
    List<String> expected = new ArrayList<>(concat(committed, notOurs));
    expected.sort(null);
    assertEquals(expected, keysUnder("clean/"), "both committed generations and everything not ours kept");
    assertEquals(2, committed.stream().map(k -> k.split("/")[1]).filter(g -> g.startsWith("m.sdnb.modelfs-g"))
        .distinct().count(), committed.toString());
    assertEquals("", ok("clean", m).out());
    assertTrue(ok("clean", m, "--json").out().contains("\"removed\": []"));
    assertEquals("", ok("verify", m, "--quiet").out());
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  private static List<String> keysUnder(String prefix) {
    return s3.keys().stream().filter(k -> k.startsWith(prefix)).toList();
  }

  @Test
  void keysOutsideUriSyntaxArePercentEncoded() throws Exception {
    s3.upload(FIXTURES.resolve("mlp_adam.fb"), "odd/a b#1.fb");
    String m = uri("odd/a%20b%231.fb");
    assertTrue(ok("info", m).out().contains("format: fb"));
    assertArrayEquals(w, ok("cat", m, "params/layer0/W").bytes());
    assertArrayEquals(w, ok("cp", m + ":params/layer0/W", "-").bytes());
    String bucket = "s3x://" + S3TestServer.ACCESS + ":" + S3TestServer.SECRET + "@" + s3.endpoint() + "/"
        + S3TestServer.BUCKET + "/";
    Result hash = run("info", bucket + "odd/a%20b#1.fb");
    assertEquals(2, hash.code());
    assertTrue(hash.err().contains("write %23 for a '#' in an object's key"), hash.err());
    Result space = run("info", bucket + "odd/a b%231.fb");
    assertEquals(2, space.code());
    assertTrue(space.err().contains("a space as %20"), space.err());
  }

  @Test
  void theSchemeColonIsNoModelPathColon() {
    Result r = run("cp", uri("nothing/m.fb") + ":/params/W", "w.bin");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("nothing/m.fb:/params/W") && r.err().contains("no model file"), r.err());
    assertFalse(r.err().contains("'s3x"), r.err());
  }

  /**
   * The other side of the rule {@code store.OutputFile} owns: the S3 provider writes plain files,
   * so cp and export to an {@code s3x://} file are not refused (as HDFS and Blob Storage outputs
   * are): the bytes land at the key, and no temporary is left beside it.
   */
  @Test
  void aPlainFileOutputIsWrittenThroughTheProvider() throws Exception {
    String m = FIXTURES.resolve("mlp_adam.fb").toString();
    ok("cp", m + ":params/layer0/W", uri("plain/w.bin"), "--quiet");
    ok("export", m + ":params/layer0/W", uri("plain/w.npy"), "--quiet");
    assertArrayEquals(w, s3.bytes("plain/w.bin"));
    assertNull(Backings.modelsOnly(s3.path("plain/w.bin")));
    assertEquals(List.of("plain/w.bin", "plain/w.npy"), s3.keys().stream().filter(k -> k.startsWith("plain/"))
        .sorted().toList());
  }
}
