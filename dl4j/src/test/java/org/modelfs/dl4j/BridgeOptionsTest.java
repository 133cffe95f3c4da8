package org.modelfs.dl4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.modelfs.model.ModelFormat;

/** The env of save and load: format by name or key, the mount's checks, unknown keys refused. */
class BridgeOptionsTest {
  @Test
  void formatFromTheNameOrTheKey() {
    assertEquals(ModelFormat.CONTAINER, BridgeOptions.forSave(Path.of("m.sdmc"), Map.of()).write().format());
    assertEquals(ModelFormat.FB, BridgeOptions.forSave(Path.of("m.fb"), null).write().format());
    BridgeOptions o = BridgeOptions.forSave(Path.of("m.sdnb"),
        Map.of("format", "sdnb-sharded", "maxShardBytes", "4096", "compression", "deflate", "updaterState", false));
    assertEquals(ModelFormat.SHARDED_SDNB, o.write().format());
    assertEquals(4096, o.write().maxShardBytes());
    assertTrue(o.write().deflate());
    assertFalse(o.updaterState());
    assertTrue(o.trainingConfig());
  }

  @Test
  void badValuesAndUnknownKeysAreRefusedByName() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> BridgeOptions.forSave(Path.of("m.bin"), Map.of()))
        .getMessage().contains("m.bin: no option format"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> BridgeOptions.forSave(Path.of("m.sdnb"), Map.of("maxShardBytes", -1))).getMessage().contains("maxShardBytes"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> BridgeOptions.forSave(Path.of("m.sdnb"), Map.of("readOnly", true))).getMessage()
        .contains("unknown option 'readOnly'"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> BridgeOptions.forLoad(Map.of("updaterState", "no")))
        .getMessage().contains("option updaterState: 'no'; expected true or false"));
    assertEquals("v2", BridgeOptions.forLoad(Map.of("tag", "v2")).tag());
  }
}
