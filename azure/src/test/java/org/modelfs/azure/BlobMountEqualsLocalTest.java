package org.modelfs.azure;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.ModelFileSystems;
import org.modelfs.testing.SameTree;
import org.modelfs.testing.StoreModels;

/**
 * Every model kind and every DL4J fixture mounted from Azurite shows exactly what the same model
 * mounted from a local file shows: the same paths, attributes and bytes (as s3's
 * StoreMountEqualsLocalTest for S3).
 */
class BlobMountEqualsLocalTest extends AzureTest {
  static Stream<String> fixtures() throws IOException {
    try (Stream<Path> s = Files.walk(FIXTURES)) {
      List<String> out = s.filter(p -> p.toString().endsWith(".fb")).map(p -> FIXTURES.relativize(p).toString())
          .sorted().toList();
      assertTrue(out.size() >= 10, "the fixtures, including tf-import/: " + out);
      return out.stream();
    }
  }

  @ParameterizedTest
  @MethodSource("fixtures")
  void everyFbFixture(String fixture) throws Exception {
    upload(FIXTURES.resolve(fixture), "fixtures/" + fixture);
    assertSameModel(FIXTURES.resolve(fixture), path("fixtures/" + fixture));
  }

  @ParameterizedTest
  @MethodSource("org.modelfs.testing.StoreModels#kinds")
  void everyStoreModel(String kind) throws Exception {
    StoreModels.Written m = StoreModels.write(tmp.resolve(kind), kind);
    for (Path f : m.files()) {
      upload(f, "kinds/" + kind + "/" + f.getFileName());
    }
    assertSameModel(m.model(), path("kinds/" + kind + "/" + m.name()));
  }

  static void assertSameModel(Path local, Path remote) throws IOException {
    try (FileSystem l = ModelFileSystems.open(local, Map.of("readOnly", "true"));
        FileSystem r = ModelFileSystems.open(remote, Map.of("readOnly", "true"))) {
      SameTree.assertSame(l, r, remote.toUri().toString());
    }
  }
}
