package org.modelfs.fuzz;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Inputs of {@link RecoveryFuzzTest}: leftovers of each kind with records that use them. */
final class RecoverySeeds {
  private RecoverySeeds() {}

  static List<byte[]> seeds() {
    String[][] c = RecoveryFuzzTest.CANDIDATES;
    String h = "modelfs-commit\t2\n";
    List<byte[]> out = new ArrayList<>();
    out.add(input(0xFFFF, 0, ""));
    out.add(input(0xFFFF, 1, h + "rename\t" + c[0][0] + "\tm.sdnb\t-\n"));
    out.add(input(0x0001, 1, h + "rename\t" + c[0][0] + "\tm.sdnb\t-\n"));
    out.add(input(0x003F, 1, h + "rename\t" + c[1][0] + "\tm.shard0-of-2.sdnb\t-\n"
        + "rename\t" + c[2][0] + "\tm.shard1-of-2.sdnb\t-\n"
        + "keep\t" + c[3][0] + "\tm.sdnb\n" + "delete\tm.sdnb\n"));
    out.add(input(0x0008, 1, h + "rename\t" + c[1][0] + "\tm.shard0-of-2.sdnb\t-\n"
        + "keep\t" + c[3][0] + "\tm.sdnb\n"));
    out.add(input(0xFFC0, 1, h + "rename\t" + c[7][0] + "\tm.sdnb\t-\n" + "delete\tother.sdnb\n"));
    out.add(input(0x0001, 0, h + "rename\t" + c[0][0] + "\tm.sdnb\t-\nend\t00000000\n"));
    out.add(input(0x0001, 0, h + "rename\t" + c[0][0] + "\tm.sd"));
    return out;
  }

  private static byte[] input(int mask, int flags, String record) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.write(mask >> 8);
    b.write(mask);
    b.write(flags);
    b.writeBytes(record.getBytes(StandardCharsets.UTF_8));
    return b.toByteArray();
  }
}
