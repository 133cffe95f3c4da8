package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.provider.ProviderTestModels.W;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.AclFileAttributeView;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.DosFileAttributeView;
import java.nio.file.attribute.DosFileAttributes;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.FileOwnerAttributeView;
import java.nio.file.attribute.FileStoreAttributeView;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.ModelFileSystems;
import org.modelfs.SamediffFileAttributeView;
import org.modelfs.SamediffFileAttributes;

/**
 * A mounted model has one file store of type {@code samediff} (read-only exactly when the mount
 * is) that supports exactly the {@code basic} and {@code samediff} views; other views are
 * answered with {@code null} (typed) or {@link UnsupportedOperationException} (by name), never
 * with anything else.
 */
class FileStoreTest {
  @TempDir static Path tmp;
  static FileSystem fs;

  @BeforeAll
  static void mount() throws IOException {
    fs = ModelFileSystems.open(ProviderTestModels.copy(tmp, "mlp_adam.fb"));
  }

  @AfterAll
  static void unmount() throws IOException {
    fs.close();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"/", W, "/params", "/tags/default/graph.json", "/updater/layer0/W/M"})
  void everyPathIsOnTheOneSamediffStore(String path) throws IOException {
    FileStore store = Files.getFileStore(fs.getPath(path));
    assertEquals("samediff", store.type());
    assertEquals(fs.isReadOnly(), store.isReadOnly());
    assertNotNull(store.name());
    assertEquals(store, fs.getFileStores().iterator().next());
    assertTrue(store.supportsFileAttributeView("samediff"));
    assertTrue(store.supportsFileAttributeView("basic"));
    for (String other : List.of("posix", "dos", "owner", "acl", "user", "unix", "zip")) {
      assertFalse(store.supportsFileAttributeView(other), other);
    }
    assertTrue(store.supportsFileAttributeView(SamediffFileAttributeView.class));
    assertTrue(store.supportsFileAttributeView(BasicFileAttributeView.class));
    assertFalse(store.supportsFileAttributeView(PosixFileAttributeView.class));
    assertFalse(store.supportsFileAttributeView(DosFileAttributeView.class));
    assertNull(store.getFileStoreAttributeView(FileStoreAttributeView.class));
  }

  @Test
  void theStoreHasSpaceFiguresOfTheContainersStore() throws IOException {
    FileStore store = Files.getFileStore(fs.getPath(W));
    assertTrue(store.getTotalSpace() >= 0);
    assertTrue(store.getUsableSpace() >= 0);
    assertTrue(store.getUnallocatedSpace() >= 0);
    assertEquals(store.getTotalSpace(), store.getAttribute("totalSpace"));
    assertThrows(UnsupportedOperationException.class, () -> store.getAttribute("nonsense"));
    assertEquals(1, toList(fs.getFileStores()).size());
  }

  private static List<FileStore> toList(Iterable<FileStore> it) {
    List<FileStore> out = new ArrayList<>();
    it.forEach(out::add);
    return out;
  }

  @Test
  void theFileStoreOfAMissingPathIsNoSuchFile() {
    assertThrows(NoSuchFileException.class, () -> Files.getFileStore(fs.getPath("/params/nope")));
  }

  @Test
  void supportedViewsAreBasicAndSamediff() {
    assertEquals(Set.of("basic", "samediff"), fs.supportedFileAttributeViews());
  }

  /** Typed views other than basic and samediff are {@code null}, for existing and missing paths alike. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {W, "/", "/params", "/no/such/file"})
  void unsupportedTypedViewsAreNull(String path) {
    Path p = fs.getPath(path);
    List<Class<? extends FileAttributeView>> unsupported = List.of(PosixFileAttributeView.class,
        DosFileAttributeView.class, FileOwnerAttributeView.class, AclFileAttributeView.class,
        UserDefinedFileAttributeView.class);
    for (Class<? extends FileAttributeView> type : unsupported) {
      assertNull(Files.getFileAttributeView(p, type), type.getSimpleName());
    }
    // the supported ones are made lazily: a view of a missing path exists, reading it does not
    assertNotNull(Files.getFileAttributeView(p, BasicFileAttributeView.class));
    assertNotNull(Files.getFileAttributeView(p, SamediffFileAttributeView.class));
  }

  @Test
  void typedViewsReadTheAttributes() throws IOException {
    Path p = fs.getPath(W);
    SamediffFileAttributeView view = Files.getFileAttributeView(p, SamediffFileAttributeView.class);
    assertEquals("samediff", view.name());
    SamediffFileAttributes a = view.readAttributes();
    assertEquals("FLOAT", a.dtype());
    assertArrayEquals(new long[] {4, 8}, a.shape());
    assertEquals("VARIABLE", a.kind());
    assertEquals("default", a.tag());
    assertEquals(128, a.size());
    assertEquals("basic", Files.getFileAttributeView(p, BasicFileAttributeView.class).name());
    assertEquals(128, Files.getFileAttributeView(p, BasicFileAttributeView.class).readAttributes().size());
    assertThrows(NoSuchFileException.class,
        () -> Files.getFileAttributeView(fs.getPath("/nope"), SamediffFileAttributeView.class).readAttributes());
  }

  /** By class or by name, unsupported attributes are an {@link UnsupportedOperationException}. */
  @Test
  void unsupportedAttributesByNameOrClass() {
    Path p = fs.getPath(W);
    assertThrows(UnsupportedOperationException.class, () -> Files.readAttributes(p, PosixFileAttributes.class));
    assertThrows(UnsupportedOperationException.class, () -> Files.readAttributes(p, DosFileAttributes.class));
    assertThrows(UnsupportedOperationException.class, () -> Files.readAttributes(p, "posix:*"));
    assertThrows(UnsupportedOperationException.class, () -> Files.getAttribute(p, "dos:hidden"));
    assertThrows(UnsupportedOperationException.class, () -> Files.getPosixFilePermissions(p));
    assertThrows(UnsupportedOperationException.class, () -> Files.getOwner(p));
  }
}
