package org.modelfs.s3;

import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.modelfs.store.Backing;
import org.modelfs.store.BackingContractTest;
import org.modelfs.store.ShardPointer;
import org.modelfs.store.StoredModel;

/**
 * {@link ObjectBacking} held to the backing contract, against S3Proxy (a fresh prefix per model),
 * built through the module's {@link ObjectBackings} service as a mount builds it.
 */
class ObjectBackingContractTest extends BackingContractTest {
  private static final AtomicInteger PLACES = new AtomicInteger();
  private static S3TestServer s3;

  @BeforeAll
  static void startServer() throws Exception {
    s3 = S3TestServer.start();
  }

  @AfterAll
  static void stopServer() throws Exception {
    s3.close();
  }

  @Override
  protected Backing newBacking(String fileName, boolean shardSet) throws IOException {
    return new ObjectBackings().backing(s3.path("contract" + PLACES.incrementAndGet() + "/" + fileName), shardSet);
  }

  @Override
  protected Backing anotherClient(Backing b) throws IOException {
    ObjectBacking o = (ObjectBacking) b;
    return new ObjectBackings().backing(o.location().path(), o.isShardSet());
  }

  /** The single object's key and ETag, or each shard's (the pointer's lines, or a plain set's objects). */
  @Override
  protected Map<String, String> storedFiles(Backing b) throws IOException {
    ObjectLocation at = ((ObjectBacking) b).location();
    Map<String, String> out = new TreeMap<>();
    StoredModel<ObjectStore.Info> s = ObjectBacking.look(at);
    if (s.base() != null) {
      try (ObjectSource src = new ObjectSource(at.store(), at.bucket(), at.key(), s.base().etag(), s.base().size())) {
        if (ShardPointer.sniff(src)) {
          for (ShardPointer.Shard p : ShardPointer.read(src, at.name()).shards()) {
            out.put(p.key().substring(p.key().indexOf('/') + 1), p.key() + "@" + p.etag());
          }
          return out;
        }
      }
      out.put(at.name(), s.base().key() + "@" + s.base().etag());
    }
    for (ObjectStore.Info o : s.plainShards()) {
      out.put(o.key().substring(at.dir().length()), o.key() + "@" + o.etag());
    }
    return out;
  }

  /** A single object is replaced at its key: a reader pinned to the old ETag fails (never mixes); a shard set's old generation stays. */
  @Override
  protected boolean keepsOldGenerationReadable(boolean shardSet) {
    return shardSet;
  }
}
