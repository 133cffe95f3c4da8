package org.modelfs.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Every format's reader on hostile bytes, through what a user does: mount the file and walk,
 * stat and read everything the mount shows. Each input may only mount and walk, or fail with an
 * {@link IOException} ({@link org.modelfs.format.ModelFormatException} for a malformed model).
 * The reader is picked by the file's content, as a mount does, so each target's corpus (fixtures
 * and small files of our writers of that format) steers it to one format.
 */
class ReaderFuzzTest {

  @FuzzTest(maxDuration = "30s")
  void fb(byte[] input) {
    readOne(input, "m.fb");
  }

  @FuzzTest(maxDuration = "30s")
  void sdnb(byte[] input) {
    readOne(input, "m.sdnb");
  }

  @FuzzTest(maxDuration = "30s")
  void sdz(byte[] input) {
    readOne(input, "m.sdz");
  }

  @FuzzTest(maxDuration = "30s")
  void zipTags(byte[] input) {
    readOne(input, "m.zip");
  }

  @FuzzTest(maxDuration = "30s")
  void container(byte[] input) {
    readOne(input, "m.sdmc");
  }

  /**
   * A sharded SDNB: byte 0 gives the shard count ({@code 1 + b % 4}); each shard but the last is
   * a two-byte big-endian length and its bytes, the last takes the rest ({@link #shards}); the
   * set is mounted by its base name.
   */
  @FuzzTest(maxDuration = "30s")
  void sharded(byte[] input) {
    Path dir = FuzzFiles.freshDir("sharded");
    List<byte[]> shards = shards(input);
    for (int k = 0; k < shards.size(); k++) {
      FuzzFiles.write(dir, "m.shard" + k + "-of-" + shards.size() + ".sdnb", shards.get(k));
    }
    walkExpectingOnlyIoExceptions(dir.resolve("m.sdnb"));
  }

  /** Splits an input of {@link #sharded} into its shards (the inverse of {@link #framed}). */
  static List<byte[]> shards(byte[] input) {
    List<byte[]> out = new ArrayList<>();
    int n = input.length == 0 ? 1 : 1 + (input[0] & 0xFF) % 4;
    int pos = Math.min(1, input.length);
    for (int k = 0; k < n - 1; k++) {
      int len = pos + 2 <= input.length ? ((input[pos] & 0xFF) << 8 | (input[pos + 1] & 0xFF)) : 0;
      pos = Math.min(input.length, pos + 2);
      int end = Math.min(input.length, pos + len);
      out.add(Arrays.copyOfRange(input, pos, end));
      pos = end;
    }
    out.add(Arrays.copyOfRange(input, pos, input.length));
    return out;
  }

  /** The input of {@link #sharded} that stands for these shards (each but the last below 64 KiB). */
  static byte[] framed(List<byte[]> shards) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(shards.size() - 1);
    for (int k = 0; k < shards.size(); k++) {
      byte[] s = shards.get(k);
      if (k < shards.size() - 1) {
        out.write(s.length >> 8);
        out.write(s.length);
      }
      out.writeBytes(s);
    }
    return out.toByteArray();
  }

  private static void readOne(byte[] input, String name) {
    Path dir = FuzzFiles.freshDir(name);
    walkExpectingOnlyIoExceptions(FuzzFiles.write(dir, name, input));
  }

  private static void walkExpectingOnlyIoExceptions(Path model) {
    try {
      FuzzFiles.walk(model);
    } catch (IOException expected) {
      // a refusal: what a malformed model must give
    }
  }
}
