package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.provider.ProviderTestModels.W;
import static org.modelfs.provider.ProviderTestModels.W_HASH;
import static org.modelfs.provider.ProviderTestModels.hash;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ModelFormat;

/**
 * The {@code env} keys of docs/FILESYSTEM.md §6.1 at every entry point: valid values are accepted as
 * strings and as typed values, unknown keys and bad values are refused with an
 * {@link IllegalArgumentException} that names the key.
 */
class OpenOptionsTest {
  @TempDir Path tmp;

  /** The entry points that take an env map. */
  enum EntryPoint {
    URI {
      @Override
      FileSystem open(Path p, Map<String, ?> env) throws IOException {
        return FileSystems.newFileSystem(ProviderTestModels.uri(p), env);
      }
    },
    PATH {
      @Override
      FileSystem open(Path p, Map<String, ?> env) throws IOException {
        return FileSystems.newFileSystem(p, env);
      }
    },
    MODEL_FILE_SYSTEMS {
      @Override
      FileSystem open(Path p, Map<String, ?> env) throws IOException {
        return ModelFileSystems.open(p, env);
      }
    };

    abstract FileSystem open(Path p, Map<String, ?> env) throws IOException;
  }

  static Stream<Arguments> valid() {
    List<Map<String, ?>> envs = List.of(
        Map.of(),
        Map.of("readOnly", "true"),
        Map.of("readOnly", "false"),
        Map.of("readOnly", "TRUE"),
        Map.of("readOnly", Boolean.TRUE),
        Map.of("readOnly", false),
        Map.of("create", "false"),
        Map.of("create", false),
        Map.of("format", "fb"),
        Map.of("format", "sdnb"),
        Map.of("format", "SDZ"),
        Map.of("format", "sdnb-sharded"),
        Map.of("format", "sharded"),
        Map.of("format", ModelFormat.SDNB),
        Map.of("compression", "stored"),
        Map.of("compression", "deflate"),
        Map.of("compression", "DEFLATE"),
        Map.of("maxShardBytes", "1000"),
        Map.of("maxShardBytes", " 4096 "),
        Map.of("maxShardBytes", 1000),
        Map.of("maxShardBytes", 1_000_000_000_000L),
        Map.of("commitOnClose", "false"),
        Map.of("commitOnClose", true),
        Map.of("readOnly", "true", "create", "false", "format", "fb", "compression", "stored",
            "maxShardBytes", 1L << 30, "commitOnClose", Boolean.FALSE));
    return cross(envs);
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("valid")
  void validOptionsAreAccepted(EntryPoint entry, Map<String, ?> env) throws IOException {
    Path model = ProviderTestModels.copy(tmp, "mlp_adam.fb");
    try (FileSystem fs = entry.open(model, env)) {
      assertEquals("samediff", fs.provider().getScheme());
      assertEquals(W_HASH, hash(Files.readAllBytes(fs.getPath(W))));
    }
  }

  /** Each bad env, with the key its message must name. */
  static Stream<Arguments> invalid() {
    List<Object[]> rows = List.of(
        new Object[] {Map.of("bogus", "1"), "bogus"},
        new Object[] {Map.of("readonly", "true"), "readonly"}, // keys are case-sensitive
        new Object[] {Map.of("compressionMethod", "STORED"), "compressionMethod"}, // a zipfs key
        new Object[] {Map.of("readOnly", "true", "extra", "x"), "extra"},
        new Object[] {Map.of("readOnly", "yes"), "readOnly"},
        new Object[] {Map.of("readOnly", "1"), "readOnly"},
        new Object[] {Map.of("readOnly", 1), "readOnly"},
        new Object[] {Map.of("readOnly", ""), "readOnly"},
        new Object[] {Map.of("create", "no"), "create"},
        new Object[] {Map.of("commitOnClose", "maybe"), "commitOnClose"},
        new Object[] {Map.of("format", "xyz"), "format"},
        new Object[] {Map.of("format", ""), "format"},
        new Object[] {Map.of("compression", "zip"), "compression"},
        new Object[] {Map.of("compression", "deflated"), "compression"},
        new Object[] {Map.of("compression", true), "compression"},
        new Object[] {Map.of("maxShardBytes", "-1"), "maxShardBytes"},
        new Object[] {Map.of("maxShardBytes", "0"), "maxShardBytes"},
        new Object[] {Map.of("maxShardBytes", "abc"), "maxShardBytes"},
        new Object[] {Map.of("maxShardBytes", "1.5"), "maxShardBytes"},
        new Object[] {Map.of("maxShardBytes", -1), "maxShardBytes"},
        new Object[] {Map.of("maxShardBytes", 0L), "maxShardBytes"},
        new Object[] {Map.of("create", "true", "readOnly", "true"), "readOnly"},
        new Object[] {Map.of("create", true, "readOnly", true), "readOnly"},
        new Object[] {Map.of("create", "TRUE", "readOnly", Boolean.TRUE), "create"});
    List<Arguments> out = new ArrayList<>();
    for (EntryPoint e : EntryPoint.values()) {
      for (Object[] r : rows) {
        out.add(Arguments.of(e, r[0], r[1]));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("invalid")
  void badOptionsAreRefusedNamingTheKey(EntryPoint entry, Map<String, ?> env, String key) throws IOException {
    Path model = ProviderTestModels.copy(tmp, "mlp_adam.fb");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> entry.open(model, env).close());
    assertTrue(e.getMessage().contains(key), "message names '" + key + "': " + e.getMessage());
    assertThrows(FileSystemNotFoundException.class, () -> FileSystems.getFileSystem(ProviderTestModels.uri(model)),
        "nothing was registered");
  }

  private static Stream<Arguments> cross(List<Map<String, ?>> envs) {
    List<Arguments> out = new ArrayList<>();
    for (EntryPoint e : EntryPoint.values()) {
      for (Map<String, ?> env : envs) {
        out.add(Arguments.of(e, env));
      }
    }
    return out.stream();
  }
}
