package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.provider.ProviderTestModels.W;
import static org.modelfs.provider.ProviderTestModels.W_HASH;
import static org.modelfs.provider.ProviderTestModels.hash;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.ProviderNotFoundException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.ModelFileSystems;
import org.modelfs.format.ModelFormatException;
import org.modelfs.provider.ProviderTestModels.Format;

/**
 * The JDK's probing entry point {@code FileSystems.newFileSystem(path)} and the sure one
 * {@code ModelFileSystems.open}: which provider answers for each format (the zip provider is
 * asked first), and what a non-model, a broken model and a missing file give.
 */
class FileSystemsEntryPointsTest {
  @TempDir Path tmp;

  /** How a test opens a path: the JDK's two probing forms, and ours. */
  enum Opener {
    PROBE {
      @Override
      FileSystem open(Path p) throws IOException {
        return FileSystems.newFileSystem(p);
      }
    },
    PROBE_WITH_ENV {
      @Override
      FileSystem open(Path p) throws IOException {
        return FileSystems.newFileSystem(p, Map.of());
      }
    },
    MODEL_FILE_SYSTEMS {
      @Override
      FileSystem open(Path p) throws IOException {
        return ModelFileSystems.open(p);
      }
    };

    abstract FileSystem open(Path p) throws IOException;
  }

  /** A sharded model's files may be named by a shard: the first, or the last. */
  enum Naming { FILE, FIRST_SHARD, LAST_SHARD }

  static Stream<Arguments> samediffCases() {
    List<Object[]> rows = List.of(
        new Object[] {Format.FB, Naming.FILE},
        new Object[] {Format.SDNB, Naming.FILE},
        new Object[] {Format.SHARDED, Naming.FIRST_SHARD},
        new Object[] {Format.SHARDED, Naming.LAST_SHARD});
    return rows.stream().flatMap(r -> Arrays.stream(Opener.values()).map(o -> Arguments.of(r[0], r[1], o)));
  }

  private Path named(Format format, Naming naming) throws IOException {
    Path file = ProviderTestModels.write(tmp, format);
    List<Path> shards = format == Format.SHARDED ? ProviderTestModels.shards(file) : List.of();
    return switch (naming) {
      case FILE -> file;
      case FIRST_SHARD -> shards.get(0);
      case LAST_SHARD -> shards.get(shards.size() - 1);
    };
  }

  @ParameterizedTest(name = "{0} by {1} via {2}")
  @MethodSource("samediffCases")
  void everyFormatButSdzProbesToTheSamediffProvider(Format format, Naming naming, Opener opener) throws IOException {
    Path file = named(format, naming);
    try (FileSystem fs = opener.open(file)) {
      assertEquals("samediff", fs.provider().getScheme());
      assertEquals(W_HASH, hash(Files.readAllBytes(fs.getPath(W))));
    }
  }

  /**
   * A shard set's base name is not a file. The JDK asks the zip provider before ours, and for a
   * missing path zipfs does not pass (it throws {@link NoSuchFileException} itself), so the
   * probing form cannot open a sharded model by its base name; {@code ModelFileSystems.open} and
   * the URI form can.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(booleans = {false, true})
  void aShardedBaseNameIsAnsweredByTheZipProviderWhenProbed(boolean withEnv) throws IOException {
    Path base = ProviderTestModels.write(tmp, Format.SHARDED);
    NoSuchFileException e = assertThrows(NoSuchFileException.class,
        () -> (withEnv ? FileSystems.newFileSystem(base, Map.of()) : FileSystems.newFileSystem(base)).close());
    assertTrue(Arrays.stream(e.getStackTrace()).anyMatch(f -> f.getClassName().startsWith("jdk.nio.zipfs.")),
        "thrown by the zip provider, before ours is asked");
    try (FileSystem fs = ModelFileSystems.open(base)) {
      assertEquals("samediff", fs.provider().getScheme());
      assertEquals(W_HASH, hash(Files.readAllBytes(fs.getPath(W))));
    }
    try (FileSystem fs = FileSystems.newFileSystem(ProviderTestModels.uri(base), Map.of())) {
      assertEquals(W_HASH, hash(Files.readAllBytes(fs.getPath(W))));
    }
  }

  /** An SDZ is a zip: the JDK's zip provider (scheme {@code jar}) answers the probe first. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("sdzs")
  void anSdzProbesToTheZipProviderAndOpensWithModelFileSystems(Format format) throws IOException {
    Path sdz = ProviderTestModels.write(tmp, format);
    try (FileSystem zip = FileSystems.newFileSystem(sdz)) {
      assertEquals("jar", zip.provider().getScheme());
    }
    try (FileSystem zip = FileSystems.newFileSystem(sdz, Map.of())) {
      assertEquals("jar", zip.provider().getScheme());
    }
    try (FileSystem fs = ModelFileSystems.open(sdz)) {
      assertEquals("samediff", fs.provider().getScheme());
      assertEquals(W_HASH, hash(Files.readAllBytes(fs.getPath(W))));
    }
    try (FileSystem fs = FileSystems.newFileSystem(ProviderTestModels.uri(sdz), Map.of())) {
      assertEquals("samediff", fs.provider().getScheme());
      assertEquals(W_HASH, hash(Files.readAllBytes(fs.getPath(W))));
    }
  }

  static Stream<Format> sdzs() {
    return Stream.of(Format.SDZ, Format.SDZ_DEFLATED);
  }

  @Test
  void aNonModelFileIsLeftToOtherProviders() throws IOException {
    Path txt = tmp.resolve("x.txt");
    Files.writeString(txt, "hello, this is not a model\n");
    assertThrows(ProviderNotFoundException.class, () -> FileSystems.newFileSystem(txt));
    assertThrows(ProviderNotFoundException.class, () -> FileSystems.newFileSystem(txt, Map.of()));
    // our provider's answer, which makes the JDK go on to the next provider
    assertThrows(UnsupportedOperationException.class, () -> ModelFileSystems.provider().newFileSystem(txt, Map.of()));
    // asked for by name, ModelFS says why with an IOException (FileSystems.newFileSystem needs the unchecked one)
    assertThrows(ModelFormatException.class, () -> ModelFileSystems.open(txt));
  }

  @Test
  void aDirectoryIsLeftToOtherProviders() {
    assertThrows(ProviderNotFoundException.class, () -> FileSystems.newFileSystem(tmp));
    assertThrows(FileSystemException.class, () -> ModelFileSystems.open(tmp));
  }

  /** Files that say they are models (by extension or by magic) but are broken. */
  static Stream<Arguments> brokenModels() {
    return Stream.of(
        Arguments.of("x.fb", "not a flatbuffer, not a model".getBytes()),
        Arguments.of("empty.fb", new byte[0]),
        Arguments.of("x.sdnb", "SDNB and then garbage".getBytes()),
        Arguments.of("weights.bin", "SDNB magic, then garbage".getBytes()),
        Arguments.of("x.sdz", "PK\3\4 but not really a zip".getBytes()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("brokenModels")
  void aBrokenModelGivesAnIOExceptionNamingTheFile(String name, byte[] content) throws IOException {
    Path file = tmp.resolve(name);
    Files.write(file, content);
    for (Opener opener : Opener.values()) {
      IOException e = assertThrows(IOException.class, () -> opener.open(file).close(), opener.name());
      assertFalse(e instanceof NoSuchFileException, opener + ": " + e);
      assertTrue(String.valueOf(e.getMessage()).contains(name), opener + ": message names the file: " + e.getMessage());
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"missing.fb", "missing.sdnb", "missing.sdz", "missing.txt"})
  void aMissingFileGivesNoSuchFile(String name) {
    Path missing = tmp.resolve(name);
    NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> ModelFileSystems.open(missing));
    assertTrue(e.getMessage().contains(name), e.getMessage());
    // probing: the zip provider is asked first and throws NoSuchFileException itself
    assertThrows(NoSuchFileException.class, () -> FileSystems.newFileSystem(missing));
  }

  /** Only {@code <base>.sdnb} (or a shard's name) names a shard set: another missing name of that stem is missing. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"mlp_sharded.fb", "mlp_sharded.sdz", "mlp_sharded.txt"})
  void aMissingFileBesideShardsOfTheSameStemGivesNoSuchFile(String name) throws IOException {
    ProviderTestModels.write(tmp, Format.SHARDED); // mlp_sharded.shard<k>-of-<N>.sdnb
    Path missing = tmp.resolve(name);
    assertThrows(NoSuchFileException.class, () -> ModelFileSystems.open(missing).close());
  }
}
