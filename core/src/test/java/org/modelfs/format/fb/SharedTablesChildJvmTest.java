package org.modelfs.format.fb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.cli.Main;
import org.modelfs.testing.ChildJvm;

/**
 * The hostile-but-valid fb files of issue 15 through the CLI in a JVM of 256 MiB: 20,000 nodes
 * that are one node of 20,000 values (240 KB, 3.2 GB unfolded), and its 4 MB variant (20,000
 * nodes sharing 500,000 values). Listing, the graph file and a conversion copy the shared node
 * once; graph.json, which would unfold it, is refused within its budget — never an
 * OutOfMemoryError.
 */
class SharedTablesChildJvmTest {
  @TempDir Path tmp;

  private ChildJvm.Result cli(String... args) throws Exception {
    ChildJvm.Result r = ChildJvm.run(tmp.resolve("cli.log"), 300, List.of("-Xmx256m"), Main.class, args);
    assertFalse(r.outOfMemory(), String.join(" ", args) + ":\n" + r.output());
    assertFalse(r.output().contains("AssertionError") || r.output().contains("Exception in thread"),
        String.join(" ", args) + ":\n" + r.output());
    return r;
  }

  private void ok(String... args) throws Exception {
    ChildJvm.Result r = cli(args);
    assertEquals(0, r.exit(), String.join(" ", args) + ":\n" + r.output());
  }

  @Test
  void aNodeSharedTwentyThousandTimesIsListedCopiedAndConverted() throws Exception {
    String m = SharedGraphs.sharedNode(tmp.resolve("dag.fb"), 20_000, 20_000).toString();
    ok("ls", m, "/");
    ok("info", m);
    ok("tree", m, "/params");
    ok("cat", m, "/tags/default/graph");
    ok("convert", m, tmp.resolve("out.sdnb").toString());
    ok("convert", m, tmp.resolve("out.fb").toString());
    refusedJson("cat", m, "/tags/default/graph.json");
    refusedJson("ls", m, "/tags/default"); // the listing shows graph.json's size
  }

  /** The command fails cleanly: graph.json would unfold the shared node beyond its budget. */
  private void refusedJson(String... args) throws Exception {
    ChildJvm.Result r = cli(args);
    assertNotEquals(0, r.exit(), r.output());
    assertTrue(r.output().contains(": FlatGraph at offset 0: its JSON rendering exceeds"), r.output());
  }

  @Test
  void graphJsonOfTheFourMegabyteVariantIsRefusedWithinTheHeap() throws Exception {
    String m = SharedGraphs.sharedNode(tmp.resolve("dag4.fb"), 20_000, 500_000).toString();
    refusedJson("cat", m, "/tags/default/graph.json");
  }
}
