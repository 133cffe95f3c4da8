package org.modelfs.azure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.modelfs.ModelFileSystems;

/**
 * {@code target/modelfs-azure.jar} as a user runs it: {@code java -jar}, the account in the
 * environment's {@code AZURE_STORAGE_CONNECTION_STRING}; reads a model in Azurite and commits a
 * change, printing nothing but what was asked (no logging lines).
 */
class ShadedJarIT extends AzureTest {
  private record Run(int code, byte[] out, String err) {}

  private Run jar(String... args) throws Exception {
    Path jar = Path.of(System.getProperty("modelfs.azure.jar", "target/modelfs-azure.jar"));
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
        .toString(), "-jar", jar.toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(tmp.resolve("err").toFile());
    pb.environment().put(BlobFileSystemProvider.VARIABLE, azurite.connectionString);
    Process p = pb.start();
    byte[] out = p.getInputStream().readAllBytes();
    int code = p.waitFor();
    return new Run(code, out, Files.readString(tmp.resolve("err")));
  }

  @Test
  void catAndCpWithTheJar() throws Exception {
    String m = upload(FIXTURES.resolve("mlp_adam.fb"), "jar/m.fb");
    byte[] w;
    try (FileSystem fs = ModelFileSystems.open(FIXTURES.resolve("mlp_adam.fb"), Map.of("readOnly", "true"))) {
      w = Files.readAllBytes(fs.getPath("/params/layer0/W"));
    }
    Run cat = jar("cat", m, "/params/layer0/W");
    assertEquals(0, cat.code(), cat.err());
    assertArrayEquals(w, cat.out());
    assertEquals("", cat.err());
    Path zeros = Files.write(tmp.resolve("z.bin"), new byte[w.length]);
    Run cp = jar("cp", zeros.toString(), m + ":/params/layer0/W", "--quiet");
    assertEquals(0, cp.code(), cp.err());
    assertEquals("", cp.err());
    assertArrayEquals(new byte[w.length], jar("cat", m, "/params/layer0/W").out());
    Run missing = jar("info", uri("jar/none.fb"));
    assertEquals(2, missing.code());
    assertTrue(missing.err().contains("none.fb") && !missing.err().contains(Azurite.KEY), missing.err());
  }
}
