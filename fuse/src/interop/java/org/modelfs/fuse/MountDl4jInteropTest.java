package org.modelfs.fuse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nd4j.autodiff.samediff.SameDiff;

/**
 * What ordinary tools wrote through a kernel mount, committed at unmount, loads in real DL4J
 * 1.0.0-M2.1 (issue 31): a parameter replaced with {@code cp}, one renamed with {@code mv}, a
 * graph.json edited with {@code sed -i}. M2.1 loads only fb, so the model is the fb fixture.
 */
@Tag("interop")
class MountDl4jInteropTest {
  @TempDir
  Path tmp;

  @Test
  void dl4jLoadsWhatTheToolsWrote() throws Exception {
    KernelMount.assumeFuse();
    Path model = tmp.resolve("mlp.fb");
    Files.copy(KernelMount.fixture("mlp_adam.fb"), model);
    float[] w = new float[32];
    for (int i = 0; i < w.length; i++) {
      w[i] = i * 0.25f - 3;
    }
    ByteBuffer b = ByteBuffer.allocate(128).order(ByteOrder.LITTLE_ENDIAN);
    b.asFloatBuffer().put(w);
    Files.write(tmp.resolve("w.bin"), b.array());
    try (KernelMount m = new KernelMount(model, tmp.resolve("m"))) {
      m.run("cp w.bin m/params/layer0/W").ok();
      m.run("mv m/params/layer1/W m/params/layer1/W2").ok();
      m.run("sed -i 's/\"shape\": \\[-1, 3\\]/\"shape\": [-1, 3]/' m/graph.json").ok();
      assertEquals(0, m.unmount(), m.logText());
    }
    SameDiff sd = SameDiff.load(model.toFile(), true);
    assertArrayEquals(w, sd.getVariable("layer0/W").getArr().data().asFloat());
    assertNotNull(sd.getVariable("layer1/W2"));
    assertNull(sd.getVariables().get("layer1/W"));
    assertArrayEquals(new long[] {8, 3}, sd.getVariable("layer1/W2").getArr().shape());
  }
}
