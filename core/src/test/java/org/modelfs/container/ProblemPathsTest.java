package org.modelfs.container;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.modelfs.format.WriteOptions;
import org.modelfs.io.ChannelSource;
import org.modelfs.model.ArrayData;
import org.modelfs.model.DType;
import org.modelfs.format.Codecs;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.VarKind;
import org.modelfs.model.Variable;
import org.modelfs.testing.BytesChannel;

/**
 * Every problem a whole-model write refuses with names its tag once: the codecs report where in
 * the tag ({@code model.Where}: {@code params/W}), the writer puts the tag before it. Held for
 * every format over a tag that each format refuses for some reason — an array too large for a
 * zip-tags array file, a dtype fb has no legacy encoding for (QINT16), metadata fb cannot hold, updater
 * state too large — so a codec that spells a whole path again (zip-tags did:
 * {@code /tags/t//tags/t/params/W}) is found.
 */
class ProblemPathsTest {
  private static final ChannelSource SRC = ChannelSource.of("m", new BytesChannel(new byte[8]));
  private static final long HUGE = 3L << 30; // above a zip-tags array file's 2 GiB, nothing is read

  private static ArrayData array(DType t, long bytes) {
    return new ArrayData(t, new long[] {bytes / t.width()}, 'c', false, SRC, 0, bytes, false, ArrayData.Storage.RAW);
  }

  @Test
  void everyProblemNamesItsTagOnce() throws Exception {
    Tag t = new Tag("t", null,
        List.of(new Variable("big/W", VarKind.VARIABLE, DType.FLOAT, null, array(DType.FLOAT, HUGE), -1),
            new Variable("u", VarKind.VARIABLE, DType.QINT16, null, array(DType.QINT16, 8), -1)),
        List.of(new UpdaterState("big/W", Map.of("M", array(DType.FLOAT, HUGE)))), null, Map.of("k", "v"));
    int seen = 0;
    for (ModelFormat f : Codecs.formats()) {
      for (String p : ModelWriter.problems(List.of(t), WriteOptions.of(f))) {
        seen++;
        assertTrue(p.startsWith("/tags/t/"), f + ": " + p);
        assertFalse(p.indexOf("/tags/", 1) >= 0, f + ": " + p);
      }
    }
    assertTrue(seen >= 3, seen + " problems");
  }
}
