package org.modelfs.s3;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;
import org.modelfs.testing.SyntheticModels;

/** Models for the read tests, written locally through our own writers. */
final class TestModels {
  private TestModels() {}

  /**
   * Writes {@code out}, a model of {@code count} FLOAT parameters {@code big/w<i>} of
   * {@code elements} each (the values of {@code FloatPattern}), as {@code options} say; returns
   * its files. The generated data file beside it is deleted.
   */
  static List<Path> floats(Path out, int count, int elements, WriteOptions options) throws IOException {
    Path data = out.resolveSibling(out.getFileName() + ".data");
    var synthetic = SyntheticModels.floats(data, count, elements);
    List<Path> files;
    try (var src = synthetic.data()) {
      files = ModelFiles.write(synthetic.tag(), out, options);
    }
    Files.delete(data);
    return files;
  }

  /** The write options a test names: sdnb, sdz (stored), sdz-deflated, zip-tags, sharded (2 MB shards). */
  static WriteOptions options(String format) {
    return switch (format) {
      case "sdnb" -> WriteOptions.of(ModelFormat.SDNB);
      case "sdz", "sdz-stored" -> WriteOptions.of(ModelFormat.SDZ);
      case "sdz-deflated" -> WriteOptions.of(ModelFormat.SDZ).withDeflate(true);
      case "zip-tags" -> WriteOptions.of(ModelFormat.ZIP_TAGS);
      case "container", "container-stored" -> WriteOptions.of(ModelFormat.CONTAINER);
      case "container-deflated" -> WriteOptions.of(ModelFormat.CONTAINER).withDeflate(true);
      case "sharded" -> WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(2_000_000);
      default -> throw new IllegalArgumentException(format);
    };
  }
}
