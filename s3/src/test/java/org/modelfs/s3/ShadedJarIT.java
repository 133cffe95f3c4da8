package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
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

/**
 * The runnable jar {@code target/modelfs-s3.jar} as a user runs it ({@code java -jar}, a child
 * process): its version, and {@code info} of a model in S3Proxy (in this JVM, on 127.0.0.1) with
 * the endpoint in an {@code s3x://} URI and the rest from the usual AWS settings — once with the
 * credentials in the URI and system properties, once with everything from the environment. Run by
 * the {@code shaded-jar} execution of surefire, bound to {@code integration-test} (after
 * {@code package} made the jar; docs/OBJECT-STORES.md); a class name ending in {@code IT} keeps it
 * out of the {@code test} phase, where the jar does not exist yet.
 */
class ShadedJarIT {
  private static final Path FIXTURES = Path.of(System.getProperty("modelfs.fixtures"));

  @TempDir Path tmp;

  private record Run(int exit, String out, String err) {}

  /** {@code java [jvm] -jar modelfs-s3.jar args} with {@code env} (and no other AWS or provider variables). */
  private Run java(Map<String, String> env, List<String> jvm, String... args) throws IOException, InterruptedException {
    Path jar = Path.of(System.getProperty("modelfs.s3.jar", "target/modelfs-s3.jar"));
    assertTrue(Files.isRegularFile(jar), jar + " is missing: this test runs after 'package' (mvn verify)");
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvm);
    cmd.add("-jar");
    cmd.add(jar.toString());
    cmd.addAll(List.of(args));
    Path out = tmp.resolve("out.txt");
    Path err = tmp.resolve("err.txt");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("AWS_") || k.startsWith("S3_SPI_"));
    pb.environment().put("AWS_EC2_METADATA_DISABLED", "true");
    pb.environment().putAll(env);
    Process p = pb.start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("java -jar did not finish in 120 s: " + String.join(" ", cmd));
    }
    return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
  }

  /** The non-comment lines of {@code META-INF/services/<service>} in the jar. */
  private static List<String> services(Path jar, String service) throws IOException {
    try (JarFile j = new JarFile(jar.toFile())) {
      ZipEntry e = j.getEntry("META-INF/services/" + service);
      assertTrue(e != null, "no services file for " + service + " in " + jar);
      try (InputStream in = j.getInputStream(e)) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::trim)
            .filter(l -> !l.isEmpty() && !l.startsWith("#")).sorted().toList();
      }
    }
  }

  @Test
  void theServicesOfEveryJarAreMerged() throws Exception {
    Path jar = Path.of(System.getProperty("modelfs.s3.jar", "target/modelfs-s3.jar"));
    assertEquals(List.of("org.modelfs.provider.ModelFileSystemProvider", "software.amazon.nio.spi.s3.S3FileSystemProvider",
        "software.amazon.nio.spi.s3.S3XFileSystemProvider"), services(jar, "java.nio.file.spi.FileSystemProvider"));
    assertEquals(List.of("org.modelfs.s3.ObjectBackings"), services(jar, "org.modelfs.store.BackingFactory"));
  }

  @Test
  void versionAndInfoOfAModelInTheStore() throws Exception {
    Run v = java(Map.of(), List.of(), "--version");
    assertEquals(0, v.exit(), v.err());
    assertTrue(v.out().matches("modelfs \\d+\\.\\d+\\.\\d+.*\\n"), v.out());
    try (S3TestServer s3 = S3TestServer.start()) {
      s3.upload(FIXTURES.resolve("mlp_adam.fb"), "dir/m.fb");
      Run inUri = java(Map.of("AWS_REGION", "us-east-1"), List.of("-Ds3.spi.endpoint-protocol=http",
          "-Ds3.spi.force-path-style=true"), "info", s3.uri("dir/m.fb").toString());
      assertEquals(0, inUri.exit(), inUri.err());
      assertTrue(inUri.out().contains("format: fb") && inUri.out().contains("layer0/W"), inUri.out());
      Run fromEnv = java(Map.of("AWS_REGION", "us-east-1", "AWS_ACCESS_KEY_ID", S3TestServer.ACCESS,
          "AWS_SECRET_ACCESS_KEY", S3TestServer.SECRET, "S3_SPI_ENDPOINT_PROTOCOL", "http",
          "S3_SPI_FORCE_PATH_STYLE", "true"), List.of(), "info", "s3x://" + s3.endpoint() + "/" + S3TestServer.BUCKET + "/dir/m.fb");
      assertEquals(0, fromEnv.exit(), fromEnv.err());
      assertTrue(fromEnv.out().contains("format: fb"), fromEnv.out());
      for (Run r : List.of(v, inUri, fromEnv)) {
        assertEquals("", r.err(), "nothing on stderr (no SLF4J 'no providers' lines)");
      }
    }
  }
}
