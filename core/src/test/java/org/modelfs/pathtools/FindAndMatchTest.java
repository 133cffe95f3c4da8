package org.modelfs.pathtools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;

/**
 * Stands for a user searching a model: {@code Files.find} with a {@code BiPredicate} on the
 * name and attributes, and {@code FileSystem.getPathMatcher} globs applied to the paths
 * {@code Files.walk} yields, as the {@code getPathMatcher} Javadoc shows
 * ({@code if (matcher.matches(path)) …}). {@code Files.find} over {@code /tags} finds each W once
 * per tag; {@code glob:/params/layer*}{@code /*} over {@code /params} finds the layers'
 * parameters; {@code glob:**}{@code /{M,V}} over {@code /} finds each Adam state array once (issue
 * 13 item 5: a walk of {@code /} does not see the newest tag twice through the root aliases).
 */
class FindAndMatchTest {
  @TempDir Path tmp;

  @Test
  void findVisitsEachWOncePerTag() throws Exception {
    Path model = PathToolsModels.twoTagSdz(tmp);
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", true))) {
      List<String> found;
      try (Stream<Path> s = Files.find(fs.getPath("/tags"), Integer.MAX_VALUE,
          (p, a) -> a.isRegularFile() && p.getFileName().toString().equals("W"))) {
        found = s.map(Path::toString).sorted().toList();
      }
      assertEquals(List.of("/tags/default/params/layer0/W", "/tags/default/params/layer1/W",
          "/tags/v1/params/layer0/W", "/tags/v1/params/layer1/W"), found);
    }
  }

  @Test
  void globOfTheLayersParameters() throws Exception {
    Path model = PathToolsModels.fb(tmp);
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", true))) {
      List<String> found = JdkIdioms.walkMatching(fs.getPath("/params"), "glob:/params/layer*/*").stream()
          .map(Path::toString).sorted().toList();
      assertEquals(List.of("/params/layer0/W", "/params/layer0/b", "/params/layer1/W"), found);
    }
  }

  @Test
  void globOfTheAdamStateOverTheWholeTreeFindsEachArrayOnce() throws Exception {
    Path model = PathToolsModels.fb(tmp);
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", true))) {
      List<Path> found = JdkIdioms.walkMatching(fs.getPath("/"), "glob:**/{M,V}");
      List<String> state = found.stream()
          .map(p -> p.toString().substring(p.toString().indexOf("/updater/") + "/updater/".length()))
          .sorted().toList();
      assertEquals(PathToolsModels.UPDATER.stream().sorted().toList(), state, "found: " + found);
    }
  }
}
