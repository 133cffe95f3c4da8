package org.modelfs.format.fb;

import com.google.flatbuffers.FlatBufferBuilder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.modelfs.format.fb.gen.FlatArray;
import org.modelfs.format.fb.gen.FlatGraph;
import org.modelfs.format.fb.gen.FlatNode;
import org.modelfs.format.fb.gen.FlatVariable;
import org.modelfs.format.fb.gen.IntPair;
import org.modelfs.format.fb.gen.UpdaterState;
import org.modelfs.model.DType;
import org.modelfs.model.VarKind;

/**
 * Valid fb files (format A) whose FlatGraph shares one table many times — FlatBuffers allows a
 * DAG: a vector of offsets that all point at the same table. Each has one FLOAT [2] variable
 * {@code w} with a legacy inline array, so it is a model like any other.
 */
final class SharedGraphs {
  private SharedGraphs() {}

  /** {@code refs} entries of {@code nodes}, all one FlatNode {@code op} with {@code values} extraInteger values. */
  static Path sharedNode(Path file, int refs, int values) throws IOException {
    FlatBufferBuilder b = new FlatBufferBuilder(1 << 16);
    long[] ints = new long[values];
    for (int i = 0; i < values; i++) {
      ints[i] = i;
    }
    int node = node(b, 9, FlatNode.createExtraIntegerVector(b, ints)); // slot 9: extraInteger
    return write(file, b, repeat(b, node, refs), 0);
  }

  /** {@code count} distinct FlatNodes {@code op<i>}, nothing shared: an honest graph of that many ops. */
  static Path distinctNodes(Path file, int count) throws IOException {
    FlatBufferBuilder b = new FlatBufferBuilder(1 << 16);
    int[] nodes = new int[count];
    for (int i = 0; i < count; i++) {
      int name = b.createString("op" + i);
      int opName = b.createString("noop");
      int outputs = FlatNode.createOutputNamesVector(b, new int[] {b.createString("op" + i + ":0")});
      int inputs = FlatNode.createInputPairedVector(b, new int[] {IntPair.createIntPair(b, i + 1, 0)});
      FlatNode.startFlatNode(b);
      FlatNode.addId(b, i + 2);
      FlatNode.addName(b, name);
      FlatNode.addOpName(b, opName);
      FlatNode.addOutputNames(b, outputs);
      FlatNode.addInputPaired(b, inputs);
      nodes[i] = FlatNode.endFlatNode(b);
    }
    return write(file, b, FlatGraph.createNodesVector(b, nodes), 0);
  }

  /** {@code refs} entries of {@code nodes}, all one FlatNode whose {@code inputs} inputs are one IntPair naming no variable. */
  static Path sharedInputs(Path file, int refs, int inputs) throws IOException {
    FlatBufferBuilder b = new FlatBufferBuilder(1 << 16);
    int pair = IntPair.createIntPair(b, 99, 0);
    int node = node(b, 6, repeat(b, pair, inputs)); // slot 6: inputPaired
    return write(file, b, repeat(b, node, refs), 0);
  }

  /** The FlatNode {@code op} (id 2, op {@code noop}) with {@code vector} in slot {@code slot}. */
  private static int node(FlatBufferBuilder b, int slot, int vector) {
    int name = b.createString("op");
    int opName = b.createString("noop");
    FlatNode.startFlatNode(b);
    FlatNode.addId(b, 2);
    FlatNode.addName(b, name);
    FlatNode.addOpName(b, opName);
    b.addOffset(slot, vector, 0);
    return FlatNode.endFlatNode(b);
  }

  /** {@code refs} entries of {@code updaterState}, all one state of {@code w} with {@code keys} keys (one shared array). */
  static Path sharedUpdater(Path file, int refs, int keys) throws IOException {
    FlatBufferBuilder b = new FlatBufferBuilder(1 << 16);
    int array = legacyFloats(b);
    int[] k = new int[keys];
    for (int i = 0; i < keys; i++) {
      k[i] = b.createString("k" + i);
    }
    int keyVector = UpdaterState.createUpdaterStateKeysVector(b, k);
    int values = repeat(b, array, keys);
    int state = UpdaterState.createUpdaterState(b, b.createString("w"), keyVector, values);
    int updater = repeat(b, state, refs);
    return write(file, b, FlatGraph.createNodesVector(b, new int[0]), updater);
  }

  /** A vector of {@code n} offsets, all {@code target}. */
  private static int repeat(FlatBufferBuilder b, int target, int n) {
    b.startVector(4, n, 4);
    for (int i = 0; i < n; i++) {
      b.addOffset(target);
    }
    return b.endVector();
  }

  /** A legacy FLOAT [2] array {1, 2}: shapeInfo, big-endian data. */
  private static int legacyFloats(FlatBufferBuilder b) {
    long[] shapeInfo = {1, 2, 1, DType.FLOAT.legacyExtras(), 1, 'c'};
    int shape = FlatArray.createShapeVector(b, shapeInfo);
    int buffer = b.createByteVector(ByteBuffer.allocate(8).putFloat(1f).putFloat(2f).array());
    FlatArray.startFlatArray(b);
    FlatArray.addShape(b, shape);
    FlatArray.addBuffer(b, buffer);
    FlatArray.addDtype(b, (byte) DType.FLOAT.code());
    FlatArray.addByteOrder(b, (byte) 1);
    return FlatArray.endFlatArray(b);
  }

  private static Path write(Path file, FlatBufferBuilder b, int nodes, int updater) throws IOException {
    int array = legacyFloats(b);
    int vname = b.createString("w");
    int id = IntPair.createIntPair(b, 1, 0);
    int variable = FlatVariable.createFlatVariable(b, id, vname, (byte) DType.FLOAT.code(), 0, array, -1,
        (byte) VarKind.VARIABLE.code(), 0, 0, 0);
    int variables = FlatGraph.createVariablesVector(b, new int[] {variable});
    FlatGraph.startFlatGraph(b);
    FlatGraph.addVariables(b, variables);
    FlatGraph.addNodes(b, nodes);
    if (updater != 0) {
      FlatGraph.addUpdaterState(b, updater);
    }
    b.finish(FlatGraph.endFlatGraph(b));
    return Files.write(file, b.sizedByteArray());
  }
}
