package org.modelfs.provider;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.SyntheticModels;

/**
 * Bytes written in a session can change their dtype's width in both byte orders (found by the
 * issue-18 review: a byteOrder=stored mount refused it with advice it could not follow).
 */
class DtypeAfterWriteTest {
  @TempDir Path tmp;

  @Test
  void writeTheNewBytesFirstThenChangeTheDtype() throws Exception {
    Path fb = tmp.resolve("m.fb");
    var synthetic = SyntheticModels.floats(tmp.resolve("d"), 2, 1000);
    try (var data = synthetic.data()) {
      ModelFiles.write(synthetic.tag(), fb, WriteOptions.of(ModelFormat.FB));
    }
    for (String order : new String[] {"little", "stored"}) {
      try (FileSystem fs = ModelFileSystems.open(fb, Map.of("byteOrder", order, "commitOnClose", "false"))) {
        Path w0 = fs.getPath("/params/big/w0");
        Files.write(w0, new byte[8000]); // the new bytes first, as the refusal says
        Files.setAttribute(w0, "samediff:dtype", "double"); // refused in a stored mount before the fix
        Assertions.assertEquals("DOUBLE", Files.getAttribute(w0, "samediff:dtype"), order);
      }
    }
  }
}
