package org.modelfs.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link SidecarNames}: round trips, unguessable names, exact matching (never by prefix). */
class SidecarNamesTest {
  private static final String HEX = "0123456789abcdef0123456789abcdef";

  @TempDir Path tmp;

  @Test
  void lockName() {
    assertEquals(".m.fb.modelfs-lock", SidecarNames.lock("m.fb"));
    assertEquals(".m.sdnb.modelfs-lock", SidecarNames.lock("m.sdnb"));
  }

  @Test
  void tempRoundTrip() {
    for (String target : List.of("m.fb", "m.sdnb", "m.shard0-of-3.sdnb", "bert", "a b.fb", ".hidden.fb",
        "x.modelfs-lock", "é.fb")) {
      String t = SidecarNames.newTemp(target);
      assertTrue(t.matches("\\..+\\.modelfs-[0-9a-f]{32}\\.tmp"), t);
      assertEquals("." + target + ".modelfs-", t.substring(0, target.length() + 10), t);
      assertEquals(target, SidecarNames.tempTarget(t), t);
      assertNull(SidecarNames.backupTarget(t), t);
    }
  }

  @Test
  void backupRoundTrip() {
    for (String target : List.of("m.fb", "m.sdnb", "m.shard2-of-3.sdnb", "bert")) {
      String b = SidecarNames.newBackup(target);
      assertTrue(b.matches("\\..+\\.modelfs-[0-9a-f]{32}\\.old"), b);
      assertEquals(target, SidecarNames.backupTarget(b), b);
      assertNull(SidecarNames.tempTarget(b), b);
    }
  }

  @Test
  void journalAndRecordRoundTrip() {
    for (String key : List.of("m.fb", "m.sdnb", "bert")) {
      String j = SidecarNames.newJournal(key);
      String r = SidecarNames.newRecord(key);
      assertTrue(j.matches(Pattern.quote("." + key + ".modelfs-journal-") + "[0-9a-f]{32}"), j);
      assertTrue(r.matches(Pattern.quote("." + key + ".modelfs-commit-") + "[0-9a-f]{32}"), r);
      assertTrue(SidecarNames.isJournal(key, j), j);
      assertTrue(SidecarNames.isRecord(key, r), r);
      assertFalse(SidecarNames.isJournal(key, r), r);
      assertFalse(SidecarNames.isRecord(key, j), j);
      assertFalse(SidecarNames.isJournal(key, SidecarNames.lock(key)));
      assertFalse(SidecarNames.isRecord(key, SidecarNames.lock(key)));
      assertNull(SidecarNames.tempTarget(j));
      assertNull(SidecarNames.tempTarget(r));
    }
  }

  @Test
  void randomPartsAreDistinctLowercaseHex() {
    Pattern hex32 = Pattern.compile("[0-9a-f]{32}");
    List<Function<String, String>> makers = List.of(SidecarNames::newTemp, SidecarNames::newBackup,
        SidecarNames::newJournal, SidecarNames::newRecord);
    Pattern random = Pattern.compile(".*modelfs-(?:journal-|commit-)?([0-9A-Za-z]+)(?:\\.tmp|\\.old)?");
    for (Function<String, String> make : makers) {
      Set<String> seen = new HashSet<>();
      for (int i = 0; i < 1000; i++) {
        String n = make.apply("m.fb");
        Matcher m = random.matcher(n);
        assertTrue(m.matches(), n);
        String r = m.group(1);
        assertTrue(hex32.matcher(r).matches(), "32 lower-case hex digits: " + n);
        assertTrue(seen.add(r), "random part repeated: " + n);
      }
      assertEquals(1000, seen.size());
    }
  }

  @Test
  void aNeighboursTempIsNotATempOfTheModel() throws IOException {
    ModelId fb = ModelId.of(tmp.resolve("m.fb"));
    ModelId sdz = ModelId.of(tmp.resolve("m.fb.sdz"));
    String neighbour = ".m.fb.sdz.modelfs-" + HEX + ".tmp";
    assertEquals("m.fb.sdz", SidecarNames.tempTarget(neighbour));
    assertFalse(SidecarNames.isTempOf(fb, neighbour));
    assertTrue(SidecarNames.isTempOf(sdz, neighbour));
    assertTrue(SidecarNames.isTempOf(fb, ".m.fb.modelfs-" + HEX + ".tmp"));
    assertFalse(SidecarNames.isTempOf(sdz, ".m.fb.modelfs-" + HEX + ".tmp"));

    ModelId bert = ModelId.of(tmp.resolve("bert"));
    ModelId bert2 = ModelId.of(tmp.resolve("bert.v2"));
    assertFalse(SidecarNames.isTempOf(bert, SidecarNames.newTemp("bert.v2")));
    assertFalse(SidecarNames.isTempOf(bert2, SidecarNames.newTemp("bert")));
    assertFalse(SidecarNames.isBackupOf(bert, SidecarNames.newBackup("bert.v2")));
    assertTrue(SidecarNames.isBackupOf(bert, SidecarNames.newBackup("bert")));
    assertFalse(SidecarNames.isJournal("bert", SidecarNames.newJournal("bert.v2")));
    assertFalse(SidecarNames.isJournal("bert.v2", SidecarNames.newJournal("bert")));
    assertFalse(SidecarNames.isRecord("bert", SidecarNames.newRecord("bert.v2")));
    assertFalse(SidecarNames.isRecord("m.fb", SidecarNames.newRecord("m.fb.sdz")));
    assertFalse(SidecarNames.isRecord("m.fb.sdz", SidecarNames.newRecord("m.fb")));
  }

  @Test
  void shardTempsBelongToTheirShardSetOnly() throws IOException {
    ModelId set = ModelId.of(tmp.resolve("m.sdnb"));
    assertTrue(SidecarNames.isTempOf(set, SidecarNames.newTemp("m.shard0-of-2.sdnb")));
    assertTrue(SidecarNames.isTempOf(set, SidecarNames.newTemp("m.sdnb")));
    assertTrue(SidecarNames.isBackupOf(set, SidecarNames.newBackup("m.shard1-of-2.sdnb")));
    assertFalse(SidecarNames.isTempOf(set, SidecarNames.newTemp("mm.shard0-of-2.sdnb")));
    assertFalse(SidecarNames.isTempOf(set, SidecarNames.newTemp("m.v2.shard0-of-2.sdnb")));
    assertFalse(SidecarNames.isTempOf(set, SidecarNames.newTemp("m.sdnb.sdz")));
    assertFalse(SidecarNames.isTempOf(set, SidecarNames.newTemp("m.fb")));
    assertFalse(SidecarNames.isBackupOf(set, SidecarNames.newBackup("m.fb")));
  }

  @Test
  void theOldNamingNeverMatches() throws IOException {
    String old = ".a.b." + HEX + ".tmp";
    assertNull(SidecarNames.tempTarget(old));
    assertNull(SidecarNames.backupTarget(old));
    assertNull(SidecarNames.backupTarget(".a.b." + HEX + ".old"));
    for (String key : List.of("a", "a.b", "b", "a.b." + HEX)) {
      ModelId id = ModelId.of(tmp.resolve(key));
      assertFalse(SidecarNames.isTempOf(id, old), key);
      assertFalse(SidecarNames.isBackupOf(id, old), key);
      assertFalse(SidecarNames.isJournal(key, old), key);
      assertFalse(SidecarNames.isRecord(key, old), key);
    }
  }

  @Test
  void malformedRandomPartsNeverMatch() throws IOException {
    String upper = HEX.toUpperCase();
    assertNull(SidecarNames.tempTarget(".m.fb.modelfs-" + upper + ".tmp"));
    assertNull(SidecarNames.tempTarget(".m.fb.modelfs-" + HEX.substring(1) + ".tmp"));
    assertNull(SidecarNames.tempTarget(".m.fb.modelfs-" + HEX + "0.tmp"));
    assertNull(SidecarNames.tempTarget(".m.fb.modelfs-" + HEX + ".tmp.x"));
    assertNull(SidecarNames.tempTarget("m.fb.modelfs-" + HEX + ".tmp"));
    assertNull(SidecarNames.tempTarget(".modelfs-" + HEX + ".tmp"));
    assertFalse(SidecarNames.isJournal("m.fb", ".m.fb.modelfs-journal-" + upper));
    assertFalse(SidecarNames.isJournal("m.fb", ".m.fb.modelfs-journal-" + HEX + "0"));
    assertFalse(SidecarNames.isJournal("m.fb", ".m.fb.modelfs-journal-" + HEX.substring(1)));
    assertFalse(SidecarNames.isJournal("m.fb", "m.fb.modelfs-journal-" + HEX + "0"));
    assertFalse(SidecarNames.isRecord("m.fb", ".m.fb.modelfs-commit-" + upper));
    assertFalse(SidecarNames.isRecord("m.fb", ".m.fb.modelfs-commit-" + HEX + ".tmp"));
    assertTrue(SidecarNames.isRecord("m.fb", ".m.fb.modelfs-commit-" + HEX));
    // a temporary of a temporary is not a temporary of the model
    ModelId fb = ModelId.of(tmp.resolve("m.fb"));
    assertFalse(SidecarNames.isTempOf(fb, SidecarNames.newTemp(SidecarNames.newTemp("m.fb"))));
  }

  @Test
  void journalDataKindsAreValidated() {
    assertEquals("params-1.bin", SidecarNames.journalData("params", 1));
    assertEquals("updater_state-42.bin", SidecarNames.journalData("updater_state", 42));
    assertEquals("a-" + Long.MAX_VALUE + ".bin", SidecarNames.journalData("a", Long.MAX_VALUE));
    assertEquals("x".repeat(32) + "-0.bin", SidecarNames.journalData("x".repeat(32), 0));
    for (String bad : List.of("", "Params", "a-b", "a.b", "../x", "a/b", "x".repeat(33), "params1", "é")) {
      assertThrows(IllegalArgumentException.class, () -> SidecarNames.journalData(bad, 1), "kind '" + bad + "'");
    }
    assertThrows(IllegalArgumentException.class, () -> SidecarNames.journalData("params", -1));
    assertTrue(SidecarNames.isJournalData("params-1.bin"));
    assertFalse(SidecarNames.isJournalData("params-1.bin.tmp"));
    assertFalse(SidecarNames.isJournalData("params-.bin"));
    assertFalse(SidecarNames.isJournalData("Params-1.bin"));
    assertFalse(SidecarNames.isJournalData("../params-1.bin"));
    assertFalse(SidecarNames.isJournalData("notes.txt"));
  }
}
