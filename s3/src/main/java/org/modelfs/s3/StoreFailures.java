package org.modelfs.s3;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import javax.net.ssl.SSLException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * A failed request, in the user's words: an {@link IOException} naming the object as the user
 * wrote it ({@link ObjectStore#name}), one line. 404 is {@link NoSuchFileException} (a missing
 * bucket: {@link NoSuchBucketException}, "no such bucket 'b'"), 412 {@link ObjectStore.PreconditionFailed},
 * another HTTP status a {@link FileSystemException} with the store's code; a connection the
 * endpoint closed during a TLS handshake says which setting makes the client speak plain HTTP,
 * and no credentials at all where they are read from (the SDK's own messages are paragraphs: with
 * no hint, or one clause per credentials provider).
 */
final class StoreFailures {
  /** The settings that make an {@code s3x} endpoint plain HTTP (docs/OBJECT-STORES.md §1). */
  static final String PROTOCOL_HINT = "if the endpoint speaks plain HTTP, set S3_SPI_ENDPOINT_PROTOCOL=http"
      + " (or -Ds3.spi.endpoint-protocol=http)";

  private StoreFailures() {}

  /** A bucket that does not exist: the store's {@code NoSuchBucket}. */
  static final class NoSuchBucketException extends NoSuchFileException {
    private static final long serialVersionUID = 1L;

    NoSuchBucketException(String file, String bucket) {
      super(file, null, "no such bucket '" + bucket + "'");
    }
  }

  /**
   * {@code t}, the failure of request {@code what} ({@code GET}, {@code LIST}, …) on {@code
   * object} in {@code bucket} at {@code endpoint} (empty: AWS's own), as an {@link IOException}.
   */
  static IOException of(Throwable t, String object, String bucket, String endpoint, String what) {
    IOException out;
    if (t instanceof S3Exception s3) {
      int status = s3.statusCode();
      String code = s3.awsErrorDetails() == null ? null : s3.awsErrorDetails().errorCode();
      if ("NoSuchBucket".equals(code)) {
        out = new NoSuchBucketException(object, bucket);
      } else if (status == 404) {
        out = new NoSuchFileException(object, null, what + ": " + (code == null ? "not found" : code));
      } else if (status == 412) {
        out = new ObjectStore.PreconditionFailed(object, what + ": the store refused the request's condition (412"
            + (code == null ? "" : " " + code) + ")");
      } else {
        out = new FileSystemException(object, null, what + " failed at " + (endpoint.isEmpty() ? "the store"
            : endpoint) + ": HTTP " + status + (code == null ? "" : " " + code) + " — " + s3.getMessage());
      }
    } else if (t instanceof IOException io) {
      return io;
    } else if (t instanceof SdkClientException && String.valueOf(t.getMessage()).startsWith(
        "Unable to load credentials from any of the providers")) {
      // the SDK's message is a paragraph, one clause per provider of its chain
      out = new FileSystemException(object, null, what + " failed: no AWS credentials were found — give them in the"
          + " URI (s3x://KEY:SECRET@host/…), as AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or -Daws.accessKeyId"
          + " and -Daws.secretAccessKey), or in ~/.aws/credentials (docs/OBJECT-STORES.md §1)");
    } else if (closedDuringTls(t, endpoint)) {
      out = new FileSystemException(object, null, what + " failed: " + endpoint + " closed the connection"
          + " before answering (the client speaks HTTPS); " + PROTOCOL_HINT);
    } else {
      String reason = t instanceof SdkException ? t.getMessage() : String.valueOf(t);
      out = new FileSystemException(object, null, what + " failed: " + reason);
    }
    out.initCause(t);
    return out;
  }

  /**
   * Whether {@code t} is an HTTPS client meeting a plain-HTTP endpoint: the SDK's "connection was
   * closed" (the server drops the TLS hello it cannot read) or a TLS failure, on an https endpoint.
   */
  private static boolean closedDuringTls(Throwable t, String endpoint) {
    if (!(t instanceof SdkClientException) || !endpoint.startsWith("https:")) {
      return false;
    }
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof SSLException || String.valueOf(c.getMessage()).contains("connection was closed")) {
        return true;
      }
    }
    return false;
  }
}
