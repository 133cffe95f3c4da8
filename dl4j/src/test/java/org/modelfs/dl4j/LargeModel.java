package org.modelfs.dl4j;

import java.io.File;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * A SameDiff of three 768 MiB FLOAT variables (2.25 GiB of parameters) and {@code out = x *
 * (sum(w0) + sum(w1) - sum(w2))}. Its {@link #main} tries DL4J's own {@code save} of it and prints
 * what DL4J threw (run in a JVM with the heap DL4J's FlatBufferBuilder needs to get that far).
 */
final class LargeModel {
  /** Elements of each variable: 768 MiB of FLOAT. */
  static final long ELEMENTS = 768L * 1024 * 1024 / 4;

  private LargeModel() {}

  static SameDiff build(long elements) {
    Nd4j.getRandom().setSeed(11);
    SameDiff sd = SameDiff.create();
    SDVariable x = sd.placeHolder("x", DataType.FLOAT, -1, 2);
    SDVariable[] w = new SDVariable[3];
    for (int i = 0; i < 3; i++) {
      w[i] = sd.var("w" + i, Nd4j.rand(DataType.FLOAT, elements));
    }
    SDVariable s = w[0].sum().add(w[1].sum()).sub(w[2].sum());
    x.mul("out", s);
    return sd;
  }

  /** SHA-256 of {@code arr}'s bytes, read 1 MiB at a time from ND4J's memory (no heap copy). */
  static String sha256(INDArray arr) throws Exception {
    OffHeapSource src = new OffHeapSource("sha", arr, arr.length() * arr.dataType().width());
    MessageDigest md = MessageDigest.getInstance("SHA-256");
    ByteBuffer buf = ByteBuffer.allocate(1 << 20);
    for (long pos = 0; pos < src.size(); ) {
      buf.clear();
      int n = src.read(buf, pos);
      buf.flip();
      md.update(buf);
      pos += n;
    }
    return HexFormat.of().formatHex(md.digest());
  }

  /** Builds the model and calls DL4J's {@code SameDiff.save}; prints the outcome. */
  public static void main(String[] args) {
    SameDiff sd = build(ELEMENTS);
    try {
      File f = File.createTempFile("large", ".fb", new File(args[0]));
      sd.save(f, false);
      System.out.println("SAVED " + f.length());
    } catch (Throwable t) {
      System.out.println("THREW " + t);
    }
  }
}
