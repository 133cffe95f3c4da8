package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.provider.ProviderTestModels.W;
import static org.modelfs.provider.ProviderTestModels.W_HASH;
import static org.modelfs.provider.ProviderTestModels.hash;
import static org.modelfs.provider.ProviderTestModels.uri;

import java.io.IOException;
import java.net.URI;
import java.nio.file.ClosedFileSystemException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.ModelFileSystems;
import org.modelfs.provider.ProviderTestModels.Format;

/**
 * The {@code samediff:} registry behaves like {@code jar:}: {@code newFileSystem(URI)} registers
 * one file system per real container file, {@code getFileSystem}/{@code Path.of(URI)} find only
 * registered open ones, closing unregisters, and the path-based entry points never register.
 */
class RegistryTest {
  @TempDir Path tmp;

  private Path model() throws IOException {
    return ProviderTestModels.copy(tmp, "mlp_adam.fb");
  }

  @Test
  void newFileSystemThenGetFileSystemReturnsTheSameInstance() throws IOException {
    Path model = model();
    URI uri = uri(model);
    try (FileSystem fs = FileSystems.newFileSystem(uri, Map.of())) {
      assertEquals("samediff", fs.provider().getScheme());
      assertTrue(fs.isOpen());
      assertSame(fs, FileSystems.getFileSystem(uri));
      // the documented root form, and a URI naming a file inside, find the same file system
      assertSame(fs, FileSystems.getFileSystem(ModelFileSystems.uri(model)));
      assertSame(fs, FileSystems.getFileSystem(uri(model, W)));
      assertSame(fs, FileSystems.getFileSystem(uri(model, "/no/such/file")));
    }
  }

  @Test
  void secondNewFileSystemOfTheSameFileThrowsAlreadyExists() throws IOException {
    Path model = model();
    try (FileSystem fs = FileSystems.newFileSystem(uri(model), Map.of())) {
      assertThrows(FileSystemAlreadyExistsException.class, () -> FileSystems.newFileSystem(uri(model), Map.of()));
      assertThrows(FileSystemAlreadyExistsException.class,
          () -> FileSystems.newFileSystem(ModelFileSystems.uri(model), Map.of()));
      assertThrows(FileSystemAlreadyExistsException.class,
          () -> FileSystems.newFileSystem(uri(model, W), Map.of("readOnly", "true")));
      assertTrue(fs.isOpen(), "the refused mount leaves the first one alone");
      assertSame(fs, FileSystems.getFileSystem(uri(model)));
    }
  }

  @Test
  void getFileSystemOfAnUnmountedFileThrowsNotFound() throws IOException {
    Path model = model();
    assertThrows(FileSystemNotFoundException.class, () -> FileSystems.getFileSystem(uri(model)));
    assertThrows(FileSystemNotFoundException.class,
        () -> FileSystems.getFileSystem(uri(tmp.resolve("missing.fb"))));
  }

  @Test
  void pathOfUriFindsTheFileWhenMounted() throws IOException {
    Path model = model();
    try (FileSystem fs = FileSystems.newFileSystem(uri(model), Map.of())) {
      Path p = Path.of(uri(model, W));
      assertSame(fs, p.getFileSystem());
      assertEquals(fs.getPath(W), p);
      assertEquals(W_HASH, hash(Files.readAllBytes(p)));
      // the inner path is percent-decoded: "&MyParam*" is written %26MyParam%2A
      Path odd = Path.of(uri(model, "/tags/default/params/%26MyParam%2A"));
      assertEquals(fs.getPath("/tags/default/params/&MyParam*"), odd);
      assertEquals(12, Files.size(odd));
      // and a path's own URI leads back to it
      assertEquals(odd, Path.of(odd.toUri()));
      assertEquals(p, Path.of(p.toUri()));
      assertEquals(fs.getPath("/"), Path.of(uri(model)));
    }
  }

  @Test
  void pathOfUriThrowsNotFoundWhenNotMounted() throws IOException {
    Path model = model();
    assertThrows(FileSystemNotFoundException.class, () -> Path.of(uri(model, W)));
    // an unregistered mount of the same file does not make the URI resolvable
    try (FileSystem unregistered = ModelFileSystems.open(model)) {
      assertThrows(FileSystemNotFoundException.class, () -> Path.of(uri(model, W)));
      assertTrue(unregistered.isOpen());
    }
  }

  @Test
  void closeUnregistersAndTheUriCanBeMountedAgain() throws IOException {
    Path model = model();
    URI uri = uri(model);
    FileSystem first = FileSystems.newFileSystem(uri, Map.of());
    first.close();
    assertFalse(first.isOpen());
    assertThrows(FileSystemNotFoundException.class, () -> FileSystems.getFileSystem(uri));
    assertThrows(FileSystemNotFoundException.class, () -> Path.of(uri(model, W)));
    try (FileSystem second = FileSystems.newFileSystem(uri, Map.of())) {
      assertNotSame(first, second);
      assertTrue(second.isOpen());
      assertSame(second, FileSystems.getFileSystem(uri));
      assertEquals(W_HASH, hash(Files.readAllBytes(Path.of(uri(model, W)))));
      first.close(); // closing the old one again must not unregister the new one
      assertSame(second, FileSystems.getFileSystem(uri));
    }
    assertThrows(FileSystemNotFoundException.class, () -> FileSystems.getFileSystem(uri));
  }

  /**
   * Other spellings of the same file: {@code ..}/{@code .} segments, a relative path's URI
   * (absolute but not normalized), a symlink to the file, the file through a symlinked directory.
   */
  static Stream<Arguments> spellings() {
    List<Arguments> out = new ArrayList<>();
    out.add(Arguments.of("dot-dot segment", (BiFunction<Path, Path, URI>) (dir, model) ->
        URI.create("samediff:" + dir.toUri() + "sub/../" + model.getFileName())));
    out.add(Arguments.of("dot segment", (BiFunction<Path, Path, URI>) (dir, model) ->
        URI.create("samediff:" + dir.toUri() + "./" + model.getFileName())));
    out.add(Arguments.of("relative path", (BiFunction<Path, Path, URI>) (dir, model) ->
        uri(Path.of("").toAbsolutePath().relativize(model.toAbsolutePath()))));
    out.add(Arguments.of("symlink to the file", (BiFunction<Path, Path, URI>) (dir, model) -> uri(dir.resolve("link.fb"))));
    out.add(Arguments.of("symlinked directory", (BiFunction<Path, Path, URI>) (dir, model) ->
        uri(dir.resolve("linkdir").resolve(model.getFileName()))));
    return out.stream();
  }

  private Path spellingsSetup() throws IOException {
    Path model = model();
    Files.createDirectory(tmp.resolve("sub"));
    Files.createSymbolicLink(tmp.resolve("link.fb"), model);
    Files.createSymbolicLink(tmp.resolve("linkdir"), tmp);
    return model;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("spellings")
  void otherSpellingsOfTheFileShareOneRegistryEntry(String label, BiFunction<Path, Path, URI> spelling)
      throws IOException {
    Path model = spellingsSetup();
    URI other = spelling.apply(tmp, model);
    assertFalse(other.equals(uri(model)), "a different spelling: " + other);
    try (FileSystem fs = FileSystems.newFileSystem(uri(model), Map.of())) {
      assertSame(fs, FileSystems.getFileSystem(other));
      assertThrows(FileSystemAlreadyExistsException.class, () -> FileSystems.newFileSystem(other, Map.of()));
      assertSame(fs, Path.of(URI.create(other + "!" + W)).getFileSystem());
    }
    // and the other way round
    try (FileSystem fs = FileSystems.newFileSystem(other, Map.of())) {
      assertSame(fs, FileSystems.getFileSystem(uri(model)));
      assertThrows(FileSystemAlreadyExistsException.class, () -> FileSystems.newFileSystem(uri(model), Map.of()));
    }
    assertThrows(FileSystemNotFoundException.class, () -> FileSystems.getFileSystem(other));
  }

  @Test
  void pathEntryPointsDoNotRegisterAndAreIndependent() throws IOException {
    Path model = model();
    FileSystem a = ModelFileSystems.open(model);
    FileSystem b = ModelFileSystems.open(model, Map.of());
    FileSystem c = FileSystems.newFileSystem(model, Map.of());
    FileSystem d = FileSystems.newFileSystem(model);
    try {
      for (FileSystem fs : List.of(a, b, c, d)) {
        assertEquals("samediff", fs.provider().getScheme());
      }
      assertNotSame(a, b);
      assertNotSame(b, c);
      assertNotSame(c, d);
      assertThrows(FileSystemNotFoundException.class, () -> FileSystems.getFileSystem(uri(model)));
      // the URI form is still free, and gives yet another file system
      try (FileSystem registered = FileSystems.newFileSystem(uri(model), Map.of())) {
        assertNotSame(a, registered);
        a.close();
        assertFalse(a.isOpen());
        assertSame(registered, FileSystems.getFileSystem(uri(model)), "closing an unregistered mount unregisters nothing");
        for (FileSystem fs : List.of(b, c, d, registered)) {
          assertTrue(fs.isOpen());
          assertEquals(W_HASH, hash(Files.readAllBytes(fs.getPath(W))));
        }
        assertThrows(ClosedFileSystemException.class, () -> Files.readAllBytes(a.getPath(W)));
      }
      assertTrue(b.isOpen() && c.isOpen() && d.isOpen(), "closing the registered one leaves the others open");
    } finally {
      for (FileSystem fs : List.of(a, b, c, d)) {
        fs.close();
      }
    }
  }

  /** URIs the provider refuses outright, at every URI entry point. */
  static Stream<Arguments> badUris() {
    return Stream.of(
        Arguments.of("fragment", (BiFunction<Path, Path, URI>) (dir, m) -> URI.create(uri(m) + "#frag")),
        Arguments.of("fragment after the inner path", (BiFunction<Path, Path, URI>) (dir, m) -> URI.create(uri(m, W) + "#x")),
        Arguments.of("scheme-less absolute container",
            (BiFunction<Path, Path, URI>) (dir, m) -> URI.create("samediff:" + m.toAbsolutePath().toUri().getRawPath())),
        Arguments.of("scheme-less relative container",
            (BiFunction<Path, Path, URI>) (dir, m) -> URI.create("samediff:mlp_adam.fb!/params")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badUris")
  void badUrisAreIllegalArguments(String label, BiFunction<Path, Path, URI> make) throws IOException {
    Path model = model();
    URI bad = make.apply(tmp, model);
    List<Executable> calls = List.of(
        () -> FileSystems.newFileSystem(bad, Map.of()).close(),
        () -> FileSystems.getFileSystem(bad),
        () -> Path.of(bad));
    for (Executable call : calls) {
      assertThrows(IllegalArgumentException.class, call, bad.toString());
    }
    // a valid mount makes no difference: the URI is refused before the registry is asked
    try (FileSystem fs = FileSystems.newFileSystem(uri(model), Map.of())) {
      for (Executable call : calls) {
        assertThrows(IllegalArgumentException.class, call, bad.toString());
      }
      assertTrue(fs.isOpen());
    }
  }

  @Test
  void aFailedMountRegistersNothing() throws IOException {
    Path bad = tmp.resolve("model.fb");
    Files.writeString(bad, "not a flatbuffer, not a model");
    assertThrows(IOException.class, () -> FileSystems.newFileSystem(uri(bad), Map.of()));
    assertThrows(FileSystemNotFoundException.class, () -> FileSystems.getFileSystem(uri(bad)));
    // a bad option is refused before anything is mounted
    Path good = model();
    assertThrows(IllegalArgumentException.class, () -> FileSystems.newFileSystem(uri(good), Map.of("bogus", "1")));
    assertThrows(FileSystemNotFoundException.class, () -> FileSystems.getFileSystem(uri(good)));
    // the same name, now holding a model, mounts
    Files.copy(ProviderTestModels.EXAMPLE, bad, StandardCopyOption.REPLACE_EXISTING);
    try (FileSystem fs = FileSystems.newFileSystem(uri(bad), Map.of())) {
      assertSame(fs, FileSystems.getFileSystem(uri(bad)));
    }
  }

  @Test
  void newFileSystemOfAMissingFileThrowsNoSuchFile() {
    Path missing = tmp.resolve("missing.fb");
    assertThrows(NoSuchFileException.class, () -> FileSystems.newFileSystem(uri(missing), Map.of()));
    assertThrows(FileSystemNotFoundException.class, () -> FileSystems.getFileSystem(uri(missing)));
  }

  @Test
  void aShardedModelRegistersUnderItsBaseName() throws IOException {
    Path base = ProviderTestModels.write(tmp, Format.SHARDED);
    assertFalse(Files.exists(base), "only the shards exist");
    try (FileSystem fs = FileSystems.newFileSystem(uri(base), Map.of())) {
      assertSame(fs, FileSystems.getFileSystem(uri(base)));
      assertSame(fs, FileSystems.getFileSystem(URI.create("samediff:" + tmp.toUri() + "./" + base.getFileName())));
      assertThrows(FileSystemAlreadyExistsException.class, () -> FileSystems.newFileSystem(uri(base), Map.of()));
      assertEquals(W_HASH, hash(Files.readAllBytes(Path.of(uri(base, W)))));
    }
    assertThrows(FileSystemNotFoundException.class, () -> FileSystems.getFileSystem(uri(base)));
  }

  /** A shard set's base name is keyed by its directory's real path, so a symlinked directory finds the entry. */
  @Test
  void aShardedBaseNameThroughASymlinkedDirectorySharesTheEntry() throws IOException {
    Path base = ProviderTestModels.write(tmp, Format.SHARDED);
    Files.createSymbolicLink(tmp.resolve("linkdir"), tmp);
    URI viaLink = uri(tmp.resolve("linkdir").resolve(base.getFileName()));
    try (FileSystem fs = FileSystems.newFileSystem(uri(base), Map.of())) {
      assertSame(fs, FileSystems.getFileSystem(viaLink));
      assertThrows(FileSystemAlreadyExistsException.class, () -> FileSystems.newFileSystem(viaLink, Map.of()));
    }
  }

  @Test
  void registeredAndUnregisteredMountsReadTheSameBytes() throws IOException {
    Path model = model();
    try (FileSystem registered = FileSystems.newFileSystem(uri(model), Map.of());
        FileSystem plain = ModelFileSystems.open(model)) {
      assertArrayEquals(Files.readAllBytes(plain.getPath(W)), Files.readAllBytes(registered.getPath(W)));
      assertFalse(Files.isSameFile(plain.getPath(W), registered.getPath(W)),
          "paths of two mounts are not the same file (as with jdk.zipfs)");
    }
  }

  /**
   * Container names that need escaping in a URI ({@code #}, space, non-ASCII, {@code %}) and a
   * directory ending in {@code !}: the {@code samediff:<uri>!/} form of {@code ModelFileSystems.uri}
   * mounts them, and every path's {@code toUri()} leads back to it.
   */
  @ParameterizedTest(name = "{0}/{1}")
  @MethodSource("oddNames")
  void oddContainerNamesRoundTrip(String dir, String file) throws IOException {
    Files.createDirectories(tmp.resolve(dir));
    Path model = ProviderTestModels.copy(tmp.resolve(dir), file);
    URI root = ModelFileSystems.uri(model);
    try (FileSystem fs = FileSystems.newFileSystem(root, Map.of())) {
      assertSame(fs, FileSystems.getFileSystem(root));
      for (String inner : List.of("/", W, "/tags/default/params/&MyParam*", "/params/layer0")) {
        Path p = fs.getPath(inner);
        URI u = p.toUri();
        assertEquals("samediff", u.getScheme());
        assertEquals(p, Path.of(u), u.toString());
        assertSame(fs, Path.of(u).getFileSystem());
      }
      assertEquals(W_HASH, hash(Files.readAllBytes(Path.of(fs.getPath(W).toUri()))));
    }
  }

  static Stream<Arguments> oddNames() {
    return Stream.of(
        Arguments.of("plain", "m#1.fb"),
        Arguments.of("with space", "ü ñ.fb"),
        Arguments.of("percent%41", "100%.fb"),
        Arguments.of("we!rd", "x!.fb"),
        Arguments.of("dir!", "model.fb"));
  }

  /** A model inside a zip, named by a nested {@code samediff:jar:file:…!/model.fb!/} URI. */
  @Test
  void aContainerInsideARegisteredZip() throws IOException {
    Path zip = tmp.resolve("outer.zip");
    URI jar = URI.create("jar:" + zip.toUri());
    try (FileSystem z = FileSystems.newFileSystem(jar, Map.of("create", "true"))) {
      Files.createDirectories(z.getPath("/models"));
      Files.copy(ProviderTestModels.EXAMPLE, z.getPath("/models/mlp.fb"));
    }
    try (FileSystem z = FileSystems.newFileSystem(jar, Map.of())) {
      Path inner = z.getPath("/models/mlp.fb");
      URI root = ModelFileSystems.uri(inner);
      assertTrue(root.toString().startsWith("samediff:jar:file:"), root.toString());
      try (FileSystem fs = FileSystems.newFileSystem(root, Map.of())) {
        assertSame(fs, FileSystems.getFileSystem(root));
        Path w = fs.getPath(W);
        assertEquals(w, Path.of(w.toUri()));
        assertEquals(W_HASH, hash(Files.readAllBytes(Path.of(w.toUri()))));
        assertThrows(FileSystemAlreadyExistsException.class, () -> FileSystems.newFileSystem(root, Map.of()));
      }
      assertThrows(FileSystemNotFoundException.class, () -> FileSystems.getFileSystem(root));
    }
  }
}
