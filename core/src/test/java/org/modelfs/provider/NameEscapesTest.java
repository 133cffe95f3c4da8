package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.ModelFileSystems;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;

/**
 * Issue 15, names (docs/FILESYSTEM.md §2), the same in every format: a path element that stands
 * for no name is refused when the path is made, so nothing reaches a journal or a writer; names
 * spelled with escapes are written through the journal, committed and read back as the names
 * they stand for.
 */
class NameEscapesTest {
  @TempDir Path tmp;

  private Path model(String format) throws IOException {
    if (format.equals("fb")) {
      return ProviderTestModels.copy(tmp, "m.fb");
    }
    WriteOptions opts = switch (format) {
      case "sdnb" -> WriteOptions.of(ModelFormat.SDNB);
      case "sharded" -> WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(200);
      case "sdz" -> WriteOptions.of(ModelFormat.SDZ);
      case "container" -> WriteOptions.of(ModelFormat.CONTAINER).withDeflate(true);
      default -> WriteOptions.of(ModelFormat.ZIP_TAGS);
    };
    Path out = tmp.resolve(format.equals("sdz") ? "m.sdz" : format.equals("zip-tags") ? "m.zip"
        : format.equals("container") ? "m.sdmc" : "m.sdnb");
    try (Model m = Models.open(ProviderTestModels.EXAMPLE)) {
      ModelFiles.write(m.newest(), out, opts);
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(strings = {"fb", "sdnb", "sharded", "sdz", "zip-tags", "container"})
  void elementsThatStandForNoNameAreRefusedWhenThePathIsMade(String format) throws IOException {
    Path model = model(format);
    byte[] before = Files.readAllBytes(Files.isRegularFile(model) ? model : ProviderTestModels.shards(model).get(0));
    try (FileSystem fs = ModelFileSystems.open(model)) {
      for (String bad : List.of("%FE", "%FF", "%C0%AF", "%ED%A0%80", "%\u0663\u0663", "%zz", "100%",
          "\uD800", "a\uDC00")) {
        InvalidPathException e = assertThrows(InvalidPathException.class, () -> fs.getPath("/params/" + bad), bad);
        assertEquals("/params/" + bad, e.getInput());
        assertTrue(e.getIndex() >= "/params/".length(), e.getMessage());
        assertThrows(InvalidPathException.class, () -> fs.getPath("/params").resolve(bad), bad);
        assertThrows(InvalidPathException.class, () -> fs.getPath("/updater/layer0/W", bad), bad);
      }
    }
    assertArrayEquals(before, Files.readAllBytes(Files.isRegularFile(model) ? model : ProviderTestModels.shards(model).get(0)));
  }

  @ParameterizedTest
  @ValueSource(strings = {"fb", "sdnb", "sharded", "sdz", "zip-tags", "container"})
  void escapedNamesGoThroughTheJournalAndTheWriter(String format) throws IOException {
    Path model = model(format);
    byte[] e1 = {1, 2, 3, 4};
    byte[] e2 = {5, 6, 7, 8};
    byte[] e3 = {9, 10, 11, 12};
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Files.write(fs.getPath("/params/%C3%A9"), e1);          // é
      Files.write(fs.getPath("/params/%f0%9f%98%80"), e2);    // 😀, lower-case escapes
      Files.write(fs.getPath("/params/100%25"), e3);          // 100%
      // another spelling of the same name is the same file
      assertArrayEquals(e1, Files.readAllBytes(fs.getPath("/params/é")));
      assertArrayEquals(e3, Files.readAllBytes(fs.getPath("/params/%31%30%30%25")));
    }
    try (FileSystem fs = ModelFileSystems.open(model);
        Stream<Path> s = Files.list(fs.getPath("/params"))) {
      List<String> names = s.map(p -> p.getFileName().toString()).toList();
      assertTrue(names.containsAll(List.of("é", "😀", "100%25")), names.toString());
      assertFalse(names.contains("\uFFFD"), names.toString());
      assertArrayEquals(e1, Files.readAllBytes(fs.getPath("/params/é")));
      assertArrayEquals(e2, Files.readAllBytes(fs.getPath("/params/😀")));
      assertArrayEquals(e3, Files.readAllBytes(fs.getPath("/params/100%25")));
    }
  }
}
