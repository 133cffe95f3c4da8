package org.modelfs.s3;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import org.modelfs.testing.StoreBenchRun;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;

/**
 * Issue 34's store benchmark ({@link StoreBenchRun}) on S3Proxy's transient store in this JVM.
 *
 * <p>{@code mvn -B -o -Pbench -DskipTests test-compile exec:exec -pl s3 -Ds3bench.main=org.modelfs.s3.StoreBench
 * -Ds3bench.args="--rounds 3"} from the repository root, after {@code mvn -o install -pl core -DskipTests}.
 */
public final class StoreBench implements StoreBenchRun.Store {
  private final S3TestServer s3;
  private S3AsyncClient sdk;
  private int sdkPort;

  private StoreBench(S3TestServer s3) {
    this.s3 = s3;
  }

  public static void main(String[] args) throws Exception {
    StoreBenchRun.run(StoreBench.class, () -> new StoreBench(S3TestServer.start()), args);
  }

  @Override
  public String name() {
    return "S3 (S3Proxy)";
  }

  @Override
  public int port() {
    return s3.port();
  }

  @Override
  public Path path(int port, String key) {
    return S3TestServer.path(port, key);
  }

  @Override
  public void put(Path local, String key) throws IOException {
    s3.upload(local, key);
  }

  @Override
  public long servedSinceLast() {
    long served = s3.bytesServed();
    s3.resetCounts();
    return served;
  }

  @Override
  public void get(int port, String key, Path to) throws Exception {
    if (sdk == null || sdkPort != port) {
      sdk = S3AsyncClient.builder().endpointOverride(URI.create("http://127.0.0.1:" + port)).forcePathStyle(true)
          .region(Region.US_EAST_1).responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
          .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(S3TestServer.ACCESS,
              S3TestServer.SECRET))).build();
      sdkPort = port;
    }
    sdk.getObject(g -> g.bucket(S3TestServer.BUCKET).key(key), AsyncResponseTransformer.toFile(to)).get();
  }

  @Override
  public void close() throws Exception {
    if (sdk != null) {
      sdk.close();
    }
    s3.close();
  }
}
