package org.modelfs.azure;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import java.net.URI;
import java.nio.file.Path;
import org.modelfs.testing.StoreBenchRun;

/**
 * Issue 34's store benchmark ({@link StoreBenchRun}) on Azurite (started as the tests start it,
 * {@link Azurite}); the provider and the plain SDK reach it through the benchmark's proxy port,
 * the model's uploads go to Azurite's own port (not counted).
 *
 * <p>{@code mvn -B -o -Pbench -DskipTests test-compile exec:exec -pl azure -Dazbench.args="--rounds 3"}
 * from the repository root, after {@code mvn -o install -pl core -DskipTests} and Azurite's install
 * ({@code npm install --prefix azure/target/azurite azurite@3.37.0}).
 */
public final class BlobStoreBench implements StoreBenchRun.Store {
  private final BlobContainerClient container;
  private BlobContainerClient sdk;
  private int sdkPort;

  private BlobStoreBench(Azurite azurite) {
    this.container = azurite.newContainer("bench");
  }

  public static void main(String[] args) throws Exception {
    StoreBenchRun.run(BlobStoreBench.class, () -> new BlobStoreBench(Azurite.get()), args);
  }

  @Override
  public String name() {
    return "Azure (Azurite)";
  }

  @Override
  public int port() {
    return Integer.parseInt(container.getBlobContainerUrl().replaceAll("^http://[^:]+:(\\d+)/.*$", "$1"));
  }

  @Override
  public Path path(int port, String key) {
    System.setProperty(BlobFileSystemProvider.PROPERTY, Azurite.connectionString(port));
    return Path.of(URI.create("azb://" + container.getBlobContainerName() + "/" + key));
  }

  @Override
  public void put(Path local, String key) {
    container.getBlobClient(key).uploadFromFile(local.toString(), true);
  }

  @Override
  public void get(int port, String key, Path to) {
    if (sdk == null || sdkPort != port) {
      sdk = new BlobServiceClientBuilder().connectionString(Azurite.connectionString(port)).buildClient()
          .getBlobContainerClient(container.getBlobContainerName());
      sdkPort = port;
    }
    sdk.getBlobClient(key).downloadToFile(to.toString(), true);
  }

  @Override
  public void close() {
    container.delete();
  }
}
