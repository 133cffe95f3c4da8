package org.modelfs.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.testing.Fixtures;

/**
 * How a command-line argument becomes a path ({@link PathArgs}): {@code <scheme>://} of an
 * installed provider is a URI (jimfs stands in for an object store's provider: installed, not the
 * default), a scheme no provider has is a usage error that points at the modelfs-s3 jar, and
 * everything else stays a local path — also names that merely hold a ':'. The ':' of MODEL:PATH
 * and the '#' of MODEL#TAG are found after the URI's authority.
 */
class PathArgsTest {
  @TempDir Path tmp;
  private FileSystem jimfs;
  private String uri;
  private byte[] w;

  @BeforeEach
  void setUp() throws Exception {
    jimfs = Jimfs.newFileSystem("pathargs", Configuration.unix());
    Files.createDirectories(jimfs.getPath("/dir"));
    Files.copy(Fixtures.get("mlp_adam.fb"), jimfs.getPath("/dir/m.fb"));
    uri = "jimfs://pathargs/dir/m.fb";
    try (FileSystem fs = ModelFileSystems.open(Fixtures.get("mlp_adam.fb"), Map.of("readOnly", "true"))) {
      w = Files.readAllBytes(fs.getPath("/params/layer0/W"));
    }
  }

  @AfterEach
  void tearDown() throws Exception {
    jimfs.close();
  }

  @Test
  void aSchemeOfAnInstalledProviderIsAUri() throws Exception {
    assertEquals(jimfs.getPath("/dir/m.fb"), PathArgs.path(uri));
    MainTest.Result info = MainTest.run("info", uri);
    assertEquals(0, info.code(), info.err());
    assertTrue(info.out().contains("format: fb"), info.out());
    MainTest.Result tree = MainTest.run("tree", uri, "/params/layer0");
    assertEquals(0, tree.code(), tree.err());
    assertTrue(tree.out().contains("W  128 B"), tree.out());
  }

  @Test
  void theColonOfModelPathComesAfterTheScheme() throws Exception {
    Path out = tmp.resolve("w.bin");
    MainTest.Result r = MainTest.run("cp", uri + ":/params/layer0/W", out.toString());
    assertEquals(0, r.code(), r.err());
    assertArrayEquals(w, Files.readAllBytes(out));
    PathArgs.Ref ref = PathArgs.split(uri + "#default:layer0/W", PathArgs.Form.MODEL_TAG_PATH);
    assertEquals(new PathArgs.Ref(uri, "default", "layer0/W"), ref);
    assertEquals(new PathArgs.Ref(uri, null, null), PathArgs.split(uri, PathArgs.Form.MODEL_TAG_PATH));
    assertNull(PathArgs.split(uri, PathArgs.Form.MODEL_PATH), "cp: a model alone is no location");
  }

  @Test
  void modelTagOfAUriInExportAndDiff() throws Exception {
    Path npy = tmp.resolve("w.npy");
    MainTest.Result r = MainTest.run("export", uri + "#default:layer0/W", npy.toString(), "--quiet");
    assertEquals(0, r.code(), r.err());
    assertTrue(Files.size(npy) > w.length);
    MainTest.Result d = MainTest.run("diff", uri + "#DEFAULT", Fixtures.get("mlp_adam.fb").toString());
    assertEquals(0, d.code(), d.err());
    assertTrue(d.out().matches("0 changed, 0 added, 0 removed, \\d+ identical\n"), d.out());
  }

  @Test
  void aSchemeWithoutProviderIsAUsageErrorNamingIt() {
    for (String scheme : new String[] {"s3", "s3x", "gs", "hdfs"}) {
      MainTest.Result r = MainTest.run("info", scheme + "://bucket/dir/m.fb");
      assertEquals(2, r.code(), r.err());
      assertTrue(r.err().startsWith("modelfs info: no file system provider for '" + scheme + "://' paths"), r.err());
      assertTrue(r.err().contains("modelfs-s3 jar") && r.err().contains("modelfs-hdfs jar")
          && r.err().contains("docs/OBJECT-STORES.md"), r.err());
      assertTrue(r.err().contains("usage: modelfs info"), r.err());
    }
    MainTest.Result cp = MainTest.run("cp", "s3x://k:s@host:9000/b/m.fb:/params/W", tmp.resolve("w").toString());
    assertEquals(2, cp.code(), cp.err());
    assertTrue(cp.err().contains("'s3x://'"), cp.err());
  }

  @Test
  void namesThatMerelyHoldAColonStayLocal() throws Exception {
    Path odd = Files.copy(Fixtures.get("mlp_adam.fb"), tmp.resolve("a:b.fb"));
    assertEquals(odd, PathArgs.path(odd.toString()));
    assertEquals(Path.of("C://x/m.fb"), PathArgs.path("C://x/m.fb"), "a drive letter is no scheme");
    assertEquals(Path.of("x:/y"), PathArgs.path("x:/y"));
    assertEquals(Path.of("s3:/b"), PathArgs.path("s3:/b"), "one slash: no URI");
    Path out = tmp.resolve("w.bin");
    MainTest.Result r = MainTest.run("cp", odd + ":/params/layer0/W", out.toString());
    assertEquals(0, r.code(), r.err());
    assertArrayEquals(w, Files.readAllBytes(out));
    assertEquals(0, MainTest.run("info", odd.toString()).code());
  }

  @Test
  void aUriWithAFragmentWhereNoTagIsTakenIsRefused() {
    assertThrows(Args.UsageException.class, () -> PathArgs.path(uri + "#default"));
    MainTest.Result r = MainTest.run("info", uri + "#default");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("%23"), r.err());
  }
}
