package org.modelfs.provider;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import org.modelfs.ModelFileSystems;

/**
 * Child JVM of {@link LongLivedMountTest}, run under a small {@code ulimit -n}: {@code rewrite
 * MODEL N} writes {@code /params/big/w0} N times, {@code create MODEL N} creates N new
 * parameters, each through one mount and then committed; prints {@code OK N} when every write
 * and the commit worked and read back.
 */
public final class LongLivedMain {
  private LongLivedMain() {}

  public static void main(String[] args) throws Exception {
    Path model = Path.of(args[1]);
    int n = Integer.parseInt(args[2]);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      for (int i = 1; i <= n; i++) {
        String path = args[0].equals("rewrite") ? "/params/big/w0" : "/params/new/p" + i;
        try {
          Files.write(fs.getPath(path), LongLivedMountTest.filled(16, i));
        } catch (Exception e) {
          throw new IllegalStateException("write " + i + " failed", e);
        }
      }
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      String last = args[0].equals("rewrite") ? "/params/big/w0" : "/params/new/p" + n;
      float[] e = LongLivedMountTest.ends(fs, last);
      if (e[0] != n || e[1] != n) {
        throw new IllegalStateException("read back " + e[0] + ", " + e[1] + " from " + last);
      }
      if (args[0].equals("create")) {
        for (int i = 1; i <= n; i++) {
          if (LongLivedMountTest.ends(fs, "/params/new/p" + i)[0] != i) {
            throw new IllegalStateException("/params/new/p" + i + " lost");
          }
        }
      }
    }
    System.out.println("OK " + n);
  }
}
