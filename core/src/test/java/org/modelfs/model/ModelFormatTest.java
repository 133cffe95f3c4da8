package org.modelfs.model;

import org.modelfs.format.Codecs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The lists the help texts and messages show come from the enum (docs/CLI.md, DocCliTest). */
class ModelFormatTest {
  @Test
  void listsForPeopleComeFromTheEnum() {
    assertEquals("fb|sdnb|sdnb-sharded|sdz|zip-tags|container|container-sharded", Codecs.tokens("|"));
    assertEquals("sdz, zip-tags or container", Codecs.tagHolders());
    assertEquals("fb, sdnb and sdnb-sharded", Codecs.list(f -> !f.holdsTags(), "and"));
    assertEquals("container", Codecs.list(f -> f == ModelFormat.CONTAINER, "and"));
    assertEquals(".fb, .sdnb, .sdz, .zip or .sdmc", Codecs.extensions());
  }

  @Test
  void everyExtensionListedNamesItsFormat() {
    for (String ext : Codecs.extensions().replace(" or ", ", ").split(", ")) {
      ModelFormat f = Codecs.fromFileName("M" + ext.toUpperCase(java.util.Locale.ROOT));
      assertEquals(f, Codecs.fromFileName("dir/m" + ext), ext);
      assertEquals(false, f.sharded(), ext);
    }
    assertNull(Codecs.fromFileName("m.bin"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Codecs.fromToken("tar"));
    assertEquals("unknown format 'tar' (expected fb, sdnb, sdnb-sharded, sdz, zip-tags, container, container-sharded)", e.getMessage());
  }
}
