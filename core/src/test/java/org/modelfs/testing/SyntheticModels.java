package org.modelfs.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.UpdaterState;
import org.modelfs.io.ChannelSource;
import org.modelfs.model.ArrayData;
import org.modelfs.model.DType;
import org.modelfs.model.Tag;
import org.modelfs.model.VarKind;
import org.modelfs.model.Variable;
import org.modelfs.store.ModelFiles;

/**
 * Builds large models without DL4J: FLOAT parameters whose bytes are generated into a data file
 * (streamed, never held in the heap) and a tag that points at them, ready for ModelWriter.
 */
public final class SyntheticModels {
  private SyntheticModels() {}

  /** A generated model and the source its arrays live in (close it when done). */
  public record Synthetic(Tag tag, ChannelSource data) {}

  /**
   * {@code count} FLOAT parameters {@code big/w<i>} of {@code elements} each; element j of array
   * i is {@code i + j * 1e-3f}.
   */
  public static Synthetic floats(Path dataFile, int count, int elements) throws IOException {
    try (FileChannel ch = FileChannel.open(dataFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer buf = ByteBuffer.allocate(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
      for (int i = 0; i < count; i++) {
        for (int j = 0; j < elements; j++) {
          if (!buf.hasRemaining()) {
            buf.flip();
            while (buf.hasRemaining()) {
              ch.write(buf);
            }
            buf.clear();
          }
          buf.putFloat(FloatPattern.value(i, j));
        }
      }
      buf.flip();
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
    }
    ChannelSource src = ChannelSource.open(dataFile);
    List<Variable> vars = new ArrayList<>();
    long len = 4L * elements;
    for (int i = 0; i < count; i++) {
      ArrayData a = new ArrayData(DType.FLOAT, new long[] {elements}, 'c', false, src, i * len, len, false,
          ArrayData.Storage.RAW);
      vars.add(new Variable("big/w" + i, VarKind.VARIABLE, DType.FLOAT, null, a, -1));
    }
    return new Synthetic(new Tag("default", null, vars, List.of(), null, Map.of()), src);
  }

  /**
   * Writes {@code model}, an SDNB of {@code count} one-float parameters {@code big/w<i>} (the
   * pattern of {@link #floats}), generating its data beside it and deleting that afterwards.
   */
  public static Path sdnb(Path model, int count) throws IOException {
    Path data = model.resolveSibling(model.getFileName() + ".data");
    Synthetic s = floats(data, count, 1);
    try (ChannelSource src = s.data()) {
      ModelFiles.write(s.tag(), model,
          WriteOptions.of(ModelFormat.SDNB));
    }
    Files.delete(data);
    return model;
  }

  /**
   * A small model whose variables have the given names: variable {@code i} is a FLOAT
   * {@code [2]} array {@code {i, i + 0.5}} ({@code c} order, or {@code f} with shape {@code [2, 1]}
   * for odd {@code i}), with Adam-like updater state {@code M}, {@code V} for every name and the
   * given metadata.
   */
  public static Synthetic named(Path dataFile, List<String> names, Map<String, String> metadata)
      throws IOException {
    try (FileChannel ch = FileChannel.open(dataFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer buf = ByteBuffer.allocate(names.size() * 24).order(ByteOrder.LITTLE_ENDIAN);
      for (int i = 0; i < names.size(); i++) {
        buf.putFloat(i).putFloat(i + 0.5f); // the variable
        buf.putFloat(-i).putFloat(-i - 0.5f); // M
        buf.putFloat(10 + i).putFloat(10.5f + i); // V
      }
      buf.flip();
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
    }
    ChannelSource src = ChannelSource.open(dataFile);
    List<Variable> vars = new ArrayList<>();
    List<UpdaterState> updater = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      long[] shape = i % 2 == 0 ? new long[] {2} : new long[] {2, 1};
      char order = i % 2 == 0 ? 'c' : 'f';
      vars.add(new Variable(names.get(i), VarKind.VARIABLE, DType.FLOAT, null, floats(src, shape, order, i * 24L), -1));
      Map<String, ArrayData> state = new LinkedHashMap<>();
      state.put("M", floats(src, shape, order, i * 24L + 8));
      state.put("V", floats(src, shape, order, i * 24L + 16));
      updater.add(new UpdaterState(names.get(i), state));
    }
    return new Synthetic(new Tag("default", null, vars, updater, null, metadata), src);
  }

  private static ArrayData floats(ChannelSource src, long[] shape, char order, long offset) {
    return new ArrayData(DType.FLOAT, shape, order, false, src, offset, 8, false, ArrayData.Storage.RAW);
  }
}
