package org.modelfs.azure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.modelfs.ModelFileSystems;
import org.modelfs.store.ModelChangedException;

/**
 * A model in Azurite mounted, read, changed and committed through {@code azb://} paths, compared
 * with the same model and the same change on the local disk.
 */
class MountTest extends AzureTest {
  /** Every regular file of the mounted tree with its bytes, in walk order. */
  static List<String> tree(FileSystem fs) throws IOException {
    List<String> out = new ArrayList<>();
    try (var walk = Files.walk(fs.getPath("/"))) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        out.add(p + (Files.isRegularFile(p) ? " " + HexFormat.of().formatHex(
            MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p))) : ""));
      }
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
    return out;
  }

  @Test
  void mountedFixtureReadsAsTheLocalFile() throws Exception {
    for (String name : List.of("mlp_adam.fb", "mlp_adam.sdnb")) {
      Path local = FIXTURES.resolve(name);
      if (!Files.exists(local)) {
        continue;
      }
      upload(local, "read/" + name);
      try (FileSystem store = ModelFileSystems.open(path("read/" + name), Map.of("readOnly", "true"));
          FileSystem disk = ModelFileSystems.open(local, Map.of("readOnly", "true"))) {
        assertEquals(tree(disk), tree(store), name);
      }
    }
  }

  @Test
  void editCommitAndReadBackAsTheSameEditOnDisk() throws Exception {
    Path local = Files.copy(FIXTURES.resolve("mlp_adam.fb"), tmp.resolve("m.fb"));
    upload(local, "edit/m.fb");
    byte[] zeros;
    for (Path model : List.of(local, path("edit/m.fb"))) {
      try (FileSystem fs = ModelFileSystems.open(model)) {
        zeros = new byte[(int) Files.size(fs.getPath("/params/layer0/W"))];
        Files.write(fs.getPath("/params/layer0/W"), zeros);
      }
    }
    try (FileSystem store = ModelFileSystems.open(path("edit/m.fb"), Map.of("readOnly", "true"));
        FileSystem disk = ModelFileSystems.open(local, Map.of("readOnly", "true"))) {
      assertEquals(tree(disk), tree(store));
    }
    assertEquals(List.of("edit/m.fb"), keys("edit/"), "one blob, nothing beside it");
  }

  @Test
  void aReplacedBlobIsAClearErrorNeverOtherBytes() throws Exception {
    Path local = FIXTURES.resolve("mlp_adam.fb");
    upload(local, "changed/m.fb");
    BlobStore store = ((BlobPath) path("changed/m.fb")).getFileSystem().store();
    BlobStore.Info info = store.head(container.getBlobContainerName(), "changed/m.fb");
    try (BlobSource src = new BlobSource(store, container.getBlobContainerName(), "changed/m.fb", info.etag(),
        info.size())) {
      upload(local, "changed/m.fb"); // the same bytes, a new ETag
      IOException e = assertThrows(BlobChangedException.class, () -> src.read(ByteBuffer.allocate(16), 0));
      assertTrue(e.getMessage().contains("azb://" + container.getBlobContainerName() + "/changed/m.fb")
          && e.getMessage().contains("the model changed since it was mounted"), e.getMessage());
    }
  }

  @Test
  void aCommitAfterAnotherWritersCommitIsRefused() throws Exception {
    upload(FIXTURES.resolve("mlp_adam.fb"), "two/m.fb");
    FileSystem first = ModelFileSystems.open(path("two/m.fb"));
    Files.write(first.getPath("/params/layer0/W"), new byte[(int) Files.size(first.getPath("/params/layer0/W"))]);
    upload(FIXTURES.resolve("mlp_adam.fb"), "two/m.fb"); // another writer's commit
    IOException e = assertThrows(IOException.class, first::close);
    assertTrue(e instanceof ModelChangedException || e.getCause() instanceof ModelChangedException
        || String.valueOf(e.getMessage()).contains("changed since it was mounted"), String.valueOf(e));
  }

  @Test
  void aMissingBlobAndContainerAreNamed() {
    NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> ModelFileSystems.open(path("none/m.fb"),
        Map.of("readOnly", "true")));
    assertTrue(e.getMessage().contains("none/m.fb"), e.getMessage());
    Path other = Path.of(URI.create("azb://no-such-container/m.fb"));
    IOException c = assertThrows(IOException.class, () -> ModelFileSystems.open(other, Map.of("readOnly", "true")));
    assertTrue(c.getMessage().contains("no-such-container") && !c.getMessage().contains(Azurite.KEY), c.getMessage());
  }
}
