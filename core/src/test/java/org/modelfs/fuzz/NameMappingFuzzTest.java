package org.modelfs.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.file.InvalidPathException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.modelfs.tree.NameMapping;

/**
 * The properties of docs/FILESYSTEM.md §2 on names the fuzzer makes: for valid names (no
 * unpaired surrogate) decoding the canonical spelling gives the name back, in one segment and
 * split; two different names never share a spelling; decoding any text either gives a name that
 * encodes and decodes to itself, or refuses it with {@link InvalidPathException} — nothing else.
 */
class NameMappingFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void roundTripAndInjectivity(FuzzedDataProvider data) {
    String a = data.consumeString(64);
    String b = data.consumeString(64);
    String segment = data.consumeRemainingAsString();
    boolean aValid = NameMapping.unpairedSurrogate(a) < 0;
    boolean bValid = NameMapping.unpairedSurrogate(b) < 0;
    if (aValid) {
      roundTrip(a, b);
    }
    if (aValid && bValid && !a.equals(b)) {
      check(!NameMapping.oneSegment(a).equals(NameMapping.oneSegment(b)), "two names, one segment", a, b);
      List<String> sa = NameMapping.segments(a, Set.of(a, b));
      List<String> sb = NameMapping.segments(b, Set.of(a, b));
      check(!sa.equals(sb), "two names, one path", a, b);
    }
    String decoded;
    try {
      decoded = NameMapping.decode(segment);
    } catch (InvalidPathException refused) {
      check(refused.getIndex() >= 0 && refused.getIndex() < Math.max(1, segment.length()), "index", segment, null);
      return;
    }
    check(NameMapping.unpairedSurrogate(decoded) < 0, "decoded to an invalid name", segment, decoded);
    check(NameMapping.decode(NameMapping.oneSegment(decoded)).equals(decoded), "decode∘encode", segment, decoded);
  }

  private static void roundTrip(String name, String other) {
    check(NameMapping.decode(NameMapping.oneSegment(name)).equals(name), "one-segment round trip", name, null);
    Set<String> set = new HashSet<>(List.of(name, other));
    check(NameMapping.name(NameMapping.segments(name, set)).equals(name), "split round trip", name, other);
    for (String seg : NameMapping.segments(name, set)) {
      check(!seg.isEmpty() && !seg.equals(".") && !seg.equals("..") && seg.indexOf('/') < 0 && seg.indexOf('\0') < 0,
          "segment '" + seg + "' is not a path element", name, other);
    }
  }

  private static void check(boolean ok, String what, String a, String b) {
    if (!ok) {
      throw new AssertionError(what + ": " + escape(a) + (b == null ? "" : " / " + escape(b)));
    }
  }

  private static String escape(String s) {
    StringBuilder sb = new StringBuilder("\"");
    s.codePoints().forEach(c -> sb.append(c >= 0x20 && c < 0x7F ? Character.toString(c) : String.format("\\u{%X}", c)));
    return sb.append('"').toString();
  }
}
