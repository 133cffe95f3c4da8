package org.modelfs.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;

/**
 * A module's rule, read from docs/ARCHITECTURE.md's "Modules" table: its classes use nothing of
 * the core but what its row's "core (…)" names. Each module's own test calls {@link #check} (the
 * s3, fuse and dl4j modules depend on the core's test jar).
 */
public final class ModuleRules {
  private ModuleRules() {}

  /** Checks the main classes of package {@code org.modelfs.<module>} against the row of {@code module}/. */
  public static void check(String module) {
    JavaClasses main = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
        .importPackages(ArchitecturePage.ROOT + "." + module);
    ArchitecturePage page = ArchitecturePage.read();
    List<String> named = page.coreNamedBy(module);
    String own = ArchitecturePage.ROOT + "." + module;
    DescribedPredicate<JavaClass> allowed = DescribedPredicate.describe(
        "are outside the core, in " + own + ", or named in docs/ARCHITECTURE.md's row of " + module + "/: " + named,
        c -> !inCore(c.getPackageName()) || c.getPackageName().equals(own) || c.getPackageName().startsWith(own + ".")
            || named.stream().anyMatch(n -> allows(page, n, c)));
    classes().that().resideInAPackage(own + "..").should().onlyDependOnClassesThat(allowed).check(main);
  }

  private static boolean inCore(String pkg) {
    return pkg.equals(ArchitecturePage.ROOT) || pkg.startsWith(ArchitecturePage.ROOT + ".");
  }

  /** Whether the name {@code n} of the page (a class or a package) lets a module use {@code c}. */
  private static boolean allows(ArchitecturePage page, String n, JavaClass c) {
    String last = n.substring(n.lastIndexOf('.') + 1);
    if (Character.isUpperCase(last.charAt(0))) {
      return c.getName().equals(n) || c.getName().startsWith(n + "$");
    }
    String id = n.equals(ArchitecturePage.ROOT) ? n : page.identifier(n.substring(ArchitecturePage.ROOT.length() + 1));
    if (id.endsWith("..")) {
      String base = id.substring(0, id.length() - 2);
      return c.getPackageName().equals(base) || c.getPackageName().startsWith(base + ".");
    }
    return c.getPackageName().equals(id);
  }
}
