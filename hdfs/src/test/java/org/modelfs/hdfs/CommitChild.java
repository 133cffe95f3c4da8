package org.modelfs.hdfs;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.modelfs.ModelFileSystems;
import org.modelfs.testing.VersionedModel;

/**
 * A child JVM's writer for the crash test: mounts {@code hdfs://localhost:PORT<path>}, sets every
 * parameter byte to {@code version}, prints {@code WRITTEN}, commits by closing, prints
 * {@code COMMITTED} — or {@code REFUSED <message>}.
 *
 * <p>Arguments: port path version maxShardBytes(0: not sharded)
 */
public final class CommitChild {
  private CommitChild() {}

  /** A child writer started by a test: its process and its output, read line by line. */
  static final class Running implements AutoCloseable {
    final Process process;
    private final BufferedReader out;

    Running(Path tmpdir, int port, String path, int version, long shard) throws IOException {
      process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Xmx512m", "-XX:+UseSerialGC", "-Djava.io.tmpdir=" + tmpdir, "-cp", System.getProperty("java.class.path"),
          CommitChild.class.getName(), String.valueOf(port), path, String.valueOf(version), String.valueOf(shard))
          .redirectErrorStream(true).start();
      out = new BufferedReader(new InputStreamReader(process.getInputStream(),
          StandardCharsets.UTF_8));
    }

    /** Reads lines until one starts with one of {@code prefixes}; returns it. */
    String await(String... prefixes) throws IOException {
      StringBuilder seen = new StringBuilder();
      for (String line; (line = out.readLine()) != null; ) {
        seen.append(line).append('\n');
        for (String prefix : prefixes) {
          if (line.startsWith(prefix)) {
            return line;
          }
        }
      }
      throw new AssertionError("the child ended without " + String.join("/", prefixes) + ":\n" + seen);
    }

    @Override
    public void close() throws InterruptedException {
      process.destroyForcibly();
      process.waitFor(30, TimeUnit.SECONDS);
    }
  }

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[0]);
    long shard = Long.parseLong(args[3]);
    Map<String, String> env = new HashMap<>();
    if (shard > 0) {
      env.put("format", "sdnb-sharded");
      env.put("maxShardBytes", String.valueOf(shard));
    }
    FileSystem fs = ModelFileSystems.open(Path.of(URI.create("hdfs://localhost:" + port
        + args[1])), env);
    VersionedModel.write(fs, Integer.parseInt(args[2]));
    System.out.println("WRITTEN");
    System.out.flush();
    try {
      fs.close();
      System.out.println("COMMITTED");
    } catch (IOException e) {
      System.out.println("REFUSED " + e.getMessage());
    }
    System.out.flush();
  }
}
