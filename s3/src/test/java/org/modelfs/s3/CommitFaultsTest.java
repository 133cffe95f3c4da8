package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.testing.CliRun.ok;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.gaul.s3proxy.S3ErrorCode;
import org.gaul.s3proxy.S3ProxyException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.StoreKeys;
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

  private static int[] values(String key) throws IOException {
    return StoreTest.values(key, COUNT);
  }

  private static void set(String key, Map<String, String> env, int i, int value) throws IOException {
    VersionedModel.commit(s3.path(key), env, i, value);
  }

  @ParameterizedTest
  @ValueSource(strings = {"single", "sharded"})
  void aFailureAtEveryWritingRequestLeavesTheOldModelOrTheNewOne(String kind) throws Exception {
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
    set(key, env, 0, 1); // the first ModelFS commit: part digests, or the pointer
    int[] now = values(key);
    List<String> outcomes = new ArrayList<>();
    for (String mode : new String[] {"before", "after"}) {
      for (int n = 1; ; n++) {
        int[] old = now;
        int i = 0; // the same change each time, so that request n is the same step of each commit
        int[] wanted = old.clone();
        wanted[i] = (old[i] + 1) % 200;
        AtomicInteger seen = new AtomicInteger();
        List<String> failed = new ArrayList<>();
        boolean before = mode.equals("before");
        int at = n;
        s3.fault(new S3TestServer.Fault() {
          @Override
          public void before(String op, String k) {
            if (before && seen.incrementAndGet() >= at) {
              failed.add(op + " " + k);
              throw new S3ProxyException(S3ErrorCode.INTERNAL_ERROR); // from here on: an outage
            }
          }

          @Override
          public void after(String op, String k) {
            if (!before && seen.incrementAndGet() == at) {
              failed.add(op + " " + k);
              throw new S3ProxyException(S3ErrorCode.INTERNAL_ERROR); // stored, the answer lost
            }
          }
        });
        String outcome;
        try {
          set(key, env, i, wanted[i]);
          outcome = "committed";
        } catch (IOException e) {
          outcome = "failed: " + e.getMessage();
        }
        s3.fault(null);
        now = values(key);
        outcomes.add(mode + " " + n + " " + failed + " → " + outcome + " → " + Arrays.toString(now));
        if (outcome.equals("committed")) {
          assertArrayEquals(wanted, now, "a commit that said it landed: " + outcomes);
        } else {
          assertArrayEquals(old, now, "a commit that landed was reported as failed, or a mix: " + outcomes);
          assertTrue(outcome.contains(key) || outcome.contains("m.sdnb"), "the error names the model: " + outcome);
        }
        if (failed.isEmpty()) {
          break; // past the commit's last writing request
        }
      }
      // the next commit and clean work, and the model reads as committed
      int[] next = now.clone();
      next[1] = (now[1] + 7) % 200;
      set(key, env, 1, next[1]);
      assertArrayEquals(next, values(key), outcomes.toString());
      now = next;
      ok("clean", s3.uri(key).toString());
      assertArrayEquals(next, values(key), "after clean: " + outcomes);
      assertEquals("", ok("verify", s3.uri(key).toString(), "--quiet").out());
    }
    for (Map.Entry<String, byte[]> e : beside.entrySet()) {
      assertArrayEquals(e.getValue(), s3.bytes(e.getKey()), e.getKey() + " is not the model's: " + outcomes);
    }
    assertTrue(outcomes.size() >= 4, outcomes.toString());
    System.out.println(String.join("\n", outcomes));
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
