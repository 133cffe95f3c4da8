package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.container.Models;
import org.modelfs.format.fb.FlatBufferOut;
import org.modelfs.format.fb.GraphJsonException;
import org.modelfs.format.fb.GraphWriter;
import org.modelfs.io.CountingOutput;
import org.modelfs.model.Model;

/**
 * The rules of docs/FILESYSTEM.md §7.1–§7.3 one by one, on the mlp_adam.fb fixture (fb, and SDZ
 * for several tags): directories that stay, empty new tags, graph.json as a file of its own,
 * the training configuration only in training.json, renames in every area, deletes.
 */
class SessionTreeTest {
  @TempDir Path tmp;

  private Path sdz() throws IOException {
    return ProviderTestModels.write(tmp, ProviderTestModels.Format.SDZ);
  }

  private static List<String> list(FileSystem fs, String dir) throws IOException {
    try (Stream<Path> s = Files.list(fs.getPath(dir))) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  private static IOException commitRefused(FileSystem fs) {
    return assertThrows(IOException.class, () -> ((JournaledFileSystem) fs).commit());
  }

  // ---- §7.1 directories -------------------------------------------------------------------

  @Test
  void aMadeDirectoryStaysUntilDeletedOrCommitted() throws IOException {
    Path m = sdz();
    try (FileSystem fs = ModelFileSystems.open(m)) {
      Files.createDirectory(fs.getPath("/params/empty"));
      Files.createDirectories(fs.getPath("/metadata/a/b"));
      assertTrue(Files.isDirectory(fs.getPath("/params/empty")));
      assertEquals(List.of("b"), list(fs, "/metadata/a"));
      assertThrows(FileAlreadyExistsException.class, () -> Files.createDirectory(fs.getPath("/params/empty")));
      assertThrows(FileSystemException.class, () -> Files.write(fs.getPath("/params/empty"), new byte[4]),
          "a directory is in the way");
      Files.write(fs.getPath("/metadata/a/b/c"), "v".getBytes(StandardCharsets.UTF_8));
      Files.delete(fs.getPath("/metadata/a/b/c"));
      assertTrue(Files.isDirectory(fs.getPath("/metadata/a/b")), "stays after its last file");
      assertThrows(DirectoryNotEmptyException.class, () -> Files.delete(fs.getPath("/metadata/a")));
      Files.delete(fs.getPath("/metadata/a/b"));
      Files.delete(fs.getPath("/metadata/a"));
      assertFalse(Files.exists(fs.getPath("/metadata/a")));
      ((JournaledFileSystem) fs).commit();
      assertFalse(Files.exists(fs.getPath("/params/empty")), "an empty directory does not survive a commit");
    }
  }

  @Test
  void theRootAndTagsCannotBeDeletedAndAnEmptyAreaComesBack() throws IOException {
    Path m = ProviderTestModels.copy(tmp, "m.fb");
    try (FileSystem fs = ModelFileSystems.open(m)) {
      assertThrows(AccessDeniedException.class, () -> Files.delete(fs.getPath("/")));
      assertThrows(AccessDeniedException.class, () -> Files.delete(fs.getPath("/tags")));
      assertThrows(DirectoryNotEmptyException.class, () -> Files.delete(fs.getPath("/params")));
      Files.delete(fs.getPath("/metadata")); // empty in the example
      assertFalse(Files.exists(fs.getPath("/metadata")));
      Files.writeString(fs.getPath("/metadata/k"), "v");
      assertTrue(Files.isDirectory(fs.getPath("/metadata")), "a write below brings it back");
      Files.delete(fs.getPath("/metadata/k")); // fb holds no metadata
      Files.delete(fs.getPath("/metadata"));
    }
    try (FileSystem fs = ModelFileSystems.open(m)) {
      assertTrue(Files.isDirectory(fs.getPath("/metadata")));
    }
  }

  @Test
  void aNewTagIsEmptyAndAFileCopiedIntoItIsTheOnlyThingThere() throws IOException {
    Path m = sdz();
    try (FileSystem fs = ModelFileSystems.open(m)) {
      Files.createDirectory(fs.getPath("/tags/v2"));
      assertEquals(List.of(), list(fs, "/tags/v2"));
      assertFalse(Files.exists(fs.getPath("/graph")), "the root aliases name the new, empty tag");
      Files.copy(fs.getPath("/tags/default/training.json"), fs.getPath("/tags/v2/training.json"));
      assertEquals(List.of("training.json"), list(fs, "/tags/v2"));
      Files.copy(fs.getPath("/tags/default/graph"), fs.getPath("/tags/v2/graph"));
      assertEquals(List.of("graph", "training.json"), list(fs, "/tags/v2"), "no graph.json until it is written");
      Files.copy(fs.getPath("/tags/default/graph.json"), fs.getPath("/tags/v2/graph.json"));
      assertArrayEquals(Files.readAllBytes(fs.getPath("/tags/default/graph.json")),
          Files.readAllBytes(fs.getPath("/tags/v2/graph.json")));
      ((JournaledFileSystem) fs).rollback();
      assertEquals(List.of("default"), list(fs, "/tags"));
    }
  }

  // ---- §7.1 graph.json --------------------------------------------------------------------

  @Test
  void graphJsonIsCheckedWhenClosedAndGivesANewTagItsGraph() throws IOException {
    Path m = sdz();
    try (FileSystem fs = ModelFileSystems.open(m, Map.of("commitOnClose", false))) {
      byte[] json = Files.readAllBytes(fs.getPath("/graph.json"));
      Files.write(fs.getPath("/graph.json"), json); // the same bytes: accepted, nothing changes
      assertFalse(((JournaledFileSystem) fs).hasPendingChanges(), "nothing to commit");
      GraphJsonException e = assertThrows(GraphJsonException.class,
          () -> Files.writeString(fs.getPath("/graph.json"), "{\"variables\": [], \"ops\": 3}"));
      assertTrue(e.getMessage().contains("graph.json ops: expected an array, found 3"), e.getMessage());
      assertArrayEquals(json, Files.readAllBytes(fs.getPath("/graph.json")));

      // written into a new tag before its graph: it gives the tag its graph, which `graph` shows
      // once written (a copy writes it too) or at the commit
      Files.createDirectory(fs.getPath("/tags/v2"));
      assertThrows(GraphJsonException.class, () -> Files.writeString(fs.getPath("/tags/v2/graph.json"), "{}"));
      assertFalse(Files.exists(fs.getPath("/tags/v2/graph.json")), "a refused write leaves nothing");
      Files.write(fs.getPath("/tags/v2/graph.json"), json);
      assertEquals(List.of("graph.json"), list(fs, "/tags/v2"));
      Files.copy(fs.getPath("/tags/default/graph"), fs.getPath("/tags/v2/graph"));
      assertArrayEquals(Files.readAllBytes(fs.getPath("/tags/default/graph")),
          Files.readAllBytes(fs.getPath("/tags/v2/graph")));
      Files.delete(fs.getPath("/tags/v2/graph.json"));
      assertFalse(Files.exists(fs.getPath("/tags/v2/graph.json")));
    }
  }

  @Test
  void deletingGraphLeavesGraphJsonAndTheArrays() throws IOException {
    Path m = sdz();
    try (FileSystem fs = ModelFileSystems.open(m)) {
      Files.delete(fs.getPath("/graph"));
      assertFalse(Files.exists(fs.getPath("/graph")));
      assertTrue(Files.exists(fs.getPath("/graph.json")), "graph.json goes only when deleted itself");
      assertFalse(Files.readString(fs.getPath("/graph.json")).contains("\"opName\""), "no ops left");
      assertTrue(Files.exists(fs.getPath("/params/layer0/W")));
      assertTrue(Files.exists(fs.getPath("/updater/layer0/W/M")));
    }
    try (FileSystem fs = ModelFileSystems.open(m)) {
      assertTrue(Files.exists(fs.getPath("/graph")), "the commit writes a graph of variables only");
      assertFalse(Files.readString(fs.getPath("/graph.json")).contains("\"opName\""));
      assertEquals(128, Files.size(fs.getPath("/params/layer0/W")));
    }
  }

  // ---- §7 training.json is the training configuration's only home ---------------------------

  @Test
  void aWrittenGraphGivesItsTrainingConfigurationOnlyWhereThereIsNone() throws Exception {
    Path m = sdz();
    String training;
    try (FileSystem fs = ModelFileSystems.open(m, Map.of("readOnly", true))) {
      training = Files.readString(fs.getPath("/training.json"));
      assertFalse(new String(Files.readAllBytes(fs.getPath("/graph")), StandardCharsets.ISO_8859_1).contains("learningRate"),
          "the graph file carries no training configuration");
    }
    // a FlatGraph with a training configuration, as shard 0 of a sharded SDNB holds one
    byte[] withConfig;
    try (Model x = Models.open(ProviderTestModels.EXAMPLE)) {
      var built = GraphWriter.build(x.newest(), GraphWriter.Mode.SHARD_GRAPH,
          Set.of(), Map.of(), "x");
      var out = new ByteArrayOutputStream();
      FlatBufferOut.write(built, new CountingOutput(out), false);
      withConfig = out.toByteArray();
    }
    try (FileSystem fs = ModelFileSystems.open(m, Map.of("commitOnClose", false))) {
      Files.write(fs.getPath("/graph"), withConfig); // the same configuration: accepted
      assertEquals(training, Files.readString(fs.getPath("/training.json")));
      ((JournaledFileSystem) fs).rollback();
      Files.writeString(fs.getPath("/training.json"), training.replace("\"learningRate\" : 0.01", "\"learningRate\" : 0.02"));
      FileSystemException e = assertThrows(FileSystemException.class, () -> Files.write(fs.getPath("/graph"), withConfig));
      assertTrue(e.getMessage().contains("training.json"), e.getMessage());
      ((JournaledFileSystem) fs).rollback();
      Files.createDirectory(fs.getPath("/tags/v2"));
      Files.write(fs.getPath("/tags/v2/graph"), withConfig);
      assertEquals(training, Files.readString(fs.getPath("/tags/v2/training.json")), "a tag without one takes it");
    }
  }

  // ---- §7.2 renames -----------------------------------------------------------------------

  @Test
  void updaterAndMetadataDirectoriesRename() throws IOException {
    Path m = sdz();
    try (FileSystem fs = ModelFileSystems.open(m)) {
      Files.writeString(fs.getPath("/metadata/run/a"), "1");
      Files.writeString(fs.getPath("/metadata/run/b"), "2");
      Files.move(fs.getPath("/metadata/run"), fs.getPath("/metadata/best"));
      assertEquals(List.of("a", "b"), list(fs, "/metadata/best"));
      assertFalse(Files.exists(fs.getPath("/metadata/run")));
      // the state of layer1/W moved to another parameter of the same shape? none: move it away and back
      byte[] m1 = Files.readAllBytes(fs.getPath("/updater/layer1/W/M"));
      Files.move(fs.getPath("/updater/layer1/W"), fs.getPath("/updater/spare"));
      assertArrayEquals(m1, Files.readAllBytes(fs.getPath("/updater/spare/M")));
      IOException e = commitRefused(fs);
      assertTrue(e.getMessage().contains("spare"), "state of no parameter: " + e.getMessage());
      Files.move(fs.getPath("/updater/spare"), fs.getPath("/updater/layer1/W"));
      assertTrue(Files.isDirectory(fs.getPath("/updater/layer1")));
    }
    try (FileSystem fs = ModelFileSystems.open(m)) {
      assertEquals("2", Files.readString(fs.getPath("/metadata/best/b")));
      assertTrue(Files.exists(fs.getPath("/updater/layer1/W/V")));
    }
  }

  @Test
  void renamesThatCannotBe() throws IOException {
    Path m = sdz();
    try (FileSystem fs = ModelFileSystems.open(m, Map.of("commitOnClose", false))) {
      // "matmul" is an activation (an ARRAY variable, no file): its name is taken
      FileAlreadyExistsException e = assertThrows(FileAlreadyExistsException.class,
          () -> Files.move(fs.getPath("/params/layer1/W"), fs.getPath("/params/matmul")));
      assertTrue(e.getMessage().contains("matmul"), e.getMessage());
      assertThrows(FileSystemException.class, () -> Files.move(fs.getPath("/params/layer0"), fs.getPath("/params/layer0/x")));
      assertThrows(FileAlreadyExistsException.class, () -> Files.move(fs.getPath("/params/layer0"), fs.getPath("/params/layer1")));
      assertThrows(DirectoryNotEmptyException.class, () -> Files.move(fs.getPath("/params/layer0"),
          fs.getPath("/params/layer1"), StandardCopyOption.REPLACE_EXISTING));
      Files.createDirectory(fs.getPath("/tags/v2"));
      assertThrows(DirectoryNotEmptyException.class, () -> Files.move(fs.getPath("/tags/default/params/layer0"),
          fs.getPath("/tags/v2/params/layer0")), "entries cannot move to another tag");
      assertFalse(Files.exists(fs.getPath("/tags/v2/params/layer0")), "nothing moved");
      assertTrue(Files.exists(fs.getPath("/tags/default/params/layer0/W")));
    }
  }

  @Test
  void aRenameOntoAnEmptyDirectoryWithReplaceAndThroughTheAliases() throws IOException {
    Path m = sdz();
    try (FileSystem fs = ModelFileSystems.open(m)) {
      Files.createDirectory(fs.getPath("/params/enc"));
      Files.move(fs.getPath("/tags/default/params/layer0"), fs.getPath("/params/enc"), StandardCopyOption.REPLACE_EXISTING);
      assertEquals(List.of("W", "b"), list(fs, "/params/enc"));
      assertEquals(List.of("W", "b"), list(fs, "/updater/enc"));
      // a file onto an existing file with REPLACE_EXISTING replaces its content; the target keeps its place
      Files.write(fs.getPath("/params/tmp"), new byte[128]);
      Files.move(fs.getPath("/params/tmp"), fs.getPath("/params/enc/W"), StandardCopyOption.REPLACE_EXISTING);
      assertFalse(Files.exists(fs.getPath("/params/tmp")));
      assertArrayEquals(new byte[128], Files.readAllBytes(fs.getPath("/params/enc/W")));
      assertArrayEquals(new long[] {4, 8}, (long[]) Files.getAttribute(fs.getPath("/params/enc/W"), "samediff:shape"),
          "the raw 1-D file took the target's shape");
    }
    try (FileSystem fs = ModelFileSystems.open(m)) {
      assertArrayEquals(new byte[128], Files.readAllBytes(fs.getPath("/params/enc/W")));
      assertTrue(Files.readString(fs.getPath("/graph.json")).contains("\"enc/W\""));
    }
  }

  // ---- §7.3 deletes -----------------------------------------------------------------------

  @Test
  void aRenamedParameterThatOpsUseCannotBeDeletedAndTheMessageNamesTheOps() throws IOException {
    Path m = sdz();
    try (FileSystem fs = ModelFileSystems.open(m, Map.of("commitOnClose", false))) {
      Files.move(fs.getPath("/params/layer0/W"), fs.getPath("/params/x"));
      Files.delete(fs.getPath("/params/x"));
      IOException e = commitRefused(fs);
      assertTrue(e.getMessage().contains("/params/x: deleted, but op matmul uses it"), e.getMessage());
      Files.write(fs.getPath("/params/x"), new byte[128]); // a new array in the same change
      ((JournaledFileSystem) fs).commit();
      assertArrayEquals(new long[] {4, 8}, (long[]) Files.getAttribute(fs.getPath("/params/x"), "samediff:shape"));
    }
  }

  @Test
  void anUnusedParameterGoesWithItsStateAndAMissingOneIsNoSuchFile() throws IOException {
    Path m = sdz();
    try (FileSystem fs = ModelFileSystems.open(m)) {
      Files.write(fs.getPath("/params/extra"), new byte[16]);
    }
    try (FileSystem fs = ModelFileSystems.open(m)) {
      Files.write(fs.getPath("/updater/extra/M"), new byte[16]);
      Files.write(fs.getPath("/updater/extra/V"), new byte[16]);
      ((JournaledFileSystem) fs).commit();
      Files.delete(fs.getPath("/params/extra"));
      assertThrows(NoSuchFileException.class, () -> Files.delete(fs.getPath("/params/extra")));
    }
    try (FileSystem fs = ModelFileSystems.open(m)) {
      assertFalse(Files.exists(fs.getPath("/params/extra")));
      assertFalse(Files.exists(fs.getPath("/updater/extra")));
      assertFalse(Files.readString(fs.getPath("/graph.json")).contains("\"extra\""));
    }
  }
}
