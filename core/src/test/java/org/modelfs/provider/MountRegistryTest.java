package org.modelfs.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.provider.ProviderTestModels.W;
import static org.modelfs.provider.ProviderTestModels.W_HASH;
import static org.modelfs.provider.ProviderTestModels.hash;
import static org.modelfs.provider.ProviderTestModels.uri;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.provider.ProviderTestModels.Format;
import org.modelfs.store.Backings;

/**
 * The registry opens a model outside any lock, one placeholder per model: a mount that is slow to
 * open (held here in its opener, as recovery or a network round trip would hold it) blocks no
 * mount or lookup of another model; concurrent mounts of one model give one file system and
 * {@link FileSystemAlreadyExistsException}s; a failed open leaves nothing behind. Keys are the
 * model's identity ({@code store.ModelId}), so every spelling of a shard set is one entry.
 */
class MountRegistryTest {
  /** Only a guard against a hang (a lock held across an open): no test waits this long when it passes. */
  private static final long HANG_GUARD_SECONDS = 120;

  @TempDir Path tmp;
  private final ExecutorService pool = Executors.newCachedThreadPool();

  @AfterEach
  void stop() {
    pool.shutdownNow();
  }

  private final MountRegistry registry = ModelFileSystemProvider.registry();
  private final ModelFileSystemProvider provider = (ModelFileSystemProvider) ModelFileSystems.provider();

  private <T> T get(Future<T> f) throws Exception {
    try {
      return f.get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Exception x) {
        throw x;
      }
      throw e;
    }
  }

  /** A mount of {@code model} registered under its key whose open waits for {@code release}. */
  private Future<ModelFileSystem> slowMount(Path model, CountDownLatch opening, CountDownLatch release,
      boolean fail) throws IOException {
    Object key = MountRegistry.key(model);
    return pool.submit(() -> registry.mount(key, model.toString(), k -> {
      opening.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        throw new InterruptedIOException("the test stopped");
      }
      if (fail) {
        throw new IOException(model + ": the slow open failed");
      }
      return ModelFileSystem.mount(provider, model, MountOptions.parse(Map.of()), k, Backings.of(model));
    }));
  }

  private record Race(Future<ModelFileSystem> first, Future<FileSystem> second) {}

  /** A slow mount of {@code a}, and a second mount of {@code a} started while the first is opening. */
  private Race secondMountWhileOpening(Path a, boolean firstFails) throws Exception {
    CountDownLatch opening = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Future<ModelFileSystem> first = slowMount(a, opening, release, firstFails);
    opening.await();
    Future<FileSystem> second = pool.submit(() -> FileSystems.newFileSystem(uri(a), Map.of()));
    release.countDown();
    return new Race(first, second);
  }

  @Test
  void aSlowMountBlocksNeitherAMountNorALookupOfAnotherModel() throws Exception {
    Path a = ProviderTestModels.copy(tmp, "mlp_adam.fb");
    Files.createDirectory(tmp.resolve("b"));
    Path b = ProviderTestModels.copy(tmp.resolve("b"), "mlp_adam.fb");
    CountDownLatch opening = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Future<ModelFileSystem> slow = slowMount(a, opening, release, false);
    opening.await();
    try {
      Future<String> other = pool.submit(() -> {
        try (FileSystem fs = FileSystems.newFileSystem(uri(b), Map.of())) {
          assertSame(fs, FileSystems.getFileSystem(uri(b)));
          return hash(Files.readAllBytes(Path.of(uri(b, W))));
        }
      });
      assertEquals(W_HASH, get(other), "model b mounted and read while model a is still opening");
      // a lookup of the model being opened does not wait either: it is not registered yet
      assertThrows(FileSystemNotFoundException.class, () -> FileSystems.getFileSystem(uri(a)));
    } finally {
      release.countDown();
    }
    try (ModelFileSystem fs = get(slow)) {
      assertSame(fs, FileSystems.getFileSystem(uri(a)));
    }
    assertThrows(FileSystemNotFoundException.class, () -> FileSystems.getFileSystem(uri(a)));
  }

  @Test
  void aSecondMountOfTheModelBeingOpenedWaitsAndIsRefused() throws Exception {
    Path a = ProviderTestModels.copy(tmp, "mlp_adam.fb");
    Race race = secondMountWhileOpening(a, false);
    Future<FileSystem> second = race.second();
    try (ModelFileSystem fs = get(race.first())) {
      assertThrows(FileSystemAlreadyExistsException.class, () -> get(second));
      assertSame(fs, FileSystems.getFileSystem(uri(a)));
    }
  }

  @Test
  void aFailedOpenRemovesItsPlaceholderAndTheWaitingMountOpens() throws Exception {
    Path a = ProviderTestModels.copy(tmp, "mlp_adam.fb");
    Race race = secondMountWhileOpening(a, true);
    Future<FileSystem> second = race.second();
    IOException e = assertThrows(IOException.class, () -> get(race.first()));
    assertTrue(e.getMessage().contains("the slow open failed"), e.getMessage());
    try (FileSystem fs = get(second)) {
      assertSame(fs, FileSystems.getFileSystem(uri(a)));
    }
    assertNull(registry.find(MountRegistry.key(a)), "closing unregistered it");
  }

  @Test
  void concurrentMountsOfOneModelGiveOneFileSystemAndNoLeak() throws Exception {
    Path a = ProviderTestModels.copy(tmp, "mlp_adam.fb");
    int n = 6;
    CyclicBarrier start = new CyclicBarrier(n);
    List<Future<FileSystem>> all = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      all.add(pool.submit((Callable<FileSystem>) () -> {
        start.await();
        return FileSystems.newFileSystem(uri(a), Map.of());
      }));
    }
    List<FileSystem> mounted = new ArrayList<>();
    int refused = 0;
    for (Future<FileSystem> f : all) {
      try {
        mounted.add(get(f));
      } catch (FileSystemAlreadyExistsException e) {
        refused++;
      }
    }
    assertEquals(1, mounted.size(), "one mount wins");
    assertEquals(n - 1, refused);
    FileSystem fs = mounted.get(0);
    assertSame(fs, FileSystems.getFileSystem(uri(a)));
    fs.close();
    assertThrows(FileSystemNotFoundException.class, () -> FileSystems.getFileSystem(uri(a)));
    assertNull(registry.find(MountRegistry.key(a)));
    try (FileSystem again = FileSystems.newFileSystem(uri(a), Map.of())) {
      assertEquals(W_HASH, hash(Files.readAllBytes(again.getPath(W))));
    }
  }

  /** {@code m}, {@code m.sdnb}, {@code m.SDNB} and each {@code m.shard<k>-of-<N>.sdnb} name one model: one entry. */
  @Test
  void everySpellingOfAShardSetIsOneEntry() throws Exception {
    Path base = ProviderTestModels.write(tmp, Format.SHARDED);
    List<Path> shards = ProviderTestModels.shards(base);
    String b = base.getFileName().toString();
    String stem = b.substring(0, b.length() - ".sdnb".length());
    List<URI> spellings = new ArrayList<>(List.of(uri(base), uri(tmp.resolve(stem)),
        uri(tmp.resolve(stem + ".SDNB"))));
    for (Path s : shards) {
      spellings.add(uri(s));
    }
    for (URI mountedBy : spellings) {
      try (FileSystem fs = FileSystems.newFileSystem(mountedBy, Map.of())) {
        assertEquals(W_HASH, hash(Files.readAllBytes(fs.getPath(W))), mountedBy.toString());
        for (URI other : spellings) {
          assertSame(fs, FileSystems.getFileSystem(other), mountedBy + " then " + other);
          Exception e = assertThrows(Exception.class, () -> FileSystems.newFileSystem(other, Map.of()));
          assertInstanceOf(FileSystemAlreadyExistsException.class, e, mountedBy + " then " + other);
        }
      }
      for (URI other : spellings) {
        assertThrows(FileSystemNotFoundException.class, () -> FileSystems.getFileSystem(other));
      }
    }
  }
}
