package org.modelfs.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.testing.CliRun.ok;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A store's commits with a failure at each of their writing requests in turn (issue 34's hostile
 * trial), shared by the s3, azure and hdfs fault tests: for each mode — the {@code n}th request
 * and every later one refused before the store applies it (an outage), then the {@code n}th alone
 * applied with its answer lost — commit one change of a {@link VersionedModel} with the failure
 * at request 1, 2, … until a commit meets none. After each: a fresh mount reads the old model or
 * the new one, whole, and the new one exactly when the commit said it landed; a failure names the
 * model. After each mode: the next commit, {@code modelfs clean} and {@code verify} work.
 */
public final class FaultSweep {
  private FaultSweep() {}

  /** Where a store's test injects its failures. */
  public interface Faults {
    /** From now on: request {@code n} fails before it is applied (and every later one), or after it (alone). */
    void arm(boolean before, int n);

    /** No more failures; returns the requests that failed since {@link #arm}. */
    List<String> disarm();
  }

  /**
   * Runs the sweep on {@code model} (mounted with {@code env}; parameters {@code big/w0 …
   * w<count-1>}), named {@code cli} on the command line; returns one line per commit.
   */
  public static List<String> run(Path model, String cli, Map<String, String> env, int count, Faults faults)
      throws IOException {
    int[] now = VersionedModel.values(model, count);
    List<String> outcomes = new ArrayList<>();
    for (boolean before : new boolean[] {true, false}) {
      for (int n = 1; ; n++) {
        int[] old = now;
        int[] wanted = old.clone();
        wanted[0] = (old[0] + 1) % 200; // the same change each time: request n is the same step of each commit
        faults.arm(before, n);
        String outcome;
        List<String> failed;
        try {
          VersionedModel.commit(model, env, 0, wanted[0]);
          outcome = "committed";
        } catch (IOException e) {
          outcome = "failed: " + e.getMessage();
        } finally {
          failed = faults.disarm();
        }
        now = VersionedModel.values(model, count);
        outcomes.add((before ? "before " : "after ") + n + " " + failed + " → " + outcome + " → "
            + Arrays.toString(now));
        if (outcome.equals("committed")) {
          assertArrayEquals(wanted, now, "a commit that said it landed: " + outcomes);
        } else {
          assertArrayEquals(old, now, "a commit that landed was reported as failed, or a mix: " + outcomes);
          assertTrue(outcome.contains("m.sdnb") || outcome.contains("m.shard"), "the error names the model: "
              + outcome);
        }
        if (failed.isEmpty()) {
          break; // past the commit's last writing request
        }
      }
      int[] next = now.clone();
      next[1] = (now[1] + 7) % 200;
      VersionedModel.commit(model, env, 1, next[1]);
      assertArrayEquals(next, VersionedModel.values(model, count), outcomes.toString());
      now = next;
      ok("clean", cli);
      assertArrayEquals(next, VersionedModel.values(model, count), "after clean: " + outcomes);
      assertEquals("", ok("verify", cli, "--quiet").out());
    }
    return outcomes;
  }
}
