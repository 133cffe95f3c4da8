package org.modelfs.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * No package cycle anywhere in the compiled main classes (every package is a slice of its own, so
 * {@code format} and {@code format.fb} are two). Which package may depend on which is
 * docs/ARCHITECTURE.md's layer table, checked by {@link LayerTableTest} from the page itself.
 */
class PackageCyclesTest {
  /** The compiled main classes of the core (shared with {@link UriRoutesTest}). */
  static final JavaClasses MAIN = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
      .importPackages("org.modelfs");

  @Test
  void noPackageCycles() {
    slices().matching("org.modelfs.(**)").should().beFreeOfCycles().check(MAIN);
  }
}
