package org.modelfs.pathtools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;

/**
 * A control for the suite's own helpers, not for issue 13: a tag cloned by the command line
 * ({@code modelfs tag add m.sdz v1 --from default}) is identical to its source by
 * {@link TreeSnapshot}, commons-io's {@code directoryContentEquals} and the graph.json parsing
 * in {@link PathToolsModels}; and the comparator does see a one-byte change. When the tests that
 * copy with path tools fail, these pass: the difference is the file system's, not the comparator's.
 */
class ComparatorControlTest {
  @TempDir Path tmp;

  @Test
  void aTagClonedByTheCommandLineIsIdenticalToItsSource() throws Exception {
    Path model = PathToolsModels.twoTagSdz(tmp);
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", true))) {
      Path src = fs.getPath("/tags/default");
      Path dst = fs.getPath("/tags/v1");
      Map<String, String> expected = TreeSnapshot.of(src);
      assertEquals(expected, TreeSnapshot.of(dst));
      assertTrue(expected.get("params/layer0/W").contains("shape=[4, 8]"), expected.get("params/layer0/W"));
      // the tag itself; graph, graph.json, training.json; metadata/ and its 3 keys; params/ with
      // 3 directories and 6 files; updater/ with 6 directories and 8 files
      assertEquals(1 + 3 + 4 + 10 + 15, expected.size(), "files and directories: " + expected.keySet());
      assertTrue(CommonsIoIdioms.directoryContentEquals(src, dst));
      assertTrue(PathToolsModels.variables(PathToolsModels.graphJson(fs)).contains("layer0/W"));
      assertTrue(PathToolsModels.opInputs(PathToolsModels.graphJson(fs)).contains("layer0/W"));
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Path w = fs.getPath("/tags/v1/params/layer0/W");
      byte[] b = Files.readAllBytes(w);
      b[0] ^= 1;
      Files.write(w, b);
      assertNotEquals(TreeSnapshot.of(fs.getPath("/tags/default")), TreeSnapshot.of(fs.getPath("/tags/v1")));
      PathToolsModels.rollback(fs);
    }
  }
}
