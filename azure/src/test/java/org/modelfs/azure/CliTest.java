package org.modelfs.azure;

import org.modelfs.store.OutputFile;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.testing.CliRun.ok;
import static org.modelfs.testing.CliRun.run;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.modelfs.ModelFileSystems;
import org.modelfs.cli.Main;
import org.modelfs.store.StoreKeys;
import org.modelfs.testing.CliRun.Result;

/**
 * The {@code modelfs} commands on {@code azb://} paths, run in this JVM through {@link Main#run}
 * against Azurite: {@code info}, {@code ls}, {@code cat}, {@code verify}, {@code cp} each way (into
 * the store: a commit), {@code convert} both ways (into the store as fb and as a sharded sdnb: a
 * generation and its pointer), and {@code clean}.
 */
class CliTest extends AzureTest {
  private static byte[] w;

  @BeforeAll
  static void parameter() throws Exception {
    try (FileSystem fs = ModelFileSystems.open(FIXTURES.resolve("mlp_adam.fb"), Map.of("readOnly", "true"))) {
      w = Files.readAllBytes(fs.getPath("/params/layer0/W"));
    }
  }

  private static String uploaded(String key) {
    return upload(FIXTURES.resolve("mlp_adam.fb"), key);
  }

  @Test
  void infoLsCatVerifyOfAStoreModel() {
    String m = uploaded("read/m.fb");
    assertTrue(ok("info", m).out().contains("format: fb"));
    assertTrue(ok("ls", m, "/params/layer0").out().contains("W"), ok("ls", m, "/params/layer0").out());
    assertArrayEquals(w, ok("cat", m, "/params/layer0/W").bytes());
    assertEquals("", ok("verify", m, "--quiet").out());
    Result missing = run("info", uri("read/none.fb"));
    assertEquals(2, missing.code());
    assertTrue(missing.err().startsWith("modelfs info: ") && missing.err().contains("none.fb"), missing.err());
    assertFalse(missing.err().contains(Azurite.KEY), missing.err());
  }

  @Test
  void cpEachWay() throws Exception {
    String m = uploaded("cp/m.fb");
    Path local = Files.copy(FIXTURES.resolve("mlp_adam.fb"), tmp.resolve("local.fb"));
    try (FileSystem fs = ModelFileSystems.open(local)) {
      Files.write(fs.getPath("/params/layer0/W"), new byte[w.length]);
    }
    Path disk = tmp.resolve("w.bin");
    ok("cp", m + ":params/layer0/W", disk.toString());
    assertArrayEquals(w, Files.readAllBytes(disk));
    ok("cp", local + ":/params/layer0/W", m + ":/params/layer0/W", "--quiet");
    assertArrayEquals(new byte[w.length], ok("cat", m, "/params/layer0/W").bytes());
    assertEquals(List.of("cp/m.fb"), keys("cp/"), "one blob, nothing beside it");
  }

  @Test
  void convertBothWays() throws Exception {
    Path local = FIXTURES.resolve("mlp_adam.fb");
    String m = uri("convert/m.fb");
    ok("convert", local.toString(), m, "--quiet");
    assertArrayEquals(w, ok("cat", m, "/params/layer0/W").bytes());
    Path back = tmp.resolve("back.sdnb");
    ok("convert", m, back.toString(), "--quiet");
    assertTrue(ok("diff", m, back.toString()).out().matches("0 changed, 0 added, 0 removed, \\d+ identical\n"));
    String s = uri("convert/s.sdnb");
    ok("convert", local.toString(), s, "--max-shard-bytes", "1024", "--quiet");
    List<String> shards = keys("convert/s.sdnb.modelfs-g");
    assertTrue(shards.size() > 1, shards.toString());
    assertTrue(keys("convert/").contains("convert/s.sdnb"), "the pointer, the commit point");
    assertTrue(ok("info", s).out().contains("format: sdnb-sharded"));
    assertEquals("", ok("verify", s, "--quiet").out());
    assertTrue(ok("diff", s, local.toString()).out().matches("0 changed, 0 added, 0 removed, \\d+ identical\n"));
  }

  /**
   * A dead commit's generation blobs older than the model blob go; what the current and the
   * previous commit name stays; blobs that are not ours (look-alikes, another model's) stay.
   */
  @Test
  void cleanRemovesDeadGenerationsOnly() throws Exception {
    Path local = FIXTURES.resolve("mlp_adam.fb");
    String m = uri("clean/m.sdnb");
    ok("convert", local.toString(), m, "--max-shard-bytes", "1024", "--quiet");
    ok("convert", local.toString(), m, "--max-shard-bytes", "1024", "--quiet");
    List<String> committed = keys("clean/");
    String dead = "clean/" + StoreKeys.newGeneration("m.sdnb") + "/";
    List<String> deadKeys = List.of(dead + "m.shard0-of-2.sdnb", dead + "m.shard1-of-2.sdnb");
    List<String> notOurs = List.of("clean/" + StoreKeys.newGeneration("n.sdnb") + "/n.shard0-of-2.sdnb",
        "clean/m.sdnb.modelfs-gnot-hex/m.shard0-of-2.sdnb", dead + "notes.txt", dead + "n.shard0-of-2.sdnb",
        "clean/m.sdnb.backup", "clean/m.shard0-of-2.sdnb.old");
    Path any = Files.write(tmp.resolve("x"), new byte[] {1, 2, 3});
    List<String> all = new ArrayList<>(deadKeys);
    all.addAll(notOurs);
    for (String k : all) {
      upload(any, k);
    }
    Thread.sleep(1100); // the service dates blobs to the second: the model blob strictly after them
    ok("convert", local.toString(), m, "--max-shard-bytes", "1024", "--quiet");
    List<String> left = keys("clean/");
    for (String k : notOurs) {
      assertTrue(left.contains(k), "not ours, kept: " + k);
    }
    for (String k : deadKeys) {
      assertFalse(left.contains(k), "a dead generation's shard, removed by the commit's cleanup: " + k);
    }
    assertEquals("", ok("clean", m).out());
    assertEquals("", ok("verify", m, "--quiet").out());
  }

  @Test
  void aUriWithoutAnAccountOrContainerSaysWhat() {
    Result r = run("info", "azb://Bad_Name/m.fb");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("container name"), r.err());
  }

  /**
   * A plain file (not a model) named in Blob Storage as the output of cp or export is refused up
   * front, naming the output as typed and saying why; nothing is written.
   */
  @Test
  void aPlainFileOutputIsRefusedNamingIt() {
    String m = FIXTURES.resolve("mlp_adam.fb").toString();
    for (String out : List.of(uri("plain/w.bin"), uri("plain/w.npy"), uri("plain/w.safetensors"))) {
      String[] args = out.endsWith(".bin") ? new String[] {"cp", m + ":params/layer0/W", out}
          : out.endsWith(".npy") ? new String[] {"export", m + ":params/layer0/W", out} : new String[] {"export", m, out};
      Result r = run(args);
      assertEquals(2, r.code(), r.err());
      assertTrue(r.err().startsWith("modelfs " + args[0] + ": " + out + ": cannot write a plain file here: modelfs"
          + " writes only models to Azure Blob Storage"), r.err());
    }
    assertThrows(OutputFile.ModelsOnly.class, () -> OutputFile.resolve(path("plain/x")));
    assertEquals(List.of(), keys("plain/"));
  }
}
