package org.modelfs.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The package structure of docs/ARCHITECTURE.md, checked on the compiled main classes: no
 * package cycle anywhere (every package is a slice of its own, so {@code format} and
 * {@code format.fb} are two), codecs never depend on the layers above them, and only the store
 * touches the transaction's files.
 */
class PackageCyclesTest {
  private static final JavaClasses MAIN = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
      .importPackages("org.modelfs");

  @Test
  void noPackageCycles() {
    slices().matching("org.modelfs.(**)").should().beFreeOfCycles().check(MAIN);
  }

  @Test
  void theApiPackageDependsOnNoImplementationPackage() {
    noClasses().that().resideInAPackage("org.modelfs")
        .should().dependOnClassesThat().resideInAnyPackage("org.modelfs.(*)..")
        .check(MAIN);
  }

  @Test
  void codecsAndTheSharedLayerNeverReachUp() {
    noClasses().that().resideInAnyPackage("org.modelfs.format..", "org.modelfs.model..", "org.modelfs.io..")
        .should().dependOnClassesThat().resideInAnyPackage("org.modelfs.container..", "org.modelfs.store..",
            "org.modelfs.tree..", "org.modelfs.provider..", "org.modelfs.cli..", "org.modelfs.exchange..")
        .check(MAIN);
  }

  @Test
  void theExchangeFormatsStandOnTheIndexAlone() {
    // npy and safetensors codecs work on channels and DType; the CLI feeds them from the file system
    noClasses().that().resideInAPackage("org.modelfs.exchange..")
        .should().dependOnClassesThat().resideInAnyPackage("org.modelfs.container..", "org.modelfs.store..",
            "org.modelfs.tree..", "org.modelfs.provider..", "org.modelfs.verify..", "org.modelfs.cli..")
        .check(MAIN);
  }

  @Test
  void verifySitsBetweenTheStoreAndTheCommandLine() {
    noClasses().that().resideInAPackage("org.modelfs.verify..")
        .should().dependOnClassesThat().resideInAnyPackage("org.modelfs.provider..", "org.modelfs.cli..")
        .check(MAIN);
    noClasses().that().resideInAnyPackage("org.modelfs.io..", "org.modelfs.model..", "org.modelfs.format..",
            "org.modelfs.container..", "org.modelfs.tree..", "org.modelfs.store..", "org.modelfs.provider..")
        .should().dependOnClassesThat().resideInAPackage("org.modelfs.verify..")
        .check(MAIN);
  }

  @Test
  void onlyTheStoreAndTheLayersAboveItUseTheContainerLayer() {
    noClasses().that().resideInAnyPackage("org.modelfs.tree..")
        .should().dependOnClassesThat().resideInAnyPackage("org.modelfs.container..", "org.modelfs.store..")
        .check(MAIN);
  }
}
