package org.modelfs.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * docs/ARCHITECTURE.md's "Layers" table, read from the page and checked on the compiled main
 * classes: one ArchUnit rule per row's "never depends on" cell, the heading's rule (each package
 * depends only on those below it in the table), and every package of the code has its row.
 */
class LayerTableTest {
  private static final JavaClasses MAIN = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
      .importPackages(ArchitecturePage.ROOT);
  private static final ArchitecturePage PAGE = ArchitecturePage.read();

  private static String[] identifiers(List<String> pkgs) {
    return pkgs.stream().map(PAGE::identifier).toArray(String[]::new);
  }

  private static String label(List<String> pkgs) {
    return pkgs.stream().map(p -> p.isEmpty() ? ArchitecturePage.ROOT : p).toList().toString();
  }

  @TestFactory
  Stream<DynamicTest> eachRowNeverDependsOnWhatItsCellSays() {
    List<DynamicTest> tests = new ArrayList<>();
    for (int i = 0; i < PAGE.layers().size(); i++) {
      ArchitecturePage.Layer row = PAGE.layers().get(i);
      List<String> never = PAGE.never(i);
      if (never.isEmpty()) {
        continue;
      }
      tests.add(DynamicTest.dynamicTest(label(row.packages()) + " never depends on " + label(never), () ->
          noClasses().that().resideInAnyPackage(identifiers(row.packages()))
              .should().dependOnClassesThat().resideInAnyPackage(identifiers(never))
              .check(MAIN)));
    }
    assertFalse(tests.isEmpty());
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> eachRowDependsOnlyOnTheRowsBelowIt() {
    List<DynamicTest> tests = new ArrayList<>();
    for (int i = 1; i < PAGE.layers().size(); i++) {
      ArchitecturePage.Layer row = PAGE.layers().get(i);
      List<String> above = new ArrayList<>();
      for (int r = 0; r < i; r++) {
        above.addAll(PAGE.layers().get(r).packages());
      }
      tests.add(DynamicTest.dynamicTest(label(row.packages()) + " never depends on the rows above it", () ->
          noClasses().that().resideInAnyPackage(identifiers(row.packages()))
              .should().dependOnClassesThat().resideInAnyPackage(identifiers(above))
              .check(MAIN)));
    }
    return tests.stream();
  }

  /** The parser reads the cells as a reader does (so a rule is never silently empty). */
  @Test
  void theCellsMeanWhatTheySay() {
    List<String> pkgs = PAGE.packages();
    int io = pkgs.indexOf("io");
    int api = pkgs.indexOf("");
    assertEquals(pkgs.size() - 1, api, "the public API is the bottom row: every layer may use its types");
    List<String> allButIo = new ArrayList<>(pkgs);
    allButIo.remove("io");
    assertEquals(allButIo, PAGE.never(row("io")));
    assertTrue(PAGE.never(row("container")).containsAll(List.of("store", "tree", "provider", "verify", "cli")));
    assertFalse(PAGE.never(row("container")).contains("format"));
    assertTrue(PAGE.never(row("format")).contains("format.fb"), "codecs and above");
    assertEquals(ArchitecturePage.ROOT + ".format", PAGE.identifier("format"), "format's subpackages have rows of their own");
    assertEquals(ArchitecturePage.ROOT + ".io..", PAGE.identifier("io"));
    assertTrue(io >= 0);
    if (pkgs.contains("view")) {
      List<String> viewNever = PAGE.never(row("view"));
      assertFalse(viewNever.contains("model"), "everything but `model`");
      assertTrue(viewNever.containsAll(List.of("io", "cli", "format", "")));
    }
  }

  private static int row(String pkg) {
    for (int r = 0; r < PAGE.layers().size(); r++) {
      if (PAGE.layers().get(r).packages().contains(pkg)) {
        return r;
      }
    }
    throw new AssertionError(pkg);
  }

  @Test
  void everyPackageOfTheCodeHasItsRow() {
    TreeSet<String> missing = new TreeSet<>();
    for (JavaClass c : MAIN) {
      String pkg = c.getPackageName();
      boolean covered = PAGE.packages().stream().map(PAGE::identifier).anyMatch(id -> id.endsWith("..")
          ? pkg.equals(id.substring(0, id.length() - 2)) || pkg.startsWith(id.substring(0, id.length() - 2) + ".")
          : pkg.equals(id));
      if (!covered) {
        missing.add(pkg);
      }
    }
    assertEquals(new TreeSet<>(), missing, "packages without a row in docs/ARCHITECTURE.md's layer table");
  }
}
