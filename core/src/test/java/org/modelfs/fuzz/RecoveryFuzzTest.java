package org.modelfs.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import org.modelfs.store.LocalBacking;
import org.modelfs.store.ModelLock;

/**
 * Crash recovery ({@code store.Recovery}, run as a writer runs it: lock, recover) over a directory
 * the fuzzer lays out — leftovers at this model's sidecar names, the same names as a symbolic
 * link or a directory, look-alike names of other models, a journal holding a link out of the
 * directory — and a commit record with fuzzed lines. It may only succeed or throw an
 * {@link IOException}, and afterwards: every file it cannot prove is its own (any name not this
 * model's, any link, anything outside the directory) is there with its bytes, and every file
 * that remains holds bytes some file held before (nothing invented, nothing half-written).
 *
 * <p>Input: two bytes (big-endian) say which of {@link #CANDIDATES} exist, one byte of flags
 * (bit 0: end the record with its valid CRC line, as a complete record does), then the record's
 * bytes.
 */
class RecoveryFuzzTest {
  static final String H1 = "0123456789abcdef0123456789abcdef";
  static final String H2 = "fedcba9876543210fedcba9876543210";
  static final String H3 = "00000000000000000000000000000000";
  /** The record's name. */
  static final String RECORD = ".m.sdnb.modelfs-commit-" + "11111111111111111111111111111111";
  /** What may exist beside the model {@code m.sdnb}: name → what it is (file, link, dir, journal). */
  static final String[][] CANDIDATES = {
    {".m.sdnb.modelfs-" + H1 + ".tmp", "file"},          // a temporary of m.sdnb: ours
    {".m.shard0-of-2.sdnb.modelfs-" + H2 + ".tmp", "file"},
    {".m.shard1-of-2.sdnb.modelfs-" + H3 + ".tmp", "file"},
    {".m.sdnb.modelfs-" + H2 + ".old", "file"},          // a backup link: ours
    {"m.shard0-of-2.sdnb", "file"},                     // model files
    {"m.shard1-of-2.sdnb", "file"},
    {".m.sdnb.modelfs-journal-" + H1, "journal"},       // a journal with a link out of it
    {".m.sdnb.modelfs-" + H3 + ".tmp", "link"},           // our name, but a link: never ours
    {".m.sdnb.modelfs-" + H2 + ".tmp", "dir"},            // our name, but a directory
    {"other.sdnb", "file"},                             // foreign
    {".other.sdnb.modelfs-" + H1 + ".tmp", "file"},
    {".m.sdnb.modelfs-" + H1 + ".tmp.bak", "file"},
    {".m.sdnbx.modelfs-" + H1 + ".tmp", "file"},
    {"m.sdnb.modelfs-" + H1 + ".tmp", "file"},
    {".M.SDNB.modelfs-" + H1 + ".tmp", "file"},
    {".m.sdnb.modelfs-commit-" + H2, "link"},
  };

  @FuzzTest(maxDuration = "30s")
  void recover(byte[] input) throws IOException {
    Path root = FuzzFiles.freshDir("recovery");
    Path dir = Files.createDirectory(root.resolve("model"));
    Path outside = Files.writeString(root.resolve("outside"), "outside");
    Files.writeString(dir.resolve("m.sdnb"), "model m.sdnb");
    int mask = input.length >= 2 ? (input[0] & 0xFF) << 8 | (input[1] & 0xFF) : 0;
    boolean sealed = input.length >= 3 && (input[2] & 1) != 0;
    for (int i = 0; i < CANDIDATES.length; i++) {
      if ((mask >> i & 1) != 0) {
        make(dir, CANDIDATES[i][0], CANDIDATES[i][1], outside);
      }
    }
    byte[] record = input.length > 3 ? Arrays.copyOfRange(input, 3, input.length) : new byte[0];
    if (input.length >= 3) {
      Files.write(dir.resolve(RECORD), sealed ? seal(record) : record);
    }
    Map<String, byte[]> before = contents(dir);
    List<byte[]> seen = new ArrayList<>(before.values());
    seen.add("outside".getBytes(StandardCharsets.UTF_8));

    LocalBacking backing = LocalBacking.of(dir.resolve("m.sdnb"));
    try (ModelLock lock = backing.lock()) {
      backing.recover(lock);
    } catch (IOException refused) {
      // a record it cannot act on is reported
    }

    check(Arrays.equals(Files.readAllBytes(outside), "outside".getBytes(StandardCharsets.UTF_8)), "outside file altered");
    Map<String, byte[]> after = contents(dir);
    for (Map.Entry<String, byte[]> e : before.entrySet()) {
      String name = e.getKey();
      if (!mayGo(name, dir)) {
        check(after.containsKey(name) && Arrays.equals(after.get(name), e.getValue()), "not its own, but altered or removed: " + name);
      }
    }
    for (String[] c : CANDIDATES) {
      if (c[1].equals("link") || c[1].equals("dir")) {
        boolean was = before.containsKey(c[0] + (c[1].equals("dir") ? "/" : ""));
        check(!was || Files.exists(dir.resolve(c[0]), LinkOption.NOFOLLOW_LINKS), "removed a " + c[1] + ": " + c[0]);
      }
    }
    for (Map.Entry<String, byte[]> e : after.entrySet()) {
      check(e.getKey().equals(".m.sdnb.modelfs-lock") || seen.stream().anyMatch(b -> Arrays.equals(b, e.getValue())),
          "bytes no file held before: " + e.getKey());
    }
  }

  /** Names whose files recovery may remove or replace: the model's own files and sidecars. */
  private static boolean mayGo(String name, Path dir) {
    if (name.startsWith(".m.sdnb.modelfs-journal-")) {
      return true; // its journal, links in it too (removing a link leaves what it points to)
    }
    if (name.contains("/")) {
      return false;
    }
    if (Files.isSymbolicLink(dir.resolve(name)) || Files.isDirectory(dir.resolve(name), LinkOption.NOFOLLOW_LINKS)) {
      return false;
    }
    return name.equals("m.sdnb") || name.equals("m.shard0-of-2.sdnb") || name.equals("m.shard1-of-2.sdnb")
        || name.equals(RECORD) || name.equals(CANDIDATES[0][0]) || name.equals(CANDIDATES[1][0])
        || name.equals(CANDIDATES[2][0]) || name.equals(CANDIDATES[3][0]);
  }

  private static void make(Path dir, String name, String kind, Path outside) throws IOException {
    Path p = dir.resolve(name);
    switch (kind) {
      case "file" -> Files.writeString(p, "content of " + name);
      case "link" -> Files.createSymbolicLink(p, outside);
      case "dir" -> Files.writeString(Files.createDirectory(p).resolve("inside"), "inside " + name);
      default -> {
        Files.createDirectory(p);
        Files.writeString(p.resolve("param-1.bin"), "journal bytes");
        Files.createSymbolicLink(p.resolve("param-2.link.bin"), outside);
      }
    }
  }

  /** Every file below {@code dir} (links not followed: a link's entry is its target's text), by relative name. */
  private static Map<String, byte[]> contents(Path dir) throws IOException {
    Map<String, byte[]> out = new LinkedHashMap<>();
    try (var s = Files.walk(dir)) {
      for (Path p : s.toList()) {
        String rel = dir.relativize(p).toString();
        if (p.equals(dir)) {
          continue;
        }
        if (Files.isSymbolicLink(p)) {
          out.put(rel, ("link to " + Files.readSymbolicLink(p)).getBytes(StandardCharsets.UTF_8));
        } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
          out.put(rel + "/", new byte[0]);
        } else {
          out.put(rel, Files.readAllBytes(p));
        }
      }
    }
    return out;
  }

  /** {@code body} followed by its end line: a record as complete as ModelFS writes one. */
  static byte[] seal(byte[] body) {
    CRC32 crc = new CRC32();
    crc.update(body);
    byte[] end = ("end\t" + HexFormat.of().toHexDigits((int) crc.getValue()) + "\n").getBytes(StandardCharsets.UTF_8);
    byte[] out = Arrays.copyOf(body, body.length + end.length);
    System.arraycopy(end, 0, out, body.length, end.length);
    return out;
  }

  private static void check(boolean ok, String what) {
    if (!ok) {
      throw new AssertionError(what);
    }
  }
}
