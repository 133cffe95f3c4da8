package org.modelfs.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.container.ContainerPlan;
import org.modelfs.container.ModelWriter;
import org.modelfs.format.WriteOptions;
import org.modelfs.format.sdnb.ShardNames;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;
import org.modelfs.model.Variable;
import org.modelfs.testing.ModelTsv;
import org.modelfs.testing.SyntheticModels;

/**
 * What every {@link Backing} must do, whatever it stores models in (Lucene's
 * {@code BaseDirectoryTestCase} for ModelFS): a backing's test extends this class in its own
 * module (core's test jar holds it) and says how to make a backing for a fresh model; every test
 * here must pass unchanged. docs/ARCHITECTURE.md "A new backing".
 */
public abstract class BackingContractTest {
  private static final int ELEMENTS = 64;
  private static final WriteOptions SDNB = WriteOptions.of(ModelFormat.SDNB);
  /** One 256-byte array a weight shard: four arrays are a graph shard and four weight shards. */
  private static final WriteOptions SHARDED = WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(4L * ELEMENTS);

  @TempDir protected Path tmp;
  private SyntheticModels.Synthetic v1;
  private SyntheticModels.Synthetic v2;

  /**
   * A backing for a new model named {@code fileName} ({@code m.sdnb}, {@code m.fb}) in a place no
   * other test uses; {@code shardSet}: written as {@code <base>.shard<k>-of-<N>.sdnb}.
   */
  protected abstract Backing newBacking(String fileName, boolean shardSet) throws IOException;

  /** Another client's backing of the same model as {@code b} (a second writer or reader: another process's view). */
  protected abstract Backing anotherClient(Backing b) throws IOException;

  /**
   * An identity of the stored bytes of each file of the model now, by its file name
   * ({@code m.shard1-of-4.sdnb}): equal before and after a commit exactly when the file was kept,
   * not rewritten (a file's key and time, an object's key and ETag).
   */
  protected abstract Map<String, String> storedFiles(Backing b) throws IOException;

  /**
   * Whether a reader of the model opened before a commit still reads it whole afterwards. Where
   * not promised, such a reader must fail with an {@link IOException}, never read a mix.
   */
  protected boolean keepsOldGenerationReadable(boolean shardSet) {
    return true;
  }

  @BeforeEach
  void models() throws IOException {
    v1 = SyntheticModels.floats(tmp.resolve("v1.bin"), 4, ELEMENTS);
    v2 = SyntheticModels.floats(tmp.resolve("v2.bin"), 3, ELEMENTS);
  }

  @AfterEach
  void closeModels() throws IOException {
    v1.data().close();
    v2.data().close();
  }

  private static ContainerPlan plan(Tag tag, Backing b, WriteOptions o) throws IOException {
    return ModelWriter.plan(List.of(tag), b.fileName(), o);
  }

  private static void commit(Backing b, ContainerPlan plan) throws IOException {
    try (Backing.Lease l = b.lock()) {
      b.recover(l);
      b.commit(l, b.current(), plan);
    }
  }

  private static String tsv(Backing b) throws IOException {
    Snapshot s = b.open();
    try (Model m = s.model()) {
      return ModelTsv.of(m.newest());
    }
  }

  @Test
  void openingAMissingModelIsNoSuchFile() throws IOException {
    Backing b = newBacking("missing.sdnb", false);
    assertThrows(NoSuchFileException.class, b::open);
    assertEquals(Generation.NONE, b.current());
    assertEquals(List.of(), b.files());
  }

  @Test
  void aCommittedModelIsWhatTheNextOpenReadsAndItsGenerationChanges() throws IOException {
    for (boolean shardSet : new boolean[] {false, true}) {
      Backing b = newBacking("m.sdnb", shardSet);
      WriteOptions o = shardSet ? SHARDED : SDNB;
      commit(b, plan(v1.tag(), b, o));
      Generation first = b.current();
      assertNotEquals(Generation.NONE, first);
      assertEquals(ModelTsv.of(v1.tag()), tsv(b));
      assertEquals(first, b.open().generation(), "open reads the generation current() names");
      commit(b, plan(v2.tag(), b, o));
      assertNotEquals(first, b.current(), "a commit changes the generation");
      assertEquals(ModelTsv.of(v2.tag()), tsv(b));
      assertEquals(ModelTsv.of(v2.tag()), tsv(anotherClient(b)), "another client sees the commit");
    }
  }

  @Test
  void aCommitAgainstAStaleGenerationIsRefusedAndChangesNothing() throws IOException {
    Backing b = newBacking("m.sdnb", false);
    commit(b, plan(v1.tag(), b, SDNB));
    Generation mounted = b.current();
    Backing other = anotherClient(b);
    commit(other, plan(v2.tag(), other, SDNB));
    Generation now = b.current();
    assertNotEquals(mounted, now);
    List<Path> files = b.files();
    AtomicLong bodies = new AtomicLong();
    ContainerPlan counting = withBodies(plan(v1.tag(), b, SDNB), i -> (ch, what) -> bodies.incrementAndGet());
    try (Backing.Lease l = b.lock()) {
      assertThrows(ModelChangedException.class, () -> b.commit(l, mounted, counting));
    }
    assertEquals(0, bodies.get(), "nothing was written");
    assertEquals(now, b.current());
    assertEquals(files, b.files());
    assertEquals(ModelTsv.of(v2.tag()), tsv(b));
  }

  @Test
  void ofTwoWritersOneIsRefused() throws IOException {
    Backing b = newBacking("m.sdnb", false);
    commit(b, plan(v1.tag(), b, SDNB));
    Backing other = anotherClient(b);
    Generation mounted = b.current();
    try (Backing.Lease first = b.lock()) {
      Backing.Lease second;
      try {
        second = other.lock();
      } catch (FileSystemException refused) {
        return; // the lock refuses the second writer
      }
      try (second) {
        // the lock is this client's only: the commit point must refuse the second writer
        b.commit(first, mounted, plan(v2.tag(), b, SDNB));
        assertThrows(ModelChangedException.class, () -> other.commit(second, mounted, plan(v1.tag(), other, SDNB)));
      }
    }
    assertEquals(ModelTsv.of(v2.tag()), tsv(b));
  }

  @Test
  void aCommitThatDoesNotReadBackLeavesTheModelAndCleanRemovesOnlyLeftovers() throws IOException {
    for (boolean shardSet : new boolean[] {false, true}) {
      Backing b = newBacking("m.sdnb", shardSet);
      WriteOptions o = shardSet ? SHARDED : SDNB;
      commit(b, plan(v1.tag(), b, o));
      Generation gen = b.current();
      List<Path> files = b.files();
      Map<String, String> stored = storedFiles(b);
      ContainerPlan garbage = withBodies(plan(v2.tag(), b, o), i -> (ch, what) ->
          ch.write(ByteBuffer.wrap("certainly not a model".getBytes(StandardCharsets.US_ASCII))));
      FileSystemException e = assertThrows(FileSystemException.class, () -> commit(b, garbage));
      assertTrue(e.getReason().contains("does not read back"), e.getReason());
      assertEquals(gen, b.current());
      assertEquals(files, b.files());
      assertEquals(stored, storedFiles(b));
      assertEquals(List.of(), b.clean(), "the failed commit left nothing to clean");
      assertEquals(ModelTsv.of(v1.tag()), tsv(b));
    }
  }

  @Test
  void filesAreExactlyTheModelsFiles() throws IOException {
    for (boolean shardSet : new boolean[] {false, true}) {
      Backing b = newBacking("m.sdnb", shardSet);
      commit(b, plan(v1.tag(), b, shardSet ? SHARDED : SDNB));
      Backing neighbour = newBacking("m.sdnb", false);
      commit(neighbour, plan(v2.tag(), neighbour, SDNB)); // another model elsewhere: none of b's
      List<Path> files = b.files();
      assertFalse(files.isEmpty());
      assertEquals(files.stream().sorted().toList(), files, "in name order");
      for (Path p : files) {
        String n = p.getFileName().toString();
        ShardNames.Shard s = ShardNames.parse(n);
        assertTrue(n.equals(b.fileName()) || shardSet && s != null && s.base().equals("m"), n);
      }
      assertEquals(files, anotherClient(b).files());
    }
  }

  @Test
  void aShardSetCommitKeepsItsUnchangedShardsAsTheyAre() throws IOException {
    Backing b = newBacking("m.sdnb", true);
    assumeTrue(b.keepsUnchangedFiles(), "this backing rewrites every shard");
    commit(b, plan(v1.tag(), b, SHARDED));
    Map<String, String> before = storedFiles(b);
    Snapshot s = b.open();
    try (Model m = s.model()) {
      Tag old = m.newest();
      List<Variable> vars = new ArrayList<>(old.variables());
      Variable w1 = vars.get(1);
      vars.set(1, new Variable(w1.name(), w1.kind(), w1.dtype(), w1.shape(), v2.tag().variables().get(2).array(), -1));
      Tag changed = new Tag(old.name(), old.graph(), vars, old.updater(), old.trainingConfig(), old.metadata());
      ContainerPlan p = ModelWriter.plan(List.of(changed), b.fileName(), SHARDED, m, true);
      assertTrue(p.keepsFiles(), "the plan keeps the unchanged weight shards");
      try (Backing.Lease l = b.lock()) {
        b.commit(l, s.generation(), p);
      }
      Map<String, String> after = storedFiles(b);
      for (ContainerPlan.PlannedFile f : p.files()) {
        if (f.kept()) {
          assertEquals(before.get(f.name()), after.get(f.name()), f.name() + " is kept as it was");
        } else {
          assertNotEquals(before.get(f.name()), after.get(f.name()), f.name() + " is written anew");
        }
      }
      assertEquals(ModelTsv.of(changed), tsv(b));
    }
  }

  @Test
  void progressIsMonotonicAndNeverExceedsWhatIsWritten() throws IOException {
    for (boolean shardSet : new boolean[] {false, true}) {
      Backing b = newBacking("m.sdnb", shardSet);
      ContainerPlan real = plan(v1.tag(), b, shardSet ? SHARDED : SDNB);
      AtomicLong total = new AtomicLong();
      ContainerPlan measured = withBodies(real, i -> (ch, what) -> {
        real.files().get(i).body().writeTo(ch, what);
        total.addAndGet(ch.size());
      });
      List<Long> heard = new ArrayList<>();
      try (Backing.Lease l = b.lock()) {
        b.commit(l, b.current(), measured, heard::add);
      }
      long last = 0;
      for (long h : heard) {
        assertTrue(h >= last, "progress went back: " + heard);
        assertTrue(h <= total.get(), "progress " + h + " beyond the " + total.get() + " bytes written");
        last = h;
      }
    }
  }

  @Test
  void aReaderOfTheOldGenerationReadsItWholeOrFailsNeverAMix() throws IOException {
    for (boolean shardSet : new boolean[] {false, true}) {
      Backing b = newBacking("m.sdnb", shardSet);
      WriteOptions o = shardSet ? SHARDED : SDNB;
      commit(b, plan(v1.tag(), b, o));
      Snapshot old = anotherClient(b).open();
      try (Model m = old.model()) {
        commit(b, plan(v2.tag(), b, o));
        if (keepsOldGenerationReadable(shardSet)) {
          assertEquals(ModelTsv.of(v1.tag()), ModelTsv.of(m.newest()));
        } else {
          String read;
          try {
            read = ModelTsv.of(m.newest());
          } catch (IOException | UncheckedIOException failed) {
            continue;
          }
          assertEquals(ModelTsv.of(v1.tag()), read, "the old generation, or a failure");
        }
      }
    }
  }

  /** The plan with every file's body replaced by {@code body} (files it keeps stay kept). */
  private static ContainerPlan withBodies(ContainerPlan p, IntFunction<ContainerPlan.Body> body) {
    List<ContainerPlan.PlannedFile> files = new ArrayList<>();
    for (int i = 0; i < p.files().size(); i++) {
      ContainerPlan.PlannedFile f = p.files().get(i);
      files.add(f.kept() ? f : new ContainerPlan.PlannedFile(f.name(), body.apply(i)));
    }
    return new ContainerPlan(p.tags(), p.options(), files);
  }

  /** Reads a local file's bytes as a string identity (for {@link #storedFiles} of file-based backings). */
  protected static String contentAndKey(Path p) throws IOException {
    Durable.Stamp s = Durable.stamp(p);
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(
          Files.readAllBytes(p))) + "@" + (s == null ? "" : s.key());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e); // every JDK has SHA-256
    }
  }
}
