package org.modelfs.format.unified;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.flatbuffers.FlatBufferBuilder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.container.Models;
import org.modelfs.format.BudgetExceededException;
import org.modelfs.format.badinput.BadInput;
import org.modelfs.format.fb.gen.FlatArray;
import org.modelfs.format.unified.Containers.Section;
import org.modelfs.model.DType;

/**
 * A FlatBuffer may point many tables at one vector or string: an ARRAYS index whose entries share
 * one chunk table, or a METADATA section whose entries share one value, would make the reader
 * hold far more than the file (found by review: a 12 MB and an 8 MB file each ran a 2 GiB heap
 * out). Both are refused by the tables' budget (docs/FORMATS.md §13.10) before the copies are made.
 */
class SharedTablesBudgetTest {
  @TempDir Path dir;

  @Test
  void indexEntriesSharingOneChunkTable() throws Exception {
    int chunks = 1 << 16;
    FlatBufferBuilder b = new FlatBufferBuilder(1 << 21);
    long[] offsets = new long[chunks];
    int off = longs(b, offsets);
    long[] lengths = new long[chunks];
    Arrays.fill(lengths, 4);
    int len = longs(b, lengths);
    b.startVector(4, chunks, 4);
    for (int k = 0; k < chunks; k++) {
      b.addInt(0);
    }
    int crcs = b.endVector();
    int[] entries = new int[400];
    for (int i = 0; i < entries.length; i++) {
      int name = b.createString("a" + i);
      int shape = FlatArray.createShapeVector(b, new long[] {4L * chunks});
      FlatArray.startFlatArray(b);
      FlatArray.addShape(b, shape);
      FlatArray.addDtype(b, (byte) DType.INT8.code());
      FlatArray.addTotalBufferSize(b, 4L * chunks);
      int array = FlatArray.endFlatArray(b);
      b.startTable(7);
      b.addLong(ArrayIndex.ENTRY_CHUNK_SIZE, 4, 0);
      b.addOffset(ArrayIndex.ENTRY_NAME, name, 0);
      b.addOffset(ArrayIndex.ENTRY_ARRAY, array, 0);
      b.addOffset(ArrayIndex.ENTRY_OFFSETS, off, 0);
      b.addOffset(ArrayIndex.ENTRY_LENGTHS, len, 0);
      b.addOffset(ArrayIndex.ENTRY_CRCS, crcs, 0);
      entries[i] = b.endTable();
    }
    int vec = b.createVectorOfTables(entries);
    b.startTable(1);
    b.addOffset(ArrayIndex.SECTION_ARRAYS, vec, 0);
    b.finish(b.endTable());
    byte[] f = Containers.sample(true, false);
    List<Section> s = Containers.sections(f);
    int i = Containers.find(s, ContainerLayout.SectionType.ARRAYS, 0);
    byte[] hostile = Containers.replace(f, i, s.get(i).withData(Containers.withIndex(new byte[64], b.sizedByteArray())));
    BudgetExceededException e = assertThrows(BudgetExceededException.class,
        () -> Models.open(BadInput.put(dir, "shared-chunks.sdmc", hostile)).close());
    assertTrue(e.getMessage().contains("chunk table"), e.getMessage());
  }

  @Test
  void metadataEntriesSharingOneValue() throws Exception {
    FlatBufferBuilder b = new FlatBufferBuilder(1 << 21);
    int value = b.createString("x".repeat(1 << 20));
    int[] es = new int[400];
    for (int i = 0; i < es.length; i++) {
      int k = b.createString("k" + i);
      b.startTable(2);
      b.addOffset(1, value, 0);
      b.addOffset(0, k, 0);
      es[i] = b.endTable();
    }
    int vec = b.createVectorOfTables(es);
    b.startTable(1);
    b.addOffset(0, vec, 0);
    b.finish(b.endTable());
    byte[] f = Containers.sample(false, true);
    List<Section> s = Containers.sections(f);
    int i = Containers.find(s, ContainerLayout.SectionType.METADATA, 1);
    byte[] hostile = Containers.replace(f, i, s.get(i).withData(b.sizedByteArray()));
    BudgetExceededException e = assertThrows(BudgetExceededException.class,
        () -> Models.open(BadInput.put(dir, "shared-value.sdmc", hostile)).close());
    assertTrue(e.getMessage().contains("MetadataEntry"), e.getMessage());
  }

  private static int longs(FlatBufferBuilder b, long[] v) {
    b.startVector(8, v.length, 8);
    for (int k = v.length - 1; k >= 0; k--) {
      b.addLong(v[k]);
    }
    return b.endVector();
  }
}
