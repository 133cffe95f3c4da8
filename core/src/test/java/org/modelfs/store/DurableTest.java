package org.modelfs.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Durable}: files created only where nothing is, atomic renames, stamps that tell files apart. */
class DurableTest {
  @TempDir Path tmp;

  @Test
  void createNewCreatesAReadWriteFile() throws IOException {
    Path p = tmp.resolve("f");
    try (SeekableByteChannel ch = Durable.createNew(p)) {
      ch.write(ByteBuffer.wrap(new byte[] {1, 2, 3}));
      Durable.force(ch);
      ch.position(0);
      ByteBuffer b = ByteBuffer.allocate(3);
      assertEquals(3, ch.read(b));
    }
    assertEquals(3, Files.size(p));
  }

  @Test
  void createNewNeverWritesThroughWhatIsThere() throws IOException {
    Path existing = Files.writeString(tmp.resolve("existing"), "keep");
    assertThrows(FileAlreadyExistsException.class, () -> Durable.createNew(existing));
    assertEquals("keep", Files.readString(existing));
    Path target = tmp.resolve("target");
    Path dangling = Files.createSymbolicLink(tmp.resolve("dangling"), target);
    assertThrows(FileAlreadyExistsException.class, () -> Durable.createNew(dangling));
    assertFalse(Files.exists(target, LinkOption.NOFOLLOW_LINKS), "a link's target is never created");
  }

  @Test
  void renameReplacesAtomicallyAndKeepsTheFile() throws IOException {
    Path a = Files.writeString(tmp.resolve("a"), "new");
    Path b = Files.writeString(tmp.resolve("b"), "old");
    Durable.Stamp sa = Durable.stamp(a);
    Durable.rename(a, b);
    Durable.forceDirectory(tmp);
    assertFalse(Files.exists(a));
    assertEquals("new", Files.readString(b));
    assertTrue(sa.sameFile(Durable.stamp(b)), "a rename keeps the file key");
  }

  @Test
  void stamps() throws IOException {
    assertNull(Durable.stamp(tmp.resolve("missing")));
    Path f = Files.writeString(tmp.resolve("f"), "abc");
    Files.setLastModifiedTime(f, FileTime.fromMillis(1_600_000_000_000L));
    Durable.Stamp s = Durable.stamp(f);
    assertNotNull(s.key());
    assertEquals(3, s.size());
    assertEquals(1_600_000_000_000L, s.modifiedMillis());
    assertTrue(s.regular());
    assertEquals(s, Durable.stamp(f));
    Path g = Files.writeString(tmp.resolve("g"), "abc");
    Files.setLastModifiedTime(g, FileTime.fromMillis(1_600_000_000_000L));
    assertFalse(s.sameFile(Durable.stamp(g)), "same size and time, another file");
    assertFalse(s.sameFileOrEqual(Durable.stamp(g)));
    assertFalse(s.sameFile(null));
    Path link = Files.createSymbolicLink(tmp.resolve("link"), f);
    assertFalse(Durable.stamp(link).regular(), "the link itself, not its target");
    assertFalse(s.sameFile(Durable.stamp(link)));
    assertFalse(Durable.stamp(tmp).regular());
    // without file keys: size and time
    Durable.Stamp noKey = new Durable.Stamp(null, 3, 5, true);
    assertTrue(noKey.sameFileOrEqual(new Durable.Stamp(null, 3, 5, true)));
    assertFalse(noKey.sameFileOrEqual(new Durable.Stamp(null, 4, 5, true)));
    assertFalse(noKey.sameFile(new Durable.Stamp(null, 3, 5, true)));
  }
}
