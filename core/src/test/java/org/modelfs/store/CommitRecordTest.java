package org.modelfs.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link CommitRecord}: round trip, damage detected (cut off, CRC), names outside the model refused. */
class CommitRecordTest {
  private static final String HEADER = "modelfs-commit\t2\n";

  @TempDir Path tmp;

  private ModelId set() throws IOException {
    return ModelId.of(tmp.resolve("m.sdnb"));
  }

  private static CommitRecord.Content sample() {
    String t0 = SidecarNames.newTemp("m.shard0-of-2.sdnb");
    String t1 = SidecarNames.newTemp("m.shard1-of-2.sdnb");
    return new CommitRecord.Content(
        List.of(new CommitRecord.Rename(t0, "m.shard0-of-2.sdnb", "(dev=803,ino=1234567)"),
            new CommitRecord.Rename(t1, "m.shard1-of-2.sdnb", null)),
        List.of(new CommitRecord.Backup(SidecarNames.newBackup("m.shard0-of-2.sdnb"), "m.shard0-of-2.sdnb")),
        List.of("m.sdnb", "m.shard2-of-3.sdnb"));
  }

  @Test
  void writeReadRoundTrip() throws IOException {
    ModelId id = set();
    CommitRecord.Content c = sample();
    Path p = CommitRecord.write(id, c);
    assertEquals(id.dir(), p.getParent());
    assertTrue(SidecarNames.isRecord("m.sdnb", p.getFileName().toString()), p.toString());
    CommitRecord.Read r = CommitRecord.read(id, p);
    assertEquals(CommitRecord.State.VALID, r.state());
    assertEquals(p, r.path());
    assertEquals(c, r.content());
    assertNull(r.content().renames().get(1).key(), "no file key is written as '-' and read back as null");
    assertTrue(anyValid(id));
    String text = Files.readString(p);
    assertTrue(text.startsWith(HEADER), text);
    assertTrue(text.matches("(?s).*\nend\t[0-9a-f]{8}\n"), text);
  }

  @Test
  void anEmptyContentRoundTrips() throws IOException {
    ModelId id = set();
    CommitRecord.Content c = new CommitRecord.Content(List.of(), List.of(), List.of());
    CommitRecord.Read r = CommitRecord.read(id, CommitRecord.write(id, c));
    assertEquals(CommitRecord.State.VALID, r.state());
    assertEquals(c, r.content());
  }

  @Test
  void everyRecordHasANewName() throws IOException {
    ModelId id = set();
    Path a = CommitRecord.write(id, sample());
    Path b = CommitRecord.write(id, sample());
    assertFalse(a.equals(b));
    assertEquals(2, CommitRecord.all(id).size());
  }

  @Test
  void aMissingRecordIsAbsent() throws IOException {
    ModelId id = set();
    Path p = id.dir().resolve(SidecarNames.newRecord(id.key()));
    assertEquals(CommitRecord.State.ABSENT, CommitRecord.read(id, p).state());
    assertFalse(anyValid(id));
  }

  @Test
  void everyTruncationIsIncomplete() throws IOException {
    ModelId id = set();
    Path p = CommitRecord.write(id, sample());
    byte[] full = Files.readAllBytes(p);
    for (int n = 0; n < full.length; n++) {
      Files.write(p, Arrays.copyOf(full, n));
      CommitRecord.Read r = CommitRecord.read(id, p);
      assertEquals(CommitRecord.State.INCOMPLETE, r.state(), "cut at " + n + " of " + full.length);
      assertNull(r.content());
    }
    assertFalse(anyValid(id));
  }

  @Test
  void everyFlippedBitAfterTheHeaderIsIncomplete() throws IOException {
    ModelId id = set();
    Path p = CommitRecord.write(id, sample());
    byte[] full = Files.readAllBytes(p);
    for (int i = HEADER.length(); i < full.length; i++) {
      for (int bit : new int[] {0x01, 0x20, 0x80}) {
        byte[] b = full.clone();
        b[i] ^= (byte) bit;
        Files.write(p, b);
        assertEquals(CommitRecord.State.INCOMPLETE, CommitRecord.read(id, p).state(),
            "byte " + i + " ^ " + bit + " ('" + (char) full[i] + "')");
      }
    }
  }

  @Test
  void aDamagedHeaderIsNotOurs() throws IOException {
    ModelId id = set();
    Path p = CommitRecord.write(id, sample());
    byte[] full = Files.readAllBytes(p);
    for (int i = 0; i < HEADER.length() - 1; i++) {
      byte[] b = full.clone();
      b[i] ^= 0x01;
      Files.write(p, b);
      assertEquals(CommitRecord.State.FOREIGN, CommitRecord.read(id, p).state(), "header byte " + i);
    }
    byte[] b = full.clone();
    b[HEADER.length() - 1] ^= 0x01; // the header's line end: still our header, cut or damaged
    Files.write(p, b);
    assertEquals(CommitRecord.State.INCOMPLETE, CommitRecord.read(id, p).state());
  }

  /**
   * A record damaged into bytes that are not UTF-8 (here seven 0xFF bytes in its body) must be
   * classified, not throw: the CRC range is computed from the re-encoded text, which is longer
   * than the file.
   */
  @Test
  void aRecordWithInvalidUtf8IsIncompleteNotAnException() throws IOException {
    ModelId id = set();
    byte[] head = HEADER.getBytes(StandardCharsets.US_ASCII);
    byte[] junk = new byte[7];
    Arrays.fill(junk, (byte) 0xFF);
    byte[] tail = "\nend\t00000000\n".getBytes(StandardCharsets.US_ASCII);
    byte[] all = new byte[head.length + junk.length + tail.length];
    System.arraycopy(head, 0, all, 0, head.length);
    System.arraycopy(junk, 0, all, head.length, junk.length);
    System.arraycopy(tail, 0, all, head.length + junk.length, tail.length);
    Path p = Files.write(id.dir().resolve(SidecarNames.newRecord(id.key())), all);
    assertEquals(CommitRecord.State.INCOMPLETE, CommitRecord.read(id, p).state());
  }

  /** Writes a record with one extra line and reads it back. */
  private CommitRecord.State withLine(ModelId id, String line) throws IOException {
    String body = HEADER + line + "\n";
    CRC32 crc = new CRC32();
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    crc.update(bytes);
    String text = body + "end\t" + HexFormat.of().toHexDigits((int) crc.getValue()) + "\n";
    Path p = Files.writeString(id.dir().resolve(SidecarNames.newRecord(id.key())), text);
    try {
      return CommitRecord.read(id, p).state();
    } finally {
      Files.delete(p);
    }
  }

  @Test
  void handWrittenRecordsWithTheRightCrcAreValid() throws IOException {
    ModelId id = set();
    assertEquals(CommitRecord.State.VALID, withLine(id, "delete\tm.shard0-of-2.sdnb"));
    String t = SidecarNames.newTemp("m.shard0-of-2.sdnb");
    assertEquals(CommitRecord.State.VALID, withLine(id, "rename\t" + t + "\tm.shard0-of-2.sdnb\t-"));
  }

  @Test
  void namesOutsideTheModelAreForeign() throws IOException {
    ModelId id = set();
    String tmpOfShard0 = SidecarNames.newTemp("m.shard0-of-2.sdnb");
    List<String> lines = List.of(
        "delete\t../x",
        "delete\t../m.sdnb",
        "delete\tother.shard0-of-2.sdnb",
        "delete\tmm.shard0-of-2.sdnb",
        "delete\tm.fb",
        "delete\t" + SidecarNames.lock("m.sdnb"),
        "delete\tsub/m.shard0-of-2.sdnb",
        "rename\t" + SidecarNames.newTemp("../x") + "\t../x\t-",
        "rename\t" + tmpOfShard0 + "\t../x\t-",
        "rename\t" + tmpOfShard0 + "\tm.shard1-of-2.sdnb\t-",
        "rename\t" + SidecarNames.newTemp("other.shard0-of-2.sdnb") + "\tother.shard0-of-2.sdnb\t-",
        "rename\t" + SidecarNames.newBackup("m.shard0-of-2.sdnb") + "\tm.shard0-of-2.sdnb\t-",
        "rename\tm.shard0-of-2.sdnb\tm.shard0-of-2.sdnb\t-",
        "rename\t" + tmpOfShard0 + "\tm.shard0-of-2.sdnb",
        "keep\t" + SidecarNames.newBackup("other.sdnb") + "\tother.sdnb",
        "keep\t" + SidecarNames.newBackup("m.shard0-of-2.sdnb") + "\tm.shard1-of-2.sdnb",
        "keep\t" + tmpOfShard0 + "\tm.shard0-of-2.sdnb",
        "keep\tvictim\tm.shard0-of-2.sdnb",
        "unlink\tm.sdnb",
        "delete\tm.sdnb\textra");
    for (String line : lines) {
      assertEquals(CommitRecord.State.FOREIGN, withLine(id, line), line);
    }
    // the same content written through write() is refused on reading too
    Path p = CommitRecord.write(id, new CommitRecord.Content(List.of(), List.of(), List.of("../x")));
    assertEquals(CommitRecord.State.FOREIGN, CommitRecord.read(id, p).state());
    assertFalse(anyValid(id));
  }

  @Test
  void anotherModelsShardsAreForeignToASingleFileModel() throws IOException {
    ModelId fb = ModelId.of(tmp.resolve("m.fb"));
    assertEquals(CommitRecord.State.FOREIGN, withLine(fb, "delete\tm.shard0-of-2.sdnb"));
    assertEquals(CommitRecord.State.FOREIGN, withLine(fb, "delete\tm.fb.sdz"));
    assertEquals(CommitRecord.State.VALID, withLine(fb, "delete\tm.fb"));
  }

  @Test
  void aDirectoryOrLinkAtARecordNameIsForeign() throws IOException {
    ModelId id = set();
    Path dir = Files.createDirectory(id.dir().resolve(SidecarNames.newRecord(id.key())));
    assertEquals(CommitRecord.State.FOREIGN, CommitRecord.read(id, dir).state());

    Path elsewhere = Files.createDirectory(tmp.resolve("elsewhere"));
    ModelId other = ModelId.of(elsewhere.resolve("m.sdnb"));
    Path valid = CommitRecord.write(other, sample());
    assertEquals(CommitRecord.State.VALID, CommitRecord.read(id, valid).state(), "the content is valid for m.sdnb");
    Path link = Files.createSymbolicLink(id.dir().resolve(SidecarNames.newRecord(id.key())), valid);
    assertEquals(CommitRecord.State.FOREIGN, CommitRecord.read(id, link).state(), "a link is never followed");
    Path dangling = Files.createSymbolicLink(id.dir().resolve(SidecarNames.newRecord(id.key())),
        tmp.resolve("nowhere"));
    assertEquals(CommitRecord.State.FOREIGN, CommitRecord.read(id, dangling).state());
    assertFalse(anyValid(id));
    assertEquals(3, CommitRecord.all(id).size());

    CommitRecord.remove(dir);
    CommitRecord.remove(link);
    assertTrue(Files.isDirectory(dir), "remove deletes regular files only");
    assertTrue(Files.isSymbolicLink(link));
    assertEquals(CommitRecord.State.VALID, CommitRecord.read(other, valid).state(), "the link's target is untouched");
  }

  @Test
  void somethingElseAtARecordNameIsForeign() throws IOException {
    ModelId id = set();
    Path p = Files.writeString(id.dir().resolve(SidecarNames.newRecord(id.key())), "hello\nend\t00000000\n");
    assertEquals(CommitRecord.State.FOREIGN, CommitRecord.read(id, p).state());
  }

  @Test
  void allListsOnlyThisModelsRecords() throws IOException {
    ModelId id = set();
    Path mine = CommitRecord.write(id, sample());
    ModelId fb = ModelId.of(tmp.resolve("m.fb"));
    ModelId mm = ModelId.of(tmp.resolve("mm.sdnb"));
    ModelId sdz = ModelId.of(tmp.resolve("m.sdnb.sdz"));
    CommitRecord.write(fb, new CommitRecord.Content(List.of(), List.of(), List.of("m.fb")));
    CommitRecord.write(mm, new CommitRecord.Content(List.of(), List.of(), List.of("mm.sdnb")));
    CommitRecord.write(sdz, new CommitRecord.Content(List.of(), List.of(), List.of("m.sdnb.sdz")));
    Files.writeString(tmp.resolve(".m.sdnb.modelfs-commit"), "old fixed name");
    Files.writeString(tmp.resolve(".m.sdnb.modelfs-commit-" + "0".repeat(31)), "short");
    List<CommitRecord.Read> all = CommitRecord.all(id);
    assertEquals(1, all.size(), all.toString());
    assertEquals(mine, all.get(0).path());
    assertEquals(CommitRecord.State.VALID, all.get(0).state());
    assertEquals(1, CommitRecord.all(fb).size());
    assertEquals(1, CommitRecord.all(mm).size());
    assertEquals(1, CommitRecord.all(sdz).size());

    CommitRecord.remove(mine);
    assertFalse(Files.exists(mine));
    assertEquals(List.of(), CommitRecord.all(id));
    assertFalse(anyValid(id));
  }

  private static boolean anyValid(ModelId id) throws IOException {
    return CommitRecord.all(id).stream().anyMatch(r -> r.state() == CommitRecord.State.VALID);
  }
}
