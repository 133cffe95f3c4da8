package org.modelfs.azure;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.modelfs.io.ByteSource;
import org.modelfs.store.CommitStorage;
import org.modelfs.store.Generation;
import org.modelfs.store.LocalTemps;
import org.modelfs.store.ModelChangedException;
import org.modelfs.store.ShardPointer;
import org.modelfs.store.StoreKeys;
import org.modelfs.store.StoredModel;

/**
 * The Blob Storage steps of one commit ({@link org.modelfs.store.CommitSteps} runs them around the
 * shared ones): local private temporaries; a kept shard read back from the blob the current
 * pointer names (pinned to its ETag); install = changed shards uploaded under a new generation,
 * then the model blob (the pointer, or the single container) committed with its condition by
 * {@link BlockUpload} — the commit point.
 */
final class BlobCommit implements CommitStorage {
  private final BlobLocation at;
  private final boolean sharded;
  private StoredModel<BlobStore.Info> before;
  /** The shards the stored pointer names, or {@code null} (a single blob, a plain DL4J set, nothing). */
  private ShardPointer.Pointer old;
  private Generation expected;
  private LocalTemps dir;

  BlobCommit(BlobLocation at, boolean sharded) {
    this.at = at;
    this.sharded = sharded;
  }

  @Override
  public String model() {
    return at.uri();
  }

  @Override
  public void begin(Generation expected) throws IOException {
    before = BlobBacking.look(at);
    if (!before.generation().equals(expected)) {
      throw new ModelChangedException(at.uri(), expected, before.generation());
    }
    this.expected = expected;
    old = before.base() == null ? null : BlobBacking.pointer(at, before.base());
    dir = LocalTemps.create();
  }

  @Override
  public Temp create(String name) throws IOException {
    return dir.temp(name);
  }

  /** A local temporary is uploaded, not kept: forcing it to disk would buy nothing. */
  @Override
  public void force(Temp t) {}

  /** The stored shard {@code name}: the current pointer's (pinned), or the plain DL4J shard's. */
  @Override
  public ByteSource kept(String name) throws IOException {
    if (old != null) {
      for (ShardPointer.Shard s : old.shards()) {
        if (s.fileName().equals(name)) {
          return new BlobSource(at.store(), at.container(), at.dir() + s.key(), s.etag(), s.size());
        }
      }
    }
    for (BlobStore.Info o : before.plainShards()) {
      if (o.key().equals(at.dir() + name)) {
        return new BlobSource(at.store(), at.container(), o.key(), o.etag(), o.size());
      }
    }
    throw new ModelChangedException(at.uri(), expected, before.generation());
  }

  @Override
  public void discard(List<Temp> temps) throws IOException {
    dir.delete();
  }

  @Override
  public void install(List<Planned> files) throws IOException {
    dir.install(() -> {
      Map<String, String> meta = new HashMap<>();
      if (old != null) {
        meta.put(BlobBacking.PREVIOUS, String.join(" ", old.generations()));
      }
      BlobStore.Condition condition = before.base() == null ? BlobStore.Condition.ABSENT
          : BlobStore.Condition.etag(before.base().etag());
      List<String> uploaded = new ArrayList<>();
      if (sharded) {
        Path pointer = uploadShards(files, uploaded);
        putModel(pointer, condition, meta, uploaded);
      } else {
        putModel(files.get(0).temp().path(), condition, meta, uploaded);
      }
      Cleanup.afterCommit(at);
    }, (what, e) -> Cleanup.warn(at, what, e));
  }

  /**
   * Each shard the plan keeps, or whose name and SHA-256 are a shard's of the stored pointer, is
   * named again where it is; every other is uploaded under one new generation
   * ({@code If-None-Match: *}; its keys added to {@code uploaded}) — a kept plain DL4J shard too
   * (copied through this JVM: the pointer names generation blobs only). Returns the pointer's
   * text in a local file. A failure deletes what was uploaded.
   */
  private Path uploadShards(List<Planned> files, List<String> uploaded) throws IOException {
    String generation = StoreKeys.newGeneration(at.name());
    List<ShardPointer.Shard> shards = new ArrayList<>();
    try {
      for (Planned f : files) {
        ShardPointer.Shard same = f.kept() ? stored(f.name(), null) : null;
        Path local = f.kept() ? null : f.temp().path();
        if (f.kept() && same == null) {
          local = download(f.name());
        }
        String sha = local == null ? null : BlockUpload.sha256(local);
        if (same == null) {
          same = stored(f.name(), sha);
        }
        if (same != null) {
          shards.add(same);
          continue;
        }
        String rel = generation + "/" + f.name();
        uploaded.add(rel);
        String etag = BlockUpload.put(at.store(), at.container(), at.dir() + rel, local, BlobStore.Condition.ABSENT,
            Map.of()).etag();
        shards.add(new ShardPointer.Shard(rel, Files.size(local), etag, sha));
      }
    } catch (IOException | RuntimeException e) {
      Cleanup.deleteUploaded(at, uploaded, e);
      throw e;
    }
    Path pointer = dir.file("pointer");
    Files.write(pointer, ShardPointer.write(shards, old == null ? List.of() : old.shards()),
        StandardOpenOption.CREATE_NEW);
    return pointer;
  }

  /** The stored pointer's shard {@code name}, if its SHA-256 is {@code sha} (any, when {@code null}). */
  private ShardPointer.Shard stored(String name, String sha) {
    if (old != null) {
      for (ShardPointer.Shard s : old.shards()) {
        if (s.fileName().equals(name) && (sha == null || sha.equals(s.sha256()))) {
          return s;
        }
      }
    }
    return null;
  }

  /** A kept plain DL4J shard, read (pinned) into a local temporary for its upload into the generation. */
  private Path download(String name) throws IOException {
    Path t = dir.file(name);
    try (ByteSource src = kept(name); FileChannel ch = FileChannel.open(t, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE)) {
      ByteBuffer buf = ByteBuffer.allocate(BlobSource.MAX_FETCH);
      for (long pos = 0; pos < src.size(); ) {
        buf.clear().limit((int) Math.min(buf.capacity(), src.size() - pos));
        src.readFully(buf, pos);
        pos += buf.flip().remaining();
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
      }
    }
    return t;
  }

  /** The commit point: the model blob, conditionally. */
  private void putModel(Path file, BlobStore.Condition condition, Map<String, String> meta, List<String> uploaded)
      throws IOException {
    try {
      BlockUpload.put(at.store(), at.container(), at.key(), file, condition, meta);
    } catch (BlobStore.PreconditionFailed e) {
      Cleanup.deleteUploaded(at, uploaded, e);
      throw ModelChangedException.refused(at.uri(), expected, () -> BlobBacking.look(at).generation(), e);
    }
    // any other failure leaves the uploaded shards: the pointer may have landed; if it did not,
    // Cleanup removes them once they are older than the grace period
  }
}
