package org.modelfs.provider;

import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.ModelFileSystems;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.Model;
import org.modelfs.testing.Fixtures;
import org.modelfs.testing.ModelTsv;
import org.modelfs.testing.TreeTsv;

/**
 * A model whose container lives on another provider (jimfs, in memory) mounts and reads exactly
 * as from disk, in every format; {@code map} falls back to a little-endian copy because jimfs
 * channels cannot map.
 */
class JimfsContainerTest {
  @TempDir Path tmp;
  FileSystem jimfs;

  @BeforeEach
  void makeJimfs() {
    jimfs = Jimfs.newFileSystem(Configuration.unix());
  }

  @AfterEach
  void closeJimfs() throws Exception {
    jimfs.close();
  }

  @ParameterizedTest(name = "{0} as {1} on jimfs")
  @MethodSource("org.modelfs.provider.FixtureTreeTest#cases")
  void mountsAndReadsIdentically(String fixture, String target, WriteOptions opts, String outName) throws Exception {
    Path fb = Fixtures.get(fixture);
    String expected = TreeTsv.arraysOnly(ModelTsv.read(Fixtures.expected(fb)));
    Path dir = Files.createDirectories(jimfs.getPath("/models"));
    Path onJimfs;
    if (opts == null) {
      onJimfs = Files.copy(fb, dir.resolve("model.fb"));
    } else {
      Path local = Files.createDirectories(tmp.resolve("local")).resolve(outName);
      try (Model m = Models.open(fb)) {
        ModelFiles.write(m.newest(), local, opts);
      }
      try (Stream<Path> files = Files.list(local.getParent())) {
        for (Path f : files.toList()) {
          Files.copy(f, dir.resolve(f.getFileName().toString()));
        }
      }
      onJimfs = dir.resolve(outName);
    }
    try (FileSystem fs = ModelFileSystems.open(onJimfs)) {
      assertEquals(expected, TreeTsv.of(fs.getPath("/tags/default")));
      try (DirectoryStream<Path> params = Files.newDirectoryStream(fs.getPath("/params"))) {
        for (Path p : params) {
          if (Files.isRegularFile(p)) {
            try (FileChannel ch = FileChannel.open(p)) {
              ByteBuffer map = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
              byte[] mapped = new byte[map.remaining()];
              map.get(mapped);
              assertArrayEquals(Files.readAllBytes(p), mapped, p.toString());
            }
          }
        }
      }
    }
  }

  @Test
  void writesIntoJimfsAndMountsByUri() throws Exception {
    Path target = Files.createDirectories(jimfs.getPath("/w")).resolve("mlp.sdz");
    try (Model m = Models.open(Path.of("src/test/resources/fixtures/dl4j-1.0.0-M2.1/mlp_adam.fb"))) {
      ModelFiles.write(m.newest(), target, WriteOptions.of(ModelFormat.SDZ));
    }
    URI uri = ModelFileSystems.uri(target);
    try (FileSystem fs = FileSystems.newFileSystem(uri, Map.of())) {
      assertSame(fs, FileSystems.getFileSystem(uri));
      Path w = Path.of(URI.create(uri + "params/layer1/W"));
      assertSame(fs, w.getFileSystem());
      assertEquals(TreeTsv.of(fs.getPath("/")), TreeTsv.of(fs.getPath("/tags/default")));
      assertEquals(w, Path.of(w.toUri()));
    }
  }
}
