package org.modelfs.s3;

import java.io.PrintStream;

/**
 * An S3-compatible server on a laptop, to try {@code modelfs-s3.jar} and the library against
 * (docs/OBJECT-STORES.md §6, "Trying it locally"): S3Proxy, the version and setup the tests use
 * ({@link S3TestServer}), on 127.0.0.1 with one bucket {@value S3TestServer#BUCKET}, its objects
 * in this JVM's heap (gone when it stops). Runs until interrupted (Ctrl-C):
 *
 * <pre>
 * mvn -q -pl core install -DskipTests
 * mvn -q -pl s3 -Ps3proxy test-compile exec:java@s3proxy [-Ds3proxy.port=9000]
 * </pre>
 */
public final class S3ProxyMain {
  private S3ProxyMain() {}

  public static void main(String[] args) throws Exception {
    int port = Integer.getInteger("s3proxy.port", 9000);
    try (S3TestServer s3 = start(port, System.out)) {
      Thread.currentThread().join(); // until the JVM is stopped
    }
  }

  /** Starts the server on {@code port} (0: a free one) and prints how to reach it on {@code out}. */
  static S3TestServer start(int port, PrintStream out) throws Exception {
    S3TestServer s3 = S3TestServer.start(port);
    out.println("S3Proxy on http://" + s3.endpoint() + ", bucket '" + S3TestServer.BUCKET
        + "' (in memory; Ctrl-C stops it). In another shell:");
    out.println("  export AWS_REGION=us-east-1 AWS_ACCESS_KEY_ID=" + S3TestServer.ACCESS + " AWS_SECRET_ACCESS_KEY="
        + S3TestServer.SECRET);
    out.println("  export S3_SPI_ENDPOINT_PROTOCOL=http S3_SPI_FORCE_PATH_STYLE=true AWS_EC2_METADATA_DISABLED=true");
    out.println("  java -jar s3/target/modelfs-s3.jar convert MODEL.fb s3x://" + s3.endpoint() + "/"
        + S3TestServer.BUCKET + "/m.sdnb");
    out.println("  java -jar s3/target/modelfs-s3.jar info s3x://" + s3.endpoint() + "/" + S3TestServer.BUCKET + "/m.sdnb");
    out.flush();
    return s3;
  }
}
