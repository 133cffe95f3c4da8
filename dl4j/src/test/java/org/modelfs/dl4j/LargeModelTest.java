package org.modelfs.dl4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * More than 2 GiB of parameters (three 768 MiB FLOAT variables): DL4J M2.1's own save refuses it
 * (shown in a child JVM with the 7 GiB heap its FlatBufferBuilder grows into), the bridge saves it
 * as sharded SDNB and as a container, loads it back — arrays (SHA-256 of every byte) and output
 * equal — in this test's JVM with a 512 MiB heap (-Pslow sets -Xmx512m; the arrays are off-heap).
 */
@Tag("slow")
class LargeModelTest {
  @TempDir Path dir;

  @Test
  void dl4jRefusesTheBridgeSavesAndLoads() throws Exception {
    String refused = dl4jSaveInChildJvm();
    System.out.println("DL4J's save: " + refused);
    assertTrue(refused.contains("THREW java.lang.AssertionError") && refused.contains("2 gigabytes"), refused);

    long maxHeap = Runtime.getRuntime().maxMemory();
    SameDiff sd = LargeModel.build(LargeModel.ELEMENTS);
    INDArray x = Nd4j.createFromArray(new float[][] {{1f, -2f}});
    INDArray out = sd.output(Map.of("x", x), "out").get("out");
    List<String> sums = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      sums.add(LargeModel.sha256(sd.getArrForVarName("w" + i)));
    }
    for (String format : List.of("sdnb-sharded", "container")) {
      Path target = Files.createDirectory(dir.resolve(format)).resolve(format.equals("container") ? "big.sdmc" : "big.sdnb");
      long t0 = System.nanoTime();
      List<Path> files = SameDiffFiles.save(sd, target, Map.of("format", format));
      long t1 = System.nanoTime();
      SameDiff back = SameDiffFiles.load(target);
      long t2 = System.nanoTime();
      System.out.printf("%s: save %.1f s, load %.1f s, files %s, heap max %d MiB%n", format, (t1 - t0) / 1e9,
          (t2 - t1) / 1e9, files.stream().map(p -> p.getFileName() + "=" + p.toFile().length()).toList(),
          maxHeap >> 20);
      for (int i = 0; i < 3; i++) {
        INDArray w = back.getArrForVarName("w" + i);
        assertEquals(DataType.FLOAT, w.dataType());
        assertEquals(LargeModel.ELEMENTS, w.length());
        assertEquals(sums.get(i), LargeModel.sha256(w), format + ": w" + i);
      }
      assertEquals(out, back.output(Map.of("x", x), "out").get("out"), format + ": output");
      for (int i = 0; i < 3; i++) {
        back.getArrForVarName("w" + i).close(); // give the 2.25 GiB back before the next format
      }
      for (Path p : files) {
        Files.delete(p);
      }
    }
  }

  private String dl4jSaveInChildJvm() throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder pb = new ProcessBuilder(java, "-Xmx7g", "-Dorg.bytedeco.javacpp.maxbytes=8g",
        "-Dorg.bytedeco.javacpp.maxphysicalbytes=12g", "-Djavacpp.platform=" + System.getProperty("javacpp.platform"),
        "-cp", System.getProperty("java.class.path"), LargeModel.class.getName(), dir.toString());
    pb.redirectErrorStream(true);
    Process p = pb.start();
    String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor();
    return text.lines().filter(l -> l.startsWith("THREW") || l.startsWith("SAVED")).findFirst().orElse(text);
  }
}
