package org.modelfs.s3;

import static org.junit.jupiter.api.Assertions.*;

import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.modelfs.ModelFileSystems;

/**
 * The {@code samediff:s3x://…!/…} URI form (docs/FILESYSTEM.md §6) on a model in the store, as
 * the JDK documents {@code FileSystems.newFileSystem(URI, env)} and {@code Path.of(URI)}: mount
 * and register, find the mount and a file in it by URI, refuse a second mount, unregister at
 * close.
 */
class UriFormTest {
  private static S3TestServer s3;

  @BeforeAll
  static void start() throws Exception {
    s3 = S3TestServer.start();
    s3.upload(Path.of(System.getProperty("modelfs.fixtures")).resolve("mlp_adam.fb"), "uri/m.fb");
  }

  @AfterAll
  static void stop() throws Exception {
    s3.close();
  }

  @Test
  void mountFindAndUnregisterByUri() throws Exception {
    URI root = URI.create("samediff:" + s3.uri("uri/m.fb") + "!/");
    byte[] w;
    try (FileSystem local = ModelFileSystems.open(Path.of(System.getProperty("modelfs.fixtures"))
        .resolve("mlp_adam.fb"), Map.of("readOnly", "true"))) {
      w = Files.readAllBytes(local.getPath("/params/layer0/W"));
    }
    try (FileSystem fs = FileSystems.newFileSystem(root, Map.of("readOnly", "true"))) {
      assertSame(fs, FileSystems.getFileSystem(root));
      Path p = Path.of(URI.create("samediff:" + s3.uri("uri/m.fb") + "!/params/layer0/W"));
      assertSame(fs, p.getFileSystem());
      assertArrayEquals(w, Files.readAllBytes(p));
      assertThrows(FileSystemAlreadyExistsException.class, () -> FileSystems.newFileSystem(root, Map.of()));
    }
    try (FileSystem again = FileSystems.newFileSystem(root, Map.of("readOnly", "true"))) {
      assertArrayEquals(w, Files.readAllBytes(again.getPath("/params/layer0/W")));
    }
  }
}
