package org.modelfs.hdfs;

import org.junit.jupiter.api.Test;
import org.modelfs.architecture.ModuleRules;

/** The hdfs module uses nothing of the core but what its row of docs/ARCHITECTURE.md's "Modules" table names. */
class ModuleRulesTest {
  @Test
  void usesOnlyWhatItsRowOfTheArchitecturePageNames() {
    ModuleRules.check("hdfs");
  }
}
