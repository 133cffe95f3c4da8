package org.modelfs.s3;

import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import org.modelfs.store.StoredObject;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.async.AsyncResponseTransformer;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3AsyncClientBuilder;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.nio.spi.s3.config.S3NioSpiConfiguration;

/**
 * The few requests ModelFS makes to an S3-compatible store, over the AWS SDK's asynchronous
 * client (Netty): HEAD, ranged GET pinned to an ETag ({@code If-Match}), PUT of a local file
 * with a condition ({@code If-Match} on an ETag, or {@code If-None-Match: *}) and a
 * {@code Content-MD5} the store checks, multipart upload above a threshold (the condition on its
 * completion), list and delete. One client per endpoint configuration, shared by every model on
 * it, made from the NIO provider's configuration — so the usual AWS settings (environment,
 * system properties, {@code s3x://key:secret@host/...} URIs) apply unchanged.
 *
 * <p>Errors become {@link IOException}s naming the object ({@code s3://bucket/key}): 404 a
 * {@link NoSuchFileException}, 412 a {@link PreconditionFailed}, an interrupt an
 * {@link InterruptedIOException} (the request is cancelled).
 */
final class ObjectStore {
  /** What a HEAD or a listing says of an object. */
  record Info(String key, String etag, long size, Instant lastModified, Map<String, String> metadata)
      implements StoredObject {}

  /** A PUT's condition: on the ETag {@code ifMatch}, or that no object exists ({@code ifMatch == null}). */
  record Condition(String ifMatch) {
    static final Condition ABSENT = new Condition(null);

    static Condition etag(String etag) {
      return new Condition(Objects.requireNonNull(etag));
    }
  }

  /** A 412: the object is not what the request's condition said (replaced, deleted or created meanwhile). */
  static final class PreconditionFailed extends FileSystemException {
    private static final long serialVersionUID = 1L;

    PreconditionFailed(String object, String reason) {
      super(object, null, reason);
    }
  }

  /**
   * Above this size an upload goes in parts (S3's single PUT takes at most 5 GiB): system
   * property {@code modelfs.s3.multipart-threshold}, read at each upload.
   */
  static long multipartThreshold() {
    return Math.min(5L << 30, Long.getLong("modelfs.s3.multipart-threshold", 5L << 30));
  }

  /** A multipart upload's part size, at least S3's minimum of 5 MiB: {@code modelfs.s3.part-size}. */
  static long partSize() {
    return Math.max(5L << 20, Long.getLong("modelfs.s3.part-size", 64L << 20));
  }
  /** S3's most parts per upload. */
  private static final int MAX_PARTS = 10_000;

  private static final Map<ClientKey, ObjectStore> STORES = new ConcurrentHashMap<>();

  private final S3AsyncClient client;
  private final String endpoint;

  private ObjectStore(S3AsyncClient client, String endpoint) {
    this.client = client;
    this.endpoint = endpoint;
  }

  /**
   * Everything a client depends on: one client per distinct key. {@code credentials} is the
   * configured credentials' value, or the configured provider object itself (the NIO provider's
   * configuration hands out a new provider lambda on every call, so a provider is never the key
   * unless it was configured as one); {@code null} for the SDK's default chain.
   */
  private record ClientKey(URI endpoint, String region, Object credentials, boolean pathStyle) {}

  /** The store of a NIO provider configuration (one client per endpoint, region, credentials and path style). */
  static ObjectStore of(S3NioSpiConfiguration config) {
    AwsCredentials c = config.getCredentials();
    Object credentials = c != null ? c : config.getCredentialsProvider();
    ClientKey key = new ClientKey(config.endpointUri(), config.getRegion(), credentials, config.getForcePathStyle());
    return STORES.computeIfAbsent(key, ObjectStore::open);
  }

  private static ObjectStore open(ClientKey k) {
    S3AsyncClientBuilder b = S3AsyncClient.builder()
        // plain requests every S3-compatible store understands: no aws-chunked trailers (our own
        // Content-MD5 carries the integrity check of a PUT)
        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
        .forcePathStyle(k.pathStyle());
    if (k.endpoint() != null) {
      b.endpointOverride(k.endpoint());
    }
    if (k.credentials() instanceof AwsCredentials c) {
      b.credentialsProvider(StaticCredentialsProvider.create(c));
    } else if (k.credentials() instanceof AwsCredentialsProvider p) {
      b.credentialsProvider(p);
    }
    if (k.region() != null) {
      b.region(Region.of(k.region()));
    }
    return new ObjectStore(b.build(), k.endpoint() == null ? "" : k.endpoint().toString());
  }

  /**
   * The object as the user names it, for messages: {@code s3://bucket/key} on AWS,
   * {@code s3x://host:port/bucket/key} at another endpoint (never the credentials).
   */
  String name(String bucket, String key) {
    return endpoint.isEmpty() ? "s3://" + bucket + "/" + key
        : "s3x://" + URI.create(endpoint).getRawAuthority() + "/" + bucket + "/" + key;
  }

  // ---- requests -------------------------------------------------------------------------------

  /** The object's ETag, size, time and user metadata, or {@code null} if there is none. */
  Info head(String bucket, String key) throws IOException {
    try {
      HeadObjectResponse r = await(client.headObject(h -> h.bucket(bucket).key(key)), bucket, key, "HEAD");
      return new Info(key, r.eTag(), r.contentLength(), r.lastModified(), r.metadata());
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /**
   * Reads bytes {@code [position, position + length)} of the object, which must still have the
   * ETag {@code etag} (else {@link PreconditionFailed}; gone: {@link NoSuchFileException}).
   */
  byte[] get(String bucket, String key, String etag, long position, int length) throws IOException {
    return getAll(bucket, key, etag, new long[] {position}, new int[] {length}).get(0);
  }

  /**
   * Reads the ranges {@code [positions[i], positions[i] + lengths[i])} of the object with one GET
   * each, all sent at once (the client runs them in parallel), every one pinned to {@code etag}
   * as {@link #get} is. Returns their bytes in order; if one fails, the others are cancelled and
   * the first failure is thrown.
   */
  List<byte[]> getAll(String bucket, String key, String etag, long[] positions, int[] lengths) throws IOException {
    List<CompletableFuture<ResponseBytes<GetObjectResponse>>> requests = new ArrayList<>();
    List<String> ranges = new ArrayList<>();
    for (int i = 0; i < positions.length; i++) {
      String range = "bytes=" + positions[i] + "-" + (positions[i] + lengths[i] - 1);
      ranges.add(range);
      requests.add(lengths[i] == 0 ? CompletableFuture.completedFuture(null) : client.getObject(g -> g.bucket(bucket)
          .key(key).range(range).ifMatch(etag), AsyncResponseTransformer.toBytes()));
    }
    List<byte[]> out = new ArrayList<>();
    try {
      for (int i = 0; i < positions.length; i++) {
        ResponseBytes<GetObjectResponse> r = await(requests.get(i), bucket, key, "GET " + ranges.get(i));
        byte[] b = r == null ? new byte[0] : r.asByteArrayUnsafe();
        String got = r == null ? null : r.response().eTag();
        if (got != null && !sameEtag(got, etag)) {
          // a store that ignores If-Match on GET: its bytes are another version's
          throw new PreconditionFailed(name(bucket, key), "GET " + ranges.get(i) + " returned the version " + got
              + ", not the pinned " + etag + " (the store did not honour If-Match)");
        }
        if (b.length != lengths[i]) {
          throw new FileSystemException(name(bucket, key), null, "GET " + ranges.get(i) + " returned " + b.length
              + " bytes instead of " + lengths[i] + " (the store ignored the range, or the object is shorter than"
              + " its size said)");
        }
        out.add(b);
      }
      return out;
    } finally {
      for (CompletableFuture<?> f : requests) {
        f.cancel(true); // the ones not waited for, after a failure (done ones ignore it)
      }
    }
  }

  /**
   * Uploads {@code file} as the object, if {@code condition} holds at the store: the object has
   * the given ETag, or none exists. Returns the new object's ETag. Every write carries a new
   * random id in its user metadata ({@value #WRITE_ID}), by which it is recognised afterwards
   * whatever the store makes its ETag (MD5, KMS, multipart).
   *
   * @throws PreconditionFailed another writer's object is there: ours did not land, and cannot
   *     land later (its condition names what is no longer there)
   * @throws OutcomeUnknown the write failed and the store could not be asked whether it landed
   */
  String put(String bucket, String key, Path file, Condition condition, Map<String, String> metadata)
      throws IOException {
    return put(bucket, key, file, condition, metadata, null);
  }

  /**
   * Parts of an upload the store copies from another object instead of receiving them
   * ({@code UploadPartCopy}): that object's key and ETag (the copy is pinned to it), the part
   * size, and which parts (0-based) are the same bytes at the same place there.
   */
  record Reuse(String key, String etag, long partSize, BitSet parts) {}

  private static final System.Logger LOG = System.getLogger("org.modelfs.s3");

  /** Whether this store refused to copy a part (then every upload sends every byte), once learnt. */
  private volatile boolean copiesRefused;

  /**
   * {@link #put(String, String, Path, Condition, Map)}, composing the object on the server from
   * {@code reuse}'s parts of an older one and uploading only the others, where the store can
   * ({@code null}: upload all). A store that refuses to copy parts (501) is remembered, said in
   * the log once, and sent the whole object.
   */
  String put(String bucket, String key, Path file, Condition condition, Map<String, String> metadata, Reuse reuse)
      throws IOException {
    String id = newWriteId();
    Map<String, String> meta = new HashMap<>(metadata);
    meta.put(WRITE_ID, id);
    long size = Files.size(file);
    String etag;
    try {
      if (reuse != null && !reuse.parts().isEmpty() && !copiesRefused) {
        try {
          etag = new MultipartPut(this, client, bucket, key, file, size).put(condition, meta, reuse.partSize(), reuse);
          LOG.log(System.Logger.Level.DEBUG, () -> name(bucket, key) + ": composed on the server, " + reuse.parts()
              .cardinality() + " parts of " + reuse.partSize() + " bytes copied from the previous version");
          return etag;
        } catch (MultipartPut.CopiesRefused e) {
          copiesRefused = true;
          LOG.log(System.Logger.Level.INFO, name(bucket, key) + ": the store does not compose objects from parts of"
              + " others (" + e.getMessage() + "); commits to " + endpoint + " upload the whole model");
          meta.put(WRITE_ID, id = newWriteId());
        }
      }
      if (size > multipartThreshold()) {
        etag = new MultipartPut(this, client, bucket, key, file, size).put(condition, meta, Math.max(partSize(),
            (size + MAX_PARTS - 1) / MAX_PARTS), null);
      } else {
        byte[] md5 = md5(file, 0, size);
        etag = await(client.putObject(p -> {
          p.bucket(bucket).key(key).contentLength(size).contentMD5(base64(md5)).metadata(meta);
          if (condition.ifMatch() == null) {
            p.ifNoneMatch("*");
          } else {
            p.ifMatch(condition.ifMatch());
          }
        }, AsyncRequestBody.fromFile(file)), bucket, key, "PUT").eTag();
      }
    } catch (IOException e) {
      return settle(bucket, key, condition, id, e);
    }
    if (etag == null || etag.isBlank()) {
      // a store that answers a PUT without an ETag: what every reader will pin to comes from a HEAD
      return settle(bucket, key, condition, id, new FileSystemException(name(bucket, key), null,
          "the store answered the write without an ETag"));
    }
    return etag;
  }

  /** User metadata of every write: its random id (32 hex digits). */
  static final String WRITE_ID = "modelfs-write";

  private static String newWriteId() {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  private static final SecureRandom RANDOM = new SecureRandom();

  /** A write that failed in a way that leaves open whether it landed, and the store could not be asked. */
  static final class OutcomeUnknown extends FileSystemException {
    private static final long serialVersionUID = 1L;

    OutcomeUnknown(String object, String reason) {
      super(object, null, reason);
    }
  }

  /**
   * A conditional write that failed — a 412, or an error that leaves its outcome open (the store
   * closed the connection; the client's retry of a request that had landed then meets our own
   * object as a 412) — or that came back without an ETag. One HEAD decides: the object carries
   * our write id → it landed (its ETag is returned); it is no longer the object the condition
   * named → {@link PreconditionFailed}; it is as it was → the failure as it is (nothing landed
   * when we looked). The HEAD runs even when an interrupt stopped the write; if it fails, the
   * outcome is {@link OutcomeUnknown}.
   */
  private String settle(String bucket, String key, Condition condition, String id, IOException failure)
      throws IOException {
    boolean interrupted = Thread.interrupted();
    Info now;
    try {
      now = head(bucket, key);
    } catch (IOException again) {
      OutcomeUnknown unknown = new OutcomeUnknown(name(bucket, key), "the write failed (" + failure.getMessage()
          + ") and whether it landed could not be learnt (" + again.getMessage() + "); mount the model again to"
          + " see which version is stored");
      unknown.initCause(failure);
      unknown.addSuppressed(again);
      throw unknown;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    if (now != null && id.equals(now.metadata().get(WRITE_ID)) && now.etag() != null) {
      return now.etag();
    }
    if (failure instanceof PreconditionFailed) {
      throw failure;
    }
    boolean changed = condition.ifMatch() == null ? now != null
        : now == null || !sameEtag(now.etag(), condition.ifMatch());
    if (changed) {
      PreconditionFailed p = new PreconditionFailed(name(bucket, key), "the write failed (" + failure.getMessage()
          + ") and the object is no longer the one its condition named: another writer's is there");
      p.initCause(failure);
      throw p;
    }
    throw failure;
  }

  /** Whether two ETags name one version: quotes, a weak {@code W/} prefix and case do not count. */
  static boolean sameEtag(String a, String b) {
    return a != null && b != null && unquoted(a).equalsIgnoreCase(unquoted(b));
  }

  private static String unquoted(String etag) {
    String e = etag == null ? "" : etag.trim();
    if (e.startsWith("W/")) {
      e = e.substring(2);
    }
    return e.length() >= 2 && e.startsWith("\"") && e.endsWith("\"") ? e.substring(1, e.length() - 1) : e;
  }

  static String base64(byte[] b) {
    return Base64.getEncoder().encodeToString(b);
  }

  /** Every object whose key starts with {@code prefix}, in key order. */
  List<Info> list(String bucket, String prefix) throws IOException {
    List<Info> out = new ArrayList<>();
    String token = null;
    do {
      String t = token;
      ListObjectsV2Response r = await(client.listObjectsV2(l -> l.bucket(bucket).prefix(prefix).continuationToken(t)),
          bucket, prefix, "LIST");
      for (S3Object o : r.contents()) {
        out.add(new Info(o.key(), o.eTag(), o.size(), o.lastModified(), Map.of()));
      }
      token = Boolean.TRUE.equals(r.isTruncated()) ? r.nextContinuationToken() : null;
    } while (token != null);
    return out;
  }

  /** Deletes the object (nothing if there is none). */
  void delete(String bucket, String key) throws IOException {
    await(client.deleteObject(d -> d.bucket(bucket).key(key)), bucket, key, "DELETE");
  }

  // ---- plumbing -------------------------------------------------------------------------------

  private static MessageDigest md5() {
    try {
      return MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e); // every JDK has MD5
    }
  }

  /** The MD5 of {@code length} bytes of {@code file} from {@code from}. */
  static byte[] md5(Path file, long from, long length) throws IOException {
    MessageDigest md = md5();
    try (var ch = FileChannel.open(file)) {
      ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
      long pos = from;
      long end = from + length;
      while (pos < end) {
        buf.clear().limit((int) Math.min(buf.capacity(), end - pos));
        int n = ch.read(buf, pos);
        if (n < 0) {
          throw new EOFException(file + ": ended at byte " + pos + " while it was being checksummed");
        }
        buf.flip();
        md.update(buf);
        pos += n;
      }
    }
    return md.digest();
  }

  /** Waits for a request; maps its failure to an {@link IOException} naming the object. */
  <T> T await(CompletableFuture<T> request, String bucket, String key, String what) throws IOException {
    try {
      return request.get();
    } catch (InterruptedException e) {
      request.cancel(true);
      Thread.currentThread().interrupt();
      InterruptedIOException io = new InterruptedIOException(name(bucket, key) + ": interrupted during " + what);
      io.initCause(e);
      throw io;
    } catch (ExecutionException e) {
      throw failure(e.getCause(), bucket, key, what);
    }
  }

  private IOException failure(Throwable t, String bucket, String key, String what) {
    return StoreFailures.of(t, name(bucket, key), bucket, endpoint, what);
  }
}
