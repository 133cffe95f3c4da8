package org.modelfs.format.fb;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.flatbuffers.FlatBufferBuilder;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.container.Models;
import org.modelfs.format.BudgetExceededException;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.HandArrays;

/**
 * Op arguments (FlatNode.scalar) whose FlatArrays all share one bufferChunks vector of a million
 * data-less entries: the writer decodes every one when it rewrites the graph, and without a
 * budget the cost grew as arguments × entries (found by review: 80 arguments in a 4 MB file took
 * 40 s). The decoding is charged to the source graph's read budget (docs/FORMATS.md §12).
 */
class SharedChunkTablesTest {
  @TempDir Path tmp;

  static byte[] hostile(int nodes, int k) {
    FlatBufferBuilder b = new FlatBufferBuilder(1 << 20);
    int data = b.createByteVector(HandArrays.floats(1, ByteOrder.BIG_ENDIAN));
    b.startTable(2);
    b.addLong(0, 0, Long.MIN_VALUE);
    b.addOffset(1, data, 0);
    int real = b.endTable();
    b.startTable(2);
    b.addLong(0, 0, Long.MIN_VALUE);
    int empty = b.endTable();
    b.startVector(4, k, 4);
    for (int i = k - 1; i >= 1; i--) {
      b.addOffset(empty);
    }
    b.addOffset(real);
    int chunks = b.endVector();
    int shape = HandArrays.longs(b, HandArrays.shapeInfo(8192));
    int[] ns = new int[nodes];
    for (int n = 0; n < nodes; n++) {
      b.startTable(10);
      b.addOffset(4, chunks, 0);
      b.addOffset(0, shape, 0);
      b.addByte(2, (byte) HandArrays.FLOAT, 0);
      b.addByte(3, (byte) 1, (byte) -1);
      int arr = b.endTable();
      int name = b.createString("op" + n);
      b.startTable(24);
      b.addInt(0, n + 10, 0);
      b.addOffset(1, name, 0);
      b.addOffset(18, arr, 0);
      ns[n] = b.endTable();
    }
    int nodeVec = HandArrays.offsets(b, ns);
    int w = HandArrays.array(HandArrays.shapeInfo(8192, 1), HandArrays.FLOAT, 1, HandArrays.floats(1, ByteOrder.BIG_ENDIAN),
        null, null, 0, 0).applyAsInt(b);
    int v = HandArrays.variable(b, 1, "w", HandArrays.FLOAT, HandArrays.VARIABLE, new long[] {1}, w);
    int vars = HandArrays.offsets(b, new int[] {v});
    b.startTable(12);
    b.addOffset(1, vars, 0);
    b.addOffset(2, nodeVec, 0);
    b.finish(b.endTable());
    return b.sizedByteArray();
  }

  @Test
  void opArgumentsSharingOneHugeChunkTableAreRefusedByTheBudget() throws Exception {
    Path in = Files.write(tmp.resolve("h.fb"), hostile(80, 1 << 20));
    try (Model m = Models.open(in)) {
      BudgetExceededException e = assertThrows(BudgetExceededException.class,
          () -> ModelFiles.writeTags(m.tags(), tmp.resolve("h.sdnb"), WriteOptions.of(ModelFormat.SDNB)));
      assertTrue(e.getMessage().contains("bufferChunks"), e.getMessage());
    }
  }

  @Test
  void oneChunkedOpArgumentStillConverts() throws Exception {
    Path in = Files.write(tmp.resolve("one.fb"), hostile(1, 2));
    try (Model m = Models.open(in)) {
      ModelFiles.writeTags(m.tags(), tmp.resolve("one.sdnb"), WriteOptions.of(ModelFormat.SDNB));
    }
    try (Model back = Models.open(tmp.resolve("one.sdnb"))) {
      assertTrue(back.newest().variable("w") != null);
    }
  }
}
