package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.gaul.s3proxy.S3ErrorCode;
import org.gaul.s3proxy.S3ProxyException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.StoreKeys;
import org.modelfs.testing.FaultSweep;
import org.modelfs.testing.VersionedModel;

/**
 * Every writing request of a commit failing, one at a time (issue 34's hostile trial): the server
 * refusing it from that request on (a 500 before anything is stored: an outage), or applying it
 * and losing the answer (a 500 after it was stored: the client cannot see the outcome). After
 * each: a fresh mount reads the old model or the new one, whole, with the values written — the
 * new one exactly when the commit reported success; the next commit and {@code clean} work;
 * objects beside the model whose names share its prefix are untouched. For a single object composed from parts
 * (the part uploads, part copies and the completion) and for a shard set whose commits reuse
 * unchanged shards (shard PUTs, the pointer PUT, cleanup's DELETEs).
 */
class CommitFaultsTest extends StoreTest {
  private static final int COUNT = 3;

  @AfterEach
  void noFaults() {
    s3.fault(null);
  }

  /** The shard set's sweep: the most kinds of request, in every run. */
  @Test
  void aFailureAtEveryWritingRequestLeavesTheOldModelOrTheNewOneForAShardSet() throws Exception {
    aFailureAtEveryWritingRequestLeavesTheOldModelOrTheNewOne("sharded");
  }

  /** The single object's sweep (-Pslow: the shard set's covers the most kinds of request in every run). */
  @Test
  @Tag("slow")
  void aFailureAtEveryWritingRequestLeavesTheOldModelOrTheNewOneForASingleFile() throws Exception {
    aFailureAtEveryWritingRequestLeavesTheOldModelOrTheNewOne("single");
  }

  private void aFailureAtEveryWritingRequestLeavesTheOldModelOrTheNewOne(String kind) throws Exception {
    boolean sharded = kind.equals("sharded");
    String dir = "faults-" + kind + "/";
    String key = dir + "m.sdnb";
    Map<String, String> env = sharded ? Map.of("format", "sdnb-sharded", "maxShardBytes", String.valueOf(64 * 1024))
        : Map.of();
    if (sharded) {
      VersionedModel.local(tmp, "m.sdnb", ModelFormat.SHARDED_SDNB, COUNT, 16 * 1024, 64 * 1024);
      uploadShards(dir);
    } else {
      // 3 × 2 MiB: parts of 5 MiB and 1 MiB, so a change of one parameter composes the other part on the server
      s3.upload(VersionedModel.local(tmp, "m.sdnb", ModelFormat.SDNB, COUNT, 1 << 19, 0), key);
    }
    Map<String, byte[]> beside = neighbours(dir);
    VersionedModel.commit(s3.path(key), env, 0, 1); // the first ModelFS commit: part digests, or the pointer
    List<String> outcomes = FaultSweep.run(s3.path(key), s3.uri(key).toString(), env, COUNT, new FaultSweep.Faults() {
      private final AtomicInteger seen = new AtomicInteger();
      private final List<String> failed = new ArrayList<>();

      @Override
      public void arm(boolean before, int n) {
        seen.set(0);
        failed.clear();
        s3.fault(new S3TestServer.Fault() {
          @Override
          public void before(String op, String k) {
            if (before && seen.incrementAndGet() >= n) {
              fail(op + " " + k); // from here on: an outage
            }
          }

          @Override
          public void after(String op, String k) {
            if (!before && seen.incrementAndGet() == n) {
              fail(op + " " + k); // stored, the answer lost
            }
          }
        });
      }

      private void fail(String what) {
        synchronized (failed) {
          failed.add(what);
        }
        throw new S3ProxyException(S3ErrorCode.INTERNAL_ERROR);
      }

      @Override
      public List<String> disarm() {
        s3.fault(null);
        synchronized (failed) {
          return List.copyOf(failed);
        }
      }
    });
    for (Map.Entry<String, byte[]> e : beside.entrySet()) {
      assertArrayEquals(e.getValue(), s3.bytes(e.getKey()), e.getKey() + " is not the model's: " + outcomes);
    }
    assertTrue(outcomes.size() >= 4, outcomes.toString());
  }

  /** Objects beside the model whose names share its prefix, or look like its generations. */
  private Map<String, byte[]> neighbours(String dir) throws IOException {
    String gen = StoreKeys.newGeneration("m.sdnb");
    Map<String, byte[]> out = new LinkedHashMap<>();
    for (String k : new String[] {"m", "m.sdnb2", "m.sdnb.bak", "m.sdnb2.modelfs-g" + gen.substring(gen.length() - 32)
        + "/m.shard0-of-2.sdnb", gen.substring(0, gen.length() - 1) + "/m.shard0-of-2.sdnb", gen
        + "/m.shard0-of-2.sdnb.part", gen + "/README"}) {
      byte[] b = (dir + k).getBytes();
      s3.upload(Files.write(tmp.resolve("n" + out.size()), b), dir + k);
      out.put(dir + k, b);
    }
    return out;
  }
}
