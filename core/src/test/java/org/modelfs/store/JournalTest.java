package org.modelfs.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Journal}: a random 0700 directory per writer, removed whole on close unless something foreign is inside. */
class JournalTest {
  @TempDir Path tmp;

  private ModelId id() throws IOException {
    return ModelId.of(tmp.resolve("m.fb"));
  }

  @Test
  void createdPrivateUnderARandomName() throws IOException {
    ModelId id = id();
    try (Journal a = Journal.create(id); Journal b = Journal.create(id)) {
      for (Journal j : List.of(a, b)) {
        assertEquals(id.dir(), j.dir().getParent());
        assertTrue(SidecarNames.isJournal("m.fb", j.dir().getFileName().toString()), j.dir().toString());
        assertTrue(Files.isDirectory(j.dir(), LinkOption.NOFOLLOW_LINKS));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(j.dir())));
        assertEquals(List.of(), SafeDir.names(j.dir()));
      }
      assertNotEquals(a.dir(), b.dir());
    }
  }

  @Test
  void newFilesAreNumberedPerKind() throws IOException {
    try (Journal j = Journal.create(id())) {
      Path p1 = j.newFile("params");
      Path p2 = j.newFile("params");
      Path u3 = j.newFile("updater");
      assertEquals(j.dir().resolve("params-1.bin"), p1);
      assertEquals(j.dir().resolve("params-2.bin"), p2);
      assertEquals(j.dir().resolve("updater-3.bin"), u3);
      for (Path p : List.of(p1, p2, u3)) {
        assertTrue(Files.isRegularFile(p));
        assertEquals(0, Files.size(p));
      }
      assertThrows(IllegalArgumentException.class, () -> j.newFile("../escape"));
      assertFalse(Files.exists(tmp.resolve("escape-4.bin")));
    }
  }

  @Test
  void closeRemovesEverything() throws IOException {
    Journal j = Journal.create(id());
    Files.writeString(j.newFile("params"), "pending bytes");
    Files.writeString(j.newFile("value"), "more");
    j.close();
    assertFalse(Files.exists(j.dir(), LinkOption.NOFOLLOW_LINKS));
    assertEquals(List.of(), SafeDir.names(tmp), "nothing left beside the model");
    j.close(); // again: nothing to do
  }

  @Test
  void closeRefusesAndLeavesAForeignFile() throws IOException {
    Journal j = Journal.create(id());
    Path data = j.newFile("params");
    Path foreign = Files.writeString(j.dir().resolve("notes.txt"), "someone else's");
    DirectoryNotEmptyException e = assertThrows(DirectoryNotEmptyException.class, j::close);
    assertTrue(e.getMessage().contains(j.dir().toString()), e.getMessage());
    assertTrue(Files.isDirectory(j.dir()));
    assertEquals("someone else's", Files.readString(foreign));
    assertFalse(Files.exists(data), "the journal's own files are removed all the same");
    assertEquals(List.of("notes.txt"), SafeDir.names(j.dir()));
  }

  @Test
  void closeRefusesAndLeavesAForeignDirectoryAndLink() throws IOException {
    Journal j = Journal.create(id());
    Path victim = Files.writeString(tmp.resolve("victim.txt"), "precious");
    Path sub = Files.createDirectory(j.dir().resolve("params-9.bin"));
    Files.writeString(sub.resolve("inner"), "x");
    Files.createSymbolicLink(j.dir().resolve("params-10.bin"), victim);
    assertThrows(DirectoryNotEmptyException.class, j::close);
    assertEquals("x", Files.readString(sub.resolve("inner")));
    assertTrue(Files.isSymbolicLink(j.dir().resolve("params-10.bin")), "a link named like journal data is left");
    assertEquals("precious", Files.readString(victim));
  }
}
