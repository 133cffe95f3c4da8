package org.modelfs.s3;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.BitSet;
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
 * The object store's steps of one commit ({@code store.CommitSteps} runs them): the new files
 * are local temporaries in a private directory (read back there, before anything is uploaded);
 * the install uploads a shard set's shards under a new generation and then PUTs the model's key
 * — the one commit point — conditional on the ETag {@link #begin} saw ({@link ObjectBacking}).
 */
final class ObjectCommit implements CommitStorage {
  private final ObjectLocation at;
  private final boolean sharded;
  private StoredModel<ObjectStore.Info> before;
  /** The pointer {@link #before} is, or {@code null} (a single object, a plain shard set, no model). */
  private ShardPointer.Pointer mounted;
  private Generation expected;
  private LocalTemps dir;

  ObjectCommit(ObjectLocation at, boolean sharded) {
    this.at = at;
    this.sharded = sharded;
  }

  @Override
  public String model() {
    return at.uri();
  }

  @Override
  public void begin(Generation expected) throws IOException {
    before = ObjectBacking.look(at);
    if (!before.generation().equals(expected)) {
      throw new ModelChangedException(at.uri(), expected, before.generation());
    }
    this.expected = expected;
    mounted = before.base() == null ? null : ObjectBacking.pointer(at, before.base());
    dir = LocalTemps.create();
  }

  /**
   * An unchanged shard of the mounted pointer, read back where it is stored (pinned to its ETag:
   * the index only — array bytes are not compared — so a few ranged GETs).
   */
  @Override
  public ByteSource kept(String name) throws IOException {
    ShardPointer.Shard s = mountedShard(name);
    return new ObjectSource(at.store(), at.bucket(), at.dir() + s.key(), s.etag(), s.size());
  }

  private ShardPointer.Shard mountedShard(String name) {
    if (mounted != null) {
      for (ShardPointer.Shard s : mounted.shards()) {
        if (s.fileName().equals(name)) {
          return s;
        }
      }
    }
    throw new IllegalArgumentException(at.uri() + ": the plan keeps " + name + ", which the mounted model does not name");
  }

  @Override
  public Temp create(String name) throws IOException {
    return dir.temp(name);
  }

  /** A local temporary is uploaded, not kept: forcing it to disk would buy nothing. */
  @Override
  public void force(Temp t) {}

  @Override
  public void discard(List<Temp> temps) throws IOException {
    dir.delete();
  }

  @Override
  public void install(List<Planned> files) throws IOException {
    dir.install(() -> {
      Map<String, String> meta = new HashMap<>();
      String previous = before.base() == null && !before.plainShards().isEmpty() ? ObjectBacking.PLAIN
          : mounted == null ? null : StoreKeys.generationOf(mounted.shards().get(0).key());
      if (previous != null) {
        meta.put(ObjectBacking.PREVIOUS, previous);
      }
      String plainUntil = plainUntil(before);
      if (plainUntil != null) {
        meta.put(ObjectBacking.PLAIN_UNTIL, plainUntil);
      }
      ObjectStore.Condition condition = before.base() == null ? ObjectStore.Condition.ABSENT
          : ObjectStore.Condition.etag(before.base().etag());
      if (sharded) {
        String generation = StoreKeys.newGeneration(at.name());
        Path pointer = uploadShards(files, generation);
        putModel(pointer, condition, meta, generation, null);
      } else {
        Path file = files.get(0).temp().path();
        putModel(file, condition, meta, null, composing(file, meta));
      }
      Cleanup.afterCommit(at);
    }, (what, e) -> Cleanup.warn(at, what, e)); // the commit landed: temporaries that would not go do not undo it
  }

  /**
   * {@link ObjectBacking#PLAIN_UNTIL} for the commit replacing {@code before}: the newest of the
   * plain shards it replaces, or what the model object it replaces carried; {@code null} if neither.
   */
  private static String plainUntil(StoredModel<ObjectStore.Info> before) {
    if (before.base() != null) {
      return before.base().metadata().get(ObjectBacking.PLAIN_UNTIL);
    }
    long newest = Long.MIN_VALUE;
    for (ObjectStore.Info s : before.plainShards()) {
      if (s.lastModified() != null) {
        newest = Math.max(newest, s.lastModified().toEpochMilli());
      }
    }
    return newest == Long.MIN_VALUE ? null : Long.toString(newest);
  }

  /**
   * A shard set's written shards under the new generation directory (each a new key:
   * {@code If-None-Match: *}); a kept shard is named where the mounted pointer has it. Then the
   * pointer's text in a local file, naming the mounted pointer's shards as the previous model's.
   * A failure deletes what was uploaded (what a crash leaves is removed by a later
   * {@link Cleanup}).
   */
  private Path uploadShards(List<Planned> files, String generation) throws IOException {
    List<ShardPointer.Shard> shards = new ArrayList<>();
    List<ShardPointer.Shard> uploaded = new ArrayList<>();
    try {
      for (Planned f : files) {
        if (f.kept()) {
          shards.add(mountedShard(f.name()));
          continue;
        }
        String rel = generation + "/" + f.name();
        Path local = f.temp().path();
        String etag = at.store().put(at.bucket(), at.dir() + rel, local, ObjectStore.Condition.ABSENT, Map.of());
        ShardPointer.Shard s = new ShardPointer.Shard(rel, Files.size(local), etag);
        shards.add(s);
        uploaded.add(s);
      }
    } catch (IOException | RuntimeException e) {
      for (ShardPointer.Shard s : uploaded) {
        try {
          at.store().delete(at.bucket(), at.dir() + s.key());
        } catch (IOException | RuntimeException again) {
          e.addSuppressed(again);
        }
      }
      throw e;
    }
    Path pointer = dir.file("pointer");
    Files.write(pointer, ShardPointer.write(shards, mounted == null ? List.of() : mounted.shards()),
        StandardOpenOption.CREATE_NEW);
    return pointer;
  }

  /**
   * A single object's part digests ({@link PartDigests}) put in {@code meta} for the next commit,
   * and the parts of the mounted object this one has unchanged (the store composes them), or
   * {@code null} when there are none to copy.
   */
  private ObjectStore.Reuse composing(Path file, Map<String, String> meta) throws IOException {
    long size = Files.size(file);
    if (!PartDigests.worthIt(size)) {
      return null;
    }
    long part = PartDigests.partSize(size);
    String digests = PartDigests.of(file, size, part);
    int metaBytes = PartDigests.META.length() + digests.length() + 64; // and the write id
    for (Map.Entry<String, String> e : meta.entrySet()) {
      metaBytes += e.getKey().length() + e.getValue().length();
    }
    if (metaBytes > 2048) {
      return null; // S3 keeps at most 2 KB of user metadata: this commit's successor uploads all
    }
    meta.put(PartDigests.META, digests);
    if (before.base() == null || mounted != null) {
      return null;
    }
    BitSet same = PartDigests.unchanged(before.base().metadata().get(PartDigests.META), before.base().size(),
        digests, size);
    return same.isEmpty() ? null : new ObjectStore.Reuse(at.key(), before.base().etag(), part, same);
  }

  /** The commit point: one conditional PUT of the model's key (composed from {@code reuse}'s parts where not {@code null}). */
  private void putModel(Path file, ObjectStore.Condition condition, Map<String, String> meta, String generation,
      ObjectStore.Reuse reuse) throws IOException {
    try {
      at.store().put(at.bucket(), at.key(), file, condition, meta, reuse);
    } catch (ObjectStore.PreconditionFailed e) {
      if (generation != null) {
        Cleanup.deleteGeneration(at, generation, e);
      }
      throw ModelChangedException.refused(at.uri(), expected, () -> ObjectBacking.look(at).generation(), e);
    }
    // any other failure leaves the generation: the pointer may have landed, or still land (a
    // request in flight), and a pointer that landed needs it; if it did not, Cleanup removes it
    // once it is older than the grace period
  }

}
