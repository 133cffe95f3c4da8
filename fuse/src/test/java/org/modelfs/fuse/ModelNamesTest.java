package org.modelfs.fuse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Which names are the model's and which are scratch files of the mount (docs/MOUNT.md), without a kernel. */
class ModelNamesTest {
  @Test
  void modelFilesAndScratchNames() {
    for (String p : new String[] {"/tags/t/graph", "/tags/t/graph.json", "/tags/t/training.json", "/tags/t/params/W",
        "/tags/t/params/a/b", "/tags/t/updater/W/M", "/tags/t/metadata/k", "/graph.json", "/params/layer0/W",
        "/metadata/k", "/tags/t/params/.W.XyZ12", "/tags/t/params/layer0/W~"}) {
      assertTrue(ModelNames.isModelFile(p), p);
    }
    for (String p : new String[] {"/", "/tags", "/tags/t", "/tags/t/sedAb12Cd", "/tags/t/.graph.json.swp",
        "/tags/t/graph.json~", "/tags/t/4913", "/x", "/tags/t/params", "/params", "/tags/t/params/"}) {
      assertFalse(ModelNames.isModelFile(p), p);
    }
  }

  @Test
  void areaDirectories() {
    assertTrue(ModelNames.isArea("/tags/v2/metadata"));
    assertTrue(ModelNames.isArea("/params"));
    assertFalse(ModelNames.isArea("/tags/v2/graph"));
    assertFalse(ModelNames.isArea("/tags/params"));
    assertEquals("/tags/v2", ModelNames.parent("/tags/v2/metadata"));
    assertEquals("/", ModelNames.parent("/tags"));
  }

  @Test
  void procMountsEscapes() {
    assertEquals("/mnt/a b\tc\\d", MountPoints.unescape("/mnt/a\\040b\\011c\\134d"));
    assertEquals("/mnt/x\\", MountPoints.unescape("/mnt/x\\"));
  }

  @Test
  void setfattrValues() {
    assertEquals("DOUBLE", Xattrs.value("DOUBLE\0".getBytes(StandardCharsets.UTF_8)));
    assertEquals("[2, 3]", Xattrs.value("[2, 3]\n".getBytes(StandardCharsets.UTF_8)));
    assertEquals("dtype", Xattrs.settable("user.samediff.dtype"));
    assertEquals(null, Xattrs.settable("user.samediff.stored"));
    assertEquals(null, Xattrs.settable("security.selinux"));
  }
}
