package org.modelfs.fuse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * {@code modelfs mount s3x://…/model.fb DIR} with the s3 module on the class path (docs/MOUNT.md
 * "A model in an object store"): a DL4J-written model in S3Proxy on 127.0.0.1 (in memory, as
 * in the s3 module's tests), mounted through the kernel by a child JVM whose class path holds the
 * fuse and s3 modules; read with cat/cmp, NumPy and getfattr, written with {@code echo >} and
 * {@code cp}, unmounted — then the object, opened through the s3 provider, holds the changes. A
 * read-only mount of the fb file reads the same bytes and refuses writes, the object untouched.
 */
class MountS3Test {
  private static final String BUCKET = "models";
  /** What the mount's JVM needs to reach a plain-HTTP server by its IP (as the s3 module's tests). */
  private static final Map<String, String> S3_PROPERTIES = Map.of(
      "s3.spi.endpoint-protocol", "http", "s3.spi.force-path-style", "true", "aws.region", "us-east-1");

  @TempDir
  static Path tmp;
  private static S3Proxy proxy;
  private static BlobStore store;
  private static byte[] w;

  @BeforeAll
  static void start() throws Exception {
    KernelMount.assumeFuse();
    S3_PROPERTIES.forEach(System::setProperty);
    store = BlobStores.create("transient", new Properties());
    store.createContainer(BUCKET);
    proxy = S3Proxy.builder().blobStore(store).endpoint(URI.create("http://127.0.0.1:0"))
        .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, "access", "secret-key").build();
    proxy.start();
    for (int i = 0; i < 3000 && !"STARTED".equals(proxy.getState()); i++) {
      Thread.sleep(10);
    }
    assertEquals("STARTED", proxy.getState(), "S3Proxy");
    try (FileSystem fs = ModelFileSystems.open(KernelMount.fixture("mlp_adam.fb"), Map.of("readOnly", "true"))) {
      w = Files.readAllBytes(fs.getPath("/params/layer0/W"));
    }
    Files.write(tmp.resolve("W.bin"), w);
  }

  @AfterAll
  static void stop() throws Exception {
    if (proxy != null) {
      proxy.stop();
    }
  }

  /** {@code fixture} put as object {@code key}; its URI as a user writes it (credentials inside). */
  private static String put(String key, Path fixture) throws Exception {
    try (InputStream in = Files.newInputStream(fixture)) {
      store.putBlob(PutObjectRequest.builder().bucket(BUCKET).key(key)
          .contentLength(Files.size(fixture)).build(), in);
    }
    return "s3x://access:secret-key@127.0.0.1:" + proxy.getPort() + "/" + BUCKET + "/" + key;
  }

  private static byte[] object(String key) throws Exception {
    try (InputStream in = store.getBlob(BUCKET, key)) {
      return in.readAllBytes();
    }
  }

  private static KernelMount mount(String uri, String dir, String... options) throws Exception {
    List<String> jvm = S3_PROPERTIES.entrySet().stream().map(e -> "-D" + e.getKey() + "=" + e.getValue()).toList();
    return new KernelMount(uri, jvm, tmp.resolve(dir), options);
  }

  /**
   * What every mount of the fixture shows: the bytes (cmp), the values (NumPy), the attributes
   * (getfattr). Whether NumPy and getfattr were here: a test ends skipped, saying so, when not.
   */
  private static boolean readsTheModel(KernelMount m, String dir) {
    m.run("cmp W.bin " + dir + "/params/layer0/W && cat " + dir + "/tags/default/params/layer0/W | cmp W.bin -").ok();
    m.run("stat -f " + dir + " > /dev/null && ls -lR " + dir + " > /dev/null").ok();
    boolean numpy = KernelMount.sh("python3 -c 'import numpy'").exit() == 0;
    if (numpy) {
      float[] expect = new float[w.length / 4];
      ByteBuffer.wrap(w).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(expect);
      String out = m.run("python3 -c \"import numpy as np; a = np.fromfile('" + dir + "/params/layer0/W', dtype='<f4');"
          + " print(' '.join(repr(float(x)) for x in a))\"").ok().out().trim();
      String[] got = out.split(" ");
      assertEquals(expect.length, got.length, out);
      for (int i = 0; i < expect.length; i++) {
        assertEquals(expect[i], Float.parseFloat(got[i]), "element " + i);
      }
    }
    boolean getfattr = KernelMount.sh("command -v getfattr").exit() == 0;
    if (getfattr) {
      String x = m.run("getfattr -d " + dir + "/params/layer0/W").ok().out();
      assertTrue(x.contains("user.samediff.dtype=\"FLOAT\"") && x.contains("user.samediff.shape=\"[4, 8]\""), x);
    }
    return numpy && getfattr;
  }

  private static void assumeTools(boolean here) {
    Assumptions.assumeTrue(here, "NumPy (python3-numpy) or getfattr (attr) missing: their checks were skipped");
  }

  @Test
  void aWritableMountCommitsIntoTheObjectAtUnmount() throws Exception {
    // the fixture as SDNB: an fb file holds no metadata (its commit would be refused, FORMATS.md)
    Path sdnb = tmp.resolve("model.sdnb");
    KernelMount.modelfs("convert", KernelMount.fixture("mlp_adam.fb").toString(), sdnb.toString());
    String uri = put("rw/model.sdnb", sdnb);
    byte[] w2 = w.clone();
    w2[0] ^= 0x40;
    Files.write(tmp.resolve("W2.bin"), w2);
    boolean tools;
    try (KernelMount m = mount(uri, "rw")) {
      tools = readsTheModel(m, "rw");
      m.run("echo v > rw/metadata/k && cp W2.bin rw/params/layer0/W").ok();
      assertEquals("v\n", m.run("cat rw/metadata/k").ok().out());
      assertEquals(0, m.unmount(), m.logText());
      assertFalse(MountPoints.isMounted(m.dir));
      // the log names the object as the user does, without the credentials of the URI
      String log = m.logText();
      assertTrue(log.contains("committed the changes to s3x://127.0.0.1:" + proxy.getPort() + "/" + BUCKET + "/rw/model.sdnb"), log);
      assertFalse(log.contains("secret-key"), log);
    }
    try (FileSystem fs = ModelFileSystems.open(Path.of(URI.create(uri)), Map.of("readOnly", "true"))) {
      assertEquals("v\n", Files.readString(fs.getPath("/metadata/k")));
      assertArrayEquals(w2, Files.readAllBytes(fs.getPath("/params/layer0/W")));
      assertEquals("[4, 8]", Xattrs.of(fs.getPath("/params/layer0/W")).get(Xattrs.PREFIX + "shape"), "cp kept the shape");
    }
    assumeTools(tools);
  }

  @Test
  void aReadOnlyMountReadsAndRefusesWrites() throws Exception {
    String uri = put("ro/model.fb", KernelMount.fixture("mlp_adam.fb"));
    byte[] before = object("ro/model.fb");
    boolean tools;
    try (KernelMount m = mount(uri, "ro", "--read-only")) {
      tools = readsTheModel(m, "ro");
      KernelMount.Result r = m.run("echo x > ro/metadata/k");
      assertNotEquals(0, r.exit());
      assertTrue(r.err().contains("Read-only file system"), r.err());
      assertEquals(0, m.unmount(), m.logText());
    }
    assertArrayEquals(before, object("ro/model.fb"), "a read-only mount leaves the object as it was");
    assumeTools(tools);
  }

  /**
   * docs/MOUNT.md's block under "A model in an object store" runs as written, through bash from
   * the repository's root: every command exits 0 and the last prints what the session wrote. The
   * substitutions: the function runs this class path's {@link FuseMain} (the jars it names are built
   * after the tests), the server's port for 9000, a private directory for {@code /tmp/}. Tagged
   * slow (five JVMs with the AWS SDK: ~40 s on a busy 2-core machine): {@code mvn -pl fuse test -Pslow}.
   */
  @Test
  @Tag("slow")
  void theMountPagesObjectStoreSessionRunsAsWritten() throws Exception {
    Path root = DocMountSessionTest.root();
    String alias = "modelfs_s3() { java -cp fuse/target/modelfs-fuse.jar:s3/target/modelfs-s3.jar org.modelfs.fuse.FuseMain \"$@\"; }";
    List<String> block = fencedBlock(root.resolve("docs/MOUNT.md"), "### A model in an object store");
    assertTrue(block.contains(alias), "the block starts with " + alias + ":\n" + String.join("\n", block));
    StringBuilder script = new StringBuilder("set -e -o pipefail\n");
    for (String l : block) {
      script.append(l.equals(alias) ? "modelfs_s3() { " + Path.of(System.getProperty("java.home"), "bin", "java") + " -cp "
          + System.getProperty("java.class.path") + " " + FuseMain.class.getName() + " \"$@\"; }"
          : l.replace("127.0.0.1:9000", "127.0.0.1:" + proxy.getPort()).replace("/tmp/", tmp + "/")).append('\n');
    }
    Path out = tmp.resolve("s3-session.out");
    ProcessBuilder pb = new ProcessBuilder("bash", "-c", script.toString()).directory(root.toFile())
        .redirectErrorStream(true).redirectOutput(out.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    pb.environment().put("JAVA_TOOL_OPTIONS", "-Xmx256m -Djava.io.tmpdir=" + tmp);
    Process p = pb.start();
    try {
      assertTrue(p.waitFor(180, TimeUnit.SECONDS), "the session timed out:\n" + Files.readString(out));
      String printed = Files.readString(out);
      assertEquals(0, p.exitValue(), "docs/MOUNT.md's object-store session failed:\n" + script + "\n--- it printed:\n" + printed);
      assertTrue(printed.endsWith("v\n") && printed.contains("committed and unmounted"), printed);
    } finally {
      p.destroyForcibly();
      if (MountPoints.isMounted(tmp.resolve("s3m"))) {
        KernelMount.sh("fusermount -u -z '" + tmp.resolve("s3m") + "'");
      }
    }
  }

  /** The lines of the first fenced block under {@code heading} in {@code page}. */
  private static List<String> fencedBlock(Path page, String heading) throws Exception {
    List<String> lines = Files.readAllLines(page);
    int at = lines.indexOf(heading);
    assertTrue(at >= 0, page + " has no heading " + heading);
    int open = at + 1;
    while (!lines.get(open).startsWith("```")) {
      open++;
    }
    int close = open + 1;
    while (!lines.get(close).startsWith("```")) {
      close++;
    }
    return lines.subList(open + 1, close);
  }
}
