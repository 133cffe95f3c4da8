package org.modelfs.azure;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Azurite, the Azure Storage emulator (npm package {@code azurite}; {@code .ci/run} installs it
 * into {@code azure/target/azurite}), started once per test JVM on 127.0.0.1 at a free port with a
 * temporary location, stopped at exit. Found by system property {@code modelfs.azurite} (the
 * pom's, the {@code azurite-blob} script) or environment variable {@code MODELFS_AZURITE}. Absent:
 * the test fails under CI ({@code CI=true}) and is skipped with this message otherwise.
 */
final class Azurite {
  /** The emulator's published development account and key (not a secret: the same in every Azurite). */
  static final String ACCOUNT = "devstoreaccount1";
  static final String KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  private static Azurite running;

  final int port;
  final String connectionString;
  final BlobServiceClient client;
  private final Process process;

  private Azurite(int port, Process process) {
    this.port = port;
    this.process = process;
    this.connectionString = connectionString(port);
    this.client = new BlobServiceClientBuilder().connectionString(connectionString).buildClient();
  }

  static String connectionString(int port) {
    return "DefaultEndpointsProtocol=http;AccountName=" + ACCOUNT + ";AccountKey=" + KEY + ";BlobEndpoint=http://"
        + "127.0.0.1:" + port + "/" + ACCOUNT + ";";
  }

  /** The JVM's Azurite, started on first use; the provider's default account is set to it. */
  static synchronized Azurite get() throws IOException, InterruptedException {
    if (running == null) {
      running = start();
      System.setProperty(BlobFileSystemProvider.PROPERTY, running.connectionString);
    }
    return running;
  }

  private static Azurite start() throws IOException, InterruptedException {
    String where = System.getProperty("modelfs.azurite", System.getenv("MODELFS_AZURITE"));
    if (where == null || !Files.isExecutable(Path.of(where))) {
      String why = "Azurite is not installed (" + (where == null ? "set -Dmodelfs.azurite or MODELFS_AZURITE" : where
          + " is missing") + "): npm install --prefix azure/target/azurite azurite@3.37.0 (.ci/run does)";
      if ("true".equals(System.getenv("CI"))) {
        throw new AssertionError(why);
      }
      Assumptions.abort(why);
    }
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    Path location = Files.createTempDirectory("azurite-");
    Process p = new ProcessBuilder(where, "--blobHost", "127.0.0.1", "--blobPort", String.valueOf(port), "--location",
        location.toString(), "--skipApiVersionCheck", "--loose", "--silent").redirectErrorStream(true)
        .redirectOutput(location.resolve("azurite.log").toFile()).start();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      p.destroy();
      try {
        p.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      deleteTree(location);
    }));
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 500);
        break;
      } catch (IOException e) {
        if (!p.isAlive() || System.nanoTime() > until) {
          throw new IOException("Azurite did not start (" + where + "): " + Files.readString(location.resolve(
              "azurite.log")), e);
        }
        Thread.sleep(100);
      }
    }
    return new Azurite(port, p);
  }

  /** A new container with a random name. */
  BlobContainerClient newContainer(String prefix) {
    String name = prefix + "-" + Long.toHexString(System.nanoTime());
    return client.createBlobContainer(name);
  }

  private static void deleteTree(Path dir) {
    try (var s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException e) {
      // a temporary directory: the system's cleaner removes it
    }
  }
}
