package org.modelfs.store;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;

/**
 * The child JVM of {@link CrashCommitTest}: mounts a model through NIO, overwrites every array
 * {@code /params/big/w<i>} with the values of one generation (and {@code /metadata/generation}
 * where the format holds metadata), then commits — or, in {@code journal} mode, only writes the
 * journal. It reports its progress on stdout, one word a line, and then waits (stdin open) to be
 * killed, so that every kill of the test hits a live process.
 *
 * <p>Arguments: {@code <model> <generation> <commit|partial|journal> <maxShardBytes, 0 = none>
 * <metadata: true|false>}.
 *
 * <p>Lines printed: {@code MOUNTED}; {@code WRITING} once the first array is in the journal;
 * {@code WRITTEN} when all are; in {@code commit} mode {@code COMMITTING} just before the commit
 * and {@code DONE <ms>} after it.
 */
public final class CrashCommitMain {
  private CrashCommitMain() {}

  /**
   * Element {@code element} of array {@code array} in generation {@code generation}; generation 0
   * is exactly {@link org.modelfs.testing.FloatPattern#value} ({@code i + j * 1e-3f}), the
   * values {@link org.modelfs.testing.SyntheticModels#floats} generates.
   */
  public static float value(int generation, int array, long element) {
    return generation * 1000f + (array + element * 1e-3f);
  }

  /** The generation the first element of array {@code array} shows (its value is g*1000 + array). */
  public static int generationOf(int array, float first) {
    return Math.round((first - array) / 1000f);
  }

  public static void main(String[] args) throws Exception {
    Path model = Path.of(args[0]);
    int generation = Integer.parseInt(args[1]);
    boolean partial = args[2].equals("partial");
    boolean commit = partial || args[2].equals("commit");
    long maxShardBytes = Long.parseLong(args[3]);
    boolean metadata = Boolean.parseBoolean(args[4]);
    PrintStream out = System.out;

    Map<String, Object> env = new HashMap<>();
    if (maxShardBytes > 0) {
      env.put("maxShardBytes", Long.toString(maxShardBytes));
    }
    FileSystem fs = ModelFileSystems.open(model, env);
    say(out, "MOUNTED");
    if (partial) {
      writeOne(fs, generation);
      say(out, "WRITING");
    } else {
      writeGeneration(fs, generation, metadata, () -> say(out, "WRITING"));
    }
    say(out, "WRITTEN");
    if (commit) {
      say(out, "COMMITTING");
      long t0 = System.nanoTime();
      ((JournaledFileSystem) fs).commit();
      say(out, "DONE " + (System.nanoTime() - t0) / 1_000_000);
    }
    // wait for the kill; a closed stdin (the test gave up) closes the mount normally
    while (System.in.read() >= 0) {
      // nothing to read: the test never writes
    }
    if (!commit) {
      ((JournaledFileSystem) fs).rollback();
    }
    fs.close();
  }

  /**
   * Overwrites every array {@code /params/big/w<i>} of {@code fs} with generation
   * {@code generation} (same length, so dtype and shape stay), streaming 1 MiB at a time, and
   * writes {@code /metadata/generation} when {@code metadata}. {@code firstWritten} runs once
   * the first array is in the journal.
   */
  public static void writeGeneration(FileSystem fs, int generation, boolean metadata, Runnable firstWritten)
      throws IOException {
    int count = 0;
    while (Files.exists(fs.getPath("/params/big/w" + count))) {
      count++;
    }
    ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < count; i++) {
      writeArray(fs, generation, i, buf);
      if (i == 0) {
        firstWritten.run();
      }
    }
    if (metadata) {
      Files.writeString(fs.getPath("/metadata/generation"), Integer.toString(generation));
    }
  }

  /** The array a {@code partial} commit to {@code generation} rewrites: one of {@code count}, in turn. */
  public static int arrayOf(int generation, int count) {
    return generation % count;
  }

  /**
   * The {@code partial} mode: rewrites only array {@link #arrayOf} with generation
   * {@code generation}'s values and sets {@code /metadata/generation} (so a shard set's commit
   * changes one weight shard and the graph shard).
   */
  static void writeOne(FileSystem fs, int generation) throws IOException {
    int count = 0;
    while (Files.exists(fs.getPath("/params/big/w" + count))) {
      count++;
    }
    writeArray(fs, generation, arrayOf(generation, count), ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN));
    Files.writeString(fs.getPath("/metadata/generation"), Integer.toString(generation));
  }

  /** Overwrites {@code /params/big/w<i>} with generation {@code generation}'s values, through {@code buf}. */
  private static void writeArray(FileSystem fs, int generation, int i, ByteBuffer buf) throws IOException {
    Path p = fs.getPath("/params/big/w" + i);
    long elements = Files.size(p) / 4;
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
      for (long j = 0; j < elements; ) {
        buf.clear();
        while (buf.hasRemaining() && j < elements) {
          buf.putFloat(value(generation, i, j++));
        }
        buf.flip();
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
      }
    }
  }

  private static void say(PrintStream out, String line) {
    out.println(line);
    out.flush();
  }
}
