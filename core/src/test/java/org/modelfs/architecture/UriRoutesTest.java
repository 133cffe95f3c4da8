package org.modelfs.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import java.net.URI;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.spi.FileSystemProvider;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every route from a user's URI to a model's path goes through {@code store.Backings.path(URI)},
 * so that a store module can give the URI a file system of its own credentials (the s3 module:
 * docs/OBJECT-STORES.md §1; the provider shares one per access key). A new door — a command, a
 * provider method, an option that takes a URI — that calls {@code Path.of(URI)} itself fails here.
 */
class UriRoutesTest {
  @Test
  void onlyBackingsTurnsAUriIntoAPath() {
    noClasses().that().doNotHaveFullyQualifiedName("org.modelfs.store.Backings")
        .should().callMethod(Path.class, "of", URI.class)
        .orShould().callMethod(Paths.class, "get", URI.class)
        .orShould().callMethod(FileSystemProvider.class, "getPath", URI.class)
        .orShould().callMethod(FileSystems.class, "getFileSystem", URI.class)
        .orShould().callMethod(FileSystems.class, "newFileSystem", URI.class, Map.class)
        .because("a URI's credentials are the URI's own only through store.Backings.path (docs/OBJECT-STORES.md §1)")
        .check(PackageCyclesTest.MAIN);
  }
}
