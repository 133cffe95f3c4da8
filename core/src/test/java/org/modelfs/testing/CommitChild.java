package org.modelfs.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.modelfs.ModelFileSystems;

/**
 * A child JVM's writer for the store modules' crash and race tests (s3, azure, hdfs): mounts the
 * model {@code uri}, sets every parameter byte to {@code version} ({@link VersionedModel}) — or,
 * with {@code -Dcommit.child.param=k}, only parameter {@code big/w<k>} — prints {@code WRITTEN},
 * waits until the file {@code go} exists (if given), commits by closing, prints
 * {@code COMMITTED} — or {@code REFUSED <message>} if the commit was refused — and exits.
 *
 * <p>Arguments: uri version maxShardBytes(0: not sharded) [go-file]
 */
public final class CommitChild {
  private CommitChild() {}

  /** A child writer started by a test: its process and its output, read line by line. */
  public static final class Running implements AutoCloseable {
    public final Process process;
    private final BufferedReader out;

    /**
     * Starts a child writer of {@code uri} (arguments as {@link CommitChild#main}; {@code go} may
     * be {@code null}), its temporary directory {@code tmpdir}, with the store's {@code jvmOptions}
     * (credentials, a region, {@code -Dcommit.child.param=k}).
     */
    public Running(Path tmpdir, List<String> jvmOptions, String uri, int version, long shard, Path go)
        throws IOException {
      List<String> cmd = new ArrayList<>(List.of(
          Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m", "-XX:+UseSerialGC",
          "-Djava.io.tmpdir=" + tmpdir));
      cmd.addAll(jvmOptions);
      cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), CommitChild.class.getName(), uri,
          String.valueOf(version), String.valueOf(shard)));
      if (go != null) {
        cmd.add(go.toString());
      }
      process = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Reads lines until one starts with one of {@code prefixes}; returns it (the output so far in the failure). */
    public String await(String... prefixes) throws IOException {
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
    URI uri = URI.create(args[0]);
    int version = Integer.parseInt(args[1]);
    long shard = Long.parseLong(args[2]);
    Path go = args.length > 3 ? Path.of(args[3]) : null;
    Map<String, String> env = new HashMap<>();
    if (shard > 0) {
      env.put("format", "sdnb-sharded");
      env.put("maxShardBytes", String.valueOf(shard));
    }
    FileSystem fs = ModelFileSystems.open(Path.of(uri), env);
    int param = Integer.getInteger("commit.child.param", -1);
    if (param < 0) {
      VersionedModel.write(fs, version);
    } else {
      Path p = fs.getPath("/params/big/w" + param);
      byte[] b = new byte[(int) Files.size(p)];
      Arrays.fill(b, (byte) version);
      Files.write(p, b);
    }
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
    System.exit(0); // a store's client may keep non-daemon threads
  }
}
