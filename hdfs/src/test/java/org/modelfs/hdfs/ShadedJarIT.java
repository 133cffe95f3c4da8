package org.modelfs.hdfs;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;

/**
 * The runnable jar {@code target/modelfs-hdfs.jar} as a user runs it ({@code java -jar}, a child
 * process) against the test JVM's MiniDFSCluster: its services merged, {@code info} and
 * {@code cat} of a model in HDFS with nothing on stderr (Hadoop kept quiet). Run by the
 * {@code shaded-jar} execution of surefire, bound to {@code integration-test} (after
 * {@code package} made the jar).
 */
class ShadedJarIT {
  private static final Path FIXTURES = Path.of(System.getProperty("modelfs.fixtures"));
  private static final Path JAR = Path.of(System.getProperty("modelfs.hdfs.jar", "target/modelfs-hdfs.jar"));

  @TempDir Path tmp;

  private record Run(int exit, byte[] out, String err) {}

  private Run java(String... args) throws IOException, InterruptedException {
    assertTrue(Files.isRegularFile(JAR), JAR + " is missing: this test runs after 'package' (mvn verify)");
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-jar", JAR.toString()));
    cmd.addAll(List.of(args));
    Path out = tmp.resolve("out");
    Path err = tmp.resolve("err");
    Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("java -jar did not finish in 120 s: " + String.join(" ", cmd));
    }
    return new Run(p.exitValue(), Files.readAllBytes(out), Files.readString(err, StandardCharsets.UTF_8));
  }

  private static List<String> services(String service) throws IOException {
    try (JarFile j = new JarFile(JAR.toFile())) {
      ZipEntry e = j.getEntry("META-INF/services/" + service);
      assertNotNull(e, "no services file for " + service);
      try (InputStream in = j.getInputStream(e)) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::trim)
            .filter(l -> !l.isEmpty() && !l.startsWith("#")).sorted().toList();
      }
    }
  }

  @Test
  void theServicesAreMerged() throws Exception {
    List<String> providers = services("java.nio.file.spi.FileSystemProvider");
    assertTrue(providers.contains("org.modelfs.hdfs.nio.HdfsProvider")
        && providers.contains("org.modelfs.provider.ModelFileSystemProvider"), providers.toString());
    assertEquals(List.of("org.modelfs.hdfs.HdfsBackings"), services("org.modelfs.store.BackingFactory"));
  }

  @Test
  void infoAndCatOfAModelInHdfsQuietly() throws Exception {
    HdfsTestCluster.upload(FIXTURES.resolve("mlp_adam.fb"), "/jar/m.fb");
    String m = HdfsTestCluster.uri("/jar/m.fb").toString();
    Run info = java("info", m);
    assertEquals(0, info.exit(), info.err());
    assertTrue(new String(info.out(), StandardCharsets.UTF_8).contains("format: fb"));
    assertEquals("", info.err(), "nothing but the command's output");
    Run cat = java("cat", m, "/params/layer0/W");
    assertEquals(0, cat.exit(), cat.err());
    try (FileSystem fs = ModelFileSystems.open(FIXTURES.resolve("mlp_adam.fb"), Map.of("readOnly", "true"))) {
      assertArrayEquals(Files.readAllBytes(fs.getPath("/params/layer0/W")), cat.out());
    }
    Run missing = java("info", HdfsTestCluster.uri("/jar/none.fb").toString());
    assertEquals(2, missing.exit());
    assertTrue(missing.err().startsWith("modelfs info: ") && missing.err().contains("/jar/none.fb")
        && missing.err().lines().count() == 1, missing.err());
  }
}
