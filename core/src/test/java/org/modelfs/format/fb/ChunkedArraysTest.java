package org.modelfs.format.fb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.testing.HandArrays.*;

import com.google.flatbuffers.FlatBufferBuilder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.container.Models;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.WriteOptions;
import org.modelfs.format.fb.gen.FlatArray;
import org.modelfs.format.fb.gen.FlatGraph;
import org.modelfs.format.fb.gen.FlatNode;
import org.modelfs.io.PiecedSource;
import org.modelfs.model.ArrayData;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.HandArrays.Chunk;
import org.modelfs.testing.HandArrays.Var;

/**
 * Chunked ({@code bufferChunks}) and appended FlatArrays (docs/FORMATS.md §10) in hand-built
 * files of both conventions: read through the mount (read, copy, map), converted to plain
 * arrays, and every lie refused with the file and offset.
 */
class ChunkedArraysTest {
  @TempDir Path dir;

  private static final long[] SI23 = shapeInfo(8192, 2, 3);
  private static final byte[] LE = floats(6, ByteOrder.LITTLE_ENDIAN);
  private static final byte[] BE = floats(6, ByteOrder.BIG_ENDIAN);

  private Path legacy(String name, Part array) throws IOException {
    return Files.write(dir.resolve(name), fb(List.of(new Var("w", FLOAT, VARIABLE, null, array))));
  }

  private Path sdnbFile(String name, Part array) throws IOException {
    return Files.write(dir.resolve(name), sdnb(List.of(new Var("w", FLOAT, VARIABLE, new long[] {2, 3}, array))));
  }

  private static byte[] params(Path model) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(model)) {
      return Files.readAllBytes(fs.getPath("/tags/default/params/w"));
    }
  }

  @Test
  void legacyChunksOrderedByIndexReadLittleEndian() throws IOException {
    Path m = legacy("c.fb", array(SI23, FLOAT, 1, null, shuffledChunks(BE), 24L, 0, 0));
    assertArrayEquals(LE, params(m));
  }

  @Test
  void sdnbChunksOrderedByIndexRead() throws IOException {
    Path m = sdnbFile("c.sdnb", array(new long[] {2, 3}, FLOAT, -1, null, shuffledChunks(LE), 24L, 0, 0));
    assertArrayEquals(LE, params(m));
  }

  @Test
  void duplicateIndicesKeepVectorOrder() throws IOException {
    List<Chunk> c = cut(BE, new int[] {7, 16}, new long[] {5, 5, 0});
    assertArrayEquals(LE, params(legacy("d.fb", array(SI23, FLOAT, 1, null, c, 24L, 0, 0))));
  }

  @Test
  void totalBufferSizeCutsTheLastChunkAndAbsentItTakesAll() throws IOException {
    byte[] padded = Arrays.copyOf(BE, 30);
    List<Chunk> c = cut(padded, new int[] {10}, new long[] {0, 1});
    assertArrayEquals(LE, params(legacy("t.fb", array(SI23, FLOAT, 1, null, c, 24L, 0, 0))));
    assertArrayEquals(LE, params(legacy("a.fb", array(SI23, FLOAT, 1, null, cut(BE, new int[] {10}, new long[] {0, 1}),
        null, 0, 0))));
    ModelFormatException e = assertThrows(ModelFormatException.class,
        () -> Models.open(legacy("extra.fb", array(SI23, FLOAT, 1, null, c, null, 0, 0))).close());
    assertTrue(e.getMessage().contains("holds 30 bytes but FLOAT[2, 3] needs 24"), e.getMessage());
  }

  @Test
  void readCopyAndMapThroughTheMount() throws IOException {
    Path m = legacy("m.fb", array(SI23, FLOAT, 1, null, shuffledChunks(BE), 24L, 0, 0));
    Path s = sdnbFile("m.sdnb", array(new long[] {2, 3}, FLOAT, -1, null, List.of(new Chunk(0, LE)), null, 0, 0));
    for (Path p : List.of(m, s)) {
      try (FileSystem fs = ModelFileSystems.open(p)) {
        Path w = fs.getPath("/tags/default/params/w");
        Path out = dir.resolve(p.getFileName() + ".copy");
        Files.copy(w, out);
        assertArrayEquals(LE, Files.readAllBytes(out));
        try (FileChannel ch = FileChannel.open(w, StandardOpenOption.READ)) {
          MappedByteBuffer mb = ch.map(FileChannel.MapMode.READ_ONLY, 0, 24);
          byte[] got = new byte[24];
          mb.get(got);
          assertArrayEquals(LE, got, p.toString());
        }
      }
    }
  }

  @Test
  void legacyAppendedDataReadsFromTheFileImage() throws IOException {
    byte[] file = fbWithTrailer(at -> List.of(new Var("w", FLOAT, VARIABLE, null,
        array(SI23, FLOAT, 1, null, null, null, at, 24))), BE);
    assertArrayEquals(LE, params(Files.write(dir.resolve("app.fb"), file)));
  }

  @Test
  void convertedModelsHoldPlainArraysThatReadBackEqual() throws IOException {
    Path m = legacy("conv.fb", array(SI23, FLOAT, 1, null, shuffledChunks(BE), 24L, 0, 0));
    for (ModelFormat f : List.of(ModelFormat.FB, ModelFormat.SDNB)) {
      Path out = dir.resolve("out." + f.token());
      try (Model model = Models.open(m)) {
        ModelFiles.write(model.newest(), out, WriteOptions.of(f));
      }
      assertArrayEquals(LE, params(out), f.token());
      try (Model back = Models.open(out)) {
        ArrayData a = back.newest().variable("w").array();
        assertTrue(!(a.source() instanceof PiecedSource), "still chunked in " + f.token() + ": " + a);
      }
    }
  }

  /** An fb file: variable {@code w} (inline) and one op {@code op} whose {@code scalar} is {@code arg}. */
  private Path withOpArgument(String name, Part arg) throws IOException {
    FlatBufferBuilder b = new FlatBufferBuilder(1024);
    int scalar = arg.applyAsInt(b);
    int opName = b.createString("op");
    int op = b.createString("noop");
    FlatNode.startFlatNode(b);
    FlatNode.addId(b, 2);
    FlatNode.addName(b, opName);
    FlatNode.addOpName(b, op);
    FlatNode.addScalar(b, scalar);
    int node = FlatNode.endFlatNode(b);
    int nodes = FlatGraph.createNodesVector(b, new int[] {node});
    int w = array(SI23, FLOAT, 1, BE, null, null, 0, 0).applyAsInt(b); // plain: only the op argument is chunked
    int var = variable(b, 1, "w", FLOAT, VARIABLE, null, w);
    int vars = FlatGraph.createVariablesVector(b, new int[] {var});
    FlatGraph.startFlatGraph(b);
    FlatGraph.addVariables(b, vars);
    FlatGraph.addNodes(b, nodes);
    b.finish(FlatGraph.endFlatGraph(b));
    return Files.write(dir.resolve(name), b.sizedByteArray());
  }

  /** The FlatGraph of a written fb or SDNB file (an SDNB's starts at byte 32). */
  private static FlatGraph flatGraph(Path file) throws IOException {
    ByteBuffer all = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
    if (all.get(0) == 'S' && all.get(1) == 'D') {
      all = all.position(32).slice().order(ByteOrder.LITTLE_ENDIAN);
    }
    return FlatGraph.getRootAsFlatGraph(all);
  }

  @Test
  void chunkedOpArgumentsAreWrittenInline() throws IOException {
    Path chunked = withOpArgument("opc.fb", array(SI23, FLOAT, 1, null, shuffledChunks(BE), null, 0, 0));
    for (ModelFormat f : List.of(ModelFormat.FB, ModelFormat.SDNB)) {
      Path out = dir.resolve("op." + f.token());
      try (Model model = Models.open(chunked)) {
        ModelFiles.write(model.newest(), out, WriteOptions.of(f));
      }
      FlatArray arg = flatGraph(out).nodes(0).scalar();
      assertTrue(arg.bufferChunksLength() == 0, f.token());
      byte[] got = new byte[arg.bufferLength()];
      arg.bufferAsByteBuffer().get(got);
      assertArrayEquals(f == ModelFormat.FB ? BE : LE, got, f.token());
      assertArrayEquals(LE, params(out), f.token());
    }
  }

  private void refused(Path m, String contains) {
    ModelFormatException e = assertThrows(ModelFormatException.class, () -> Models.open(m).close(), m.toString());
    assertTrue(e.getMessage().contains(contains), e.getMessage());
    assertTrue(e.getMessage().contains(m.getFileName() + ": FlatGraph.variables[0].ndarray"), e.getMessage());
    assertTrue(e.getMessage().matches(".*ndarray[^ ]* at offset \\d+: .*"), e.getMessage());
  }

  @Test
  void liesAreRefusedNamingFileAndOffset() throws IOException {
    refused(legacy("big.fb", array(SI23, FLOAT, 1, null, shuffledChunks(BE), 25L, 0, 0)),
        "totalBufferSize 25 is more than the 24 bytes its 3 chunks hold");
    refused(legacy("neg.fb", array(SI23, FLOAT, 1, null, shuffledChunks(BE), -1L, 0, 0)), "totalBufferSize -1 is negative");
    refused(legacy("short.fb", array(SI23, FLOAT, 1, null, shuffledChunks(BE), 20L, 0, 0)),
        "holds 20 bytes but FLOAT[2, 3] needs 24");
    refused(legacy("negidx.fb", array(SI23, FLOAT, 1, null, cut(BE, new int[] {8}, new long[] {0, -3}), null, 0, 0)),
        "negative chunk index -3");
    refused(legacy("both.fb", array(SI23, FLOAT, 1, BE, shuffledChunks(BE), null, 0, 0)), "more than one of buffer");
    refused(Files.write(dir.resolve("out.fb"), fbWithTrailer(at -> List.of(new Var("w", FLOAT, VARIABLE, null,
        array(SI23, FLOAT, 1, null, null, null, at, 32))), BE)), "lies outside the");
    refused(legacy("far.fb", array(SI23, FLOAT, 1, null, null, null, Long.MAX_VALUE - 4, 24)), "lies outside the");
    refused(legacy("negapp.fb", array(SI23, FLOAT, 1, null, null, null, 8, -24)), "negative appendedDataOffset");
    refused(legacy("half.fb", array(SI23, FLOAT, 1, null, null, null, 0, 24)), "both must be positive or both absent");
  }

  @Test
  void sharedChunkDataIsRefused() throws IOException {
    Part shared = b -> {
      int data = b.createByteVector(new byte[12]);
      b.startTable(2);
      b.addOffset(1, data, 0);
      int chunk = b.endTable();
      return FlatArray.createBufferChunksVector(b, new int[] {chunk, chunk});
    };
    Part arr = b -> {
      int chunks = shared.applyAsInt(b);
      int shape = FlatArray.createShapeVector(b, SI23);
      return FlatArray.createFlatArray(b, shape, 0, (byte) FLOAT, (byte) 1, chunks, 0, 0,
          false, 0, 0);
    };
    refused(legacy("shared.fb", arr), "overlaps the data of another chunk");
  }

  @Test
  void externalStorageIsStillRefused() throws IOException {
    Part ext = b -> {
      int shape = FlatArray.createShapeVector(b, SI23);
      return FlatArray.createFlatArray(b, shape, 0, (byte) FLOAT, (byte) 1, 0, 24, 0, true,
          0, 0);
    };
    refused(legacy("ext.fb", ext), "external array storage");
  }
}
