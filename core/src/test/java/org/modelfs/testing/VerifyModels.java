package org.modelfs.testing;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.format.fb.FbBuffer;
import org.modelfs.format.fb.FbTable;
import org.modelfs.format.fb.FbVector;
import org.modelfs.format.fb.Slots;
import org.modelfs.io.ChannelSource;
import org.modelfs.io.SliceSource;
import org.modelfs.model.ArrayData;
import org.modelfs.model.DType;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.VarKind;
import org.modelfs.model.Variable;
import org.modelfs.store.ModelFiles;

/**
 * Models for the {@code verify} tests: the DL4J fixture {@code mlp_adam.fb} in every format,
 * and the same model with one defect each — written through the writers (which check nothing a
 * commit checks) or patched byte by byte.
 */
public final class VerifyModels {
  /** The DL4J fixture {@code mlp_adam.fb} (an MLP with Adam state), relative to the project directory. */
  public static final Path EXAMPLE = Path.of("src/test/resources/fixtures/dl4j-1.0.0-M2.1/mlp_adam.fb");

  /** The formats a test writes the example as, with the file name each gets. */
  public enum Format {
    FB("m.fb", null),
    SDNB("m.sdnb", WriteOptions.of(ModelFormat.SDNB)),
    /** Named by the base name of its shards. */
    SHARDED("m_sharded.sdnb", WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(200)),
    SDZ("m.sdz", WriteOptions.of(ModelFormat.SDZ)),
    SDZ_DEFLATED("m_deflated.sdz", WriteOptions.of(ModelFormat.SDZ).withDeflate(true)),
    SDZ_SHARDED("m_sharded.sdz", WriteOptions.of(ModelFormat.SDZ).withMaxShardBytes(200)),
    ZIP_TAGS("m.zip", WriteOptions.of(ModelFormat.ZIP_TAGS)),
    ZIP_TAGS_DEFLATED("m_deflated.zip", WriteOptions.of(ModelFormat.ZIP_TAGS).withDeflate(true));

    public final String fileName;
    final WriteOptions options;

    Format(String fileName, WriteOptions options) {
      this.fileName = fileName;
      this.options = options;
    }
  }

  private VerifyModels() {}

  /** The example written to {@code dir} as {@code format}; for a shard set, its base name. */
  public static Path write(Path dir, Format format) throws IOException {
    Path out = dir.resolve(format.fileName);
    if (format == Format.FB) {
      return Files.copy(EXAMPLE, out);
    }
    try (Model m = Models.open(EXAMPLE)) {
      ModelFiles.write(m.newest(), out, format.options);
    }
    return out;
  }

  /**
   * The example with two tags {@code v1} and {@code v2} (the same arrays: zip-tags stores them
   * once) as an SDZ or zip-tags file.
   */
  public static Path writeTwoTags(Path dir, String name, WriteOptions options) throws IOException {
    Path out = dir.resolve(name);
    try (Model m = Models.open(EXAMPLE)) {
      Tag t = m.newest();
      ModelFiles.writeTags(List.of(renamed(t, "v1"), renamed(t, "v2")), out, options);
    }
    return out;
  }

  private static Tag renamed(Tag t, String name) {
    return new Tag(name, t.graph(), t.variables(), t.updater(), t.trainingConfig(), t.metadata());
  }

  /**
   * The example plus a CONSTANT UTF8 variable {@code strings} of shape {@code [offsets.length − 1]}
   * whose buffer is the given little-endian offsets then {@code text}, written as {@code options}
   * says to {@code dir/name}.
   */
  public static Path withUtf8(Path dir, String name, WriteOptions options, long[] offsets, String text)
      throws IOException {
    byte[] chars = text.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocate(8 * offsets.length + chars.length).order(ByteOrder.LITTLE_ENDIAN);
    for (long o : offsets) {
      b.putLong(o);
    }
    b.put(chars);
    Path data = Files.write(dir.resolve(name + ".utf8.bin"), b.array());
    Path out = dir.resolve(name);
    try (ChannelSource src = ChannelSource.open(data); Model m = Models.open(EXAMPLE)) {
      Tag t = m.newest();
      ArrayData a = new ArrayData(DType.UTF8, new long[] {offsets.length - 1}, 'c', false, src, 0, b.capacity(), false,
          ArrayData.Storage.RAW);
      List<Variable> vars = new ArrayList<>(t.variables());
      vars.add(new Variable("strings", VarKind.CONSTANT, DType.UTF8, null, a, -1));
      ModelFiles.write(new Tag(t.name(), t.graph(), vars, t.updater(), t.trainingConfig(), t.metadata()), out,
          options);
    }
    Files.delete(data);
    return out;
  }

  /**
   * The example whose updater state {@code layer0/W/M} (FLOAT [4, 8]) says shape {@code shape}
   * (same 32 elements), written as {@code options} says to {@code dir/name}.
   */
  public static Path withStateShape(Path dir, String name, WriteOptions options, long[] shape) throws IOException {
    Path out = dir.resolve(name);
    try (Model m = Models.open(EXAMPLE)) {
      Tag t = m.newest();
      List<UpdaterState> ups = new ArrayList<>();
      for (UpdaterState u : t.updater()) {
        if (!u.paramName().equals("layer0/W")) {
          ups.add(u);
          continue;
        }
        Map<String, ArrayData> state = new LinkedHashMap<>(u.arrays());
        ArrayData a = state.get("M");
        state.put("M", new ArrayData(a.dtype(), shape, a.order(), a.empty(), a.source(), a.offset(), a.length(),
            a.bigEndian(), a.storage()));
        ups.add(new UpdaterState(u.paramName(), state));
      }
      ModelFiles.write(new Tag(t.name(), t.graph(), t.variables(), ups, t.trainingConfig(), t.metadata()), out, options);
    }
    return out;
  }

  /** Where an op input was patched: the op's name and the position of the input. */
  public record Patched(Path model, String op, int input) {}

  /**
   * A copy of the example (fb) whose first op input ({@code FlatNode.inputPaired[0]} of the first
   * node that has one) names the id {@code (99999, 0)}, which no variable has.
   */
  public static Patched withDanglingInput(Path dir) throws IOException {
    Path out = Files.copy(EXAMPLE, dir.resolve("dangling.fb"));
    byte[] bytes = Files.readAllBytes(out);
    String op = null;
    long field = -1;
    try (ChannelSource src = ChannelSource.open(out)) {
      FbTable root = new FbBuffer(src, 0, src.size(), "dangling.fb").root("FlatGraph");
      FbVector nodes = root.getVector(Slots.G_NODES, "nodes", 4);
      for (int i = 0; i < nodes.length() && field < 0; i++) {
        FbTable n = nodes.getTable(i);
        FbVector in = n.getVector(6, "inputPaired", 4);
        if (in != null && in.length() > 0) {
          field = fieldPosition(bytes, in.getTable(0).absolutePosition(), Slots.P_FIRST);
          op = n.getString(1, "name");
        }
      }
    }
    if (field < 0) {
      throw new IllegalStateException("no op input with a stored id in " + EXAMPLE);
    }
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt((int) field, 99999);
    Files.write(out, bytes);
    return new Patched(out, op, 0);
  }

  /** The absolute position of slot {@code slot} of the table at {@code table}, or -1 when absent. */
  private static long fieldPosition(byte[] b, long table, int slot) {
    ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    int t = (int) table;
    int vt = t - bb.getInt(t);
    int vtLen = bb.getShort(vt) & 0xFFFF;
    if (4 + 2 * slot >= vtLen) {
      return -1;
    }
    int off = bb.getShort(vt + 4 + 2 * slot) & 0xFFFF;
    return off == 0 ? -1 : t + off;
  }

  /**
   * The absolute file offset of the first byte of parameter {@code name} of the model at
   * {@code path} (an fb or SDNB file, or a STORED SDZ: the offset in the zip).
   */
  public static long arrayOffset(Path path, String name) throws IOException {
    try (Model m = Models.open(path)) {
      ArrayData a = m.newest().variable(name).array();
      return a.source() instanceof SliceSource s ? s.start() + a.offset() : a.offset();
    }
  }

  /** XORs byte {@code at} of {@code file} with {@code mask}. */
  public static void flip(Path file, long at, int mask) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer one = ByteBuffer.allocate(1);
      ch.read(one, at);
      one.put(0, (byte) (one.get(0) ^ mask)).clear();
      ch.write(one, at);
    }
  }
}
