package org.modelfs.testcodec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.cli.Main;
import org.modelfs.container.Models;
import org.modelfs.format.Codecs;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;
import org.modelfs.testing.Fixtures;
import org.modelfs.testing.RecursiveCopy;

/**
 * A format added by its descriptor alone ({@link FbTagsCodec}, registered with
 * {@link Codecs#register}): converted to from a DL4J fb file, mounted, edited (an array
 * rewritten, a tag added), committed, read back, and converted to fb again — through the same
 * routes as every built-in format, none of which names it; its token reaches the help texts and
 * messages, and leaves them when the registration is closed.
 */
class FbTagsCodecTest {
  private static final String PARAM = "/tags/default/params/layer0/W";
  @TempDir Path tmp;
  private Codecs.Registration registration;

  @BeforeEach
  void register() {
    registration = Codecs.register(new FbTagsCodec());
  }

  @AfterEach
  void unregister() {
    registration.close();
  }

  @Test
  void convertedMountedEditedCommittedReadBackAndConvertedBack() throws Exception {
    Path fb = Files.copy(Fixtures.get("mlp_adam.fb"), tmp.resolve("m.fb"));
    Path fbt = tmp.resolve("m.fbt");
    run("convert", fb.toString(), fbt.toString());
    byte[] head = Arrays.copyOf(Files.readAllBytes(fbt), FbTagsCodec.MAGIC.length);
    assertArrayEquals(FbTagsCodec.MAGIC, head, "convert chose the format by the name's extension");

    byte[] edited;
    try (FileSystem fs = ModelFileSystems.open(fbt)) {
      byte[] w = Files.readAllBytes(fs.getPath(PARAM));
      assertEquals(4 * 4 * 8, w.length, "layer0/W is float [4, 8]");
      edited = w.clone();
      for (int i = 0; i < edited.length; i += 4) {
        edited[i + 3] ^= 0x40; // a different float in each element, same length
      }
      Files.write(fs.getPath(PARAM), edited);
      RecursiveCopy.copyTree(fs.getPath("/tags/default"), fs.getPath("/tags/v2"));
    } // closing commits: plan, write, read back, install

    try (Model m = Models.open(fbt)) {
      assertEquals(FbTagsCodec.FORMAT, m.format(), "sniffed by its magic");
      assertEquals(List.of("default", "v2"), m.tags().stream().map(Tag::name).toList());
    }
    try (FileSystem fs = ModelFileSystems.open(fbt)) {
      assertArrayEquals(edited, Files.readAllBytes(fs.getPath(PARAM)), "the edit was committed");
      assertArrayEquals(edited, Files.readAllBytes(fs.getPath("/tags/v2/params/layer0/W")));
    }

    String refused = runFailing("convert", fbt.toString(), tmp.resolve("two.fb").toString());
    assertTrue(refused.contains("convert to sdz, zip-tags, container or fb-tags"), refused);

    Path back = tmp.resolve("v2.fb");
    run("extract", fbt.toString(), "v2", back.toString());
    Path one = tmp.resolve("one.fbt");
    run("convert", back.toString(), one.toString());
    Path again = tmp.resolve("again.fb");
    run("convert", one.toString(), again.toString());
    try (Model a = Models.open(back); Model b = Models.open(again)) {
      assertEquals(ModelFormat.FB, b.format());
      assertEquals(a.newest().variables().size(), b.newest().variables().size());
    }
    try (FileSystem fs = ModelFileSystems.open(again)) {
      assertArrayEquals(edited, Files.readAllBytes(fs.getPath(PARAM)), "fb → fb-tags → fb keeps the edited array");
    }
  }

  @Test
  void theFormatIsListedWhileRegisteredOnly() {
    assertTrue(run("help", "convert").contains("fb|sdnb|sdnb-sharded|sdz|zip-tags|container|container-sharded|fb-tags"));
    assertEquals(".fb, .sdnb, .sdz, .zip, .sdmc or .fbt", Codecs.extensions());
    assertTrue(Codecs.claimsName("M.FBT"));
    registration.close();
    assertFalse(Codecs.tokens("|").contains("fb-tags"));
    assertFalse(Codecs.claimsName("m.fbt"));
    registration = Codecs.register(new FbTagsCodec());
  }

  @Test
  void tagNamesAreEscapedInTheHeader() {
    for (String n : List.of("default", "v 2", "ü/%", "a\nb")) {
      String e = FbTagsCodec.escape(n);
      assertFalse(e.contains(" ") || e.contains("\n"), e);
      assertEquals(n, FbTagsCodec.unescape(e));
    }
  }

  private static String run(String... args) {
    Result r = main(args);
    assertEquals(0, r.code, String.join(" ", args) + ": " + r.err);
    return r.out + r.err;
  }

  private static String runFailing(String... args) {
    Result r = main(args);
    assertTrue(r.code != 0, String.join(" ", args) + " should fail");
    return r.err;
  }

  private record Result(int code, String out, String err) {}

  private static Result main(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
