package org.modelfs.azure;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A local file made a block blob with one conditional Put Block List, uploading only the blocks
 * the service does not hold already (docs/OBJECT-STORES.md "Azure: what a commit costs").
 *
 * <p>The file is cut into blocks of {@link #blockBytes()} (4 MiB by default, system property
 * {@code modelfs.azure.block-size}); each block's id is its content's name: {@code mfs1} and the
 * first 22 bytes of its SHA-256 in hex. The blocks the blob has now (Get Block List) whose ids
 * are such names are not uploaded again: Put Block List names them as committed blocks and the
 * service composes the new blob from them and the blocks staged now (Put Block, with an MD5 the
 * service checks). So a 1 KiB change of a 1 GiB model uploads one 4 MiB block; a blob written
 * by someone else (Put Blob, or other block ids) is uploaded whole once, said in the log.
 *
 * <p>Why not Put Block From URL, copying unchanged ranges of the old blob: it needs a SAS for the
 * source (an account key or a user delegation key), and it copies; naming committed blocks copies
 * nothing, needs no SAS and works with any credential. Both are one atomic Put Block List.
 *
 * <p>Checked before the commit: the blocks' sizes add up to the file's (the staged ones' bytes
 * checked by their MD5s at the service); the blob's Content-MD5 property is set to the file's MD5.
 * A file of at most {@value #SMALL} bytes (a pointer, a small model) is one Put Blob with the same
 * condition instead: one request, and nothing to reuse in a blob of one block.
 * Staged blocks of a commit that never happens are not visible and are discarded by the service
 * (at the blob's next commit, or after a week).
 */
final class BlockUpload {
  private static final System.Logger LOG = System.getLogger("org.modelfs.azure");
  private static final String PREFIX = "mfs1";
  /** Metadata of every write: its random id, by which it is recognised after a failure. */
  static final String WRITE_ID = "modelfs_write";
  private static final SecureRandom RANDOM = new SecureRandom();

  /** Files up to this size are one Put Blob (a pointer, a small shard, a small model). */
  static final int SMALL = 1 << 20;

  /** What an upload did. */
  record Result(String etag, long uploaded, long reused) {}

  private BlockUpload() {}

  /** The block size now: {@code modelfs.azure.block-size}, 1 MiB to 100 MiB, 4 MiB by default. */
  static int blockBytes() {
    return (int) Math.max(1L << 20, Math.min(100L << 20, Long.getLong("modelfs.azure.block-size", 4L << 20)));
  }

  /**
   * Makes {@code file} the blob {@code key} if {@code condition} holds; reuses the blob's current
   * content-named blocks when the condition names its ETag.
   */
  static Result put(BlobStore store, String container, String key, Path file, BlobStore.Condition condition,
      Map<String, String> metadata) throws IOException {
    String writeId = HexFormat.of().formatHex(randomBytes());
    Map<String, String> meta = new HashMap<>(metadata);
    meta.put(WRITE_ID, writeId);
    if (Files.size(file) <= SMALL) {
      // one request: nothing to reuse in a blob of one block
      byte[] bytes = Files.readAllBytes(file);
      try {
        return new Result(store.putBlob(container, key, bytes, condition, meta, digest("MD5").digest(bytes)),
            bytes.length, 0);
      } catch (IOException e) {
        return new Result(settle(store, container, key, condition, writeId, e), bytes.length, 0);
      }
    }
    Set<String> held = new HashSet<>();
    if (condition.ifMatch() != null) {
      List<BlobStore.Block> now = store.committedBlocks(container, key);
      for (BlobStore.Block b : now) {
        if (isOurs(b.id())) {
          held.add(b.id());
        }
      }
      if (held.isEmpty()) {
        LOG.log(System.Logger.Level.INFO, BlobStore.name(container, key) + ": the blob was not written by ModelFS"
            + " (no content-named blocks): this commit uploads it whole; later ones upload what changed");
      }
    }
    List<String> ids = new ArrayList<>();
    long uploaded = 0;
    long reused = 0;
    long total = 0;
    MessageDigest whole = digest("MD5");
    int size = blockBytes();
    try (FileChannel ch = FileChannel.open(file)) {
      long length = ch.size();
      ByteBuffer buf = ByteBuffer.allocate((int) Math.min(size, Math.max(1, length)));
      for (long pos = 0; pos < length; pos += buf.limit()) {
        buf.clear().limit((int) Math.min(size, length - pos));
        while (buf.hasRemaining()) {
          if (ch.read(buf, pos + buf.position()) < 0) {
            throw new FileSystemException(file.toString(), null, "ended at byte " + (pos + buf.position())
                + " while it was being uploaded");
          }
        }
        byte[] bytes = Arrays.copyOf(buf.array(), buf.limit());
        whole.update(bytes);
        String id = id(bytes);
        if (held.add(id)) {
          store.stageBlock(container, key, id, bytes, digest("MD5").digest(bytes));
          uploaded += bytes.length;
        } else {
          reused += bytes.length;
        }
        ids.add(id);
        total += bytes.length;
      }
      if (total != length) {
        throw new FileSystemException(BlobStore.name(container, key), null, "commit refused: the blocks hold "
            + total + " bytes, the new file " + length + "; nothing was replaced");
      }
    }
    String etag;
    try {
      etag = store.commitBlocks(container, key, ids, condition, meta, whole.digest());
    } catch (IOException e) {
      etag = settle(store, container, key, condition, writeId, e);
    }
    return new Result(etag, uploaded, reused);
  }

  /**
   * A commit that failed — a 412, or an error that leaves its outcome open (the client's retry of
   * a request that had landed meets our own blob as a 412): one Get Blob Properties decides. The
   * blob carries our write id → it landed; it is no longer the blob the condition named →
   * {@link BlobStore.PreconditionFailed}; it is as it was → the failure as it is.
   */
  private static String settle(BlobStore store, String container, String key, BlobStore.Condition condition,
      String writeId, IOException failure) throws IOException {
    boolean interrupted = Thread.interrupted();
    BlobStore.Info now;
    try {
      now = store.head(container, key);
    } catch (IOException again) {
      FileSystemException unknown = new FileSystemException(BlobStore.name(container, key), null, "the commit failed ("
          + failure.getMessage() + ") and whether it landed could not be learnt (" + again.getMessage() + "); mount"
          + " the model again to see which version is stored");
      unknown.initCause(failure);
      throw unknown;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    if (now != null && writeId.equals(now.metadata().get(WRITE_ID))) {
      return now.etag();
    }
    if (failure instanceof BlobStore.PreconditionFailed) {
      throw failure;
    }
    boolean changed = condition.ifMatch() == null ? now != null : now == null || !condition.ifMatch().equals(now.etag());
    if (changed) {
      BlobStore.PreconditionFailed p = new BlobStore.PreconditionFailed(BlobStore.name(container, key), "the commit"
          + " failed (" + failure.getMessage() + ") and the blob is no longer the one its condition named: another"
          + " writer's is there");
      p.initCause(failure);
      throw p;
    }
    throw failure;
  }

  /** The content name of a block: base64 of {@code mfs1<44 hex digits of its SHA-256>}. */
  static String id(byte[] bytes) {
    byte[] sha = digest("SHA-256").digest(bytes);
    String name = PREFIX + HexFormat.of().formatHex(sha, 0, 22);
    return Base64.getEncoder().encodeToString(name.getBytes(StandardCharsets.US_ASCII));
  }

  /** Whether a listed block id is a content name of ours. */
  static boolean isOurs(String base64) {
    try {
      String s = new String(Base64.getDecoder().decode(base64), StandardCharsets.US_ASCII);
      return s.length() == PREFIX.length() + 44 && s.startsWith(PREFIX) && s.substring(PREFIX.length())
          .matches("[0-9a-f]{44}");
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** The SHA-256 of a local file, in hex. */
  static String sha256(Path file) throws IOException {
    MessageDigest md = digest("SHA-256");
    try (FileChannel ch = FileChannel.open(file)) {
      ByteBuffer buf = ByteBuffer.allocate(1 << 20);
      while (ch.read(buf.clear()) >= 0) {
        md.update(buf.flip());
      }
    }
    return HexFormat.of().formatHex(md.digest());
  }

  private static byte[] randomBytes() {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    return b;
  }

  private static MessageDigest digest(String algorithm) {
    try {
      return MessageDigest.getInstance(algorithm);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e); // every JDK has MD5 and SHA-256
    }
  }
}
