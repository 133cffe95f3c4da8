package org.modelfs.azure;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelinePosition;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.core.util.BinaryData;
import com.azure.core.util.Context;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.models.BlobHttpHeaders;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.BlobProperties;
import com.azure.storage.blob.models.BlobRange;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.BlockListType;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.azure.storage.blob.options.BlockBlobCommitBlockListOptions;
import com.azure.storage.blob.options.BlockBlobSimpleUploadOptions;
import com.azure.storage.blob.options.BlockBlobStageBlockOptions;
import com.azure.storage.blob.specialized.BlockBlobClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.modelfs.store.StoredObject;
import reactor.core.publisher.Mono;

/**
 * The few requests ModelFS makes to Azure Blob Storage, over the Azure SDK's synchronous client
 * (Netty): Get Blob Properties, ranged Get Blob pinned to an ETag
 * ({@code If-Match}), Get Block List, Put Block with its MD5 (the service checks it), Put Block
 * List with a condition ({@code If-Match} on an ETag, or {@code If-None-Match: *}), List Blobs and
 * Delete Blob. One client per account (connection string), shared by every model in it.
 *
 * <p>Errors become {@link IOException}s naming the blob as the user wrote it
 * ({@code azb://container/key}; never the account key): 404 a {@link NoSuchFileException}, 412 and
 * 409 {@code BlobAlreadyExists} a {@link PreconditionFailed}, any other status a
 * {@link FileSystemException} with the service's error code.
 */
final class BlobStore {
  /** What Get Blob Properties or a listing says of a blob. */
  record Info(String key, String etag, long size, Instant lastModified, Map<String, String> metadata)
      implements StoredObject {}

  /** A commit's condition: on the ETag {@code ifMatch}, or that no blob exists ({@code ifMatch == null}). */
  record Condition(String ifMatch) {
    static final Condition ABSENT = new Condition(null);

    static Condition etag(String etag) {
      return new Condition(Objects.requireNonNull(etag));
    }

    BlobRequestConditions request() {
      return ifMatch == null ? new BlobRequestConditions().setIfNoneMatch("*")
          : new BlobRequestConditions().setIfMatch(ifMatch);
    }
  }

  /** A 412 (or 409 BlobAlreadyExists): the blob is not what the request's condition said. */
  static final class PreconditionFailed extends FileSystemException {
    private static final long serialVersionUID = 1L;

    PreconditionFailed(String blob, String reason) {
      super(blob, null, reason);
    }
  }

  /** A committed block of a block blob: its id (base64, as the service lists it) and size. */
  record Block(String id, long size) {}

  /** Bytes sent in request bodies and received in response bodies by every client of this JVM. */
  static final AtomicLong UPLOADED = new AtomicLong();
  static final AtomicLong DOWNLOADED = new AtomicLong();
  static final AtomicLong REQUESTS = new AtomicLong();

  private static final Map<String, BlobStore> STORES = new ConcurrentHashMap<>();

  private final BlobServiceClient client;
  private final Map<String, BlobContainerClient> containers = new ConcurrentHashMap<>();

  private BlobStore(BlobServiceClient client) {
    this.client = client;
  }

  /** The store of the account a connection string names (one client per connection string). */
  static BlobStore of(String connectionString) throws IOException {
    try {
      return STORES.computeIfAbsent(connectionString, cs -> new BlobStore(new BlobServiceClientBuilder()
          .connectionString(cs).addPolicy(new Counting()).addPolicy(new Injected()).buildClient()));
    } catch (IllegalArgumentException e) {
      // the SDK's message may quote the string: never repeat it (it holds the account key)
      throw new FileSystemException("azb://", null, "the Azure storage connection string is not valid (it must hold"
          + " AccountName and AccountKey, or BlobEndpoint and SharedAccessSignature; docs/OBJECT-STORES.md)");
    }
  }

  /** The account's blob endpoint (no credentials), for identities. */
  String endpoint() {
    return client.getAccountUrl();
  }

  /** The blob as the user names it, for messages: {@code azb://container/key}. */
  static String name(String container, String key) {
    return "azb://" + container + "/" + key;
  }

  private BlockBlobClient blob(String container, String key) {
    return containers.computeIfAbsent(container, client::getBlobContainerClient).getBlobClient(key)
        .getBlockBlobClient();
  }

  // ---- requests -------------------------------------------------------------------------------

  /** The blob's ETag, size, time and metadata, or {@code null} if there is none. */
  Info head(String container, String key) throws IOException {
    try {
      BlobProperties p = blob(container, key).getProperties();
      return new Info(key, p.getETag(), p.getBlobSize(), p.getLastModified() == null ? null
          : p.getLastModified().toInstant(), p.getMetadata() == null ? Map.of() : p.getMetadata());
    } catch (RuntimeException e) {
      IOException io = BlobFailures.of(e, name(container, key), "Get Blob Properties");
      if (io instanceof NoSuchFileException && !(io instanceof BlobFailures.NoSuchContainerException)) {
        return null;
      }
      throw io;
    }
  }

  /**
   * Reads bytes {@code [position, position + length)} of the blob, which must still have the ETag
   * {@code etag} (else {@link PreconditionFailed}; gone: {@link NoSuchFileException}).
   */
  byte[] get(String container, String key, String etag, long position, int length) throws IOException {
    if (length == 0) {
      return new byte[0];
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(length);
    String range = "bytes=" + position + "-" + (position + length - 1);
    try {
      blob(container, key).downloadStreamWithResponse(out, new BlobRange(position, (long) length), null,
          new BlobRequestConditions().setIfMatch(etag), false, null, Context.NONE);
    } catch (RuntimeException e) {
      throw BlobFailures.of(e, name(container, key), "Get Blob " + range);
    }
    if (out.size() != length) {
      throw new FileSystemException(name(container, key), null, "Get Blob " + range + " returned " + out.size()
          + " bytes instead of " + length + " (the blob is shorter than its size said)");
    }
    return out.toByteArray();
  }

  /** The committed blocks of the blob, in order (empty for a blob written whole, with Put Blob). */
  List<Block> committedBlocks(String container, String key) throws IOException {
    try {
      List<Block> out = new ArrayList<>();
      for (var b : blob(container, key).listBlocks(BlockListType.COMMITTED).getCommittedBlocks()) {
        out.add(new Block(b.getName(), b.getSizeLong()));
      }
      return out;
    } catch (RuntimeException e) {
      throw BlobFailures.of(e, name(container, key), "Get Block List");
    }
  }

  /** Put Block: {@code bytes} staged as block {@code id} of the blob, their MD5 checked by the service. */
  void stageBlock(String container, String key, String id, byte[] bytes, byte[] md5) throws IOException {
    try {
      blob(container, key).stageBlockWithResponse(new BlockBlobStageBlockOptions(id, BinaryData.fromBytes(bytes))
          .setContentMd5(md5), null, Context.NONE);
    } catch (RuntimeException e) {
      throw BlobFailures.of(e, name(container, key), "Put Block");
    }
  }

  /**
   * Put Block List: makes the blob the blocks {@code ids} (staged or committed ones), if
   * {@code condition} holds; returns the new ETag.
   */
  String commitBlocks(String container, String key, List<String> ids, Condition condition,
      Map<String, String> metadata, byte[] md5) throws IOException {
    try {
      return blob(container, key).commitBlockListWithResponse(new BlockBlobCommitBlockListOptions(ids)
          .setMetadata(new LinkedHashMap<>(metadata)).setRequestConditions(condition.request())
          .setHeaders(new BlobHttpHeaders().setContentMd5(md5)), null, Context.NONE).getValue().getETag();
    } catch (RuntimeException e) {
      throw BlobFailures.of(e, name(container, key), "Put Block List");
    }
  }

  /** Put Blob: {@code bytes} made the blob in one request, if {@code condition} holds; returns the new ETag. */
  String putBlob(String container, String key, byte[] bytes, Condition condition, Map<String, String> metadata,
      byte[] md5) throws IOException {
    try {
      return blob(container, key).uploadWithResponse(new BlockBlobSimpleUploadOptions(
          BinaryData.fromBytes(bytes)).setMetadata(new LinkedHashMap<>(metadata)).setRequestConditions(
          condition.request()).setContentMd5(md5).setHeaders(new BlobHttpHeaders().setContentMd5(md5)), null,
          Context.NONE).getValue().getETag();
    } catch (RuntimeException e) {
      throw BlobFailures.of(e, name(container, key), "Put Blob");
    }
  }

  /** Every blob whose name starts with {@code prefix}, in name order. */
  List<Info> list(String container, String prefix) throws IOException {
    try {
      List<Info> out = new ArrayList<>();
      for (BlobItem i : containers.computeIfAbsent(container, client::getBlobContainerClient).listBlobs(
          new ListBlobsOptions().setPrefix(prefix), null)) {
        var p = i.getProperties();
        out.add(new Info(i.getName(), p.getETag(), p.getContentLength() == null ? 0 : p.getContentLength(),
            p.getLastModified() == null ? null : p.getLastModified().toInstant(), Map.of()));
      }
      return out;
    } catch (RuntimeException e) {
      throw BlobFailures.of(e, name(container, prefix), "List Blobs");
    }
  }

  /**
   * The names directly below {@code prefix} (ending in '/'), blobs and virtual directories
   * (ending in '/'), in name order.
   */
  List<String> children(String container, String prefix) throws IOException {
    try {
      List<String> out = new ArrayList<>();
      for (BlobItem i : containers.computeIfAbsent(container, client::getBlobContainerClient)
          .listBlobsByHierarchy("/", new ListBlobsOptions().setPrefix(prefix), null)) {
        out.add(i.getName());
      }
      return out;
    } catch (RuntimeException e) {
      throw BlobFailures.of(e, name(container, prefix), "List Blobs");
    }
  }

  /** Deletes the blob (nothing if there is none). */
  void delete(String container, String key) throws IOException {
    try {
      blob(container, key).deleteIfExists();
    } catch (RuntimeException e) {
      throw BlobFailures.of(e, name(container, key), "Delete Blob");
    }
  }

  /**
   * A policy the module's tests put in front of every call, before the client's retries (a failure
   * it injects is the call's outcome, as after its last retry), or {@code null}: none.
   */
  static volatile HttpPipelinePolicy injected;

  private static final class Injected implements HttpPipelinePolicy {
    @Override
    public HttpPipelinePosition getPipelinePosition() {
      return HttpPipelinePosition.PER_CALL;
    }

    @Override
    public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
      HttpPipelinePolicy p = injected;
      return p == null ? next.process() : p.process(context, next);
    }
  }

  /**
   * Counts what every request sends and receives (its {@code Content-Length}s), for the tests'
   * and the benchmark's bounds on bytes moved: the bytes the service was sent, as it counts them.
   */
  private static final class Counting implements HttpPipelinePolicy {
    @Override
    public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
      REQUESTS.incrementAndGet();
      String sent = context.getHttpRequest().getHeaders().getValue(HttpHeaderName.CONTENT_LENGTH);
      if (sent != null) {
        UPLOADED.addAndGet(Long.parseLong(sent));
      }
      return next.process().doOnNext(r -> {
        String got = r.getHeaderValue(HttpHeaderName.CONTENT_LENGTH);
        if (got != null && !"HEAD".equals(context.getHttpRequest().getHttpMethod().name())) {
          DOWNLOADED.addAndGet(Long.parseLong(got));
        }
      });
    }
  }
}
