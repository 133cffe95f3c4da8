package org.modelfs.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A store commit's private local directory of temporaries: private, exclusive, gone however the commit ends. */
class LocalTempsTest {
  @Test
  void temporariesArePrivateExclusiveAndDeletedWithTheirDirectory() throws IOException {
    LocalTemps d = LocalTemps.create();
    Path dir = d.file("x").getParent();
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
    CommitStorage.Temp t = d.temp("m.shard0-of-2.sdnb");
    try (var ch = t.channel()) {
      ch.write(ByteBuffer.wrap(new byte[] {1, 2}));
    }
    assertEquals(2, Files.size(t.path()));
    assertThrows(FileAlreadyExistsException.class, () -> d.temp("m.shard0-of-2.sdnb"));
    Files.write(d.file("pointer"), new byte[] {3});
    d.delete();
    assertFalse(Files.exists(dir));
    d.delete(); // already gone: nothing to do
  }

  @Test
  void anInstallEndsWithTheDirectoryGoneWhetherItLandsOrFails() throws IOException {
    List<String> landed = new ArrayList<>();
    LocalTemps ok = LocalTemps.create();
    ok.temp("m.fb").channel().close();
    ok.install(() -> assertTrue(Files.exists(ok.file("m.fb"))), (what, e) -> landed.add(what));
    assertFalse(Files.exists(ok.file("m.fb").getParent()));
    assertEquals(List.of(), landed);

    LocalTemps failing = LocalTemps.create();
    IOException refused = new IOException("412");
    assertSame(refused, assertThrows(IOException.class, () -> failing.install(() -> {
      throw refused;
    }, (what, e) -> landed.add(what))));
    assertFalse(Files.exists(failing.file("m.fb").getParent()));
    assertEquals(List.of(), landed, "a failed install is thrown, not warned about");
  }

  /** An object's name may be 1,024 bytes; a local file's 255: long names get a short local name, one per name. */
  @Test
  void aNameTooLongForALocalFileGetsAShortOneOfItsOwn() throws IOException {
    LocalTemps d = LocalTemps.create();
    try {
      String a = "ü".repeat(300) + ".shard0-of-2.sdnb";
      String b = "ü".repeat(300) + ".shard1-of-2.sdnb";
      CommitStorage.Temp t = d.temp(a);
      t.channel().close();
      assertEquals(a, t.name(), "the planned name stays the object's");
      assertEquals(t.path(), d.file(a));
      String local = t.path().getFileName().toString();
      assertTrue(local.matches("long-[0-9a-f]{32}\\.sdnb"), local);
      assertNotEquals(d.file(a), d.file(b));
      assertEquals("m.sdnb", d.file("m.sdnb").getFileName().toString(), "a short name is kept as it is");
      assertThrows(FileAlreadyExistsException.class, () -> d.temp(a));
    } finally {
      d.delete();
    }
  }
}
