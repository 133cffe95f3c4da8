package org.modelfs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.CommitRefusedException;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.testing.Fixtures;

/**
 * Messages of issue 29 item 6 and issue 30 item 5, word for word through {@link Main#run}: each
 * names the user's file as typed and says what it is, not what a reader misread.
 */
class CliMessagesTest {
  @TempDir Path tmp;

  private Path copy(String fixture) throws IOException {
    return Files.copy(Fixtures.get(fixture), tmp.resolve(fixture));
  }

  static String failure(String... args) {
    MainTest.Result r = MainTest.run(args);
    assertEquals(2, r.code(), String.join(" ", args) + " → " + r.out() + r.err());
    return r.err().strip();
  }

  @Test
  void convertToADirectorySaysItIsADirectory() throws IOException {
    Path m = copy("mlp_adam.fb");
    Path dir = Files.createDirectory(tmp.resolve("somedir"));
    assertEquals("modelfs convert: " + dir + ": is a directory; OUT names the model file to write (e.g. "
        + dir.resolve("model.sdz") + ")", failure("convert", m.toString(), dir.toString()));
  }

  @Test
  void aShardedContainerNamedOtherwiseIsNamedAsTyped() throws IOException {
    Path m = copy("mlp_adam.fb");
    Path out = tmp.resolve("out.container-sharded");
    String err = failure("convert", m.toString(), out.toString(), "--format", "container-sharded");
    assertEquals("modelfs convert: " + out + ": model to write: a sharded container is named <base>.sdmc, its shards"
        + " <base>.shard<k>-of-<N>.sdmc: name it out.sdmc", err.lines().reduce((a, b) -> b).orElseThrow());
    try (var files = Files.list(tmp)) {
      assertEquals(1, files.count(), "only the model given is there");
    }
  }

  private Path zip(String name, int entries) throws IOException {
    Path z = tmp.resolve(name);
    try (OutputStream o = Files.newOutputStream(z); ZipOutputStream zip = new ZipOutputStream(o)) {
      zip.putNextEntry(new ZipEntry("META-INF/MANIFEST.MF"));
      zip.write("Manifest-Version: 1.0\n".getBytes(StandardCharsets.UTF_8));
      for (int i = 0; i < entries; i++) {
        zip.putNextEntry(new ZipEntry("org/example/C" + i + ".class"));
        zip.write(i);
      }
    }
    return z;
  }

  @Test
  void aJarIsNotAModel() throws IOException {
    String reason = "not a model file: a zip without a model entry (model, model.sdnb, a .sdnb shard, tags.txt"
        + " or <tag>/graph.fb), and entries in directories: an archive such as a jar, not an SDZ or zip-tags model";
    Path small = zip("small.jar", 3);
    assertEquals("modelfs tree: small.jar: ZIP central directory: " + reason, failure("tree", small.toString()).replaceAll(" at offset \\d+:", ":"));
    Path big = zip("modelfs.jar", 1500);
    assertEquals("modelfs tree: modelfs.jar: ZIP central directory: " + reason, failure("tree", big.toString()).replaceAll(" at offset \\d+:", ":"));
    assertEquals("modelfs info: modelfs.jar: ZIP central directory: " + reason, failure("info", big.toString()).replaceAll(" at offset \\d+:", ":"));
  }

  /** Every command's tag argument: {@code ..}, {@code .}, the empty name and {@code a/b} are refused by the tag-name rule. */
  @Test
  void tagNamesThatAreNoTagNamesAreRefusedByTheRule() throws IOException {
    Path m = tmp.resolve("m.sdz");
    assertEquals(0, MainTest.run("convert", Fixtures.get("mlp_adam.fb").toString(), m.toString()).code());
    assertEquals(0, MainTest.run("tag", "add", m.toString(), "b").code());
    byte[] before = Files.readAllBytes(m);
    String rule = "is not a tag name: a tag name is [A-Za-z0-9][A-Za-z0-9._-]{0,127} (a letter or digit, then up to 127"
        + " letters, digits, '.', '_' or '-')";
    for (String bad : new String[] {"..", ".", "", "a/b", "/", "-x"}) {
      String says = "modelfs tag: " + m + ": '" + bad + "' " + rule;
      assertEquals(says, failure("tag", "add", m.toString(), bad));
      assertEquals(says, failure("tag", "add", m.toString(), "c", "--from", bad));
      assertEquals(says, failure("tag", "rm", m.toString(), bad));
      assertEquals(says, failure("tag", "mv", m.toString(), bad, "c"));
      assertEquals(says, failure("tag", "mv", m.toString(), "b", bad));
      assertEquals("modelfs avg: " + m + ": '" + bad + "' " + rule,
          failure("avg", m.toString(), "--tags", "default,b", "--into", bad));
    }
    assertEquals(Arrays.toString(before), Arrays.toString(Files.readAllBytes(m)));
    assertEquals("default\nb\n", MainTest.run("tag", "list", m.toString()).out());
  }

  /** A safetensors shape whose byte size overflows (it said "needs -1 bytes"). */
  @Test
  void anOverflowingSafetensorsShapeSaysSo() throws IOException {
    Path m = copy("mlp_adam.fb");
    String json = "{\"layer0/W\":{\"dtype\":\"F32\",\"shape\":[4611686018427387904,8],\"data_offsets\":[0,128]}}";
    byte[] header = json.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocate(8 + header.length + 128).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(header.length).put(header);
    Path st = Files.write(tmp.resolve("w.safetensors"), b.array());
    byte[] before = Files.readAllBytes(m);
    String err = failure("import", st.toString(), m.toString());
    assertEquals(true, err.endsWith("F32 shape [4611686018427387904, 8] × 4 bytes is 2^63 bytes or more"), err);
    assertEquals(Arrays.toString(before), Arrays.toString(Files.readAllBytes(m)));
  }

  /** Arguments whose bytes are not UTF-8 are refused, naming the argument and the byte offset (they became U+FFFD). */
  @Test
  void anArgumentThatIsNotUtf8IsRefused() throws Exception {
    byte[] cmdline = "java\0-cp\0x.jar\0org.modelfs.cli.Main\0ls\0m.fb\0/params/a\u00ffb\0"
        .getBytes(StandardCharsets.ISO_8859_1);
    String[] jvm = {"ls", "m.fb", "/params/a\uFFFDb"};
    Args.UsageException e = Assertions.assertThrows(Args.UsageException.class,
        () -> Utf8Args.decode(cmdline, jvm));
    assertEquals("argument 3 ('/params/a\uFFFDb') is not valid UTF-8: byte 0xFF at byte offset 9 of it;"
        + " names in a model are UTF-8", e.getMessage());
    byte[] good = "java\0ls\0m.fb\0/params/\u00c3\u00bcx\0".getBytes(StandardCharsets.ISO_8859_1); // ü in UTF-8
    assertEquals(List.of("ls", "m.fb", "/params/\u00fcx"),
        List.of(Utf8Args.decode(good, new String[] {"ls", "m.fb", "/params/\uFFFD\uFFFDx"})));
    assertEquals(-1, Utf8Args.firstInvalid("\uFFFD literally".getBytes(StandardCharsets.UTF_8)));
  }

  /** The same through a real process (Linux: the raw bytes come from /proc/self/cmdline), on another command. */
  @Test
  void aRealProcessRefusesTheArgument() throws Exception {
    Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/self/cmdline"))
        && Files.isExecutable(Path.of("/bin/bash")), "needs Linux's /proc and bash");
    Path m = copy("mlp_adam.fb");
    String java = ProcessHandle.current().info().command().orElse("java");
    ProcessBuilder pb = new ProcessBuilder("/bin/bash", "-c",
        "exec \"$0\" -cp \"$1\" org.modelfs.cli.Main rm \"$2:$(printf '/params/x\\xfe')\"",
        java, System.getProperty("java.class.path"), m.toString()).redirectErrorStream(true);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertEquals(2, p.waitFor(), out);
    assertEquals("modelfs rm: argument 2 ('" + m + ":/params/x\uFFFD') is not valid UTF-8: byte 0xFE at byte offset "
        + (m.toString().length() + 10) + " of it; names in a model are UTF-8", out);
  }

  /** rm of a parameter an op uses: one line, in the tree's spelling, no second clause that only repeats it. */
  @Test
  void rmOfAUsedParameterSaysSoOnce() throws IOException {
    Path m = copy("mlp_adam.fb");
    byte[] before = Files.readAllBytes(m);
    assertEquals("modelfs rm: " + m + ": nothing was written: /tags/default/params/layer0/W: deleted, but op matmul"
        + " uses it — write a new array there, or keep it", failure("rm", m.toString(), "/params/layer0/W"));
    assertEquals(Arrays.toString(before), Arrays.toString(Files.readAllBytes(m)));
  }

  /** One rule for MODEL:PATH and PATH arguments: a bare parameter name is the parameter, for cat, ls, rm, cp as for export. */
  @Test
  void aBareParameterNameWorksOnEveryCommand() throws IOException {
    Path m = copy("mlp_noupdater.fb");
    MainTest.Result bare = MainTest.run("cat", m.toString(), "layer0/b");
    MainTest.Result full = MainTest.run("cat", m.toString(), "/params/layer0/b");
    assertEquals(0, bare.code(), bare.err());
    assertEquals(full.out(), bare.out());
    assertEquals(MainTest.run("ls", m.toString(), "/params/layer0").out(), MainTest.run("ls", m.toString(), "layer0").out());
    Path npy = tmp.resolve("b.npy");
    assertEquals(0, MainTest.run("export", m + ":layer0/b", npy.toString()).code());
    Path disk = tmp.resolve("b.bin");
    assertEquals(0, MainTest.run("cp", m + ":layer0/b", disk.toString()).code());
    assertEquals(0, MainTest.run("cp", disk.toString(), m + ":layer0/b").code());
    assertEquals(0, MainTest.run("ls", m.toString(), "tags").code(), "the root's own entries keep their meaning");
    assertEquals(0, MainTest.run("cat", m.toString(), "graph.json").code());
  }

  /** A format its file name contradicts (a zip under a .fb name) is refused: by convert, as by a mount's commit (WriteCommitTest). */
  @Test
  void aFormatTheNameContradictsIsRefused() throws IOException {
    Path m = copy("mlp_adam.fb");
    Path out = tmp.resolve("x.fb");
    assertEquals("modelfs convert: " + out + ": model to write: x.fb is named as fb, and DL4J and other tools read it"
        + " as fb; a sdz model under that name would not load as one — write it under its own extension"
        + " (modelfs convert x.fb OUT.sdz)", failure("convert", m.toString(), out.toString(), "--format", "sdz")
        .lines().reduce((a, b) -> b).orElseThrow());
    assertEquals(false, Files.exists(out));
    assertEquals(0, MainTest.run("convert", m.toString(), tmp.resolve("y.zip").toString(), "--format", "sdz").code(),
        "an SDZ is a zip: .zip is fine");
  }

  private Path npyOfDoubles(String name, int rows, int cols) throws IOException {
    String header = "{'descr': '<f8', 'fortran_order': False, 'shape': (" + rows + ", " + cols + "), }";
    StringBuilder h = new StringBuilder(header);
    while ((10 + h.length() + 1) % 64 != 0) {
      h.append(' ');
    }
    h.append('\n');
    ByteBuffer b = ByteBuffer.allocate(10 + h.length() + rows * cols * 8).order(ByteOrder.LITTLE_ENDIAN);
    b.put((byte) 0x93).put("NUMPY".getBytes(StandardCharsets.US_ASCII)).put((byte) 1).put((byte) 0).putShort((short) h.length());
    b.put(h.toString().getBytes(StandardCharsets.US_ASCII));
    while (b.hasRemaining()) {
      b.putDouble(0.5);
    }
    return Files.write(tmp.resolve(name), b.array());
  }

  /** import of .npy and of .safetensors: one rule, a dtype changes only with --change-dtype, and not away from its updater state. */
  @Test
  void aDtypeChangesOnlyWhenAskedThroughEitherDoor() throws IOException {
    Path adam = copy("mlp_adam.fb");
    Path npy = npyOfDoubles("w.npy", 4, 8);
    byte[] before = Files.readAllBytes(adam);
    assertEquals("modelfs import: " + npy + ": does not fit " + adam + ":/params/layer0/W; nothing was imported:"
        + " layer0/W: FLOAT in the model, DOUBLE in the file — a dtype changes only when asked (--change-dtype)",
        failure("import", npy.toString(), adam + ":layer0/W"));
    String state = failure("import", npy.toString(), adam + ":layer0/W", "--change-dtype");
    assertTrue(state.contains("layer0/W: becomes DOUBLE, but its updater state updater/layer0/W/M is FLOAT"), state);
    assertEquals(Arrays.toString(before), Arrays.toString(Files.readAllBytes(adam)));

    // the same through safetensors
    Path st = tmp.resolve("w.safetensors");
    String json = "{\"layer0/W\":{\"dtype\":\"F64\",\"shape\":[4,8],\"data_offsets\":[0,256]}}";
    byte[] header = json.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocate(8 + header.length + 256).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(header.length).put(header);
    Files.write(st, b.array());
    String sa = failure("import", st.toString(), adam.toString());
    assertTrue(sa.contains("layer0/W: the file has F64 [4, 8] (DOUBLE), the model FLOAT [4, 8] — a dtype changes only when"
        + " asked (--change-dtype)"), sa);
    String sb = failure("import", st.toString(), adam.toString(), "--change-dtype");
    assertTrue(sb.contains("layer0/W: becomes DOUBLE, but its updater state updater/layer0/W/M is FLOAT"), sb);
    assertEquals(Arrays.toString(before), Arrays.toString(Files.readAllBytes(adam)));

    // asked for, on a parameter without updater state: changed, by either door
    Path plain = copy("mlp_noupdater.fb");
    assertEquals(0, MainTest.run("import", npy.toString(), plain + ":layer0/W", "--change-dtype").code());
    assertTrue(MainTest.run("ls", plain.toString(), "layer0").out().contains("W  256 B  VARIABLE DOUBLE [4, 8]"));
    Path plain2 = Files.copy(plain, tmp.resolve("p2.fb"));
    assertEquals(0, MainTest.run("import", npy.toString(), plain2 + ":layer0/W").code(), "same dtype now: no option needed");
    Path plain3 = Files.copy(Fixtures.get("mlp_noupdater.fb"), tmp.resolve("p3.fb"));
    assertEquals(0, MainTest.run("import", st.toString(), plain3.toString(), "--change-dtype").code());
    assertTrue(MainTest.run("ls", plain3.toString(), "layer0").out().contains("W  256 B  VARIABLE DOUBLE [4, 8]"));
  }

  /** A whole model written to a tag's graph says what it is (it was misread as "FLOAT[2, 1, 3, …] needs 19464192"). */
  @Test
  void aWholeModelWrittenToGraphSaysWhatItIs() throws IOException {
    Path m = tmp.resolve("g.sdz");
    assertEquals(0, MainTest.run("convert", Fixtures.get("mlp_noupdater.fb").toString(), m.toString()).code());
    byte[] before = Files.readAllBytes(m);
    String advice = ", not a graph: a tag's graph file holds the FlatGraph without arrays that a model's own graph file"
        + " shows; copy that one (modelfs cp OTHER.fb:/graph MODEL:/tags/default/graph), or bring the whole model in"
        + " as a model (modelfs convert OTHER.fb OUT.sdz)";
    assertEquals("modelfs cp: /tags/default/graph: this is a whole DL4J .fb model (16 variables, 6 with arrays)" + advice,
        failure("cp", Fixtures.get("mlp_adam.fb").toString(), m + ":/tags/default/graph"));
    assertEquals("modelfs cp: /tags/default/graph: this is a zip (an SDZ or zip-tags model?)" + advice,
        failure("cp", m.toString(), m + ":/tags/default/graph"));
    Path sdnb = tmp.resolve("x.sdnb");
    assertEquals(0, MainTest.run("convert", Fixtures.get("mlp_adam.fb").toString(), sdnb.toString()).code());
    assertEquals("modelfs cp: /tags/default/graph: this is a whole SDNB model" + advice,
        failure("cp", sdnb.toString(), m + ":/tags/default/graph"));
    assertEquals(Arrays.toString(before), Arrays.toString(Files.readAllBytes(m)));
    // the library's door is the same: Files.copy into the mount
    try (FileSystem fs = ModelFileSystems.open(m, Map.of("commitOnClose", false))) {
      FileSystemException e = Assertions.assertThrows(FileSystemException.class,
          () -> Files.copy(Fixtures.get("mlp_adam.fb"), fs.getPath("/tags/default/graph"),
              StandardCopyOption.REPLACE_EXISTING));
      assertTrue(e.getMessage().contains("this is a whole DL4J .fb model (16 variables, 6 with arrays), not a graph"),
          e.getMessage());
    }
    assertEquals(0, MainTest.run("cp", Fixtures.get("mlp_adam.fb") + ":/graph", m + ":/tags/default/graph").code(),
        "the advice works");
  }

  /** A metadata key the format writes itself: refused, the same by meta set and by Files.write through a mount. */
  @Test
  void aMetadataValueTheFormatWouldRewriteIsRefused() throws IOException {
    Path m = tmp.resolve("k.sdnb");
    assertEquals(0, MainTest.run("convert", Fixtures.get("mlp_noupdater.fb").toString(), m.toString()).code());
    byte[] before = Files.readAllBytes(m);
    assertEquals("modelfs meta: " + m + ": nothing was written: /tags/default/metadata/nd4j.format.type: the sdnb format"
        + " writes this key itself ('APPENDED_BLOB'); 'hello' would not be stored",
        failure("meta", "set", m.toString(), "nd4j.format.type", "hello"));
    try (FileSystem fs = ModelFileSystems.open(m, Map.of("commitOnClose", false))) {
      Files.writeString(fs.getPath("/metadata/nd4j.format.type"), "hello");
      CommitRefusedException e = Assertions.assertThrows(
          CommitRefusedException.class, () -> ((JournaledFileSystem) fs).commit());
      assertEquals(List.of("/tags/default/metadata/nd4j.format.type: the sdnb format writes this key itself"
          + " ('APPENDED_BLOB'); 'hello' would not be stored"), e.problems());
      ((JournaledFileSystem) fs).rollback();
    }
    assertEquals(Arrays.toString(before), Arrays.toString(Files.readAllBytes(m)));
    assertEquals(0, MainTest.run("meta", "set", m.toString(), "nd4j.format.type", "APPENDED_BLOB").code(), "its own value");
    Path zip = tmp.resolve("k.zip");
    assertEquals(0, MainTest.run("convert", m.toString(), zip.toString()).code(), "a conversion drops them without a word");
    assertEquals("modelfs meta: " + zip + ": nothing was written: /tags/default/metadata/nd4j.format.version: the zip-tags"
        + " format does not keep this key (nd4j.format.version is an SDNB format key); '2' would not be stored",
        failure("meta", "set", zip.toString(), "nd4j.format.version", "2"));
  }
}
