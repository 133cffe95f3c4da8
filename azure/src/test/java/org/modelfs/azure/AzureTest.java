package org.modelfs.azure;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.ListBlobsOptions;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** What every Azure test class shares: the JVM's {@link Azurite}, a container of its own, a temporary directory per test. */
abstract class AzureTest {
  static final Path FIXTURES = Path.of(System.getProperty("modelfs.fixtures"));
  static Azurite azurite;
  static BlobContainerClient container;

  @TempDir
  Path tmp;

  @BeforeAll
  static void startServer() throws Exception {
    azurite = Azurite.get();
    container = azurite.newContainer("t");
  }

  /** {@code azb://<container>/<key>}. */
  static String uri(String key) {
    return "azb://" + container.getBlobContainerName() + "/" + key;
  }

  /** The path of {@code key}, as the CLI makes it. */
  static Path path(String key) {
    return Path.of(URI.create(uri(key)));
  }

  /** Uploads a local file as the blob {@code key} with one Put Blob (as a user's tool would). */
  static String upload(Path file, String key) {
    container.getBlobClient(key).uploadFromFile(file.toString(), true);
    return uri(key);
  }

  static byte[] bytes(String key) {
    return container.getBlobClient(key).downloadContent().toBytes();
  }

  /** The names of the container's blobs starting with {@code prefix}. */
  static List<String> keys(String prefix) {
    List<String> out = new ArrayList<>();
    for (BlobItem i : container.listBlobs(new ListBlobsOptions().setPrefix(prefix), null)) {
      out.add(i.getName());
    }
    return out;
  }

  /** Uploads the DL4J-named shards {@code m.shard<k>-of-<N>.sdnb} in {@code tmp} as {@code prefix<name>}. */
  void uploadShards(String prefix) throws IOException {
    try (var files = Files.list(tmp)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        if (p.getFileName().toString().matches("m\\.shard\\d+-of-\\d+\\.sdnb")) {
          upload(p, prefix + p.getFileName());
        }
      }
    }
  }
}
