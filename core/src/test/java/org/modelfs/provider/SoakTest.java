package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.Descriptors;
import org.modelfs.testing.SyntheticModels;

/**
 * The soak test ({@code mvn -Pslow verify}; docs/RELIABILITY.md, "Soak"): one JVM mounts a model
 * of {@code -Dsoak.mib} MiB (256 by default) and commits a checkpoint every second for
 * {@code -Dsoak.seconds} (1800 by default) through that one mount, while {@code -Dsoak.readers}
 * other JVMs (2) mount it read-only again and again and check every checkpoint they see. The
 * writer's heap after a full GC, its descriptors, the bytes of deleted files it holds, its journal
 * and its temporary directory must stay flat; every checkpoint read must be intact, and so must
 * the last one at the end.
 */
class SoakTest {
  @TempDir Path tmp;

  /** One STAT line of the writer. */
  record Stat(long seconds, int commits, long heap, int fds, int deleted, long deletedBytes, long journal, long temp) {
    static Stat parse(String line) {
      String[] f = line.split(" ");
      return new Stat(Long.parseLong(f[1]), Integer.parseInt(f[2]), Long.parseLong(f[3]), Integer.parseInt(f[4]),
          Integer.parseInt(f[5]), Long.parseLong(f[6]), Long.parseLong(f[7]), Long.parseLong(f[8]));
    }
  }

  private static Process child(String heap, Path tmpdir, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        heap, "-Djava.io.tmpdir=" + tmpdir, "-cp", System.getProperty("java.class.path"), SoakMain.class.getName()));
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
  }

  @Test
  @Tag("slow")
  void aMountCheckpointingEverySecondHoldsFlatResourcesAndLosesNothing() throws Exception {
    assumeTrue(Descriptors.available());
    long seconds = Long.getLong("soak.seconds", 1800);
    int params = Integer.getInteger("soak.mib", 256) / 4;
    int readerCount = Integer.getInteger("soak.readers", 2);
    Path model = tmp.resolve("soak.sdnb");
    var synthetic = SyntheticModels.floats(tmp.resolve("data.bin"), params, SoakMain.ELEMENTS);
    try (var data = synthetic.data()) {
      ModelFiles.write(synthetic.tag(), model, WriteOptions.of(ModelFormat.SDNB));
    }
    Files.delete(tmp.resolve("data.bin"));
    Path writerTmp = Files.createDirectory(tmp.resolve("writer-tmp"));
    Path stop = tmp.resolve("stop");
    long statEvery = Math.max(5, seconds / 60);
    Process writer = child("-Xmx512m", writerTmp, "writer", model.toString(), Long.toString(seconds),
        Long.toString(statEvery));
    List<Process> readers = new ArrayList<>();
    for (int i = 0; i < readerCount; i++) {
      readers.add(child("-Xmx128m", Files.createDirectory(tmp.resolve("reader-tmp" + i)), "reader", model.toString(),
          stop.toString(), Integer.toString(params)));
    }
    List<Stat> stats = new ArrayList<>();
    int done = -1;
    List<String> readerLines = new ArrayList<>();
    try {
      try (BufferedReader out = new BufferedReader(new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = out.readLine()) != null; ) {
          if (line.startsWith("STAT ")) {
            stats.add(Stat.parse(line));
          } else if (line.startsWith("DONE ")) {
            done = Integer.parseInt(line.substring(5));
          }
        }
      }
      assertTrue(writer.waitFor(10, TimeUnit.MINUTES), "the writer did not end");
      Files.createFile(stop);
      for (Process r : readers) {
        String out = new String(r.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(r.waitFor(5, TimeUnit.MINUTES), "a reader did not end");
        assertEquals(0, r.exitValue(), "a reader found a damaged or mixed checkpoint: " + out);
        readerLines.add(out);
      }
    } finally {
      writer.destroyForcibly();
      readers.forEach(Process::destroyForcibly);
    }
    assertEquals(0, writer.exitValue(), "the writer failed");
    assertTrue(done > 0 && stats.size() >= 3, "the writer made no checkpoints: " + stats);
    long reads = 0;
    for (String l : readerLines) {
      String[] f = l.split(" ");
      assertEquals("READS", f[0], l);
      reads += Long.parseLong(f[1]);
      assertTrue(Long.parseLong(f[1]) > 0, "a reader read nothing: " + l);
    }
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      assertEquals(done, SoakMain.step(fs), "the last checkpoint is the model");
      long[] elements = new long[257];
      for (int i = 0; i < elements.length; i++) {
        elements[i] = (long) i * (SoakMain.ELEMENTS - 1) / (elements.length - 1);
      }
      for (int j = 0; j < params; j++) {
        SoakMain.check(fs, done, j, elements, params);
      }
    }
    // flat: everything after the first fifth of the run against the first STAT after it
    Stat warm = stats.stream().filter(s -> s.seconds() >= seconds / 5).findFirst().orElse(stats.get(1));
    Stat max = stats.get(0);
    for (Stat s : stats) {
      max = new Stat(Math.max(max.seconds(), s.seconds()), Math.max(max.commits(), s.commits()),
          Math.max(max.heap(), s.heap()), Math.max(max.fds(), s.fds()), Math.max(max.deleted(), s.deleted()),
          Math.max(max.deletedBytes(), s.deletedBytes()), Math.max(max.journal(), s.journal()),
          Math.max(max.temp(), s.temp()));
    }
    String summary = "soak: " + seconds + " s, " + done + " checkpoints of a " + params * 4 + " MiB model, " + reads
        + " checked reader mounts by " + readerCount + " processes; writer after warm-up " + warm + ", maximum " + max;
    System.out.println(summary);
    Files.writeString(Path.of("target", "soak-report.txt"), summary + "\n" + String.join("\n",
        stats.stream().map(Stat::toString).toList()) + "\n");
    for (Stat s : stats) {
      if (s.seconds() < warm.seconds()) {
        continue;
      }
      assertTrue(s.fds() <= warm.fds() + 4, "descriptors grow: " + warm + " → " + s);
      assertTrue(s.deleted() <= 1 && s.deletedBytes() <= 4L * SoakMain.ELEMENTS * params + (1 << 20),
          "deleted files are held: " + s);
      assertTrue(s.heap() <= warm.heap() + (32L << 20), "the heap grows: " + warm + " → " + s);
      assertEquals(0, s.journal(), "the journal is not empty after a commit: " + s);
      assertTrue(s.temp() <= warm.temp() + (1 << 20), "the temporary directory grows: " + warm + " → " + s);
    }
  }
}
