package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;
import org.modelfs.model.Variable;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.FloatPattern;
import org.modelfs.testing.SyntheticModels;

/**
 * A mount reads the object it opened and no other: when the object is replaced behind its back
 * (another model uploaded to the same key), a read of bytes the mount has not cached fails with
 * an error saying the model changed since it was mounted — never the other model's bytes — and
 * a fresh mount sees the new model.
 */
class PinnedGenerationTest {
  static final int ELEMENTS = 256 * 1024; // 1 MiB parameters: read with GETs of their own, never cached

  @TempDir Path tmp;

  @Test
  void aReplacedObjectIsNeverRead() throws Exception {
    Path first = model("first.sdnb", 4, 0);
    Path second = model("second.sdnb", 4, 100);
    try (S3TestServer s3 = S3TestServer.start()) {
      s3.upload(first, "pin/m.sdnb");
      Path remote = s3.path("pin/m.sdnb");
      try (FileSystem fs = ModelFileSystems.open(remote, Map.of("readOnly", "true"))) {
        assertArrayEquals(FloatPattern.bytes(0, 0, 4 * ELEMENTS), Files.readAllBytes(fs.getPath("/params/big/w0")));
        s3.upload(second, "pin/m.sdnb");
        IOException e = assertThrows(IOException.class, () -> Files.readAllBytes(fs.getPath("/params/big/w1")));
        String message = String.valueOf(e.getMessage());
        assertTrue(message.contains("s3x://" + s3.endpoint() + "/" + S3TestServer.BUCKET + "/pin/m.sdnb"), "names the object as the user wrote it: " + message);
        assertTrue(message.contains("the model changed since it was mounted") && message.contains("mount the model again"),
            "says the model changed since it was mounted: " + message);
      }
      try (FileSystem fs = ModelFileSystems.open(remote, Map.of("readOnly", "true"))) {
        assertArrayEquals(FloatPattern.bytes(101, 0, 4 * ELEMENTS), Files.readAllBytes(fs.getPath("/params/big/w1")));
      }
    }
  }

  @Test
  void aRemovedObjectIsReportedSo() throws Exception {
    Path first = model("first.sdnb", 2, 0);
    try (S3TestServer s3 = S3TestServer.start()) {
      s3.upload(first, "gone/m.sdnb");
      try (FileSystem fs = ModelFileSystems.open(s3.path("gone/m.sdnb"), Map.of("readOnly", "true"))) {
        s3.remove("gone/m.sdnb");
        IOException e = assertThrows(IOException.class, () -> Files.readAllBytes(fs.getPath("/params/big/w1")));
        assertTrue(String.valueOf(e.getMessage()).contains("the model changed since it was mounted: the object was"
            + " removed"), e.getMessage());
      }
    }
  }

  /** An SDNB of {@code count} 1 MiB parameters whose values are those of arrays {@code base + i}. */
  private Path model(String name, int count, int base) throws IOException {
    Path out = tmp.resolve(name);
    var synthetic = SyntheticModels.floats(tmp.resolve(name + ".data"), base + count, ELEMENTS);
    try (var data = synthetic.data()) {
      var t = synthetic.tag();
      var vars = new ArrayList<Variable>();
      for (int i = 0; i < count; i++) {
        var v = t.variables().get(base + i);
        vars.add(new Variable("big/w" + i, v.kind(), v.dtype(), v.shape(), v.array(), v.graphVariable()));
      }
      ModelFiles.write(new Tag("default", null, vars, List.of(), null, Map.of()), out,
          WriteOptions.of(ModelFormat.SDNB));
    }
    return out;
  }
}
