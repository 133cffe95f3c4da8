package org.modelfs.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
}
