package org.modelfs.s3;

import java.nio.file.FileSystem;
import java.util.HashMap;
import java.util.Map;
import org.modelfs.ModelFileSystems;

/**
 * A child JVM's writer for the crash and race tests: mounts {@code key} on the test's server at
 * {@code port}, sets every parameter byte to {@code version}, prints {@code WRITTEN}, waits until
 * the file {@code go} exists (if given), commits by closing, prints {@code COMMITTED} — or
 * {@code REFUSED <message>} if the commit was refused.
 *
 * <p>Arguments: port key version maxShardBytes(0: not sharded) [go-file]
 */
public final class CommitChild {
  private CommitChild() {}

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[0]);
    String key = args[1];
    int version = Integer.parseInt(args[2]);
    long shard = Long.parseLong(args[3]);
    java.nio.file.Path go = args.length > 4 ? java.nio.file.Path.of(args[4]) : null;
    Map<String, String> env = new HashMap<>();
    if (shard > 0) {
      env.put("format", "sdnb-sharded");
      env.put("maxShardBytes", String.valueOf(shard));
    }
    FileSystem fs = ModelFileSystems.open(S3TestServer.path(port, key), env);
    VersionedModel.write(fs, version);
    System.out.println("WRITTEN");
    System.out.flush();
    while (go != null && !java.nio.file.Files.exists(go)) {
      Thread.sleep(1);
    }
    try {
      fs.close();
      System.out.println("COMMITTED");
    } catch (java.io.IOException e) {
      System.out.println("REFUSED " + e.getMessage());
    }
    System.out.flush();
  }
}
