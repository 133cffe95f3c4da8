package org.modelfs.s3;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.UploadPartCopyResponse;

/**
 * One multipart upload of a local file as an object ({@link ObjectStore#put}): parts uploaded
 * ({@code UploadPart}, each with its {@code Content-MD5}) or, where {@link ObjectStore.Reuse}
 * says a part is the same bytes at the same place in an older object, copied by the store
 * ({@code UploadPartCopy}, pinned to that object's ETag); completed with the put's condition;
 * aborted on failure.
 */
final class MultipartPut {
  private final ObjectStore store;
  private final S3AsyncClient client;
  private final String bucket;
  private final String key;
  private final Path file;
  private final long size;

  MultipartPut(ObjectStore store, S3AsyncClient client, String bucket, String key, Path file, long size) {
    this.store = store;
    this.client = client;
    this.bucket = bucket;
    this.key = key;
    this.file = file;
    this.size = size;
  }

  /** A store's refusal to copy a part of another object ({@code UploadPartCopy}): 501 Not Implemented. */
  static final class CopiesRefused extends IOException {
    private static final long serialVersionUID = 1L;

    CopiesRefused(String message) {
      super(message);
    }
  }

  /** Uploads the file in parts of {@code part} bytes, copying on the server the parts {@code reuse} names. */
  String put(ObjectStore.Condition condition, Map<String, String> metadata, long part, ObjectStore.Reuse reuse)
      throws IOException {
    String upload = store.await(client.createMultipartUpload(c -> c.bucket(bucket).key(key).metadata(metadata)),
        bucket, key, "CreateMultipartUpload").uploadId();
    boolean done = false;
    try {
      List<CompletedPart> parts = new ArrayList<>();
      for (long off = 0, n = 1; off < size; off += part, n++) {
        long len = Math.min(part, size - off);
        int number = (int) n;
        String etag = reuse != null && reuse.parts().get(number - 1)
            ? copyPart(upload, number, reuse, off, len)
            : uploadPart(upload, number, off, len);
        parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
      }
      String etag = store.await(client.completeMultipartUpload(c -> {
          c.bucket(bucket).key(key).uploadId(upload).multipartUpload(CompletedMultipartUpload.builder().parts(parts)
              .build());
          if (condition.ifMatch() == null) {
            c.ifNoneMatch("*");
          } else {
            c.ifMatch(condition.ifMatch());
          }
        }), bucket, key, "CompleteMultipartUpload").eTag();
      done = true;
      return etag;
    } finally {
      if (!done) {
        try {
          store.await(client.abortMultipartUpload(a -> a.bucket(bucket).key(key).uploadId(upload)), bucket, key,
              "AbortMultipartUpload");
        } catch (IOException | RuntimeException e) {
          // the upload's parts stay until the bucket's lifecycle rule for incomplete uploads
          // removes them; the failure that stopped the upload is what the caller learns
        }
      }
    }
  }

  private String uploadPart(String upload, int number, long off, long len)
      throws IOException {
    byte[] md5 = ObjectStore.md5(file, off, len);
    return store.await(client.uploadPart(u -> u.bucket(bucket).key(key).uploadId(upload).partNumber(number)
        .contentLength(len).contentMD5(ObjectStore.base64(md5)), AsyncRequestBody.fromFile(f -> f.path(file).position(off)
        .numBytesToRead(len))), bucket, key, "UploadPart " + number).eTag();
  }

  /** Part {@code number}: bytes {@code off … off + len − 1} of {@code reuse}'s object, copied by the store. */
  private String copyPart(String upload, int number, ObjectStore.Reuse reuse, long off, long len)
      throws IOException {
    String range = "bytes=" + off + "-" + (off + len - 1);
    CompletableFuture<UploadPartCopyResponse> r = client.uploadPartCopy(c ->
        c.sourceBucket(bucket).sourceKey(reuse.key()).copySourceIfMatch(reuse.etag()).copySourceRange(range)
            .destinationBucket(bucket).destinationKey(key).uploadId(upload).partNumber(number));
    try {
      r.join();
    } catch (CompletionException | CancellationException e) {
      Throwable t = e.getCause();
      if (t instanceof S3Exception s3 && (s3.statusCode() == 501
          || s3.awsErrorDetails() != null && "NotImplemented".equals(s3.awsErrorDetails().errorCode()))) {
        throw new CopiesRefused("UploadPartCopy answered " + s3.statusCode() + " " + (s3.awsErrorDetails() == null
            ? "" : s3.awsErrorDetails().errorCode()));
      }
    }
    return store.await(r, bucket, key, "UploadPartCopy " + number + " (" + range + " of " + reuse.key() + ")")
        .copyPartResult().eTag();
  }
}
