package org.modelfs.fuzz;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.format.sdnb.ManifestSeeds;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;
import org.modelfs.provider.GraphJsonFuzzSeeds;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.HandArrays;

/**
 * Writes the seed corpus of every fuzz target into
 * {@code src/test/resources/<package>/<Class>Inputs/<method>/} (run from the project directory:
 * {@code java -cp <test class path> org.modelfs.fuzz.FuzzSeeds}): the DL4J fixtures as they are,
 * each rewritten by our writers into every format, and edits of fixtures' graph.json
 * ({@link GraphJsonFuzzSeeds}; docs/RELIABILITY.md "Fuzzing"). Each
 * seed is named by the SHA-1 of its bytes, as Jazzer names the inputs it keeps; crash inputs the
 * fuzzer finds are added beside them and kept.
 */
public final class FuzzSeeds {
  private static final Path FIXTURES = Path.of("src/test/resources/fixtures/dl4j-1.0.0-M2.1");
  private static final Path RESOURCES = Path.of("src/test/resources");

  private FuzzSeeds() {}

  /**
   * Writes every seed.
   *
   * @param args unused
   * @throws IOException if a fixture cannot be read or a seed written
   */
  public static void main(String[] args) throws IOException {
    List<Path> fixtures = new ArrayList<>();
    try (Stream<Path> s = Files.list(FIXTURES)) {
      s.filter(p -> p.toString().endsWith(".fb")).sorted().forEach(fixtures::add);
    }
    fixtures.add(FIXTURES.resolve("tf-import/identity_n_2.fb"));
    Path work = Files.createTempDirectory("modelfs-seeds");
    for (Path f : fixtures) {
      byte[] fb = Files.readAllBytes(f);
      seed("ReaderFuzzTest", "fb", fb);
      if (!f.getFileName().toString().startsWith("mlp") && !f.getFileName().toString().startsWith("dtypes")) {
        continue; // the other formats from the three main fixtures only: a small corpus
      }
      try (Model m = Models.open(f)) {
        String base = f.getFileName().toString().replace(".fb", "");
        byte[] sdnb = write(m, work.resolve(base + ".sdnb"), WriteOptions.of(ModelFormat.SDNB)).get(0);
        seed("ReaderFuzzTest", "sdnb", sdnb);
        for (boolean deflate : new boolean[] {false, true}) {
          byte[] sdz = write(m, work.resolve(base + deflate + ".sdz"), WriteOptions.of(ModelFormat.SDZ).withDeflate(deflate)).get(0);
          seed("ReaderFuzzTest", "sdz", sdz);
          seed("ZipDirectoryFuzzTest", "centralDirectory", sdz);
        }
        for (boolean deflate : new boolean[] {false, true}) {
          byte[] c = write(m, work.resolve(base + deflate + ".sdmc"),
              WriteOptions.of(ModelFormat.CONTAINER).withDeflate(deflate)).get(0);
          seed("ReaderFuzzTest", "container", c);
          seed("org/modelfs/format/unified", "ContainerFuzzTest", "read", c);
        }
        byte[] twoTags = twoTags(m.newest(), work.resolve(base + "_tags.sdmc"));
        seed("ReaderFuzzTest", "container", twoTags);
        seed("org/modelfs/format/unified", "ContainerFuzzTest", "read", twoTags);
        byte[] zip = write(m, work.resolve(base + ".zip"), WriteOptions.of(ModelFormat.ZIP_TAGS)).get(0);
        seed("ReaderFuzzTest", "zipTags", zip);
        seed("ZipDirectoryFuzzTest", "centralDirectory", zip);
        List<byte[]> shards = write(m, work.resolve(base + "_sharded.sdnb"),
            WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(1024));
        if (shards.size() <= 4) {
          seed("ReaderFuzzTest", "sharded", ReaderFuzzTest.framed(shards));
        }
        seed("ReaderFuzzTest", "sharded", ReaderFuzzTest.framed(List.of(sdnb)));
      }
    }
    // chunked and appended arrays, older-layout UTF8 (docs/FORMATS.md §3.8, §10)
    for (Map.Entry<String, byte[]> e : HandArrays.samples().entrySet()) {
      seed("ReaderFuzzTest", e.getKey().endsWith(".sdnb") ? "sdnb" : "fb", e.getValue());
    }
    for (byte[] manifest : ManifestSeeds.seeds()) {
      seed("org/modelfs/format/sdnb", "ManifestFuzzTest", "parse", manifest);
    }
    for (String s : List.of("layer0/W%2Fx", "%C3%A9/%2E%2E/100%25", "a\0b%00%", "%F0%9F%98%80%zz%FF", "%")) {
      seed("NameMappingFuzzTest", "roundTripAndInjectivity", s.getBytes(StandardCharsets.UTF_8));
    }
    for (byte[] r : RecoverySeeds.seeds()) {
      seed("RecoveryFuzzTest", "recover", r);
    }
    for (byte[] g : GraphJsonFuzzSeeds.seeds()) {
      seed("org/modelfs/provider", "GraphJsonFuzzTest", "write", g);
    }
  }

  /** A container holding {@code t} twice, as tags {@code v1} and {@code v2} (with metadata). */
  private static byte[] twoTags(Tag t, Path out) throws IOException {
    Tag v1 = new Tag("v1", t.graph(), t.variables(), t.updater(), t.trainingConfig(), Map.of());
    Tag v2 = new Tag("v2", t.graph(), t.variables(), t.updater(), t.trainingConfig(), Map.of("note", "seed"));
    ModelFiles.writeTags(List.of(v1, v2), out, WriteOptions.of(ModelFormat.CONTAINER));
    return Files.readAllBytes(out);
  }

  private static List<byte[]> write(Model m, Path out, WriteOptions opts) throws IOException {
    List<byte[]> bytes = new ArrayList<>();
    for (Path p : ModelFiles.write(m.newest(), out, opts)) {
      bytes.add(Files.readAllBytes(p));
    }
    return bytes;
  }

  private static void seed(String testClass, String method, byte[] bytes) throws IOException {
    seed("org/modelfs/fuzz", testClass, method, bytes);
  }

  private static void seed(String pkg, String testClass, String method, byte[] bytes) throws IOException {
    Path dir = Files.createDirectories(RESOURCES.resolve(pkg).resolve(testClass + "Inputs").resolve(method));
    Files.write(dir.resolve("seed-" + sha1(bytes)), bytes);
  }

  private static String sha1(byte[] b) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(b));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
