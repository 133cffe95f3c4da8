package org.modelfs.fuse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;

/**
 * The README's session "From the shell and Python" (the {@code sh} block under that heading) runs
 * as written, through bash, from the repository's root, under a real kernel mount: every command
 * of it exits 0 ({@code set -e -o pipefail}) and the model afterwards holds the bias the session
 * wrote. Two substitutions only: the alias runs this class path's {@link FuseMain} (the tests run
 * before {@code package}, so the jar it names does not exist yet; its name is checked against
 * fuse/pom.xml by the core's DocPathsTest), and the block's {@code /tmp/} names are a private
 * directory's. The core's DocCommandsTest leaves this block to this test (its notRunBlocks()).
 */
class DocMountSessionTest {
  static final String HEADING = "## From the shell and Python";
  static final String ALIAS = "alias modelfs='java -jar fuse/target/modelfs-fuse.jar'";

  @TempDir Path tmp;

  @BeforeAll
  static void fuse() {
    KernelMount.assumeFuse();
    Assumptions.assumeTrue(KernelMount.sh("command -v getfattr").exit() == 0,
        "README session skipped: getfattr is missing (apt-get install attr)");
    Assumptions.assumeTrue(KernelMount.sh("python3 -c 'import numpy'").exit() == 0,
        "README session skipped: python3 with NumPy is missing");
  }

  /** The repository's root: this module's parent (surefire runs in fuse/). */
  static Path root() {
    return Path.of("").toAbsolutePath().getParent();
  }

  /** The lines of the first {@code sh} block under {@code heading} in {@code page}. */
  static List<String> block(Path page, String heading) throws Exception {
    List<String> lines = Files.readAllLines(page);
    int at = lines.indexOf(heading);
    assertTrue(at >= 0, page + " has no heading " + heading);
    int open = at + 1;
    while (open < lines.size() && !lines.get(open).strip().equals("```sh")) {
      assertFalse(lines.get(open).startsWith("#"), page + ": no ```sh block under " + heading);
      open++;
    }
    List<String> block = new ArrayList<>();
    for (int i = open + 1; i < lines.size() && !lines.get(i).strip().equals("```"); i++) {
      block.add(lines.get(i));
    }
    return block;
  }

  @Test
  void theReadmesSessionRunsAsWritten() throws Exception {
    Path root = root();
    List<String> session = block(root.resolve("README.md"), HEADING);
    assertTrue(session.contains(ALIAS), "README.md's session starts with " + ALIAS + ":\n" + String.join("\n", session));
    String javaCommand = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String alias = "alias modelfs='" + javaCommand + " -cp " + System.getProperty("java.class.path") + " " + FuseMain.class.getName() + "'";
    StringBuilder script = new StringBuilder("set -e -o pipefail\nshopt -s expand_aliases\n");
    for (String l : session) {
      script.append(l.equals(ALIAS) ? alias : l.replace("/tmp/", tmp + "/")).append('\n');
    }
    Path fixture = root.resolve("core/src/test/resources/fixtures/dl4j-1.0.0-M2.1/mlp_adam.fb");
    byte[] biasBefore = bias(fixture);
    Path mount = tmp.resolve("m");
    Path out = tmp.resolve("session.out");
    try {
      ProcessBuilder pb = new ProcessBuilder("bash", "-c", script.toString()).directory(root.toFile())
          .redirectErrorStream(true).redirectOutput(out.toFile())
          .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
      // the mount's staging and its --background log in the private directory, not in /tmp
      pb.environment().put("JAVA_TOOL_OPTIONS", "-Xmx256m -Djava.io.tmpdir=" + tmp);
      Process p = pb.start();
      assertTrue(p.waitFor(180, TimeUnit.SECONDS), "the session timed out:\n" + Files.readString(out));
      String printed = Files.readString(out, StandardCharsets.UTF_8);
      assertEquals(0, p.exitValue(), "README.md's session (" + HEADING + ") failed:\n" + script + "\n--- it printed:\n" + printed);
      assertFalse(MountPoints.isMounted(mount), "modelfs unmount left the mount");
      assertTrue(printed.contains("committed and unmounted"), printed);
      assertTrue(printed.lines().anyMatch(l -> l.contains("layer0")), "the tree's layer0 lines:\n" + printed);
    } finally {
      if (MountPoints.isMounted(mount)) {
        KernelMount.sh("fusermount -u -z '" + mount + "'");
      }
    }
    byte[] half = new byte[8 * 4];
    ByteBuffer.wrap(half).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().put(new float[] {
        0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f});
    assertFalse(Arrays.equals(half, biasBefore), "the fixture's bias is not already the session's");
    assertArrayEquals(Files.readAllBytes(tmp.resolve("b.bin")), half, "NumPy's file is 8 × 0.5 <f4");
    assertArrayEquals(half, bias(tmp.resolve("mlp.fb")), "the model holds the bias the session copied in");
  }

  private static byte[] bias(Path model) throws Exception {
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      return Files.readAllBytes(fs.getPath("/params/layer0/b"));
    }
  }
}
