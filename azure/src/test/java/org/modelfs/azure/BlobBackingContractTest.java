package org.modelfs.azure;

import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.modelfs.store.Backing;
import org.modelfs.store.BackingContractTest;
import org.modelfs.store.ShardPointer;
import org.modelfs.store.StoredModel;

/** {@link BlobBacking} held to core's {@link BackingContractTest}, unchanged, against Azurite. */
class BlobBackingContractTest extends BackingContractTest {
  private static final AtomicInteger PLACES = new AtomicInteger();

  @BeforeAll
  static void startServer() throws Exception {
    AzureTest.startServer();
  }

  @Override
  protected Backing newBacking(String fileName, boolean shardSet) throws IOException {
    return new BlobBackings().backing(AzureTest.path("contract" + PLACES.incrementAndGet() + "/" + fileName), shardSet);
  }

  @Override
  protected Backing anotherClient(Backing b) throws IOException {
    BlobBacking o = (BlobBacking) b;
    return new BlobBackings().backing(o.location().path(), o.isShardSet());
  }

  /** The single blob's name and ETag, or each shard's (the pointer's lines, or a plain set's blobs). */
  @Override
  protected Map<String, String> storedFiles(Backing b) throws IOException {
    BlobLocation at = ((BlobBacking) b).location();
    Map<String, String> out = new TreeMap<>();
    StoredModel<BlobStore.Info> s = BlobBacking.look(at);
    if (s.base() != null) {
      var pointer = BlobBacking.pointer(at, s.base());
      if (pointer != null) {
        for (ShardPointer.Shard p : pointer.shards()) {
          out.put(p.key().substring(p.key().indexOf('/') + 1), p.key() + "@" + p.etag());
        }
        return out;
      }
      out.put(at.name(), s.base().key() + "@" + s.base().etag());
    }
    for (BlobStore.Info o : s.plainShards()) {
      out.put(o.key().substring(at.dir().length()), o.key() + "@" + o.etag());
    }
    return out;
  }

  /** A single blob is replaced at its name: a reader pinned to the old ETag fails (never mixes); a shard set's old shards stay. */
  @Override
  protected boolean keepsOldGenerationReadable(boolean shardSet) {
    return shardSet;
  }
}
