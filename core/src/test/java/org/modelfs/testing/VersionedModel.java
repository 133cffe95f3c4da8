package org.modelfs.testing;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.modelfs.ModelFileSystems;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;

/**
 * A model whose every parameter byte is one number, its version: after any crash or race a
 * mount shows one version throughout, or the model is broken. Parameters {@code big/w<i>}. Shared
 * by every store module's crash and race tests (s3, azure, hdfs).
 */
public final class VersionedModel {
  private VersionedModel() {}

  /** Writes a local model of {@code count} parameters of {@code elements} floats each, version 0, in {@code format}. */
  public static Path local(Path dir, String name, ModelFormat format, int count, int elements, long maxShardBytes)
      throws IOException {
    Path data = dir.resolve(name + ".data");
    SyntheticModels.Synthetic s = SyntheticModels.floats(data, count, elements);
    Path out = dir.resolve(name);
    try (var src = s.data()) {
      WriteOptions o = WriteOptions.of(format);
      if (maxShardBytes > 0) {
        o = o.withMaxShardBytes(maxShardBytes);
      }
      ModelFiles.write(s.tag(), out, o);
    }
    Files.delete(data);
    try (FileSystem fs = ModelFileSystems.open(out, format == ModelFormat.SHARDED_SDNB
        ? Map.of("format", "sdnb-sharded", "maxShardBytes", String.valueOf(maxShardBytes)) : Map.of())) {
      write(fs, 0);
    }
    return out;
  }

  /** Sets every byte of every parameter of the mounted model to {@code version}. */
  public static void write(FileSystem fs, int version) throws IOException {
    try (var params = Files.list(fs.getPath("/params/big"))) {
      for (Path p : (Iterable<Path>) params::iterator) {
        byte[] b = new byte[(int) Files.size(p)];
        Arrays.fill(b, (byte) version);
        Files.write(p, b);
      }
    }
  }

  /** The one version every parameter byte of the mounted model has; fails on a mix. */
  public static int version(FileSystem fs) throws IOException {
    int seen = -1;
    try (var params = Files.list(fs.getPath("/params/big"))) {
      for (Path p : (Iterable<Path>) params::iterator) {
        for (byte b : Files.readAllBytes(p)) {
          if (seen < 0) {
            seen = b & 0xff;
          } else if ((b & 0xff) != seen) {
            throw new AssertionError(p + " mixes versions " + seen + " and " + (b & 0xff));
          }
        }
      }
    }
    return seen;
  }

  /**
   * The one byte value of each parameter {@code big/w0 … w<count-1>} of the mounted model (each
   * set by {@link #set} on its own); fails on a mix within one.
   */
  public static int[] values(FileSystem fs, int count) throws IOException {
    int[] out = new int[count];
    for (int i = 0; i < count; i++) {
      byte[] b = Files.readAllBytes(fs.getPath("/params/big/w" + i));
      for (byte x : b) {
        if (x != b[0]) {
          throw new AssertionError("w" + i + " mixes values " + (b[0] & 0xff) + " and " + (x & 0xff));
        }
      }
      out[i] = b[0] & 0xff;
    }
    return out;
  }

  /** Sets every byte of parameter {@code big/w<i>} of the mounted model to {@code value}, the others as they are. */
  public static void set(FileSystem fs, int i, int value) throws IOException {
    byte[] b = new byte[(int) Files.size(fs.getPath("/params/big/w" + i))];
    Arrays.fill(b, (byte) value);
    Files.write(fs.getPath("/params/big/w" + i), b);
  }

  /** {@link #values(FileSystem, int)} of a fresh read-only mount of {@code model}. */
  public static int[] values(Path model, int count) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      return values(fs, count);
    }
  }

  /** The bytes of parameters {@code big/w0 … w<count-1>} of a fresh read-only mount of {@code model}. */
  public static byte[][] bytes(Path model, int count) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      byte[][] out = new byte[count][];
      for (int i = 0; i < count; i++) {
        out[i] = Files.readAllBytes(fs.getPath("/params/big/w" + i));
      }
      return out;
    }
  }

  /** One commit of {@code model} (mounted with {@code env}): {@link #set} of parameter {@code i} to {@code value}. */
  public static void commit(Path model, Map<String, ?> env, int i, int value) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(model, env)) {
      set(fs, i, value);
    }
  }
}
