package org.modelfs.hdfs;

import org.modelfs.store.OutputFile;
import static org.junit.jupiter.api.Assertions.*;
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
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.cli.Main;
import org.modelfs.testing.CliRun.Result;

/**
 * The {@code modelfs} commands on {@code hdfs://} paths, run in this JVM through {@link Main#run}
 * against a real HDFS: reading ({@code info}, {@code ls}, {@code cat}, {@code verify}), {@code cp}
 * each way (into HDFS: a commit), {@code convert} both ways (into HDFS as fb and as a sharded
 * SDNB), and {@code clean} of a crashed commit's leftovers.
 */
class CliTest {
  static final Path FIXTURES = Path.of(System.getProperty("modelfs.fixtures"));
  private static byte[] w;

  @TempDir Path tmp;

  @BeforeAll
  static void start() throws Exception {
    HdfsTestCluster.get();
    try (FileSystem fs = ModelFileSystems.open(FIXTURES.resolve("mlp_adam.fb"), Map.of("readOnly", "true"))) {
      w = Files.readAllBytes(fs.getPath("/params/layer0/W"));
    }
  }

  static String uri(String path) throws Exception {
    return HdfsTestCluster.uri(path).toString();
  }

  static String uploaded(String path) throws Exception {
    HdfsTestCluster.upload(FIXTURES.resolve("mlp_adam.fb"), path);
    return uri(path);
  }

  private Path zeroedCopy(String name) throws Exception {
    Path local = Files.copy(FIXTURES.resolve("mlp_adam.fb"), tmp.resolve(name));
    try (FileSystem fs = ModelFileSystems.open(local)) {
      Files.write(fs.getPath("/params/layer0/W"), new byte[w.length]);
    }
    return local;
  }

  @Test
  void infoLsCatVerifyOfAModelInHdfs() throws Exception {
    String m = uploaded("/cli-read/m.fb");
    assertTrue(ok("info", m).out().contains("format: fb"));
    assertTrue(ok("ls", m, "/params/layer0").out().contains("W"), ok("ls", m, "/params/layer0").out());
    assertArrayEquals(w, ok("cat", m, "/params/layer0/W").bytes());
    assertEquals("", ok("verify", m, "--quiet").out());
    Result missing = run("info", uri("/cli-read/none.fb"));
    assertEquals(2, missing.code());
    assertTrue(missing.err().startsWith("modelfs info: ") && missing.err().contains("/cli-read/none.fb"),
        missing.err());
  }

  @Test
  void cpEachWay() throws Exception {
    String m = uploaded("/cli-cp/m.fb");
    Path disk = tmp.resolve("w.bin");
    ok("cp", m + ":params/layer0/W", disk.toString());
    assertArrayEquals(w, Files.readAllBytes(disk));
    Path local = zeroedCopy("local.fb");
    ok("cp", local + ":/params/layer0/W", m + ":/params/layer0/W", "--quiet");
    assertArrayEquals(new byte[w.length], ok("cat", m, "/params/layer0/W").bytes());
    assertEquals(List.of("m.fb"), HdfsTestCluster.names("/cli-cp"), "nothing left beside the model");
  }

  /** export's MODEL:PATH of a model in HDFS: the whole argument is no file HDFS can name (its ':'), so the model is its left part. */
  @Test
  void exportOfAParameterOfAModelInHdfs() throws Exception {
    String m = uploaded("/cli-export/m.fb");
    Path npy = tmp.resolve("w.npy");
    ok("export", m + ":params/layer0/W", npy.toString(), "--quiet");
    assertTrue(Files.size(npy) > w.length, "an .npy header and the array");
    assertFalse(Files.exists(HdfsTestCluster.path("/cli-export/m.fb:params/layer0/W")));
  }

  @Test
  void convertBothWaysAndAsAShardSet() throws Exception {
    String m = uploaded("/cli-convert/m.fb");
    Path out = tmp.resolve("m.sdnb");
    ok("convert", m, out.toString(), "--quiet");
    assertTrue(ok("diff", m, out.toString()).out().matches("0 changed, 0 added, 0 removed, \\d+ identical\n"));
    String fb = uri("/cli-convert/to.fb");
    ok("convert", out.toString(), fb, "--quiet");
    assertArrayEquals(w, ok("cat", fb, "/params/layer0/W").bytes());
    String set = uri("/cli-convert/s.sdnb");
    ok("convert", FIXTURES.resolve("mlp_adam.fb").toString(), set, "--max-shard-bytes", "256", "--quiet");
    List<String> names = HdfsTestCluster.names("/cli-convert");
    assertTrue(names.stream().filter(n -> n.matches("s\\.shard\\d+-of-\\d+\\.sdnb")).count() > 1, names.toString());
    assertTrue(ok("info", set).out().contains("format: sdnb-sharded"), ok("info", set).out());
    assertEquals("", ok("verify", set, "--quiet").out());
    assertTrue(ok("diff", set, out.toString()).out().matches("0 changed, 0 added, 0 removed, \\d+ identical\n"));
    ok("convert", FIXTURES.resolve("mlp_adam.fb").toString(), set, "--max-shard-bytes", "512", "--quiet");
    assertEquals("", ok("verify", set, "--quiet").out());
    for (String n : HdfsTestCluster.names("/cli-convert")) {
      assertTrue(n.matches("m\\.fb|to\\.fb|s\\.shard\\d+-of-\\d+\\.sdnb"), "only models are left: " + n);
    }
  }

  /** A crashed commit's temporary and an unfinished install record: clean removes exactly those. */
  @Test
  void cleanRemovesOnlyACrashedCommitsLeftovers() throws Exception {
    String m = uploaded("/cli-clean/m.fb");
    byte[] any = {1, 2, 3};
    List<String> ours = List.of(".m.fb.modelfs-0123456789abcdef0123456789abcdef.tmp",
        ".m.fb.modelfs-commit-0123456789abcdef0123456789abcdef");
    List<String> notOurs = List.of(".n.fb.modelfs-0123456789abcdef0123456789abcdef.tmp", "m.fb.bak",
        ".m.fb.modelfs-0123.tmp", "notes.txt");
    for (String n : concat(ours, notOurs)) {
      HdfsTestCluster.upload(Files.write(tmp.resolve("x"), any), "/cli-clean/" + n);
    }
    Result r = ok("clean", m);
    assertEquals(ours.stream().sorted().toList(), r.out().lines().sorted().toList());
    List<String> expected = new ArrayList<>(concat(List.of("m.fb"), notOurs));
    expected.sort(null);
    assertEquals(expected, HdfsTestCluster.names("/cli-clean"));
    assertEquals("", ok("clean", m).out());
    assertEquals("", ok("verify", m, "--quiet").out());
  }

  /** A complete install record naming a file that is not the model's is refused, and nothing is touched. */
  @Test
  void aRecordNamingAnotherFileIsNeverActedOn() throws Exception {
    String m = uploaded("/cli-planted/m.fb");
    HdfsTestCluster.upload(Files.write(tmp.resolve("n"), new byte[] {1}), "/cli-planted/notes.txt");
    String record = ".m.fb.modelfs-commit-0123456789abcdef0123456789abcdef";
    HdfsTestCluster.upload(Files.writeString(tmp.resolve("r"), "delete\tnotes.txt\nend\n"), "/cli-planted/" + record);
    Result r = run("clean", m);
    assertEquals(2, r.code());
    assertTrue(r.err().contains(record) && r.err().contains("'delete notes.txt'"), r.err());
    assertEquals(List.of(record, "m.fb", "notes.txt"), HdfsTestCluster.names("/cli-planted"));
    Result cat = run("cat", m, "/params/layer0/W");
    assertEquals(2, cat.code(), "a reader is told, not left waiting");
    assertTrue(cat.err().contains(record), cat.err());
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  /**
   * A plain file (not a model) named in HDFS as the output of cp or export is refused up front,
   * naming the output as typed and saying why; nothing is written beside it.
   */
  @Test
  void aPlainFileOutputIsRefusedNamingIt() throws Exception {
    String m = FIXTURES.resolve("mlp_adam.fb").toString();
    HdfsTestCluster.upload(FIXTURES.resolve("mlp_adam.fb"), "/cli-plain/keep.fb");
    for (String out : List.of(uri("/cli-plain/w.bin"), uri("/cli-plain/w.npy"), uri("/cli-plain/w.safetensors"))) {
      String[] args = out.endsWith(".bin") ? new String[] {"cp", m + ":params/layer0/W", out}
          : out.endsWith(".npy") ? new String[] {"export", m + ":params/layer0/W", out} : new String[] {"export", m, out};
      Result r = run(args);
      assertEquals(2, r.code(), r.err());
      assertTrue(r.err().startsWith("modelfs " + args[0] + ": " + out + ": cannot write a plain file here: modelfs"
          + " writes only models to HDFS"), r.err());
    }
    assertThrows(OutputFile.ModelsOnly.class, () -> OutputFile.resolve(Path.of(HdfsTestCluster.uri("/cli-plain/x"))));
    assertEquals(List.of("keep.fb"), HdfsTestCluster.names("/cli-plain"));
  }

  /**
   * A model in a directory that does not exist: {@code clean} and {@code convert} say so, as for a
   * local model, and create nothing (before, the lock's create made the directories, and both
   * succeeded). A directory given as OUT is named by its URI (before: {@code /cli-isdir/d}).
   */
  @Test
  void aMissingDirectoryIsSaidAndNeverCreated() throws Exception {
    Result clean = run("clean", uri("/cli-nodir/sub/m.fb"));
    assertEquals(2, clean.code(), clean.err());
    assertTrue(clean.err().contains("the model's directory does not exist"), clean.err());
    Result convert = run("convert", FIXTURES.resolve("mlp_adam.fb").toString(), uri("/cli-nodir/m.fb"), "--quiet");
    assertEquals(2, convert.code(), convert.err());
    assertTrue(convert.err().contains("hdfs://") && convert.err().contains("/cli-nodir/m.fb"), convert.err());
    assertFalse(HdfsTestCluster.admin().exists(new org.apache.hadoop.fs.Path("/cli-nodir")));
    HdfsTestCluster.admin().mkdirs(new org.apache.hadoop.fs.Path("/cli-isdir/d"));
    Result onDir = run("convert", FIXTURES.resolve("mlp_adam.fb").toString(), uri("/cli-isdir/d"), "--quiet");
    assertEquals(2, onDir.code(), onDir.err());
    assertTrue(onDir.err().contains(uri("/cli-isdir/d") + ": is a directory"), onDir.err()); // which store: its URI
  }
}
