package org.modelfs.format.sdnb;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.util.List;
import org.modelfs.format.ModelFormatException;

/**
 * The SDNB manifest parser (a restricted Java-serialization reader) on hostile bytes: it may
 * only return entries or throw {@link ModelFormatException}; what it returns must be what our
 * writer writes again and parses back the same (docs/RELIABILITY.md "Fuzzing"). In this package
 * to reach the package-private parser; the other targets are in {@code org.modelfs.fuzz}.
 */
class ManifestFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void parse(byte[] input) {
    List<Manifest.Entry> entries;
    try {
      entries = Manifest.read(ByteBuffer.wrap(input), "m.sdnb", 0);
    } catch (ModelFormatException refused) {
      return;
    }
    List<Manifest.Entry> again;
    try {
      again = Manifest.read(ByteBuffer.wrap(Manifest.write(entries)), "rewritten", 0);
    } catch (ModelFormatException e) {
      throw new AssertionError("our own manifest of " + entries.size() + " entries is refused", e);
    }
    if (!again.equals(entries)) {
      throw new AssertionError("a manifest does not survive a rewrite: " + entries + " → " + again);
    }
  }
}
