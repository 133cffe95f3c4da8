package org.modelfs.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Recovery}, on states built by hand (real files, {@link SidecarNames}, hard-linked
 * backups, {@link CommitRecord#write}): roll forward, roll back, refuse when neither generation
 * is whole, and remove only this model's leftovers — never a neighbour's, never through a link.
 */
class RecoveryTest {
  private static final String S0 = "m.shard0-of-2.sdnb";
  private static final String S1 = "m.shard1-of-2.sdnb";
  private static final String N0 = "m.shard0-of-3.sdnb";
  private static final String N1 = "m.shard1-of-3.sdnb";
  private static final String N2 = "m.shard2-of-3.sdnb";

  @TempDir Path tmp;
  private Path dir;
  private ModelId id;
  private final Random random = new Random(42);

  @BeforeEach
  void setUp() throws IOException {
    dir = tmp.toRealPath();
    id = ModelId.of(dir.resolve("m.sdnb"));
  }

  // ---- building states -----------------------------------------------------------------------

  private byte[] bytes() {
    byte[] b = new byte[100 + random.nextInt(400)];
    random.nextBytes(b);
    return b;
  }

  private byte[] file(String name) throws IOException {
    byte[] b = bytes();
    Files.write(dir.resolve(name), b);
    return b;
  }

  /** A new temporary of {@code target} holding {@code content}; returns its name. */
  private String temp(String target, byte[] content) throws IOException {
    String t = SidecarNames.newTemp(target);
    Files.write(dir.resolve(t), content);
    return t;
  }

  /** A hard link to {@code target} under a new backup name; returns its name. */
  private String backup(String target) throws IOException {
    String b = SidecarNames.newBackup(target);
    Files.createLink(dir.resolve(b), dir.resolve(target));
    return b;
  }

  private CommitRecord.Rename rename(String tmpName, String target) throws IOException {
    return new CommitRecord.Rename(tmpName, target, Durable.stamp(dir.resolve(tmpName)).key());
  }

  private void move(String from, String to) throws IOException {
    Files.move(dir.resolve(from), dir.resolve(to), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  private boolean recover() throws IOException {
    try (ModelLock l = ModelLock.acquire(id)) {
      return Recovery.recover(l);
    }
  }

  /** Every entry of the directory (one level into directories): name → content, "dir" or "link → target". */
  private Map<String, String> listing() throws IOException {
    Map<String, String> out = new TreeMap<>();
    list(dir, "", out);
    return out;
  }

  private static void list(Path d, String prefix, Map<String, String> out) throws IOException {
    for (String n : SafeDir.names(d)) {
      Path p = d.resolve(n);
      if (Files.isSymbolicLink(p)) {
        out.put(prefix + n, "link → " + Files.readSymbolicLink(p));
      } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
        out.put(prefix + n, "dir");
        if (prefix.isEmpty()) {
          list(p, n + "/", out);
        }
      } else {
        out.put(prefix + n, HexFormat.of().formatHex(Files.readAllBytes(p)));
      }
    }
  }

  private static Map<String, String> expect(Object... nameAndBytes) {
    Map<String, String> out = new TreeMap<>();
    for (int i = 0; i < nameAndBytes.length; i += 2) {
      out.put((String) nameAndBytes[i], HexFormat.of().formatHex((byte[]) nameAndBytes[i + 1]));
    }
    return out;
  }

  // ---- a shard set of 2 replaced by one of 3: no name in common, no backups --------------------

  private record Resharding(byte[] old0, byte[] old1, byte[] new0, byte[] new1, byte[] new2, List<String> temps,
      Path record) {}

  private Resharding resharding() throws IOException {
    byte[] old0 = file(S0);
    byte[] old1 = file(S1);
    byte[] new0 = bytes();
    byte[] new1 = bytes();
    byte[] new2 = bytes();
    List<String> temps = List.of(temp(N0, new0), temp(N1, new1), temp(N2, new2));
    Path record = CommitRecord.write(id, new CommitRecord.Content(
        List.of(rename(temps.get(0), N0), rename(temps.get(1), N1), rename(temps.get(2), N2)), List.of(),
        List.of(S0, S1)));
    return new Resharding(old0, old1, new0, new1, new2, temps, record);
  }

  @Test
  void aCompleteRecordWithNothingRenamedRollsForward() throws IOException {
    Resharding r = resharding();
    assertTrue(Recovery.needed(id));
    assertTrue(recover());
    assertEquals(expect(N0, r.new0, N1, r.new1, N2, r.new2), listing());
    assertFalse(Recovery.needed(id));
  }

  @Test
  void aCompleteRecordWithSomeRenamedRollsForward() throws IOException {
    Resharding r = resharding();
    move(r.temps.get(0), N0);
    move(r.temps.get(1), N1);
    assertTrue(recover());
    assertEquals(expect(N0, r.new0, N1, r.new1, N2, r.new2), listing());
  }

  @Test
  void aCompleteRecordWithAllRenamedAndSomeDeletedRollsForward() throws IOException {
    Resharding r = resharding();
    for (int k = 0; k < 3; k++) {
      move(r.temps.get(k), List.of(N0, N1, N2).get(k));
    }
    Files.delete(dir.resolve(S0));
    assertTrue(recover());
    assertEquals(expect(N0, r.new0, N1, r.new1, N2, r.new2), listing());
  }

  @Test
  void temporariesLostBeforeAnyRenameKeepTheOldModel() throws IOException {
    Resharding r = resharding();
    Files.delete(dir.resolve(r.temps.get(1)));
    assertFalse(recover(), "rolled back, not forward");
    assertEquals(expect(S0, r.old0, S1, r.old1), listing());
  }

  @Test
  void temporariesLostAfterSomeRenamesRemoveTheNewOnlyNames() throws IOException {
    Resharding r = resharding();
    move(r.temps.get(0), N0);
    Files.delete(dir.resolve(r.temps.get(2)));
    assertFalse(recover());
    assertEquals(expect(S0, r.old0, S1, r.old1), listing(), "the renamed new-only shard is removed");
  }

  // ---- a rewrite over the same names, with backups ---------------------------------------------

  private record Rewrite(byte[] old0, byte[] old1, byte[] new0, byte[] newSingle, byte[] new1, List<String> temps,
      List<String> backups, Path record) {}

  /**
   * Old: {@code S0}, {@code S1}. The record renames a new {@code S0} (backup kept), a new
   * {@code m.sdnb} (no old file: new-only), a new {@code S1} (backup kept).
   */
  private Rewrite rewrite() throws IOException {
    byte[] old0 = file(S0);
    byte[] old1 = file(S1);
    byte[] new0 = bytes();
    byte[] newSingle = bytes();
    byte[] new1 = bytes();
    List<String> temps = List.of(temp(S0, new0), temp("m.sdnb", newSingle), temp(S1, new1));
    List<String> backups = List.of(backup(S0), backup(S1));
    Path record = CommitRecord.write(id, new CommitRecord.Content(
        List.of(rename(temps.get(0), S0), rename(temps.get(1), "m.sdnb"), rename(temps.get(2), S1)),
        List.of(new CommitRecord.Backup(backups.get(0), S0), new CommitRecord.Backup(backups.get(1), S1)),
        List.of()));
    return new Rewrite(old0, old1, new0, newSingle, new1, temps, backups, record);
  }

  @Test
  void aRewriteRollsForwardAndDropsItsBackups() throws IOException {
    Rewrite w = rewrite();
    move(w.temps.get(0), S0);
    assertTrue(recover());
    assertEquals(expect(S0, w.new0, "m.sdnb", w.newSingle, S1, w.new1), listing());
  }

  @Test
  void temporariesLostAfterRenamesRestoreTheOldFilesByteForByte() throws IOException {
    Rewrite w = rewrite();
    Object oldKey0 = Files.readAttributes(dir.resolve(S0), BasicFileAttributes.class).fileKey();
    move(w.temps.get(0), S0);
    move(w.temps.get(1), "m.sdnb");
    Files.delete(dir.resolve(w.temps.get(2))); // a tmp cleaner
    assertArrayEquals(w.new0, Files.readAllBytes(dir.resolve(S0)));
    assertFalse(recover());
    assertEquals(expect(S0, w.old0, S1, w.old1), listing(), "old files back, new-only m.sdnb removed, backups gone");
    assertArrayEquals(w.old0, Files.readAllBytes(dir.resolve(S0)));
    assertEquals(oldKey0, Files.readAttributes(dir.resolve(S0), BasicFileAttributes.class)
        .fileKey(), "the old file itself is back");
  }

  @Test
  void temporariesLostBeforeAnyRenameOfARewriteKeepTheOldFiles() throws IOException {
    Rewrite w = rewrite();
    Files.delete(dir.resolve(w.temps.get(0)));
    assertFalse(recover());
    assertEquals(expect(S0, w.old0, S1, w.old1), listing());
  }

  @Test
  void aLostBackupIsReportedAndNothingIsDeleted() throws IOException {
    Rewrite w = rewrite();
    move(w.temps.get(0), S0);
    move(w.temps.get(1), "m.sdnb");
    Files.delete(dir.resolve(w.temps.get(2)));
    Files.delete(dir.resolve(w.backups.get(0)));
    Files.createDirectory(dir.resolve(SidecarNames.newJournal(id.key())));
    Map<String, String> before = listing();
    FileSystemException e = assertThrows(FileSystemException.class, this::recover);
    assertEquals(w.record.toString(), e.getFile());
    assertTrue(e.getReason().contains(S0), e.getReason());
    assertEquals(before, listing(), "nothing was deleted or renamed");
    assertTrue(Recovery.needed(id));
    assertThrows(FileSystemException.class, this::recover, "and it stays reported");
    assertEquals(before, listing());
  }

  @Test
  void aTemporaryReplacedByALinkIsNeitherFollowedNorInstalled() throws IOException {
    Rewrite w = rewrite();
    Path victim = Files.write(tmp.resolve("victim"), new byte[] {1, 2, 3});
    Files.delete(dir.resolve(w.temps.get(2)));
    Files.createSymbolicLink(dir.resolve(w.temps.get(2)), victim);
    assertFalse(recover(), "a temporary that is not the file recorded is lost: rolled back");
    Map<String, String> want = expect(S0, w.old0, S1, w.old1);
    want.put(w.temps.get(2), "link → " + victim);
    want.put("victim", "010203");
    assertEquals(want, listing());
  }

  // ---- leftovers ------------------------------------------------------------------------------

  @Test
  void leftoversOfThisModelAreRemoved() throws IOException {
    byte[] old0 = file(S0);
    byte[] old1 = file(S1);
    temp("m.sdnb", bytes());
    temp(N1, bytes());
    Files.write(dir.resolve(SidecarNames.newBackup(S0)), bytes());
    Path journal = Files.createDirectory(dir.resolve(SidecarNames.newJournal(id.key())));
    Files.write(journal.resolve(SidecarNames.journalData("params", 1)), bytes());
    Files.createDirectory(dir.resolve(SidecarNames.newJournal(id.key()))); // an empty one
    Path cut = CommitRecord.write(id, new CommitRecord.Content(List.of(), List.of(), List.of(S0, S1)));
    byte[] full = Files.readAllBytes(cut);
    Files.write(cut, Arrays.copyOf(full, full.length - 3));
    assertTrue(Recovery.needed(id));
    assertFalse(recover());
    assertEquals(expect(S0, old0, S1, old1), listing(), "the cut-off record is dropped without deleting anything");
    assertFalse(Recovery.needed(id));
  }

  @Test
  void neighboursLeftoversAndTheOldNamingAreLeft() throws IOException {
    file(S0);
    file(S1);
    file("mm.sdnb");
    file("m.fb");
    String hex = "0123456789abcdef0123456789abcdef";
    List<String> names = new ArrayList<>(List.of(
        temp("mm.sdnb", bytes()), temp("mm.shard0-of-2.sdnb", bytes()), temp("m.fb", bytes()),
        temp("m.sdnb.sdz", bytes()), temp("m.v2.shard0-of-2.sdnb", bytes()),
        ".m.sdnb." + hex + ".tmp", ".m.shard0-of-2.sdnb." + hex + ".tmp", ".m.sdnb.tmp",
        SidecarNames.newBackup("m.fb"), SidecarNames.lock("m.fb"), ".m.sdnb.modelfs-commit"));
    for (String n : names) {
      if (!Files.exists(dir.resolve(n))) {
        Files.write(dir.resolve(n), bytes());
      }
    }
    Path otherJournal = Files.createDirectory(dir.resolve(SidecarNames.newJournal("m.fb")));
    Files.write(otherJournal.resolve("params-1.bin"), bytes());
    CommitRecord.write(ModelId.of(dir.resolve("m.fb")), new CommitRecord.Content(List.of(), List.of(),
        List.of("m.fb")));
    CommitRecord.write(ModelId.of(dir.resolve("mm.sdnb")), new CommitRecord.Content(List.of(), List.of(),
        List.of("mm.sdnb")));
    Files.writeString(dir.resolve(SidecarNames.newRecord(id.key())), "not a record of ours");
    Map<String, String> before = listing();
    assertTrue(Recovery.needed(id), "the foreign file at a record name of this model is looked at");
    assertFalse(recover());
    assertEquals(before, listing());
  }

  @Test
  void aJournalNameLinkedToAVictimDirectoryLeavesTheVictim() throws IOException {
    Path victim = Files.createDirectory(tmp.resolve("victim"));
    Files.write(victim.resolve("params-1.bin"), new byte[] {7});
    Files.write(victim.resolve("other"), new byte[] {8});
    String j = SidecarNames.newJournal(id.key());
    Files.createSymbolicLink(dir.resolve(j), victim);
    assertFalse(recover());
    assertArrayEquals(new byte[] {7}, Files.readAllBytes(victim.resolve("params-1.bin")));
    assertArrayEquals(new byte[] {8}, Files.readAllBytes(victim.resolve("other")));
    assertTrue(Files.isSymbolicLink(dir.resolve(j)));
  }

  @Test
  void aJournalHoldingAForeignDirectoryIsLeft() throws IOException {
    Path journal = Files.createDirectory(dir.resolve(SidecarNames.newJournal(id.key())));
    Files.write(journal.resolve("params-1.bin"), bytes());
    Path sub = Files.createDirectory(journal.resolve("keep"));
    Files.write(sub.resolve("inner"), new byte[] {5});
    assertFalse(recover());
    assertTrue(Files.isDirectory(journal, LinkOption.NOFOLLOW_LINKS));
    assertArrayEquals(new byte[] {5}, Files.readAllBytes(sub.resolve("inner")));
    assertEquals(List.of("keep"), SafeDir.names(journal), "only the journal's own file is removed");
  }

  @Test
  void aTemporaryNameThatIsALinkOrDirectoryIsLeft() throws IOException {
    Path victim = Files.write(tmp.resolve("victim"), new byte[] {1});
    String linkTemp = SidecarNames.newTemp(S0);
    Files.createSymbolicLink(dir.resolve(linkTemp), victim);
    String dirBackup = SidecarNames.newBackup(S1);
    Files.createDirectory(dir.resolve(dirBackup));
    assertFalse(recover());
    assertTrue(Files.isSymbolicLink(dir.resolve(linkTemp)));
    assertTrue(Files.isDirectory(dir.resolve(dirBackup), LinkOption.NOFOLLOW_LINKS));
    assertArrayEquals(new byte[] {1}, Files.readAllBytes(victim));
  }

  @Test
  void recoveryNeedsTheHeldLock() throws IOException {
    ModelLock l = ModelLock.acquire(id);
    l.close();
    assertThrows(IllegalStateException.class, () -> Recovery.recover(l));
  }

  @Test
  void neededIsFalseForACleanDirectory() throws IOException {
    file(S0);
    file(S1);
    Files.write(dir.resolve(SidecarNames.lock(id.key())), new byte[0]);
    assertFalse(Recovery.needed(id));
    temp(S0, bytes());
    assertTrue(Recovery.needed(id));
  }
}
