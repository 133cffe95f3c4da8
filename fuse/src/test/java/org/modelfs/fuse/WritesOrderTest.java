package org.modelfs.fuse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;

/**
 * The order the kernel delivers a closed file's requests in, without a kernel: release(2) comes
 * after close(2) has returned, so the program's next call by path can reach the mount first. A
 * truncate by path in that gap was applied to the staged copy only and dropped at the release
 * ({@code MountPosixDiffTest}'s "truncate down and up" saw the old bytes, now and then).
 */
class WritesOrderTest {
  @TempDir
  Path tmp;

  @Test
  void aTruncateByPathBeforeTheReleaseReachesTheModel() throws Exception {
    Path model = tmp.resolve("m.fb");
    Files.copy(KernelMount.fixture("mlp_adam.fb"), model);
    Path staging = Files.createDirectories(tmp.resolve("staging"));
    MountLog log = new MountLog(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    String p = "/tags/default/params/t";
    byte[] sevens = new byte[16];
    Arrays.fill(sevens, (byte) 7);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      Writes writes = new Writes(fs, staging, log);
      Writes.Handle h = writes.create(p);
      h.write(ByteBuffer.wrap(sevens), 0);
      writes.flush(p, h); // close(2)
      writes.truncate(p, 4, null); // truncate(2) by path, before the release
      writes.truncate(p, 12, null);
      writes.release(p, h); // the release, last
      byte[] want = new byte[12];
      Arrays.fill(want, 0, 4, (byte) 7);
      assertArrayEquals(want, Files.readAllBytes(fs.getPath(p)));
    }
  }
}
