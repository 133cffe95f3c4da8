package org.modelfs.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ModelId}: every spelling of one model is one identity; neighbours are not. */
class ModelIdTest {
  @TempDir Path tmp;

  private Path dir() throws IOException {
    return tmp.toRealPath();
  }

  private void shards(Path dir, String base, int n) throws IOException {
    for (int k = 0; k < n; k++) {
      Files.writeString(dir.resolve(base + ".shard" + k + "-of-" + n + ".sdnb"), "SDNB shard " + k); // a shard starts as one
    }
  }

  @Test
  void everySpellingOfAShardSetIsOneIdentity() throws IOException {
    Path dir = dir();
    shards(dir, "m", 3);
    List<Path> spellings = List.of(dir.resolve("m.sdnb"), dir.resolve("m.SDNB"), dir.resolve("m"),
        dir.resolve("m.shard0-of-3.sdnb"), dir.resolve("m.shard1-of-3.sdnb"), dir.resolve("m.shard2-of-3.sdnb"));
    ModelId first = ModelId.of(spellings.get(0));
    for (Path p : spellings) {
      ModelId id = ModelId.of(p);
      assertEquals(first, id, p.toString());
      assertEquals(first.hashCode(), id.hashCode(), p.toString());
      assertEquals("m.sdnb", id.key(), p.toString());
      assertEquals("m", id.shardBase(), p.toString());
      assertEquals("m.sdnb", id.fileName(), p.toString());
      assertEquals(dir, id.dir(), p.toString());
      assertEquals(dir.resolve("m.sdnb"), id.file(), p.toString());
      assertEquals(dir.resolve("m.sdnb").toString(), id.toString(), p.toString());
    }
  }

  @Test
  void aRelativeSpellingIsTheSameIdentity() throws IOException {
    Path dir = dir();
    shards(dir, "m", 2);
    Path cwd = Path.of("").toAbsolutePath();
    Path relative = cwd.relativize(dir.resolve("m.shard1-of-2.sdnb"));
    assertEquals(ModelId.of(dir.resolve("m.sdnb")), ModelId.of(relative));
  }

  /**
   * Between the renames of a commit that changes the shard count (or after it crashed there), the
   * directory holds shards of two counts; the bare base name must still name the model, so that
   * a reader can wait for the commit or recover it.
   */
  @Test
  void theBareBaseNameOfAShardSetBeingReshardedIsTheShardSet() throws IOException {
    Path dir = dir();
    shards(dir, "m", 4);
    Files.writeString(dir.resolve("m.shard0-of-3.sdnb"), "SDNB new shard 0");
    assertEquals(ModelId.of(dir.resolve("m.sdnb")), ModelId.of(dir.resolve("m")));
  }

  @Test
  void theBareBaseNameOfAnIncompleteShardSetIsTheShardSet() throws IOException {
    Path dir = dir();
    Files.writeString(dir.resolve("m.shard0-of-3.sdnb"), "SDNB shard 0");
    assertEquals(ModelId.of(dir.resolve("m.sdnb")), ModelId.of(dir.resolve("m")));
  }

  @Test
  void anExistingSingleSdnbFileIsTheSameModelAsItsShards() throws IOException {
    Path dir = dir();
    Files.writeString(dir.resolve("m.sdnb"), "single");
    ModelId single = ModelId.of(dir.resolve("m.sdnb"));
    assertEquals("m.sdnb", single.fileName());
    assertEquals("m", single.shardBase());
    assertEquals("m.sdnb", single.key());
    assertEquals(single, ModelId.of(dir.resolve("m.shard0-of-4.sdnb")));
  }

  @Test
  void singleFilesKeepTheirNames() throws IOException {
    Path dir = dir();
    for (String n : List.of("bert.fb", "bert.sdz", "bert.zip", "bert", "m.fb.sdz", "bert.v2")) {
      Files.writeString(dir.resolve(n), n);
      ModelId id = ModelId.of(dir.resolve(n));
      assertEquals(n, id.fileName(), n);
      assertEquals(n, id.key(), n);
      assertNull(id.shardBase(), n);
      assertEquals(dir.resolve(n), id.file(), n);
    }
    assertNotEquals(ModelId.of(dir.resolve("bert.fb")), ModelId.of(dir.resolve("bert.sdz")));
    assertNotEquals(ModelId.of(dir.resolve("bert")), ModelId.of(dir.resolve("bert.v2")));
    // a model that does not exist yet keeps its name too
    ModelId fresh = ModelId.of(dir.resolve("new.fb"));
    assertEquals("new.fb", fresh.key());
    assertNull(fresh.shardBase());
  }

  @Test
  void aBareNameWithoutShardsIsASingleFile() throws IOException {
    Path dir = dir();
    ModelId id = ModelId.of(dir.resolve("bert"));
    assertEquals("bert", id.key());
    assertNull(id.shardBase());
    shards(dir, "bert", 2);
    assertEquals("bert.sdnb", ModelId.of(dir.resolve("bert")).key(), "now shards of bert exist");
  }

  @Test
  void aSymlinkedModelResolvesToTheRealFile() throws IOException {
    Path dir = dir();
    Path realDir = Files.createDirectory(dir.resolve("real"));
    Path real = Files.writeString(realDir.resolve("m.fb"), "model");
    Path link = Files.createSymbolicLink(dir.resolve("link.fb"), real);
    ModelId viaLink = ModelId.of(link);
    assertEquals(ModelId.of(real), viaLink);
    assertEquals(realDir, viaLink.dir());
    assertEquals("m.fb", viaLink.key());
    assertEquals(real, viaLink.file());
  }

  @Test
  void aSymlinkToAShardIsTheShardSet() throws IOException {
    Path dir = dir();
    Path realDir = Files.createDirectory(dir.resolve("real"));
    shards(realDir, "m", 2);
    Path link = Files.createSymbolicLink(dir.resolve("x.sdnb"), realDir.resolve("m.shard0-of-2.sdnb"));
    assertEquals(ModelId.of(realDir.resolve("m.sdnb")), ModelId.of(link));
    assertEquals("m.sdnb", ModelId.of(link).key());
  }

  @Test
  void aDanglingSymlinkIsNoSuchFile() throws IOException {
    Path dir = dir();
    Path link = Files.createSymbolicLink(dir.resolve("gone.fb"), dir.resolve("missing.fb"));
    assertThrows(NoSuchFileException.class, () -> ModelId.of(link));
  }

  @Test
  void aSymlinkedDirectoryResolves() throws IOException {
    Path dir = dir();
    Path realDir = Files.createDirectory(dir.resolve("real"));
    Files.writeString(realDir.resolve("m.fb"), "model");
    Path linkDir = Files.createSymbolicLink(dir.resolve("linked"), realDir);
    ModelId id = ModelId.of(linkDir.resolve("m.fb"));
    assertEquals(realDir, id.dir());
    assertEquals(ModelId.of(realDir.resolve("m.fb")), id);
    // also for a model that does not exist yet
    assertEquals(realDir, ModelId.of(linkDir.resolve("new.fb")).dir());
  }

  @Test
  void aMissingDirectoryIsNoSuchFile() throws IOException {
    Path missing = dir().resolve("no-such-dir").resolve("m.fb");
    NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> ModelId.of(missing));
    assertEquals(missing.toString(), e.getFile());
  }

  @Test
  void aDirectoryNameIsNotAModel() {
    assertThrows(FileSystemException.class, () -> ModelId.of(tmp.resolve("..")));
    assertThrows(FileSystemException.class, () -> ModelId.of(tmp.resolve(".")));
  }

  @Test
  void asShardSet() throws IOException {
    Path dir = dir();
    ModelId fb = ModelId.of(dir.resolve("m.fb"));
    ModelId set = fb.asShardSet();
    assertEquals("m.sdnb", set.key());
    assertEquals("m.sdnb", set.fileName());
    assertEquals("m", set.shardBase());
    assertEquals(dir, set.dir());
    assertEquals(ModelId.of(dir.resolve("m.sdnb")), set);
    assertNotEquals(fb, set);
    ModelId sdnb = ModelId.of(dir.resolve("m.sdnb"));
    assertSame(sdnb, sdnb.asShardSet(), "already a shard set");
    assertEquals("bert", ModelId.of(dir.resolve("bert")).asShardSet().shardBase());
    assertEquals("bert.sdnb", ModelId.of(dir.resolve("bert")).asShardSet().key());
  }

  @Test
  void isModelFileIsExact() throws IOException {
    Path dir = dir();
    ModelId fb = ModelId.of(dir.resolve("m.fb"));
    assertTrue(fb.isModelFile("m.fb"));
    assertFalse(fb.isModelFile("m.fb.sdz"));
    assertFalse(fb.isModelFile("m.f"));
    assertFalse(fb.isModelFile("M.FB"));
    assertFalse(fb.isModelFile("m.shard0-of-2.sdnb"), "an fb model has no shards");
    assertFalse(fb.isModelFile(".m.fb.modelfs-lock"));

    ModelId bert = ModelId.of(dir.resolve("bert"));
    assertTrue(bert.isModelFile("bert"));
    assertFalse(bert.isModelFile("bert.v2"));
    assertFalse(bert.isModelFile("bert.shard0-of-2.sdnb"), "no shards of bert exist: a single file");

    ModelId set = ModelId.of(dir.resolve("m.sdnb"));
    assertTrue(set.isModelFile("m.sdnb"));
    assertTrue(set.isModelFile("m.shard0-of-2.sdnb"));
    assertTrue(set.isModelFile("m.shard11-of-12.sdnb"));
    assertFalse(set.isModelFile("mm.shard0-of-2.sdnb"));
    assertFalse(set.isModelFile("m.v2.shard0-of-2.sdnb"));
    assertFalse(set.isModelFile("m.sdnb.sdz"));
    assertFalse(set.isModelFile("m.shard0-of-2.sdnb.tmp"));
    assertFalse(set.isModelFile("m"));
    assertFalse(set.isModelFile("m.fb"));
  }
}
