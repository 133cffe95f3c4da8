package org.modelfs.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.container.Models;
import org.modelfs.io.ByteSource;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;
import org.modelfs.store.ModelFiles;
import org.modelfs.testcodec.FbTagsCodec;
import org.modelfs.testing.Fixtures;

/**
 * The one registry of formats ({@link Codecs}): the lists help texts and messages show come from
 * it (docs/CLI.md, DocCliTest), every registered format — a test's own included — is written,
 * sniffed and read back by the routes every format shares, and no class outside the codecs names
 * a built-in format (so nothing switches on one).
 */
class CodecsTest {
  @TempDir Path tmp;

  @Test
  void listsForPeopleComeFromTheRegistry() {
    assertEquals("fb|sdnb|sdnb-sharded|sdz|zip-tags|container|container-sharded", Codecs.tokens("|"));
    assertEquals("sdz, zip-tags or container", Codecs.tagHolders());
    assertEquals("fb, sdnb and sdnb-sharded", Codecs.list(f -> !f.holdsTags(), "and"));
    assertEquals("container", Codecs.list(f -> f == ModelFormat.CONTAINER, "and"));
    assertEquals(".fb, .sdnb, .sdz, .zip or .sdmc", Codecs.extensions());
    assertEquals("SAMEDIFF_MODEL, SDNB or ZIP", Codecs.magics());
  }

  @Test
  void everyExtensionListedNamesItsFormat() {
    for (String ext : Codecs.extensions().replace(" or ", ", ").split(", ")) {
      ModelFormat f = Codecs.fromFileName("M" + ext.toUpperCase(Locale.ROOT));
      assertEquals(f, Codecs.fromFileName("dir/m" + ext), ext);
      assertEquals(false, f.sharded(), ext);
    }
    assertNull(Codecs.fromFileName("m.bin"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Codecs.fromToken("tar"));
    assertEquals("unknown format 'tar' (expected fb, sdnb, sdnb-sharded, sdz, zip-tags, container, container-sharded)", e.getMessage());
    assertSame(ModelFormat.SHARDED_SDNB, Codecs.fromToken("sharded"), "an alias of sdnb-sharded's codec");
  }

  @Test
  void everyBuiltInFormatHasOneCodecAndEveryCodecAnsweringForItsFormat() throws Exception {
    Set<ModelFormat> declared = new HashSet<>();
    for (Field f : ModelFormat.class.getFields()) {
      if (Modifier.isStatic(f.getModifiers()) && f.getType() == ModelFormat.class) {
        declared.add((ModelFormat) f.get(null));
      }
    }
    assertEquals(declared, new HashSet<>(Codecs.formats()), "every built-in format is registered, and only those");
    for (Codec c : Codecs.all()) {
      ModelFormat f = c.format();
      assertSame(c, Codecs.of(f));
      assertEquals(f, Codecs.fromToken(f.token().toUpperCase(Locale.ROOT)));
      if (f.sharded()) {
        assertNotNull(c.shardExtension(), f.token());
        assertSame(c, Codecs.ofShardExtension(c.shardExtension()));
        assertEquals(f, Codecs.shardedOf(f.unsharded()));
        assertTrue(Codecs.formats().contains(f.unsharded()), f.token());
      } else {
        assertNull(c.shardExtension(), f.token());
      }
    }
  }

  @Test
  void aSecondCodecForOneTokenIsRefused() {
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> Codecs.register(new Codec() {
      @Override
      public ModelFormat format() {
        return new ModelFormat("fb", ".fb2", false, false, null);
      }

      @Override
      public boolean sniff(ByteSource src) {
        return false;
      }

      @Override
      public List<PlannedFile> plan(Request request) {
        return List.of();
      }
    }));
    assertTrue(e.getMessage().startsWith("two codecs for the format fb: org.modelfs.format.fb.FbCodec and "), e.getMessage());
  }

  /**
   * The next format's door: every registered codec (the test scope's {@link FbTagsCodec} with them)
   * writes a DL4J model through the one writer, and the one reader finds the same format and the
   * same variables again by content alone.
   */
  @Test
  void everyRegisteredFormatIsWrittenAndFoundAgainByItsContent() throws Exception {
    Path fb = Fixtures.get("mlp_adam.fb");
    try (Codecs.Registration r = Codecs.register(new FbTagsCodec()); Model source = Models.open(fb)) {
      Tag tag = source.newest();
      for (ModelFormat f : Codecs.formats()) {
        Path out = tmp.resolve(f.token()).resolve("m" + f.extension());
        Files.createDirectories(out.getParent());
        WriteOptions o = WriteOptions.of(f).withDropMetadata(true);
        if (f.sharded() || Codecs.of(f).shardsInOneFile()) {
          o = WriteOptions.of(f).withMaxShardBytes(200).withDropMetadata(true);
        }
        List<Path> files = ModelFiles.write(tag, out, o);
        assertEquals(f.sharded(), files.size() > 1, f + " " + files);
        try (Model m = Models.open(out)) {
          assertEquals(f, m.format(), "read back as written: " + files);
          assertEquals(tag.variables().size(), m.newest().variables().size(), f.token());
        }
      }
    }
  }

  @Test
  void onlyTheCodecsNameABuiltInFormat() {
    JavaClasses main = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
        .importPackages("org.modelfs");
    for (Field f : ModelFormat.class.getFields()) {
      if (f.getType() == ModelFormat.class) {
        noClasses().that().resideOutsideOfPackages("org.modelfs.format.(*)..")
            .and().doNotHaveFullyQualifiedName(ModelFormat.class.getName())
            .should().accessField(ModelFormat.class, f.getName())
            .because("what a format does is asked of its codec (format.Codecs.of), never decided by naming it")
            .check(main);
      }
    }
  }
}
