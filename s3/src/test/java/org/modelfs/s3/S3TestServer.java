package org.modelfs.s3;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.S3ErrorCode;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.S3ProxyException;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import org.gaul.s3proxy.blobstore.domain.MultipartUpload;
import org.modelfs.testing.CommitChild;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CopyPartResult;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.UploadPartCopyRequest;
import software.amazon.awssdk.services.s3.model.UploadPartCopyResponse;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * A real S3 API server for tests: S3Proxy in this JVM on 127.0.0.1 (a random port), over an
 * in-memory store, with one bucket {@value #BUCKET}. Its store is wrapped to
 * <ul>
 *   <li>count requests and bytes served ({@link #gets()}, {@link #bytesServed()}, …), for the
 *       laziness bounds;
 *   <li>make a conditional PUT atomic: S3Proxy checks {@code If-Match} / {@code If-None-Match}
 *       (against a HEAD, in its request handler) and then writes, so two racing PUTs could both
 *       pass (real S3 is atomic here). The wrapper checks the request's condition again and
 *       writes, under one lock per key.
 * </ul>
 * Paths: {@link #path(String)} gives the AWS NIO provider's {@code s3x://} path of a key, with the
 * credentials in the URI, as a user would write it.
 */
final class S3TestServer implements AutoCloseable {
  static final String BUCKET = "models";
  static final String ACCESS = "access";
  static final String SECRET = "secret-key";

  static {
    // the provider reads these when it makes a file system: plain HTTP and path-style addressing
    // (the server is an IP address, not a bucket's host name)
    System.setProperty("s3.spi.endpoint-protocol", "http");
    System.setProperty("s3.spi.force-path-style", "true");
    System.setProperty("aws.region", System.getProperty("aws.region", "us-east-1"));
  }

  private final S3Proxy proxy;
  private final Counting store;

  private S3TestServer(S3Proxy proxy, Counting store) {
    this.proxy = proxy;
    this.store = store;
  }

  /** Starts a server with an empty bucket {@value #BUCKET} on a free port. */
  static S3TestServer start() throws Exception {
    return start(0);
  }

  /** Starts a server with an empty bucket {@value #BUCKET} on 127.0.0.1:{@code port} (0: a free one). */
  static S3TestServer start(int port) throws Exception {
    BlobStore raw = BlobStores.create("transient", new Properties());
    raw.createContainer(BUCKET);
    Counting counting = new Counting(raw);
    S3Proxy proxy = S3Proxy.builder().blobStore(counting)
        .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS, SECRET)
        .endpoint(URI.create("http://127.0.0.1:" + port))
        .v4MaxNonChunkedRequestSize(1L << 30)
        .build();
    proxy.start();
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!"STARTED".equals(proxy.getState())) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("S3Proxy did not start: " + proxy.getState());
      }
      Thread.sleep(10);
    }
    return new S3TestServer(proxy, counting);
  }

  int port() {
    return proxy.getPort();
  }

  /** The endpoint's {@code host:port}. */
  String endpoint() {
    return "127.0.0.1:" + port();
  }

  /** The NIO provider's path of {@code key} in the bucket: {@code s3x://access:secret@127.0.0.1:PORT/models/key}. */
  Path path(String key) {
    return Path.of(uri(key));
  }

  URI uri(String key) {
    return uri(port(), key);
  }

  /** The path of {@code key} on a server at {@code port} (another process's: a child JVM's view). */
  static Path path(int port, String key) {
    return Path.of(uri(port, key));
  }

  private static URI uri(int port, String key) {
    return URI.create("s3x://" + ACCESS + ":" + SECRET + "@127.0.0.1:" + port + "/" + BUCKET + "/" + key);
  }

  /**
   * A child writer ({@code testing.CommitChild}) of {@code key} on this server, its temporary
   * directory {@code tmpdir}; {@code param ≥ 0}: only parameter {@code big/w<param>} is set.
   */
  CommitChild.Running child(Path tmpdir, String key, int version, long shard, Path go, int param) throws IOException {
    return new CommitChild.Running(tmpdir, List.of("-Dcommit.child.param=" + param, "-Daws.region=us-east-1",
        "-Daws.disableEc2Metadata=true", "-Ds3.spi.endpoint-protocol=http", "-Ds3.spi.force-path-style=true"),
        uri(key).toString(), version, shard, go);
  }

  /** Stores {@code local}'s bytes as the object {@code key} (straight into the store, no request counted). */
  void upload(Path local, String key) throws IOException {
    try (InputStream in = Files.newInputStream(local)) {
      store.delegate().putBlob(PutObjectRequest.builder().bucket(BUCKET).key(key).contentLength(Files.size(local))
          .build(), in);
    }
  }

  /** The object's bytes, or {@code null} (straight from the store). */
  byte[] bytes(String key) throws IOException {
    if (!store.delegate().blobExists(BUCKET, key)) {
      return null;
    }
    try (InputStream in = store.delegate().getBlob(BUCKET, key)) {
      return in.readAllBytes();
    }
  }

  /** Every key in the bucket, in order (straight from the store). */
  List<String> keys() {
    return store.delegate().list(BUCKET).contents().stream().map(o -> o.key()).sorted().toList();
  }

  /** Deletes the object {@code key} (straight from the store). */
  void remove(String key) {
    store.delegate().removeBlob(BUCKET, key);
  }

  long gets() {
    return store.gets.get();
  }

  long heads() {
    return store.heads.get();
  }

  long lists() {
    return store.lists.get();
  }

  long puts() {
    return store.puts.get();
  }

  long bytesServed() {
    return store.bytes.get();
  }

  /** Bytes the server received as object content (PUT bodies and uploaded parts; not parts it copied). */
  long bytesUploaded() {
    return store.uploaded.get();
  }

  /** Bytes the server copied from one object into a part of another ({@code UploadPartCopy}). */
  long bytesCopied() {
    return store.copied.get();
  }

  /** {@code UploadPartCopy} requests received (refused ones too). */
  long copyRequests() {
    return store.copyRequests.get();
  }

  /** Parts copied from another object are refused with 501 Not Implemented, as by a store that cannot compose, or accepted again. */
  void refuseCopies(boolean on) {
    store.refuseCopies = on;
  }

  /**
   * Runs {@code hook} with the key of every PUT (and multipart part and completion) the server receives,
   * before the store checks its condition and writes — e.g. another writer's object put straight
   * into the store, to lose a race at the PUT itself. {@code null} removes it.
   */
  void beforePut(Consumer<String> hook) {
    store.beforePut = hook;
  }

  /** Runs {@code hook} with the key of every GET the server receives, before it answers; {@code null} removes it. */
  void beforeGet(Consumer<String> hook) {
    store.beforeGet = hook;
  }

  /** The next PUT of {@code key} is stored, then answered with a 500: a write whose outcome the client cannot see. */
  void failAfterStore(String key) {
    store.failAfterStore = key;
  }

  /** HEADs answer ETags that are not the MD5 of the bytes (as a store with SSE-KMS does), or stop doing so. */
  void opaqueHeads(boolean on) {
    store.opaqueHeads = on;
  }

  /**
   * Where a writing request (PUT, part upload, part copy, multipart completion, DELETE) fails:
   * {@link #before} throwing means the request is refused before anything is stored (a 500 or
   * 503 of a store that did nothing), {@link #after} throwing that it was applied and the answer
   * lost (the client sees a 500).
   */
  interface Fault {
    /** {@code op} is put, part, copy, complete or delete. */
    void before(String op, String key);

    void after(String op, String key);
  }

  /** Injects {@code fault} into every writing request from now on; {@code null} removes it. */
  void fault(Fault fault) {
    store.fault = fault;
  }

  /** Every request counted so far. */
  long requests() {
    return gets() + heads() + lists() + puts();
  }

  void resetCounts() {
    store.gets.set(0);
    store.heads.set(0);
    store.lists.set(0);
    store.puts.set(0);
    store.bytes.set(0);
    store.uploaded.set(0);
    store.copied.set(0);
    store.copyRequests.set(0);
  }

  @Override
  public void close() throws Exception {
    proxy.stop();
  }

  /** The counting, conditionally-atomic store. */
  static final class Counting extends ForwardingBlobStore {
    final AtomicLong gets = new AtomicLong();
    final AtomicLong heads = new AtomicLong();
    final AtomicLong lists = new AtomicLong();
    final AtomicLong puts = new AtomicLong();
    final AtomicLong bytes = new AtomicLong();
    final AtomicLong uploaded = new AtomicLong();
    final AtomicLong copied = new AtomicLong();
    final AtomicLong copyRequests = new AtomicLong();
    volatile boolean refuseCopies;
    private final ConcurrentHashMap<String, Object> keyLocks = new ConcurrentHashMap<>();
    volatile Consumer<String> beforePut;
    volatile Consumer<String> beforeGet;
    /** A key whose next PUT is stored and then answered with a 500 (the client retries). */
    volatile String failAfterStore;
    /** Whether HEADs answer an ETag that is not the MD5 of the bytes (as with SSE-KMS). */
    volatile boolean opaqueHeads;
    /** Failures injected into writing requests, or {@code null}. */
    volatile Fault fault;

    Counting(BlobStore delegate) {
      super(delegate);
    }

    private Object lockOf(String bucket, String key) {
      return keyLocks.computeIfAbsent(bucket + "/" + key, k -> new Object());
    }

    @Override
    public ResponseInputStream<GetObjectResponse> getBlob(GetObjectRequest request) {
      Consumer<String> g = beforeGet;
      if (g != null) {
        g.accept(request.key());
      }
      ResponseInputStream<GetObjectResponse> r = super.getBlob(request);
      gets.incrementAndGet();
      Long len = r.response().contentLength();
      if (len != null) {
        bytes.addAndGet(len);
      }
      return r;
    }

    @Override
    public HeadObjectResponse blobMetadata(HeadObjectRequest request) {
      heads.incrementAndGet();
      HeadObjectResponse h = super.blobMetadata(request);
      if (opaqueHeads && h != null && h.eTag() != null) {
        return h.toBuilder().eTag("\"" + Integer.toHexString(h.eTag().hashCode()) + "-kms\"").build();
      }
      return h;
    }

    @Override
    public ListObjectsV2Response list(ListObjectsV2Request request) {
      lists.incrementAndGet();
      return super.list(request);
    }

    @Override
    public PutObjectResponse putBlob(PutObjectRequest request, InputStream in) {
      puts.incrementAndGet();
      hook(request.key());
      faultBefore("put", request.key());
      synchronized (lockOf(request.bucket(), request.key())) {
        check(request.bucket(), request.key(), request.ifMatch(), request.ifNoneMatch());
        PutObjectResponse r = super.putBlob(request, counted(in));
        if (request.key().equals(failAfterStore)) {
          failAfterStore = null;
          throw new S3ProxyException(S3ErrorCode.INTERNAL_ERROR);
        }
        faultAfter("put", request.key());
        return r;
      }
    }

    @Override
    public CompleteMultipartUploadResponse completeMultipartUpload(MultipartUpload upload,
        CompleteMultipartUploadRequest request) {
      puts.incrementAndGet();
      hook(request.key());
      faultBefore("complete", request.key());
      synchronized (lockOf(request.bucket(), request.key())) {
        check(request.bucket(), request.key(), request.ifMatch(), request.ifNoneMatch());
        CompleteMultipartUploadResponse r = super.completeMultipartUpload(upload, request);
        faultAfter("complete", request.key());
        return r;
      }
    }

    /** The request's condition against the object as it is now (the caller holds the key's lock). */
    private void check(String bucket, String key, String ifMatch, String ifNoneMatch) {
      if (ifMatch == null && ifNoneMatch == null) {
        return;
      }
      HeadObjectResponse now = delegate().blobMetadataIfPresent(bucket, key);
      boolean ok = ifNoneMatch == null || !"*".equals(ifNoneMatch.trim()) || now == null;
      if (ifMatch != null && (now == null || !unquoted(now.eTag()).equals(unquoted(ifMatch)))) {
        ok = false;
      }
      if (!ok) {
        throw new S3ProxyException(S3ErrorCode.PRECONDITION_FAILED);
      }
    }

    private static String unquoted(String etag) {
      String e = etag.trim();
      return e.length() >= 2 && e.startsWith("\"") && e.endsWith("\"") ? e.substring(1, e.length() - 1) : e;
    }

    @Override
    public UploadPartResponse uploadMultipartPart(MultipartUpload upload,
        UploadPartRequest request, InputStream in) {
      hook(request.key());
      faultBefore("part", request.key());
      UploadPartResponse r = super.uploadMultipartPart(upload, request, counted(in));
      faultAfter("part", request.key());
      return r;
    }

    /** {@code in}, adding what is read from it to {@link #uploaded}. */
    private InputStream counted(InputStream in) {
      return new FilterInputStream(in) {
        @Override
        public int read() throws IOException {
          int b = super.read();
          if (b >= 0) {
            uploaded.incrementAndGet();
          }
          return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
          int n = super.read(b, off, len);
          if (n > 0) {
            uploaded.addAndGet(n);
          }
          return n;
        }
      };
    }

    /**
     * The store composes: a part copied from another object ({@code UploadPartCopy}) is made here
     * from the stored bytes, pinned to the source's ETag — nothing crosses the network (S3Proxy
     * would otherwise emulate it the same way, through the counted methods).
     */
    @Override
    public boolean supportsCopyMultipartPart() {
      return true;
    }

    @Override
    public UploadPartCopyResponse copyMultipartPart(MultipartUpload upload,
        UploadPartCopyRequest request) {
      copyRequests.incrementAndGet();
      faultBefore("copy", request.destinationKey());
      if (refuseCopies) {
        throw new S3ProxyException(S3ErrorCode.NOT_IMPLEMENTED);
      }
      HeadObjectResponse source = delegate().blobMetadataIfPresent(request.sourceBucket(), request.sourceKey());
      if (source == null) {
        throw new S3ProxyException(S3ErrorCode.NO_SUCH_KEY);
      }
      if (request.copySourceIfMatch() != null && !unquoted(source.eTag()).equals(unquoted(request.copySourceIfMatch()))) {
        throw new S3ProxyException(S3ErrorCode.PRECONDITION_FAILED);
      }
      try (ResponseInputStream<GetObjectResponse> in = delegate().getBlob(GetObjectRequest.builder()
          .bucket(request.sourceBucket()).key(request.sourceKey()).range(request.copySourceRange()).build())) {
        long len = in.response().contentLength();
        UploadPartResponse part = delegate().uploadMultipartPart(upload,
            UploadPartRequest.builder().bucket(request.destinationBucket())
                .key(request.destinationKey()).uploadId(request.uploadId()).partNumber(request.partNumber())
                .contentLength(len).build(), in);
        copied.addAndGet(len);
        faultAfter("copy", request.destinationKey());
        return UploadPartCopyResponse.builder().copyPartResult(
            CopyPartResult.builder().eTag(part.eTag())
                .lastModified(Instant.now()).build()).build();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public DeleteObjectResponse removeBlob(DeleteObjectRequest request) {
      faultBefore("delete", request.key());
      DeleteObjectResponse r = super.removeBlob(request);
      faultAfter("delete", request.key());
      return r;
    }

    private void faultBefore(String op, String key) {
      Fault f = fault;
      if (f != null) {
        f.before(op, key);
      }
    }

    private void faultAfter(String op, String key) {
      Fault f = fault;
      if (f != null) {
        f.after(op, key);
      }
    }

    private void hook(String key) {
      Consumer<String> h = beforePut;
      if (h != null) {
        h.accept(key);
      }
    }
  }
}
