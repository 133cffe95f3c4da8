package org.modelfs.format.fb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.nd4j.ir.OpNamespace;

/**
 * The op descriptor table shipped in the core ({@link OpDescriptors#RESOURCE}) is exactly what
 * {@link OpDescriptorTable} makes from the real {@code nd4j-op-def.pbtxt} of nd4j-api 1.0.0-M2.1
 * (docs/GRAPH.md "Op descriptors"), and reads back as DL4J's descriptors.
 *
 * <p>To regenerate it after a change of the generator or of DL4J's version:
 * {@code mvn -B verify -pl core -Pinterop -Dtest=OpDescriptorTableInteropTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dop-descriptors.write=true}, which writes the table
 * into {@code src/main/resources} (and then fails once, saying so), and commit the result.
 */
@Tag("interop")
class OpDescriptorTableInteropTest {
  private static final Path SOURCE = Path.of("src/main/resources" + OpDescriptors.RESOURCE);

  @Test
  void theShippedTableIsWhatTheRealPbtxtGives() throws IOException {
    String generated = OpDescriptorTable.generate(OpDescriptorTable.pbtxt());
    if (Boolean.getBoolean("op-descriptors.write")) {
      Files.writeString(SOURCE, generated, StandardCharsets.UTF_8);
      fail("wrote " + SOURCE.toAbsolutePath() + " (" + generated.length() + " characters): commit it and run again without -Dop-descriptors.write");
    }
    String shipped;
    try (InputStream in = OpDescriptors.class.getResourceAsStream(OpDescriptors.RESOURCE)) {
      assertTrue(in != null, OpDescriptors.RESOURCE + " is not on the class path");
      shipped = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    if (!generated.equals(shipped)) {
      String[] g = generated.split("\n", -1);
      String[] s = shipped.split("\n", -1);
      int i = 0;
      while (i < g.length && i < s.length && g[i].equals(s[i])) {
        i++;
      }
      fail("the shipped op descriptor table differs from what " + OpDescriptorTable.PBTXT + " gives, first at line "
          + (i + 1) + ":\n  shipped:   " + (i < s.length ? s[i] : "(end)") + "\n  generated: "
          + (i < g.length ? g[i] : "(end)") + "\nregenerate with -Dop-descriptors.write=true (this class's comment)");
    }
  }

  /** The table reads back, and every op and argument of the pbtxt is found as nd4j's own classes see it. */
  @Test
  void everyDescriptorOfThePbtxtIsFoundByName() throws IOException {
    byte[] pbtxt = OpDescriptorTable.pbtxt();
    OpNamespace.OpDescriptorList list = OpDescriptorTable.descriptors(pbtxt);
    Map<String, OpDescriptors.Op> parsed =
        OpDescriptors.parse(new BufferedReader(new StringReader(OpDescriptorTable.generate(pbtxt))));
    assertEquals(list.getOpListCount(), parsed.size());
    assertEquals(list.getOpListCount(), OpDescriptors.size());
    for (OpNamespace.OpDescriptor op : list.getOpListList()) {
      OpDescriptors.Op found = OpDescriptors.find(op.getName()).orElseThrow(() -> new AssertionError(op.getName()));
      assertEquals(op.getOpDeclarationType().name(), found.declaration().name(), op.getName());
      assertEquals(op.getArgDescriptorCount(), found.args().size(), op.getName());
      for (OpNamespace.ArgDescriptor a : op.getArgDescriptorList()) {
        OpDescriptors.ArgType type = OpDescriptors.ArgType.valueOf(a.getArgType().name());
        assertEquals(a.getName(), found.arg(type, a.getArgIndex()).orElseThrow().name(),
            op.getName() + " " + type + " " + a.getArgIndex());
      }
    }
  }
}
