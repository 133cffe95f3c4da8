package org.modelfs.azure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.StoreKeys;
import org.modelfs.testing.FaultSweep;
import org.modelfs.testing.VersionedModel;
import reactor.core.publisher.Mono;

/**
 * Every writing request of a commit failing, one at a time (issue 34's hostile trial), as the
 * s3 and hdfs modules' fault tests do: a Put Blob, Put Block, Put Block List or Delete Blob
 * failing before it is sent (it and every later one: an outage), or sent and applied with its
 * answer lost ({@link BlobStore#injected}, in front of the client's retries). After each: a fresh
 * mount reads the old model or the new one, whole — the new one exactly when the commit said so;
 * the next commit and {@code clean} work; blobs beside the model whose names share its prefix are
 * untouched. A single blob of several blocks (1 MiB blocks: unchanged ones named again, not
 * uploaded) and a shard set reusing shards.
 */
class BlobCommitFaultsTest extends AzureTest {
  private static final int COUNT = 3;

  @AfterEach
  void noFaults() {
    BlobStore.injected = null;
    System.clearProperty("modelfs.azure.block-size");
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
    System.setProperty("modelfs.azure.block-size", String.valueOf(1 << 20));
    String dir = "faults-" + kind + "/";
    Map<String, String> env = sharded ? Map.of("format", "sdnb-sharded", "maxShardBytes", String.valueOf(64 * 1024))
        : Map.of();
    VersionedModel.local(tmp, "m.sdnb", sharded ? ModelFormat.SHARDED_SDNB : ModelFormat.SDNB, COUNT,
        sharded ? 16 * 1024 : 1 << 19, sharded ? 64 * 1024 : 0);
    try (var files = Files.list(tmp)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        if (p.getFileName().toString().matches("m\\.(sdnb|shard\\d+-of-\\d+\\.sdnb)")) {
          upload(p, dir + p.getFileName());
        }
      }
    }
    String gen = StoreKeys.newGeneration("m.sdnb");
    List<String> neighbours = List.of("m", "m.sdnb2", "m.sdnb.bak", gen.substring(0, gen.length() - 1)
        + "/m.shard0-of-2.sdnb", gen + "/m.shard00-of-2.sdnb", gen + "/README");
    for (String n : neighbours) {
      upload(Files.write(tmp.resolve("n"), n.getBytes()), dir + n);
    }
    Path model = path(dir + "m.sdnb");
    VersionedModel.commit(model, env, 0, 1); // the first ModelFS commit: content-named blocks, or the pointer
    List<String> failed = new ArrayList<>();
    List<String> outcomes = FaultSweep.run(model, uri(dir + "m.sdnb"), env, COUNT, new FaultSweep.Faults() {
      @Override
      public void arm(boolean before, int n) {
        synchronized (failed) {
          failed.clear();
        }
        BlobStore.injected = new Failing(before, n, failed);
      }

      @Override
      public List<String> disarm() {
        BlobStore.injected = null;
        synchronized (failed) {
          return List.copyOf(failed);
        }
      }
    });
    for (String n : neighbours) {
      assertArrayEquals(n.getBytes(), container.getBlobClient(dir + n).downloadContent().toBytes(),
          n + " is not the model's: " + outcomes);
    }
  }

  /** Fails writing requests (PUT, DELETE) from the {@code at}th on (before), or the {@code at}th alone once applied. */
  private static final class Failing implements HttpPipelinePolicy {
    private final boolean before;
    private final int at;
    private final List<String> failed;
    private final AtomicInteger seen = new AtomicInteger();

    Failing(boolean before, int at, List<String> failed) {
      this.before = before;
      this.at = at;
      this.failed = failed;
    }

    @Override
    public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
      String method = context.getHttpRequest().getHttpMethod().name();
      if (!method.equals("PUT") && !method.equals("DELETE")) {
        return next.process();
      }
      String what = method + " " + context.getHttpRequest().getUrl().getPath().replaceAll(".*/faults-[a-z]+/", "")
          + (context.getHttpRequest().getUrl().getQuery() == null ? "" : "?" + context.getHttpRequest().getUrl()
          .getQuery().replaceAll("&.*", ""));
      if (before && seen.incrementAndGet() >= at) {
        synchronized (failed) {
          failed.add(what);
        }
        return Mono.error(new IOException("injected failure of " + what));
      }
      if (!before) {
        return next.process().flatMap(r -> {
          if (seen.incrementAndGet() != at) {
            return Mono.just(r);
          }
          synchronized (failed) {
            failed.add(what);
          }
          r.close();
          return Mono.error(new IOException("injected: the answer to " + what + " was lost"));
        });
      }
      return next.process();
    }
  }
}
