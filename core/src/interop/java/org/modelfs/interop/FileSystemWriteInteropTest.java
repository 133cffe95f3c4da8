package org.modelfs.interop;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.container.Models;
import org.modelfs.format.Codecs;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.RecursiveCopy;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Parameters of a DL4J-saved {@code .fb} changed through the file system and committed: real
 * DL4J 1.0.0-M2.1 loads the result, sees exactly the new values (parameters and updater state),
 * and its forward pass equals DL4J's own with the same values set in memory.
 */
@Tag("interop")
class FileSystemWriteInteropTest {
  @TempDir Path tmp;

  @Test
  void dl4jLoadsWhatTheFileSystemCommitted() throws Exception {
    Path fb = tmp.resolve("mlp.fb");
    SameDiff original = Dl4jModels.mlp(fb, DataType.FLOAT, 8, true);
    float[] newW;
    float[] newM;
    try (FileSystem fs = ModelFileSystems.open(fb)) {
      newW = scaled(fs.getPath("/params/layer0/W"), -2.5f);
      newM = scaled(fs.getPath("/updater/layer1/W/M"), 3f);
      // fb cannot hold metadata: the commit refuses it and names the file; the rest is kept
      Files.writeString(fs.getPath("/metadata/note"), "x");
      assertThrows(IOException.class, () -> ((JournaledFileSystem) fs).commit());
      Files.delete(fs.getPath("/metadata/note"));
    }

    SameDiff back = Dl4jSnapshot.loadSameDiff(fb);
    assertArrayEquals(newW, back.getVariable("layer0/W").getArr().dup('c').data().asFloat());
    INDArray m = (INDArray) back.getUpdaterMap().get("layer1/W").getState().get("M");
    assertArrayEquals(newM, m.dup('c').data().asFloat());
    assertArrayEquals(original.getVariable("layer1/W").getArr().dup('c').data().asFloat(),
        back.getVariable("layer1/W").getArr().dup('c').data().asFloat(), "unchanged parameter");

    Map<String, INDArray> inputs = Dl4jModels.inputs(original, 4, 7);
    INDArray before = Dl4jModels.forward(original, inputs, Dl4jModels.OUTPUT);
    INDArray after = Dl4jModels.forward(back, inputs, Dl4jModels.OUTPUT);
    original.getVariable("layer0/W").setArray(
        Nd4j.create(newW, original.getVariable("layer0/W").getArr().shape()));
    INDArray expected = Dl4jModels.forward(original, inputs, Dl4jModels.OUTPUT);
    assertNotEquals(before, after, "the new weights change the output");
    assertEquals(expected, after, "DL4J runs the committed graph with the new weights");
  }

  /**
   * Issue 5's scenario on the DL4J side: clone tag default to v2 (the JDK documentation's recursive copy),
   * change v2's layer0/W, commit as SDZ or zip-tags; converting the newest tag to fb gives DL4J v2's values.
   */
  @ParameterizedTest
  @ValueSource(strings = {"sdz", "zip-tags"})
  void theNewestTagOfAMultiTagModelIsWhatDl4jLoads(String format) throws Exception {
    Path fb = tmp.resolve("mlp.fb");
    Dl4jModels.mlp(fb, DataType.FLOAT, 8, true);
    Path sdz = tmp.resolve(format.equals("sdz") ? "mlp.sdz" : "mlp.zip");
    float[] newW;
    Files.move(fb, sdz); // fb bytes under the name of what the commit makes (FILESYSTEM.md §6.1)
    try (FileSystem fs = ModelFileSystems.open(sdz, Map.of("format", format))) {
      Files.createDirectory(fs.getPath("/tags/v2"));
      // the JDK documentation's no-clobber recursive copy: the new tag is empty (issue 13)
      RecursiveCopy.copyTree(fs.getPath("/tags/default"), fs.getPath("/tags/v2"));
      newW = scaled(fs.getPath("/tags/v2/params/layer0/W"), 0.5f);
    }
    Path newest = tmp.resolve("newest.fb");
    try (Model m = Models.open(sdz)) {
      assertEquals(Codecs.fromToken(format), m.format());
      assertEquals(List.of("default", "v2"), m.tags().stream().map(org.modelfs.model.Tag::name).toList());
      ModelFiles.write(m.newest(), newest,
          WriteOptions.of(ModelFormat.FB).withDropMetadata(true));
    }
    SameDiff back = Dl4jSnapshot.loadSameDiff(newest);
    assertArrayEquals(newW, back.getVariable("layer0/W").getArr().dup('c').data().asFloat());
  }

  /** Multiplies a FLOAT file by {@code factor} through the file system; returns the new values. */
  private static float[] scaled(Path p, float factor) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(p)).order(ByteOrder.LITTLE_ENDIAN);
    float[] out = new float[b.capacity() / 4];
    for (int i = 0; i < out.length; i++) {
      out[i] = b.getFloat(i * 4) * factor;
      b.putFloat(i * 4, out[i]);
    }
    Files.write(p, b.array());
    return out;
  }
}
