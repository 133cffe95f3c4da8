package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.container.Models;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.WriteOptions;
import org.modelfs.format.fb.GraphWriter;
import org.modelfs.format.sdnb.SdnbFormat;
import org.modelfs.format.sdnb.ShardNames;
import org.modelfs.format.sdnb.ShardedFormat;
import org.modelfs.io.CountingOutput;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;
import org.modelfs.model.Variable;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.FloatPattern;
import org.modelfs.testing.SyntheticModels;

/**
 * Shard sets a commit must not keep shards of blindly (found by the issue-18 review): shards read
 * from other spellings of their names (zero-padded numbers, with a stale file at the standard
 * name), a shard that is a link whose target was replaced after the mount read it, and a graph
 * shard holding updater state. Each commit must give exactly what the mount showed.
 */
class KeptShardHostileTest {
  private static final int ARRAYS = 8;
  private static final int ELEMENTS = 1000;
  private static final long TWO_A_SHARD = 64 * 1024 + 2 * 4256;

  @TempDir Path tmp;

  private Path create(Path dir) throws IOException {
    Files.createDirectories(dir);
    Path data = dir.resolve("data.bin");
    SyntheticModels.Synthetic s = SyntheticModels.floats(data, ARRAYS, ELEMENTS);
    Path model = dir.resolve("m.sdnb");
    try (var src = s.data()) {
      ModelFiles.write(s.tag(), model, WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(TWO_A_SHARD));
    }
    Files.delete(data);
    return model;
  }


  /** A set named with zero-padded shard numbers (accepted by ShardNames.parseAny and mounted). */
  @Test
  void zeroPaddedShardNames() throws Exception {
    Path model = create(tmp.resolve("pad"));
    Path dir = model.getParent();
    for (int k = 0; k < 5; k++) {
      Files.move(dir.resolve(ShardNames.name("m", k, 5)), dir.resolve("m.shard0" + k + "-of-05.sdnb"));
    }
    try (FileSystem fs = ModelFileSystems.open(dir.resolve("m.shard00-of-05.sdnb"))) {
      Files.write(fs.getPath("/params/big/w3"), floats(ELEMENTS, 7f));
      ((JournaledFileSystem) fs).commit(); // before the fix: IllegalArgumentException
    }
    try (FileSystem fs = ModelFileSystems.open(dir.resolve("m.sdnb"))) {
      for (int i = 0; i < ARRAYS; i++) {
        assertEquals(i == 3 ? 7f : FloatPattern.value(i, 5), floatsOf(fs.getPath("/params/big/w" + i))[5], "w" + i);
      }
    }
  }

  /**
   * A set found with a padded name for shard k while a stale file sits at shard k's canonical
   * name: refused at open, naming both, touching neither.
   */
  @Test
  void paddedAndCanonicalDuplicate() throws Exception {
    for (int attempt = 0; attempt < 6; attempt++) {
      Path model = create(tmp.resolve("dup" + attempt));
      Path dir = model.getParent();
      int k0 = -1;
      // keep a stale copy of every weight shard, then change w0 (one shard rewritten)
      Path stale = Files.createDirectories(tmp.resolve("stale" + attempt));
      for (int k = 1; k < 5; k++) {
        Files.copy(dir.resolve(ShardNames.name("m", k, 5)), stale.resolve(ShardNames.name("m", k, 5)));
      }
      try (FileSystem fs = ModelFileSystems.open(model, Map.of("maxShardBytes", Long.toString(TWO_A_SHARD)))) {
        Files.write(fs.getPath("/params/big/w0"), floats(ELEMENTS, 5f));
      }
      // the shard of w0 now: move it to a padded name, put the stale copy at the canonical name
      for (int k = 1; k < 5; k++) {
        String n = ShardNames.name("m", k, 5);
        if (Files.mismatch(dir.resolve(n), stale.resolve(n)) != -1) {
          k0 = k;
        }
      }
      String canon = ShardNames.name("m", k0, 5);
      String[] pads = {"m.shard00000" + k0 + "-of-05.sdnb", "m.shard" + k0 + "-of-05.sdnb", "m.shard00" + k0 + "-of-5.sdnb",
          "m.shard" + k0 + "-of-005.sdnb", "m.shard0" + k0 + "-of-05.sdnb", "m.shard000" + k0 + "-of-5.sdnb"};
      String pad = pads[attempt];
      Path aside = tmp.resolve("aside" + attempt);
      Files.move(dir.resolve(canon), aside);

      Files.copy(stale.resolve(canon), dir.resolve(canon));
      Files.move(aside, dir.resolve(pad));
      // two files claim one shard: the set is refused (before: the mount read whichever was listed
      // last, and a commit then kept the stale one and deleted the other)
      ModelFormatException e = Assertions.assertThrows(
          ModelFormatException.class, () -> ModelFileSystems.open(model).close());
      Assertions.assertTrue(e.getMessage().contains(pad) && e.getMessage().contains(canon),
          e.getMessage());
      Assertions.assertTrue(Files.exists(dir.resolve(pad)) && Files.exists(dir.resolve(canon)),
          "both files are left as they are");
    }
  }


  /**
   * A weight shard that is a symbolic link to a file elsewhere (shared frozen weights). The file
   * behind the link is replaced after the mount read it (the stamp of the link does not change,
   * so the generation check passes); a commit of an unrelated change keeps the link.
   */
  @Test
  void symlinkedShardReplacedBehindTheLink() throws Exception {
    Map<String, Object> env = Map.of("maxShardBytes", Long.toString(TWO_A_SHARD));
    Path model = create(tmp.resolve("sym"));
    Path dir = model.getParent();
    Path shared = Files.createDirectories(tmp.resolve("shared"));
    // which weight shard holds w0: change it once through a copy of the model
    Path otherDir = Files.createDirectories(tmp.resolve("other"));
    for (int k = 0; k < 5; k++) {
      Files.copy(dir.resolve(ShardNames.name("m", k, 5)), otherDir.resolve(ShardNames.name("m", k, 5)));
    }
    Path other = otherDir.resolve("m.sdnb");
    try (FileSystem fs = ModelFileSystems.open(other, env)) {
      Files.write(fs.getPath("/params/big/w0"), floats(ELEMENTS, 5f));
    }
    int k0 = -1;
    for (int k = 1; k < 5; k++) {
      String n = ShardNames.name("m", k, 5);
      if (Files.mismatch(dir.resolve(n), other.getParent().resolve(n)) != -1) {
        k0 = k;
      }
    }
    String n = ShardNames.name("m", k0, 5);
    Files.move(dir.resolve(n), shared.resolve("frozen.sdnb"));
    Files.createSymbolicLink(dir.resolve(n), shared.resolve("frozen.sdnb"));
    float shown;
    try (FileSystem fs = ModelFileSystems.open(model, env)) {
      shown = floatsOf(fs.getPath("/params/big/w0"))[5];
      // the shared file is updated (atomically) by its owner
      Files.copy(other.getParent().resolve(n), shared.resolve("frozen.tmp"));
      Files.move(shared.resolve("frozen.tmp"), shared.resolve("frozen.sdnb"), StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
      assertEquals(shown, floatsOf(fs.getPath("/params/big/w0"))[5], "the open mount reads the file it opened");
      Files.write(fs.getPath("/params/big/w3"), floats(ELEMENTS, 7f));
    }
    try (FileSystem fs = ModelFileSystems.open(model, env)) {
      assertEquals(shown, floatsOf(fs.getPath("/params/big/w0"))[5], "w0 as the mount showed it, not the file now behind the link");
      assertEquals(7f, floatsOf(fs.getPath("/params/big/w3"))[5]);
    }
    assertEquals(false, Files.isSymbolicLink(dir.resolve(n)), "the shard read through a link is written as a file of the model");
  }


  /**
   * A sharded SDNB whose graph shard holds the updater state (our reader accepts it: it takes
   * shard 0's updater state) and whose weight shards hold the parameters only.
   */
  @Test
  void updaterStateInTheGraphShard() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("upd"));
    Path data = dir.resolve("named.bin");
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      names.add("p" + i);
    }
    SyntheticModels.Synthetic syn = SyntheticModels.named(data, names, Map.of());
    Path model = dir.resolve("m.sdnb");
    Tag t0 = syn.tag();
    Tag t = new Tag(t0.name(), t0.graph(), t0.variables(), t0.updater(),
        "{\"updater\":{\"@class\":\"org.nd4j.linalg.learning.config.Adam\"}}", t0.metadata());
    try (var src = syn.data()) {
      ModelFiles.write(t, model, WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(64 * 1024 + 300));
    }
    Files.delete(data);
    int n;
    try (Model m = Models.open(model)) {
      Tag read = m.tags().get(0);
      List<Set<String>> layout = ShardedFormat.plan(read, 64 * 1024 + 300);
      n = layout.size() + 1;
      List<Variable> stubs = new ArrayList<>();
      for (Variable v : read.variables()) {
        stubs.add(v.withArray(null));
      }
      Tag graph = new Tag(read.name(), read.graph(), stubs, read.updater(),
          read.trainingConfig(), read.metadata());
      Tag noUpdater = new Tag(read.name(), read.graph(), read.variables(),
          List.of(), read.trainingConfig(), read.metadata());
      writeSdnb(SdnbFormat.prepare(graph, GraphWriter.Mode.SDNB,
          Set.of(), SdnbFormat.metadataFor(read, 0, true), "x"),
          dir.resolve("new0"));
      for (int k = 1; k < n; k++) {
        writeSdnb(SdnbFormat.prepare(noUpdater, GraphWriter.Mode.SHARD_WEIGHTS,
            layout.get(k - 1), SdnbFormat.metadataFor(read, k, false), "x"),
            dir.resolve("new" + k));
      }
    }
    for (int k = 0; k < n; k++) {
      Files.move(dir.resolve("new" + k), dir.resolve(ShardNames.name("m", k, n)), StandardCopyOption.REPLACE_EXISTING);
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      assertEquals(-3.5f, floatsOf(fs.getPath("/updater/p3/M"))[1]);
      Files.writeString(fs.getPath("/metadata/note"), "hello");
      ((JournaledFileSystem) fs).commit(); // before the fix: refused, the state read back with none
    }
    try (FileSystem fs = ModelFileSystems.open(model)) {
      assertEquals(-3.5f, floatsOf(fs.getPath("/updater/p3/M"))[1]);
      assertEquals("hello", Files.readString(fs.getPath("/metadata/note")));
    }
  }

  private static void writeSdnb(SdnbFormat.Prepared p, Path to) throws IOException {
    try (FileChannel ch = FileChannel.open(to, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE)) {
      p.writeTo(new CountingOutput(ch));
    }
  }


  static byte[] floats(int n, float v) {
    ByteBuffer b = ByteBuffer.allocate(4 * n).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < n; i++) {
      b.putFloat(v);
    }
    return b.array();
  }

  static float[] floatsOf(Path p) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(p)).order(ByteOrder.LITTLE_ENDIAN);
    float[] out = new float[b.remaining() / 4];
    for (int i = 0; i < out.length; i++) {
      out[i] = b.getFloat();
    }
    return out;
  }
}
