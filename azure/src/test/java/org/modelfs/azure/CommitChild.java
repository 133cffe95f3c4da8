package org.modelfs.azure;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.modelfs.ModelFileSystems;
import org.modelfs.testing.VersionedModel;

/**
 * A child JVM's writer for the crash and race tests: mounts {@code uri} (the account: system
 * property {@code modelfs.azure.connection-string}), sets every parameter byte to
 * {@code version}, prints {@code WRITTEN}, waits until the file {@code go} exists (if given),
 * commits by closing, prints {@code COMMITTED} — or {@code REFUSED <message>}.
 *
 * <p>Arguments: uri version maxShardBytes(0: not sharded) [go-file]
 */
public final class CommitChild {
  private CommitChild() {}

  /** A child writer started by a test: its process and its output, read line by line. */
  static final class Running implements AutoCloseable {
    final Process process;
    private final BufferedReader out;

    Running(Path tmpdir, String connectionString, String uri, int version, long shard, Path go)
        throws IOException {
      List<String> cmd = new ArrayList<>(List.of(
          Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m", "-XX:+UseSerialGC",
          "-Djava.io.tmpdir=" + tmpdir, "-D" + BlobFileSystemProvider.PROPERTY + "=" + connectionString, "-cp",
          System.getProperty("java.class.path"), CommitChild.class.getName(), uri, String.valueOf(version),
          String.valueOf(shard)));
      if (go != null) {
        cmd.add(go.toString());
      }
      process = new ProcessBuilder(cmd).redirectErrorStream(true).start();
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
    String uri = args[0];
    int version = Integer.parseInt(args[1]);
    long shard = Long.parseLong(args[2]);
    Path go = args.length > 3 ? Path.of(args[3]) : null;
    Map<String, String> env = new HashMap<>();
    if (shard > 0) {
      env.put("format", "sdnb-sharded");
      env.put("maxShardBytes", String.valueOf(shard));
    }
    FileSystem fs = ModelFileSystems.open(Path.of(URI.create(uri)), env);
    VersionedModel.write(fs, version);
    System.out.println("WRITTEN");
    System.out.flush();
    while (go != null && !Files.exists(go)) {
      Thread.sleep(1);
    }
    try {
      fs.close();
      System.out.println("COMMITTED");
    } catch (IOException e) {
      System.out.println("REFUSED " + e.getMessage());
    }
    System.out.flush();
    System.exit(0);
  }
}
