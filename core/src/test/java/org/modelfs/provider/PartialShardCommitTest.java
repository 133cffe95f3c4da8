package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.zip.ZipFile;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.ModelFileSystems;
import org.modelfs.format.WriteOptions;
import org.modelfs.format.sdnb.ShardNames;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.FloatPattern;
import org.modelfs.testing.SyntheticModels;
import org.modelfs.verify.Verifier;

/**
 * A commit of a mounted shard set writes the graph shard and the weight shards it changed, and
 * keeps every other weight shard as it is: the same file (file key, size, modification time), not
 * copied, not renamed (docs/FILESYSTEM.md §7.4). Checked for sharded SDNB and sharded containers
 * (stored and deflated): a changed parameter, a metadata-only change, a new parameter, a deleted
 * one, updater state; every value reads back right and {@code verify} finds nothing wrong.
 */
class PartialShardCommitTest {
  private static final int ARRAYS = 8;
  private static final int ELEMENTS = 1000; // 4,000 bytes an array
  /** Two arrays a weight shard (64 KiB shard overhead + 2 × (4,000 + 256)): four weight shards. */
  private static final long TWO_A_SHARD = 64 * 1024 + 2 * 4256;

  @TempDir Path tmp;

  /** The shard sets under test. */
  enum Kind {
    SDNB(ModelFormat.SHARDED_SDNB, "m.sdnb", false),
    CONTAINER(ModelFormat.SHARDED_CONTAINER, "m.sdmc", false),
    CONTAINER_DEFLATED(ModelFormat.SHARDED_CONTAINER, "m.sdmc", true);

    final ModelFormat format;
    final String file;
    final boolean deflate;

    Kind(ModelFormat format, String file, boolean deflate) {
      this.format = format;
      this.file = file;
      this.deflate = deflate;
    }

    Map<String, Object> env() {
      return deflate ? Map.of("compression", "deflate") : Map.of();
    }

    /** {@link #env()} with the mount option {@code maxShardBytes}. */
    Map<String, Object> env(long maxShardBytes) {
      Map<String, Object> env = new HashMap<>(env());
      env.put("maxShardBytes", Long.toString(maxShardBytes));
      return env;
    }
  }

  private Path create(Kind kind) throws IOException {
    Path data = tmp.resolve("data.bin");
    SyntheticModels.Synthetic s = SyntheticModels.floats(data, ARRAYS, ELEMENTS);
    Path model = tmp.resolve(kind.file);
    try (var src = s.data()) {
      ModelFiles.write(s.tag(), model, WriteOptions.of(kind.format).withMaxShardBytes(TWO_A_SHARD)
          .withDeflate(kind.deflate));
    }
    Files.delete(data);
    assertEquals(5, shards(model).size(), "a graph shard and four weight shards");
    return model;
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void aChangedParameterRewritesItsShardAndTheGraphShardOnly(Kind kind) throws Exception {
    Path model = create(kind);
    Map<String, String> before = identities(model);
    try (FileSystem fs = ModelFileSystems.open(model, kind.env())) {
      Files.write(fs.getPath("/params/big/w3"), floats(ELEMENTS, 7f));
    }
    Map<String, String> after = identities(model);
    assertEquals(before.keySet(), after.keySet(), "the same shard names");
    List<String> changed = changed(before, after);
    assertEquals(2, changed.size(), "the graph shard and the shard of w3 are new: " + changed);
    assertTrue(changed.contains(ShardNames.name("m", 0, 5, ext(kind))), "the graph shard is always written");
    assertValues(model, kind, Map.of(3, 7f));
    assertVerifies(model);
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void aMetadataChangeRewritesTheGraphShardOnly(Kind kind) throws Exception {
    Path model = create(kind);
    Map<String, String> before = identities(model);
    try (FileSystem fs = ModelFileSystems.open(model, kind.env())) {
      Files.writeString(fs.getPath("/metadata/note"), "hello");
    }
    List<String> changed = changed(before, identities(model));
    assertEquals(List.of(ShardNames.name("m", 0, 5, ext(kind))), changed);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      assertEquals("hello", Files.readString(fs.getPath("/metadata/note")));
    }
    assertValues(model, kind, Map.of());
    assertVerifies(model);
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void aNewParameterJoinsARewrittenShardWhenItFits(Kind kind) throws Exception {
    Path model = create(kind);
    Map<String, String> before = identities(model);
    try (FileSystem fs = ModelFileSystems.open(model, kind.env())) {
      Files.write(fs.getPath("/params/big/w5"), floats(ELEMENTS, 9f));
      Files.write(fs.getPath("/params/small"), floats(4, 2f)); // 16 bytes: fits beside w5's shard
    }
    List<String> changed = changed(before, identities(model));
    assertEquals(2, changed.size(), "the graph shard and the shard of w5, which takes the new one too: " + changed);
    assertValues(model, kind, Map.of(5, 9f));
    try (FileSystem fs = ModelFileSystems.open(model)) {
      assertEquals(2f, floatsOf(fs.getPath("/params/small"))[3]);
    }
    assertVerifies(model);
  }

  @ParameterizedTest
  @EnumSource(Kind.class)
  void aDeletedParameterRewritesItsShardOnly(Kind kind) throws Exception {
    Path model = create(kind);
    Map<String, String> before = identities(model);
    try (FileSystem fs = ModelFileSystems.open(model, kind.env())) {
      Files.delete(fs.getPath("/params/big/w6"));
    }
    List<String> changed = changed(before, identities(model));
    assertEquals(2, changed.size(), "the graph shard and the shard w6 left: " + changed);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      assertFalse(Files.exists(fs.getPath("/params/big/w6")));
      for (int i = 0; i < ARRAYS; i++) {
        if (i != 6) {
          assertEquals(FloatPattern.value(i, ELEMENTS - 1), floatsOf(fs.getPath("/params/big/w" + i))[ELEMENTS - 1]);
        }
      }
    }
    assertVerifies(model);
  }

  /**
   * When the packing read cannot hold the change under the mount's {@code maxShardBytes} — here
   * w2 grows so that it and its shard neighbour pass the limit — the model is packed afresh
   * (every shard written) and still reads back whole. Without the option the limit is the
   * largest shard read, or the default, whichever is larger.
   */
  @ParameterizedTest
  @EnumSource(Kind.class)
  void aChangeThePackingCannotHoldPacksAfresh(Kind kind) throws Exception {
    Path model = create(kind);
    Map<String, String> before = identities(model);
    Map<String, Object> env = kind.env(TWO_A_SHARD);
    try (FileSystem fs = ModelFileSystems.open(model, env)) {
      Files.write(fs.getPath("/params/big/w2"), floats(3 * ELEMENTS, 4f));
    }
    Map<String, String> after = identities(model);
    for (Map.Entry<String, String> e : after.entrySet()) {
      assertNotEquals(e.getValue(), before.get(e.getKey()), e.getKey() + ": a fresh packing writes every shard");
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      assertEquals(4f, floatsOf(fs.getPath("/params/big/w2"))[3 * ELEMENTS - 1]);
      assertEquals(FloatPattern.value(3, 5), floatsOf(fs.getPath("/params/big/w3"))[5]);
    }
    assertVerifies(model);
  }

  /** A mount whose {@code maxShardBytes} the read packing keeps to keeps what did not change. */
  @ParameterizedTest
  @EnumSource(Kind.class)
  void anExplicitLimitThePackingKeepsToKeepsShards(Kind kind) throws Exception {
    Path model = create(kind);
    Map<String, String> before = identities(model);
    Map<String, Object> env = kind.env(TWO_A_SHARD);
    try (FileSystem fs = ModelFileSystems.open(model, env)) {
      Files.write(fs.getPath("/params/big/w0"), floats(ELEMENTS, 5f));
    }
    assertEquals(2, changed(before, identities(model)).size());
    assertValues(model, kind, Map.of(0, 5f));
  }

  /** Updater state is part of its parameter's shard: changing it rewrites that shard only. */
  @ParameterizedTest
  @EnumSource(Kind.class)
  void changedUpdaterStateRewritesItsShardOnly(Kind kind) throws Exception {
    Path data = tmp.resolve("named.bin");
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      names.add("p" + i);
    }
    SyntheticModels.Synthetic s = SyntheticModels.named(data, names, Map.of());
    Path model = tmp.resolve(kind.file);
    Tag t = s.tag();
    t = new Tag(t.name(), t.graph(), t.variables(), t.updater(),
        "{\"updater\":{\"@class\":\"org.nd4j.linalg.learning.config.Adam\"}}", t.metadata());
    try (var src = s.data()) {
      // one parameter and its state a weight shard: 64 KiB + 8 + 16 + 256 bytes each
      ModelFiles.write(t, model, WriteOptions.of(kind.format).withMaxShardBytes(64 * 1024 + 300)
          .withDeflate(kind.deflate));
    }
    Files.delete(data);
    Map<String, String> before = identities(model);
    assertEquals(7, before.size());
    try (FileSystem fs = ModelFileSystems.open(model, kind.env())) {
      Files.write(fs.getPath("/updater/p4/M"), floats(2, 42f));
    }
    List<String> changed = changed(before, identities(model));
    assertEquals(2, changed.size(), "the graph shard and p4's: " + changed);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      assertEquals(42f, floatsOf(fs.getPath("/updater/p4/M"))[1]);
      assertEquals(-3.5f, floatsOf(fs.getPath("/updater/p3/M"))[1]);
      assertEquals(13.5f, floatsOf(fs.getPath("/updater/p3/V"))[1]);
    }
    assertVerifies(model);
  }

  /**
   * A sharded SDZ (one file: the shards are its entries) keeps its shards, and a commit copies
   * the unchanged shard entries as they are stored: deflated at level 1 when written, they keep
   * their level-1 DEFLATE streams byte for byte through a commit at the default level, while the
   * graph shard and the changed one are compressed again.
   */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aShardedSdzCopiesItsUnchangedShardEntriesAsStored(boolean deflate) throws Exception {
    Path data = tmp.resolve("data.bin");
    SyntheticModels.Synthetic s = SyntheticModels.floats(data, ARRAYS, ELEMENTS);
    Path model = tmp.resolve("m.sdz");
    try (var src = s.data()) {
      ModelFiles.write(s.tag(), model, WriteOptions.of(ModelFormat.SDZ).withMaxShardBytes(TWO_A_SHARD)
          .withDeflate(deflate).withLevel(1));
    }
    Files.delete(data);
    Map<String, byte[]> before = rawEntries(model);
    assertEquals(5, before.size(), "a graph shard and four weight shards: " + before.keySet());
    try (FileSystem fs = ModelFileSystems.open(model, deflate ? Map.of("compression", "deflate") : Map.of())) {
      Files.write(fs.getPath("/params/big/w3"), floats(ELEMENTS, 7f));
    }
    Map<String, byte[]> after = rawEntries(model);
    assertEquals(before.keySet(), after.keySet(), "the same shard entries: the SDZ stays sharded");
    List<String> changed = new ArrayList<>();
    for (String n : after.keySet()) {
      if (!Arrays.equals(before.get(n), after.get(n))) {
        changed.add(n);
      }
    }
    // written again: w3's shard, and the graph shard (whose stored bytes are the same as before:
    // the graph did not change; deflated at the commit's level they differ from level 1's)
    changed.remove("model.shard0-of-5.sdnb");
    assertEquals(1, changed.size(), "only w3's weight shard is written again, the others copied: " + changed);
    if (deflate) {
      assertFalse(Arrays.equals(before.get("model.shard0-of-5.sdnb"), after.get("model.shard0-of-5.sdnb")),
          "the graph shard is deflated again at the commit's level");
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      for (int i = 0; i < ARRAYS; i++) {
        float[] v = floatsOf(fs.getPath("/params/big/w" + i));
        assertEquals(i == 3 ? 7f : FloatPattern.value(i, ELEMENTS - 1), v[ELEMENTS - 1], "w" + i);
      }
    }
    assertVerifies(model);
  }

  /** Each shard entry of a zip: its bytes as stored (compressed where deflated). */
  private static Map<String, byte[]> rawEntries(Path zip) throws IOException {
    Map<String, byte[]> out = new TreeMap<>();
    try (ZipFile zf = ZipFile.builder()
        .setPath(zip).get()) {
      for (var e : Collections.list(zf.getEntries())) {
        if (ShardNames.parse(e.getName()) != null) {
          try (var in = zf.getRawInputStream(e)) {
            out.put(e.getName(), in.readAllBytes());
          }
        }
      }
    }
    return out;
  }

  // ---- helpers ---------------------------------------------------------------------------------

  private static String ext(Kind kind) {
    return kind.format == ModelFormat.SHARDED_SDNB ? ShardNames.SDNB : ShardNames.CONTAINER;
  }

  private static List<Path> shards(Path model) throws IOException {
    try (Stream<Path> s = Files.list(model.getParent())) {
      return s.filter(p -> ShardNames.parseAny(p.getFileName().toString()) != null).sorted().toList();
    }
  }

  /** Each shard file's identity: file key, size and modification time. */
  private static Map<String, String> identities(Path model) throws IOException {
    Map<String, String> out = new TreeMap<>();
    for (Path p : shards(model)) {
      BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
      out.put(p.getFileName().toString(), a.fileKey() + "/" + a.size() + "/" + a.lastModifiedTime().toMillis());
    }
    return out;
  }

  /** The shards whose identity changed; the shard names must be the same (the set keeps its count). */
  private static List<String> changed(Map<String, String> before, Map<String, String> after) {
    assertEquals(before.keySet(), after.keySet(), "the same shard names");
    List<String> out = new ArrayList<>();
    after.forEach((n, id) -> {
      if (!id.equals(before.get(n))) {
        out.add(n);
      }
    });
    return out;
  }

  private static byte[] floats(int n, float v) {
    ByteBuffer b = ByteBuffer.allocate(4 * n).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < n; i++) {
      b.putFloat(v);
    }
    return b.array();
  }

  private static float[] floatsOf(Path p) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(p)).order(ByteOrder.LITTLE_ENDIAN);
    float[] out = new float[b.remaining() / 4];
    for (int i = 0; i < out.length; i++) {
      out[i] = b.getFloat();
    }
    return out;
  }

  /** Every array holds the generated pattern, or {@code changed}'s value where it was rewritten. */
  private static void assertValues(Path model, Kind kind, Map<Integer, Float> changed) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(model)) {
      for (int i = 0; i < ARRAYS; i++) {
        float[] v = floatsOf(fs.getPath("/params/big/w" + i));
        assertEquals(ELEMENTS, v.length, kind + ": w" + i);
        for (int j = 0; j < ELEMENTS; j++) {
          float want = changed.containsKey(i) ? changed.get(i) : FloatPattern.value(i, j);
          if (v[j] != want) {
            assertEquals(want, v[j], kind + ": w" + i + "[" + j + "]");
          }
        }
      }
    }
  }

  private static void assertVerifies(Path model) throws IOException {
    var report = Verifier.verify(model, Verifier.Options.defaults());
    assertTrue(report.ok(), report.problems().toString());
  }
}
