package org.modelfs.interop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.store.ModelFiles;

/**
 * The file DL4J 1.0.0-M2.1 loads for a model ModelFS holds: DL4J M2.1 reads only fb, so a model in
 * another format is converted to fb by ModelFS (the route {@link ConversionChainInteropTest} checks).
 */
final class Dl4jFiles {
  private Dl4jFiles() {}

  /**
   * The fb DL4J loads for {@code model}: the file itself if it is an fb, else ModelFS's conversion
   * of its newest tag to fb (metadata dropped: DL4J M2.1 has none) written to {@code out}, replacing
   * what was there.
   *
   * @param model the model file
   * @param format its format
   * @param out where to write the conversion (unused for an fb)
   * @return the fb to give {@code SameDiff.fromFlatFile}
   * @throws IOException if the model cannot be read or the fb cannot be written
   */
  static Path fbFor(Path model, ModelFormat format, Path out) throws IOException {
    if (format == ModelFormat.FB) {
      return model;
    }
    Files.deleteIfExists(out);
    try (Model m = Models.open(model)) {
      ModelFiles.write(m.newest(), out, WriteOptions.of(ModelFormat.FB).withDropMetadata(true));
    }
    return out;
  }
}
