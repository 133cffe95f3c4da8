package org.modelfs.dl4j;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.VariableType;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The bridge beside DL4J (docs/PERFORMANCE.md "DL4J bridge"): a SameDiff of {@code MiB} MiB of
 * FLOAT parameters in 256 MiB variables, saved and loaded by DL4J ({@code save(file, false)},
 * {@code SameDiff.load(file, false)}) and by the bridge (container, sharded SDNB), best of
 * {@code reps} each, every file's page cache dropped by nobody (the same for both: files just
 * written). Arguments: {@code DIR [MiB=1536] [reps=3]}. Not run by any test.
 */
public final class BridgeBench {
  private BridgeBench() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    long mib = args.length > 1 ? Long.parseLong(args[1]) : 1536;
    int reps = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    SameDiff sd = model(mib);
    System.out.printf("model: %d MiB of FLOAT in %d variables%n", mib, mib / 256);
    double dl4jSave = Double.MAX_VALUE;
    double dl4jLoad = Double.MAX_VALUE;
    File fb = dir.resolve("dl4j.fb").toFile();
    for (int r = 0; r < reps; r++) {
      long t0 = System.nanoTime();
      sd.save(fb, false);
      long t1 = System.nanoTime();
      SameDiff back = SameDiff.load(fb, false);
      long t2 = System.nanoTime();
      dl4jSave = Math.min(dl4jSave, (t1 - t0) / 1e9);
      dl4jLoad = Math.min(dl4jLoad, (t2 - t1) / 1e9);
      close(back);
      System.gc();
    }
    System.out.printf("DL4J save %.2f s, load %.2f s (file %d bytes)%n", dl4jSave, dl4jLoad, fb.length());
    Files.delete(fb.toPath());
    for (String format : List.of("container", "sdnb-sharded")) {
      Path target = dir.resolve(format.equals("container") ? "bridge.sdmc" : "bridge.sdnb");
      double save = Double.MAX_VALUE;
      double load = Double.MAX_VALUE;
      List<Path> files = List.of();
      for (int r = 0; r < reps; r++) {
        long t0 = System.nanoTime();
        files = SameDiffFiles.save(sd, target, Map.of("format", format));
        long t1 = System.nanoTime();
        SameDiff back = SameDiffFiles.load(target);
        long t2 = System.nanoTime();
        save = Math.min(save, (t1 - t0) / 1e9);
        load = Math.min(load, (t2 - t1) / 1e9);
        close(back);
      }
      System.out.printf("bridge %s: save %.2f s (%.2fx DL4J), load %.2f s (%.2fx DL4J), %d files%n", format, save,
          save / dl4jSave, load, load / dl4jLoad, files.size());
      for (Path p : files) {
        Files.deleteIfExists(p);
      }
    }
  }

  static SameDiff model(long mib) {
    Nd4j.getRandom().setSeed(3);
    SameDiff sd = SameDiff.create();
    SDVariable x = sd.placeHolder("x", DataType.FLOAT, -1, 2);
    SDVariable s = null;
    for (int i = 0; i < mib / 256; i++) {
      SDVariable w = sd.var("w" + i, Nd4j.rand(DataType.FLOAT, 256L * 1024 * 1024 / 4));
      s = s == null ? w.sum() : s.add(w.sum());
    }
    x.mul("out", s);
    return sd;
  }

  private static void close(SameDiff sd) {
    for (SDVariable v : sd.variables()) {
      if (v.getVariableType() == VariableType.VARIABLE) {
        sd.getArrForVarName(v.name()).close();
      }
    }
  }

}
