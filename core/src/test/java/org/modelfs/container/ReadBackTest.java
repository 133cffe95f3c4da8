package org.modelfs.container;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.modelfs.format.WriteOptions;
import org.modelfs.io.ChannelSource;
import org.modelfs.io.Closer;
import org.modelfs.model.ArrayData;
import org.modelfs.model.DType;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.VarKind;
import org.modelfs.model.Variable;
import org.modelfs.testing.BytesChannel;

/**
 * What a commit's read-back catches (looked up through the read tags' own name index): an array
 * lost, a shape changed, two updater states under one name.
 */
class ReadBackTest {
  private static final ChannelSource SRC = ChannelSource.of("m", new BytesChannel(new byte[64]));

  private static ArrayData floats(long... shape) {
    return new ArrayData(DType.FLOAT, shape, 'c', false, SRC, 0, 4 * shape[0], false, ArrayData.Storage.RAW);
  }

  private static Variable var(String name, ArrayData a) {
    return new Variable(name, VarKind.VARIABLE, DType.FLOAT, null, a, -1);
  }

  private static List<String> diff(Tag planned, Tag reread) {
    return ReadBack.differences(List.of(planned), WriteOptions.of(ModelFormat.SDNB),
        new Model("m.sdnb", ModelFormat.SDNB, List.of(reread), new Closer()));
  }

  @Test
  void aLostArrayAChangedShapeAndTwoStatesUnderOneNameAreCaught() {
    Tag planned = new Tag("default", null, List.of(var("a", floats(2)), var("b", floats(2))),
        List.of(new UpdaterState("a", Map.of("M", floats(2)))), null, Map.of());
    assertEquals(List.of(), diff(planned, planned));
    Tag lost = new Tag("default", null, List.of(var("a", floats(2)), var("b", null)),
        List.of(new UpdaterState("a", Map.of("M", floats(2)))), null, Map.of());
    assertEquals(List.of("/tags/default/params: 'b' was written but reads back without an array"), diff(planned, lost));
    Tag reshaped = new Tag("default", null, List.of(var("a", floats(1, 2)), var("b", floats(2))),
        List.of(new UpdaterState("a", Map.of("M", floats(2)))), null, Map.of());
    assertEquals(List.of("/tags/default/params: 'a' has shape [2] but reads back as [1, 2]"), diff(planned, reshaped));
    Tag twice = new Tag("default", null, List.of(var("a", floats(2)), var("b", floats(2))),
        List.of(new UpdaterState("a", Map.of("M", floats(2))), new UpdaterState("a", Map.of("M", floats(2)))), null,
        Map.of());
    assertEquals(List.of("/tags/default/updater: 'a' reads back with two updater states"), diff(planned, twice));
  }
}
