package org.modelfs.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.container.ContainerPlan;
import org.modelfs.container.ModelWriter;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.format.sdnb.ShardNames;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;
import org.modelfs.testing.ModelTsv;
import org.modelfs.testing.Sidecars;
import org.modelfs.testing.SyntheticModels;

/** {@link LocalBacking}: the commit transaction step by step, and readers that never see two generations. */
class LocalBackingTest {
  private static final int ELEMENTS = 64;
  private static final WriteOptions SDNB = WriteOptions.of(ModelFormat.SDNB);
  /** One 256-byte array a weight shard: three arrays are a graph shard and three weight shards. */
  private static final WriteOptions SHARDED = WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(4L * ELEMENTS);

  @TempDir Path tmp;
  private Path dir;
  private SyntheticModels.Synthetic three;
  private SyntheticModels.Synthetic two;

  @BeforeEach
  void setUp() throws IOException {
    dir = Files.createDirectory(tmp.toRealPath().resolve("models"));
    three = SyntheticModels.floats(tmp.resolve("three.bin"), 3, ELEMENTS);
    two = SyntheticModels.floats(tmp.resolve("two.bin"), 2, ELEMENTS);
  }

  @AfterEach
  void tearDown() throws IOException {
    three.data().close();
    two.data().close();
  }

  private static ContainerPlan plan(Tag tag, LocalBacking b, WriteOptions o) throws IOException {
    return ModelWriter.plan(List.of(tag), b.fileName(), o);
  }

  /** The plan with every file's body replaced by {@code body}. */
  private static ContainerPlan withBodies(ContainerPlan p, IntFunction<ContainerPlan.Body> body) {
    List<ContainerPlan.PlannedFile> files = new ArrayList<>();
    for (int i = 0; i < p.files().size(); i++) {
      files.add(new ContainerPlan.PlannedFile(p.files().get(i).name(), body.apply(i)));
    }
    return new ContainerPlan(p.tags(), p.options(), files);
  }

  private static String tsv(Path model) throws IOException {
    try (Model m = Models.open(model)) {
      return ModelTsv.of(m.newest());
    }
  }

  /** Every name in the model directory. */
  private List<String> names() throws IOException {
    return SafeDir.names(dir).stream().sorted().toList();
  }

  private void commit(LocalBacking b, ContainerPlan plan) throws IOException {
    try (ModelLock l = b.lock()) {
      b.commit(l, b.current(), plan);
    }
  }

  @Test
  void aSingleFileIsWrittenToATemporaryAndRenamedIntoPlace() throws IOException {
    Path model = dir.resolve("m.sdnb");
    Files.writeString(model, "the old bytes");
    LocalBacking b = LocalBacking.of(model);
    ContainerPlan real = plan(three.tag(), b, SDNB);
    List<String> written = new ArrayList<>();
    ContainerPlan watched = withBodies(real, i -> (ch, what) -> {
      written.add(what);
      assertEquals("the old bytes", Files.readString(model), "the target is untouched while the new file is written");
      real.files().get(i).body().writeTo(ch, what);
    });
    try (ModelLock l = b.lock()) {
      Generation before = b.current();
      b.commit(l, before, watched);
      assertNotEquals(before, b.current());
      assertEquals(List.of(SidecarNames.lock("m.sdnb"), "m.sdnb"), names(), "only the model and the held lock");
    }
    assertEquals(1, written.size());
    Path t = Path.of(written.get(0));
    assertEquals(dir, t.getParent());
    assertEquals("m.sdnb", SidecarNames.tempTarget(t.getFileName().toString()), t.toString());
    assertFalse(Files.exists(t), "the temporary was renamed");
    assertEquals(ModelTsv.of(three.tag()), tsv(model));
    assertEquals(List.of("m.sdnb"), names());
    assertEquals(List.of(model), b.files());
  }

  @Test
  void aModelReachedThroughALinkIsCommittedWhereItLivesAndTheLinkKept() throws IOException {
    Path real = dir.resolve("m.fb");
    LocalBacking direct = LocalBacking.of(real);
    commit(direct, plan(two.tag(), direct, WriteOptions.of(ModelFormat.FB)));
    Path link = Files.createSymbolicLink(tmp.resolve("link.fb"), real);
    LocalBacking viaLink = LocalBacking.of(link);
    assertEquals(direct.id(), viaLink.id());
    assertEquals("m.fb", viaLink.fileName());
    commit(viaLink, plan(three.tag(), viaLink, WriteOptions.of(ModelFormat.FB)));
    assertTrue(Files.isSymbolicLink(link), "the link is not replaced by the new file");
    assertEquals(real, Files.readSymbolicLink(link));
    assertEquals(ModelTsv.of(three.tag()), tsv(real));
    assertEquals(ModelTsv.of(three.tag()), tsv(link));
    assertEquals(List.of("m.fb"), names());
  }

  @Test
  void aNewModelIsCreated() throws IOException {
    Path model = dir.resolve("new.fb");
    LocalBacking b = LocalBacking.of(model);
    assertEquals(Generation.NONE, b.current());
    commit(b, plan(three.tag(), b, WriteOptions.of(ModelFormat.FB)));
    assertEquals(ModelTsv.of(three.tag()), tsv(model));
    assertEquals(List.of("new.fb"), names());
    assertEquals(1, b.current().files().size());
    assertTrue(b.current().files().get(0).startsWith("new.fb@"), b.current().toString());
  }

  @Test
  void aChangedGenerationIsRefusedAndNothingIsWritten() throws IOException {
    Path model = dir.resolve("m.sdnb");
    LocalBacking b = LocalBacking.of(model);
    commit(b, plan(two.tag(), b, SDNB));
    Generation mounted = b.current();
    commit(LocalBacking.of(model), plan(three.tag(), b, SDNB)); // another writer
    byte[] now = Files.readAllBytes(model);
    Generation current = b.current();
    assertNotEquals(mounted, current);
    AtomicInteger bodies = new AtomicInteger();
    ContainerPlan counting = withBodies(plan(two.tag(), b, SDNB), i -> (ch, what) -> bodies.incrementAndGet());
    try (ModelLock l = b.lock()) {
      ModelChangedException e = assertThrows(ModelChangedException.class, () -> b.commit(l, mounted, counting));
      assertEquals(model.toString(), e.getFile());
      assertTrue(e.getReason().contains(mounted.toString()) && e.getReason().contains(current.toString()),
          e.getReason());
      assertEquals(List.of(SidecarNames.lock("m.sdnb"), "m.sdnb"), names());
    }
    assertEquals(0, bodies.get(), "no file was even written");
    assertArrayEquals(now, Files.readAllBytes(model));
    assertEquals(current, b.current());
  }

  @Test
  void garbageThatDoesNotReadBackReplacesNothing() throws IOException {
    Path model = dir.resolve("m.sdnb");
    LocalBacking b = LocalBacking.of(model);
    commit(b, plan(three.tag(), b, SDNB));
    byte[] old = Files.readAllBytes(model);
    Generation gen = b.current();
    ContainerPlan garbage = withBodies(plan(three.tag(), b, SDNB), i -> (ch, what) ->
        ch.write(ByteBuffer.wrap("certainly not a model".getBytes(StandardCharsets.US_ASCII))));
    FileSystemException e = assertThrows(FileSystemException.class, () -> commit(b, garbage));
    assertTrue(e.getReason().contains("does not read back"), e.getReason());
    assertEquals(model.toString(), e.getFile());
    assertArrayEquals(old, Files.readAllBytes(model));
    assertEquals(gen, b.current());
    assertEquals(List.of("m.sdnb"), names(), "no temporary left");
  }

  @Test
  void aModelThatReadsBackDifferentlyReplacesNothing() throws IOException {
    Path model = dir.resolve("m.sdnb");
    LocalBacking b = LocalBacking.of(model);
    commit(b, plan(three.tag(), b, SDNB));
    byte[] old = Files.readAllBytes(model);
    ContainerPlan wrongModel = plan(two.tag(), b, SDNB);
    ContainerPlan lying = withBodies(plan(three.tag(), b, SDNB), i -> wrongModel.files().get(i).body());
    FileSystemException e = assertThrows(FileSystemException.class, () -> commit(b, lying));
    assertTrue(e.getReason().contains("does not read back as written"), e.getReason());
    assertArrayEquals(old, Files.readAllBytes(model));
    assertEquals(List.of("m.sdnb"), names());
  }

  @Test
  void aWriterThatThrowsReplacesNothing() throws IOException {
    Path model = dir.resolve("m.sdnb");
    LocalBacking b = LocalBacking.of(model);
    commit(b, plan(three.tag(), b, SDNB));
    byte[] old = Files.readAllBytes(model);
    IllegalStateException boom = new IllegalStateException("codec bug");
    ContainerPlan throwing = withBodies(plan(three.tag(), b, SDNB), i -> (ch, what) -> {
      ch.write(ByteBuffer.wrap(new byte[100]));
      throw boom;
    });
    FileSystemException e = assertThrows(FileSystemException.class, () -> commit(b, throwing));
    assertSame(boom, e.getCause());
    assertTrue(e.getReason().contains("m.sdnb") && e.getReason().contains("nothing was replaced"), e.getReason());
    assertArrayEquals(old, Files.readAllBytes(model));
    assertEquals(List.of("m.sdnb"), names(), "no temporary left");

    IOException io = new IOException("disk full");
    ContainerPlan failing = withBodies(plan(three.tag(), b, SDNB), i -> (ch, what) -> {
      throw io;
    });
    assertSame(io, assertThrows(IOException.class, () -> commit(b, failing)));
    assertEquals(List.of("m.sdnb"), names());
  }

  @Test
  void aLaterShardThatFailsRemovesTheEarlierTemporaries() throws IOException {
    Path model = dir.resolve("m.sdnb");
    LocalBacking b = LocalBacking.ofShardSet(model);
    ContainerPlan real = plan(three.tag(), b, SHARDED);
    assertEquals(4, real.files().size(), real.files().toString());
    commit(b, real);
    List<String> before = names();
    ContainerPlan throwing = withBodies(plan(three.tag(), b, SHARDED), i -> (ch, what) -> {
      if (i == 2) {
        throw new IllegalArgumentException("shard 2 fails");
      }
      real.files().get(i).body().writeTo(ch, what);
    });
    assertThrows(FileSystemException.class, () -> commit(b, throwing));
    assertEquals(before, names());
    assertEquals(ModelTsv.of(three.tag()), tsv(model));
  }

  @Test
  void aPlannedFileOfAnotherModelIsRefused() throws IOException {
    LocalBacking b = LocalBacking.of(dir.resolve("m.sdnb"));
    ContainerPlan p = plan(three.tag(), b, SDNB);
    ContainerPlan other = new ContainerPlan(p.tags(), p.options(),
        List.of(new ContainerPlan.PlannedFile("../escape.sdnb", p.files().get(0).body())));
    assertThrows(IllegalArgumentException.class, () -> commit(b, other));
    assertEquals(List.of(), names());
    assertFalse(Files.exists(tmp.resolve("escape.sdnb")));
  }

  @Test
  void aLeaseThatIsNotThisModelsHeldLockIsRefused() throws IOException {
    LocalBacking b = LocalBacking.of(dir.resolve("m.sdnb"));
    LocalBacking other = LocalBacking.of(dir.resolve("other.sdnb"));
    ContainerPlan p = plan(three.tag(), b, SDNB);
    try (ModelLock l = other.lock()) {
      assertThrows(IllegalStateException.class, () -> b.commit(l, b.current(), p));
    }
    ModelLock closed = b.lock();
    closed.close();
    assertThrows(IllegalStateException.class, () -> b.commit(closed, b.current(), p));
    assertThrows(IllegalStateException.class, () -> b.newJournal(closed));
    assertThrows(IllegalStateException.class, () -> b.recover(closed));
    assertEquals(List.of(), names());
  }

  @Test
  void aSecondLockIsRefused() throws IOException {
    LocalBacking b = LocalBacking.of(dir.resolve("m.sdnb"));
    try (ModelLock l = b.lock()) {
      assertThrows(FileSystemException.class, () -> LocalBacking.of(dir.resolve("m.SDNB")).lock());
      try (Journal j = b.newJournal(l)) {
        assertTrue(SidecarNames.isJournal("m.sdnb", j.dir().getFileName().toString()));
      }
    }
  }

  @Test
  void aSingleFileBecomesAShardSetAndBack() throws IOException {
    Path model = dir.resolve("m.sdnb");
    LocalBacking single = LocalBacking.of(model);
    commit(single, plan(three.tag(), single, SDNB));
    assertEquals(List.of("m.sdnb"), names());

    LocalBacking sharded = LocalBacking.ofShardSet(model);
    assertEquals(single.id(), sharded.id());
    commit(sharded, plan(three.tag(), sharded, SHARDED));
    List<String> shards = List.of(ShardNames.name("m", 0, 4), ShardNames.name("m", 1, 4), ShardNames.name("m", 2, 4),
        ShardNames.name("m", 3, 4));
    assertEquals(shards, names(), "m.sdnb removed, no record, backup or temporary left");
    assertEquals(ModelTsv.of(three.tag()), tsv(model));
    assertEquals(shards.stream().map(dir::resolve).toList(), sharded.files());
    assertEquals(4, sharded.current().files().size());

    LocalBacking back = LocalBacking.of(model); // m.sdnb does not exist now: the shard set's base name
    assertEquals("m.sdnb", back.fileName());
    commit(back, plan(two.tag(), back, SDNB));
    assertEquals(List.of("m.sdnb"), names(), "the shards removed");
    assertEquals(ModelTsv.of(two.tag()), tsv(model));
  }

  @Test
  void aShardSetIsRewrittenWithAnotherShardCount() throws IOException {
    Path model = dir.resolve("m.sdnb");
    LocalBacking b = LocalBacking.ofShardSet(model);
    commit(b, plan(three.tag(), b, SHARDED));
    assertEquals(4, names().size());
    commit(LocalBacking.of(dir.resolve("m")), plan(two.tag(), b, SHARDED));
    assertEquals(List.of(ShardNames.name("m", 0, 3), ShardNames.name("m", 1, 3), ShardNames.name("m", 2, 3)), names());
    assertEquals(ModelTsv.of(two.tag()), tsv(model));
    commit(b, plan(three.tag(), b, SHARDED.withMaxShardBytes(1L << 20)));
    assertEquals(List.of(ShardNames.name("m", 0, 2), ShardNames.name("m", 1, 2)), names());
    assertEquals(ModelTsv.of(three.tag()), tsv(model));
  }

  @Test
  void openReturnsTheCurrentGeneration() throws IOException {
    Path model = dir.resolve("m.sdnb");
    LocalBacking b = LocalBacking.ofShardSet(model);
    commit(b, plan(three.tag(), b, SHARDED));
    Snapshot s = b.open();
    try (Model m = s.model()) {
      assertEquals(b.current(), s.generation());
      assertEquals(4, s.generation().files().size());
      assertEquals(ModelFormat.SHARDED_SDNB, m.format());
      assertEquals(ModelTsv.of(three.tag()), ModelTsv.of(m.newest()));
    }
    Path fb = dir.resolve("x.fb");
    LocalBacking f = LocalBacking.of(fb);
    commit(f, plan(two.tag(), f, WriteOptions.of(ModelFormat.FB)));
    Snapshot sf = f.open();
    try (Model m = sf.model()) {
      assertEquals(f.current(), sf.generation());
      assertEquals(ModelTsv.of(two.tag()), ModelTsv.of(m.newest()));
    }
  }

  @Test
  void openWaitsWhileALiveWriterInstallsFiles() throws Exception {
    Path model = dir.resolve("m.sdnb");
    LocalBacking b = LocalBacking.ofShardSet(model);
    commit(b, plan(three.tag(), b, SHARDED));
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try (ModelLock l = b.lock()) {
      Path record = CommitRecord.write(b.id(), new CommitRecord.Content(List.of(), List.of(),
          List.of(ShardNames.name("m", 9, 10))));
      long t0 = System.nanoTime();
      Future<Snapshot> opening = pool.submit(() -> LocalBacking.of(model).open());
      Thread.sleep(200);
      assertFalse(opening.isDone(), "open returned while a record said files were being installed");
      assertTrue(Files.exists(record), "a live writer's record is not the reader's to finish");
      CommitRecord.remove(record);
      Snapshot s = opening.get(10, TimeUnit.SECONDS);
      assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(200));
      try (Model m = s.model()) {
        assertEquals(b.current(), s.generation());
        assertEquals(ModelTsv.of(three.tag()), ModelTsv.of(m.newest()));
      }
      assertTrue(l.held());
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * A crashed commit of the two-array model over the three-array one (4 shards → 3): temporaries
   * written and recorded, the first one renamed. Returns the model's path.
   */
  private Path crashedResharding() throws IOException {
    Path model = dir.resolve("m.sdnb");
    LocalBacking b = LocalBacking.ofShardSet(model);
    commit(b, plan(three.tag(), b, SHARDED));
    List<String> old = names();
    ContainerPlan next = plan(two.tag(), b, SHARDED);
    List<CommitRecord.Rename> renames = new ArrayList<>();
    for (ContainerPlan.PlannedFile f : next.files()) {
      Path t = dir.resolve(SidecarNames.newTemp(f.name()));
      try (SeekableByteChannel ch = Durable.createNew(t)) {
        f.body().writeTo(ch, t.toString());
      }
      renames.add(new CommitRecord.Rename(t.getFileName().toString(), f.name(), Durable.stamp(t).key()));
    }
    assertEquals(CommitRecord.State.VALID, CommitRecord.read(b.id(),
        CommitRecord.write(b.id(), new CommitRecord.Content(renames, List.of(), old))).state());
    Files.move(dir.resolve(renames.get(0).tmp()), dir.resolve(renames.get(0).target()));
    return model;
  }

  private void assertRolledForward(Path model, Snapshot s) throws IOException {
    try (Model m = s.model()) {
      assertEquals(ModelTsv.of(two.tag()), ModelTsv.of(m.newest()));
      assertEquals(LocalBacking.of(model).current(), s.generation());
    }
    assertEquals(List.of(ShardNames.name("m", 0, 3), ShardNames.name("m", 1, 3), ShardNames.name("m", 2, 3)), names(),
        "rolled forward; record, temporaries and lock file gone");
    assertEquals(List.of(), Sidecars.of(model));
  }

  @Test
  void openFinishesACrashedCommitWhenTheLockIsFree() throws IOException {
    Path model = crashedResharding();
    assertRolledForward(model, LocalBacking.of(model).open());
  }

  @Test
  void openThroughAShardNameFinishesACrashedCommit() throws IOException {
    Path model = crashedResharding();
    assertRolledForward(model, LocalBacking.of(dir.resolve(ShardNames.name("m", 0, 3))).open());
  }

  @Test
  void openThroughTheBareBaseNameFinishesACrashedCommit() throws IOException {
    Path model = crashedResharding();
    assertRolledForward(model, LocalBacking.of(dir.resolve("m")).open());
  }

  @Test
  void recoverIfIdleLeavesALiveWritersFiles() throws IOException {
    Path model = dir.resolve("m.sdnb");
    LocalBacking b = LocalBacking.of(model);
    commit(b, plan(three.tag(), b, SDNB));
    try (ModelLock l = b.lock()) {
      String t = SidecarNames.newTemp("m.sdnb");
      Files.writeString(dir.resolve(t), "a live writer's temporary");
      b.recoverIfIdle();
      assertTrue(Files.exists(dir.resolve(t)));
      b.recover(l);
      assertFalse(Files.exists(dir.resolve(t)), "the lock's holder recovers");
    }
  }
}
