package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.*;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ModelFormat;

/**
 * Two writers in two JVMs mount the same model, change it and commit at the same moment: exactly
 * one commit lands, the other is refused with "the model changed since it was mounted", and the
 * stored model is the winner's, whole. For a single object and for a shard set.
 */
class ObjectRaceTest extends StoreTest {
  private static final int ROUNDS = Integer.getInteger("race.rounds", 3);
  @Test
  void singleObject() throws Exception {
    s3.upload(VersionedModel.local(tmp, "m.sdnb", ModelFormat.SDNB, 4, 16 * 1024, 0), "race1/m.sdnb");
    race("race1/m.sdnb", 0);
  }

  @Test
  void shardSet() throws Exception {
    long shard = 40 * 1024;
    VersionedModel.local(tmp, "m.sdnb", ModelFormat.SHARDED_SDNB, 4, 16 * 1024, shard);
    uploadShards("race2/");
    race("race2/m.sdnb", shard);
  }

  private void race(String key, long shard) throws Exception {
    for (int round = 0; round < ROUNDS; round++) {
      Path go = tmp.resolve("go" + round);
      List<Process> children = new ArrayList<>();
      List<BufferedReader> outs = new ArrayList<>();
      int[] versions = {10 + 2 * round, 11 + 2 * round};
      try {
        for (int v : versions) {
          Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
              "-Xmx512m", "-XX:+UseSerialGC", "-Daws.region=us-east-1", "-Daws.disableEc2Metadata=true",
              "-Djava.io.tmpdir=" + Files.createDirectories(tmp.resolve("c" + v)), "-cp",
              System.getProperty("java.class.path"), CommitChild.class.getName(), String.valueOf(s3.port()), key,
              String.valueOf(v), String.valueOf(shard), go.toString()).redirectErrorStream(true).start();
          children.add(p);
          outs.add(new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)));
        }
        List<String> lines = new ArrayList<>();
        for (BufferedReader r : outs) {
          lines.add(until(r, "WRITTEN"));
        }
        Files.createFile(go); // both mounted and changed: commit now
        List<String> results = new ArrayList<>();
        for (BufferedReader r : outs) {
          results.add(until(r, "COMMITTED", "REFUSED"));
        }
        long won = results.stream().filter(r -> r.equals("COMMITTED")).count();
        assertEquals(1, won, "exactly one writer wins: " + results);
        String lost = results.stream().filter(r -> r.startsWith("REFUSED")).findFirst().orElseThrow();
        assertTrue(lost.contains("the model changed since it was mounted"), lost);
        int winner = versions[results.indexOf("COMMITTED")];
        try (FileSystem fs = ModelFileSystems.open(s3.path(key), Map.of("readOnly", "true"))) {
          assertEquals(winner, VersionedModel.version(fs), "the winner's model, whole");
        }
      } finally {
        for (Process p : children) {
          p.destroyForcibly();
          p.waitFor(30, TimeUnit.SECONDS);
        }
      }
    }
  }

  private static String until(BufferedReader r, String... prefixes) throws java.io.IOException {
    StringBuilder seen = new StringBuilder();
    for (String line; (line = r.readLine()) != null; ) {
      seen.append(line).append('\n');
      for (String p : prefixes) {
        if (line.startsWith(p)) {
          return line;
        }
      }
    }
    throw new AssertionError("the child ended without " + String.join("/", prefixes) + ":\n" + seen);
  }
}
