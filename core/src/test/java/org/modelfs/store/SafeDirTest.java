package org.modelfs.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link SafeDir}: deletes only regular files and real journal directories, never through a link. */
class SafeDirTest {
  @TempDir Path tmp;

  @Test
  void namesListsTheDirectory() throws IOException {
    Files.writeString(tmp.resolve("a"), "");
    Files.createDirectory(tmp.resolve("b"));
    Files.createSymbolicLink(tmp.resolve("c"), tmp.resolve("nowhere"));
    assertEquals(List.of("a", "b", "c"), SafeDir.names(tmp).stream().sorted().toList());
  }

  @Test
  void deleteRegularFileDeletesARegularFile() throws IOException {
    Files.writeString(tmp.resolve("f"), "x");
    assertTrue(SafeDir.deleteRegularFile(tmp, "f"));
    assertFalse(Files.exists(tmp.resolve("f")));
    assertFalse(SafeDir.deleteRegularFile(tmp, "f"), "gone: nothing to delete");
  }

  @Test
  void deleteRegularFileRefusesLinksAndDirectories() throws Exception {
    Path victim = Files.writeString(tmp.resolve("victim"), "precious");
    Path victimDir = Files.createDirectory(tmp.resolve("victimDir"));
    Files.writeString(victimDir.resolve("inside"), "x");
    Files.createSymbolicLink(tmp.resolve("toFile"), victim);
    Files.createSymbolicLink(tmp.resolve("toDir"), victimDir);
    Files.createSymbolicLink(tmp.resolve("dangling"), tmp.resolve("nowhere"));
    Files.createDirectory(tmp.resolve("dir"));
    ModelLockTest.mkfifo(tmp.resolve("fifo"));
    for (String n : List.of("toFile", "toDir", "dangling", "dir", "victimDir", "fifo")) {
      assertFalse(SafeDir.deleteRegularFile(tmp, n), n);
      assertTrue(Files.exists(tmp.resolve(n), LinkOption.NOFOLLOW_LINKS), n + " is left");
    }
    assertEquals("precious", Files.readString(victim));
    assertEquals("x", Files.readString(victimDir.resolve("inside")));
    assertFalse(Files.exists(tmp.resolve("nowhere"), LinkOption.NOFOLLOW_LINKS));
  }

  @Test
  void deleteJournalRemovesAJournalOfDataFiles() throws IOException {
    Path j = Files.createDirectory(tmp.resolve("j"));
    Files.writeString(j.resolve("params-1.bin"), "a");
    Files.writeString(j.resolve("value-22.bin"), "b");
    assertTrue(SafeDir.deleteJournal(tmp, "j"));
    assertFalse(Files.exists(j, LinkOption.NOFOLLOW_LINKS));
    assertFalse(SafeDir.deleteJournal(tmp, "j"), "gone: nothing to delete");
  }

  @Test
  void deleteJournalNeverFollowsASymlinkedJournal() throws IOException {
    Path victim = Files.createDirectory(tmp.resolve("victim"));
    Files.writeString(victim.resolve("params-1.bin"), "precious");
    Files.createSymbolicLink(tmp.resolve("j"), victim);
    assertFalse(SafeDir.deleteJournal(tmp, "j"));
    assertTrue(Files.isSymbolicLink(tmp.resolve("j")), "the link is left");
    assertEquals("precious", Files.readString(victim.resolve("params-1.bin")));
    Files.createSymbolicLink(tmp.resolve("dangling"), tmp.resolve("nowhere"));
    assertFalse(SafeDir.deleteJournal(tmp, "dangling"));
    assertTrue(Files.isSymbolicLink(tmp.resolve("dangling")));
  }

  @Test
  void deleteJournalLeavesARegularFileAtTheName() throws IOException {
    Files.writeString(tmp.resolve("j"), "not a directory");
    assertFalse(SafeDir.deleteJournal(tmp, "j"));
    assertEquals("not a directory", Files.readString(tmp.resolve("j")));
  }

  @Test
  void deleteJournalLeavesForeignEntriesAndTheDirectory() throws IOException {
    Path victim = Files.writeString(tmp.resolve("victim"), "precious");
    Path j = Files.createDirectory(tmp.resolve("j"));
    Files.writeString(j.resolve("params-1.bin"), "ours");
    Files.createSymbolicLink(j.resolve("params-2.bin"), victim);
    Files.createDirectory(j.resolve("params-3.bin"));
    Files.writeString(j.resolve("readme"), "theirs");
    assertFalse(SafeDir.deleteJournal(tmp, "j"));
    assertTrue(Files.isDirectory(j));
    assertEquals(List.of("params-2.bin", "params-3.bin", "readme"), SafeDir.names(j).stream().sorted().toList());
    assertEquals("precious", Files.readString(victim));
  }
}
