package org.modelfs.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.store.ModelId;
import org.modelfs.store.ModelLock;
import org.modelfs.store.SidecarNames;
import org.modelfs.testing.Fixtures;
import org.modelfs.format.JsonText;
import org.modelfs.testing.Sidecars;

/**
 * {@code modelfs clean MODEL} on a local model: removes what a crashed writer left (a temporary of
 * the new container and a journal, made at their {@link SidecarNames} as a writer makes them),
 * prints each name, leaves the model and a neighbour's leftovers alone, and refuses while a
 * writer holds the lock.
 */
class CleanCommandTest {
  @TempDir Path tmp;

  @Test
  void removesACrashedWritersLeftoversAndPrintsThem() throws Exception {
    Path model = Files.copy(Fixtures.get("mlp_adam.fb"), tmp.resolve("m.fb"));
    byte[] before = Files.readAllBytes(model);
    String temp = SidecarNames.newTemp("m.fb");
    Files.write(tmp.resolve(temp), new byte[] {1, 2, 3});
    String journal = SidecarNames.newJournal("m.fb");
    Files.createDirectory(tmp.resolve(journal));
    Files.write(tmp.resolve(journal).resolve(SidecarNames.journalData("w", 0)), new byte[] {4});
    Files.copy(model, tmp.resolve("n.fb"));
    String neighbours = SidecarNames.newTemp("n.fb");
    Files.write(tmp.resolve(neighbours), new byte[] {5});

    MainTest.Result r = MainTest.run("clean", model.toString());
    assertEquals(0, r.code(), r.err());
    assertEquals(List.of(journal, temp).stream().sorted().toList(), r.out().lines().sorted().toList());
    assertEquals(List.of(neighbours), Sidecars.of(model), "only the other model's leftover is left");
    assertArrayEquals(before, Files.readAllBytes(model));

    MainTest.Result again = MainTest.run("clean", model.toString(), "--json");
    assertEquals(0, again.code(), again.err());
    Object doc = JsonText.parse(again.out(), 8, true);
    assertEquals(Map.of("model", model.toString(), "removed", List.of()), doc);
  }

  @Test
  void refusedWhileAWriterHoldsTheLock() throws Exception {
    Path model = Files.copy(Fixtures.get("mlp_adam.fb"), tmp.resolve("m.fb"));
    String journal = SidecarNames.newJournal("m.fb");
    Files.createDirectory(tmp.resolve(journal));
    try (ModelLock writer = ModelLock.acquire(ModelId.of(model))) {
      MainTest.Result r = MainTest.run("clean", model.toString());
      assertEquals(2, r.code(), r.out());
      assertTrue(r.err().startsWith("modelfs clean: ") && r.err().contains("another writer"), r.err());
      assertTrue(Files.isDirectory(tmp.resolve(journal)), "a live writer's journal is kept");
    }
  }
}
