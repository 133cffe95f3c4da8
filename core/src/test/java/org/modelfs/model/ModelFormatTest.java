package org.modelfs.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The lists the help texts and messages show come from the enum (docs/CLI.md, DocCliTest). */
class ModelFormatTest {
  @Test
  void listsForPeopleComeFromTheEnum() {
    assertEquals("fb|sdnb|sdnb-sharded|sdz|zip-tags|container|container-sharded", ModelFormat.tokens("|"));
    assertEquals("sdz, zip-tags or container", ModelFormat.tagHolders());
    assertEquals("fb, sdnb and sdnb-sharded", ModelFormat.list(f -> !f.holdsTags(), "and"));
    assertEquals("container", ModelFormat.list(f -> f == ModelFormat.CONTAINER, "and"));
    assertEquals(".fb, .sdnb, .sdz, .zip or .sdmc", ModelFormat.extensions());
  }

  @Test
  void everyExtensionListedNamesItsFormat() {
    for (String ext : ModelFormat.extensions().replace(" or ", ", ").split(", ")) {
      ModelFormat f = ModelFormat.fromFileName("M" + ext.toUpperCase(java.util.Locale.ROOT));
      assertEquals(f, ModelFormat.fromFileName("dir/m" + ext), ext);
      assertEquals(false, f.sharded(), ext);
    }
    assertNull(ModelFormat.fromFileName("m.bin"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ModelFormat.fromToken("tar"));
    assertEquals("unknown format 'tar' (expected fb, sdnb, sdnb-sharded, sdz, zip-tags, container, container-sharded)", e.getMessage());
  }
}
