package org.modelfs.store;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;

/**
 * A model on storage whose channels have no file locks (the JDK's zip file system here; the S3
 * NIO provider without the s3 module behaves the same): reading works; a write is refused with a
 * message saying why and what to use, and the lock file the attempt made is removed again — it
 * used to stay (an empty {@code .NAME.modelfs-lock} object left in the bucket on every attempt).
 */
class NoFileLocksTest {
  @TempDir
  Path tmp;

  @Test
  void aWriteIsRefusedSayingWhyAndLeavesNoLockFile() throws Exception {
    Path zip = tmp.resolve("models.zip");
    try (FileSystem z = FileSystems.newFileSystem(URI.create("jar:" + zip.toUri()), Map.of("create", "true"))) {
      Files.copy(Path.of("src/test/resources/fixtures/dl4j-1.0.0-M2.1/mlp_adam.fb"), z.getPath("/m.fb"));
    }
    try (FileSystem z = FileSystems.newFileSystem(zip)) {
      Path model = z.getPath("/m.fb");
      byte[] w;
      try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
        w = Files.readAllBytes(fs.getPath("/params/layer0/W"));
      }
      FileSystem fs = ModelFileSystems.open(model);
      IOException e = assertThrows(IOException.class, () -> Files.write(fs.getPath("/params/layer0/W"),
          new byte[w.length]));
      fs.close();
      assertTrue(e.getMessage().contains("cannot write the model there"), e.getMessage());
      assertTrue(e.getMessage().contains("modelfs-s3"), e.getMessage());
      try (Stream<Path> s = Files.list(z.getPath("/"))) {
        assertEquals(List.of("m.fb"), s.map(p -> p.getFileName().toString()).toList(),
            "nothing but the model in the zip");
      }
    }
  }
}
