package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.modelfs.ModelFileSystems;

class SmokeTest {
  static final Path FIXTURES = Path.of(System.getProperty("modelfs.fixtures"));

  @Test
  void mountReadCommit() throws Exception {
    try (S3TestServer s3 = S3TestServer.start()) {
      Path local = FIXTURES.resolve("mlp_adam.fb");
      s3.upload(local, "dir/m.fb");
      Path remote = s3.path("dir/m.fb");
      byte[] w;
      try (FileSystem fs = ModelFileSystems.open(local, Map.of("readOnly", "true"))) {
        w = Files.readAllBytes(fs.getPath("/params/layer0/W"));
      }
      s3.resetCounts();
      try (FileSystem fs = ModelFileSystems.open(remote)) {
        System.out.println("open: " + s3.requests() + " requests, " + s3.bytesServed() + " bytes");
        assertArrayEquals(w, Files.readAllBytes(fs.getPath("/params/layer0/W")));
        Files.write(fs.getPath("/params/layer0/W"), new byte[w.length]);
      }
      try (FileSystem fs = ModelFileSystems.open(remote, Map.of("readOnly", "true"))) {
        assertArrayEquals(new byte[w.length], Files.readAllBytes(fs.getPath("/params/layer0/W")));
        System.out.println(fs.getPath("/").toUri());
      }
      System.out.println(s3.keys());
    }
  }
}
