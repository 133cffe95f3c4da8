package org.modelfs.provider;

import org.modelfs.store.ModelFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import org.modelfs.model.ModelFormat;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.Model;

/**
 * Model files for the provider tests: the DL4J fixture {@code mlp_adam.fb} copied or
 * rewritten into every format, and the ground truth of its arrays from
 * {@code mlp_adam.expected.tsv} (first 8 bytes of the SHA-256 of the little-endian content).
 */
final class ProviderTestModels {
  /** The DL4J fixture, relative to the project directory (the tests' working directory). */
  static final Path EXAMPLE = Path.of("src/test/resources/fixtures/dl4j-1.0.0-M2.1/mlp_adam.fb");

  /** {@code params/layer0/W}: FLOAT [4, 8], 128 bytes. */
  static final String W = "/params/layer0/W";
  static final long W_SIZE = 128;
  static final String W_HASH = "79cfb19272bf398e";
  /** {@code params/layer1/W}: FLOAT [8, 3], 96 bytes. */
  static final String W1 = "/params/layer1/W";
  static final String W1_HASH = "467e8aeadbaa7eed";
  /** {@code updater/layer0/W/M}: FLOAT [4, 8]. */
  static final String W_M = "/updater/layer0/W/M";
  static final String W_M_HASH = "895e06f8909cb532";

  /** The formats a test can ask for, with the file name each is written to. */
  enum Format {
    FB("mlp.fb"),
    SDNB("mlp.sdnb"),
    /** Sharded SDNB, named by its base name (no file of that name exists). */
    SHARDED("mlp_sharded.sdnb"),
    SDZ("mlp.sdz"),
    SDZ_DEFLATED("mlp_deflated.sdz"),
    CONTAINER("mlp.sdmc"),
    CONTAINER_DEFLATED("mlp_deflated.sdmc");

    final String fileName;

    Format(String fileName) {
      this.fileName = fileName;
    }
  }

  private ProviderTestModels() {}

  /** A copy of the fixture in {@code dir} under {@code name}. */
  static Path copy(Path dir, String name) throws IOException {
    Path out = dir.resolve(name);
    Files.copy(EXAMPLE, out);
    return out;
  }

  /** The fixture written to {@code dir} as {@code format}; for sharded, the base name. */
  static Path write(Path dir, Format format) throws IOException {
    Path out = dir.resolve(format.fileName);
    if (format == Format.FB) {
      return copy(dir, format.fileName);
    }
    WriteOptions opts = switch (format) {
      case SDNB -> WriteOptions.of(ModelFormat.SDNB);
      case SHARDED -> WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(200);
      case SDZ -> WriteOptions.of(ModelFormat.SDZ);
      case SDZ_DEFLATED -> WriteOptions.of(ModelFormat.SDZ).withDeflate(true);
      case CONTAINER -> WriteOptions.of(ModelFormat.CONTAINER);
      case CONTAINER_DEFLATED -> WriteOptions.of(ModelFormat.CONTAINER).withDeflate(true);
      case FB -> throw new AssertionError();
    };
    try (Model m = Models.open(EXAMPLE)) {
      List<Path> written = ModelFiles.write(m.newest(), out, opts);
      if (format == Format.SHARDED && written.size() < 2) {
        throw new AssertionError("expected several shards, got " + written);
      }
    }
    return out;
  }

  /** The shard files of a sharded model written by {@link #write}, in order. */
  static List<Path> shards(Path base) throws IOException {
    return Models.findShards(base);
  }

  /** {@code samediff:<file URI>}, the registry form of docs/FILESYSTEM.md §6. */
  static URI uri(Path file) {
    return URI.create("samediff:" + file.toUri());
  }

  /** {@code samediff:<file URI>!<inner>}, with {@code inner} given already URI-encoded. */
  static URI uri(Path file, String inner) {
    return URI.create("samediff:" + file.toUri() + "!" + inner);
  }

  /** The hash form of {@code .expected.tsv}: hex of the first 8 bytes of the SHA-256. */
  static String hash(byte[] content) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(content);
      return HexFormat.of().formatHex(d, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  /** {@code Files.readAllBytes} without the checked exception, for lambdas. */
  static byte[] bytes(Path p) {
    try {
      return Files.readAllBytes(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
