package org.modelfs.provider;

import java.io.IOException;
import java.nio.file.FileSystemException;
import org.modelfs.format.Codec;
import org.modelfs.format.Codecs;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.fb.FbFormat;
import org.modelfs.format.fb.GraphReader;
import org.modelfs.io.ByteSource;
import org.modelfs.io.SliceSource;
import org.modelfs.model.GraphRef;
import org.modelfs.model.Tag;

/**
 * What a file written to a tag's {@code graph} is when it is no graph but a whole model: a
 * DL4J {@code .fb} (a FlatGraph with its arrays inline, which the graph reader would misread as
 * stubs: "FLOAT[2, 1, 3, …] needs 19464192"), an SDNB, a zip (SDZ, zip-tags) or a container.
 * Said in the user's words, with the command that does what they meant.
 */
final class GraphFiles {
  private GraphFiles() {}

  /**
   * Reads {@code graph} as a tag's graph file; if its bytes are a whole model instead, a
   * {@link FileSystemException} naming {@code path} says which (a zip, an SDNB or a container by
   * its magic; an fb model only when the graph reader failed on it, so no real graph is ever
   * second-guessed).
   */
  static GraphReader.Content read(GraphRef graph, String path) throws IOException {
    ByteSource src = new SliceSource(graph.source(), graph.source().name(), graph.offset(), graph.length());
    for (Codec c : Codecs.readers(false)) {
      boolean whole;
      try {
        whole = !c.fallback() && c.sniff(src);
      } catch (ModelFormatException damaged) {
        whole = true; // its magic matched, and what follows is no model of it either: a graph it is not
      }
      if (whole) {
        throw wholeModel(path, c.wholeModel()); // by its magic: a whole model of a registered format
      }
    }
    try {
      return GraphReader.read(graph, path);
    } catch (ModelFormatException misread) {
      if (graph.length() <= FbFormat.MAX_FILE) {
        try {
          Tag t = FbFormat.read(src, "default");
          long arrays = t.variables().stream().filter(v -> v.array() != null).count();
          if (arrays > 0) {
            throw wholeModel(path, "a whole DL4J .fb model (" + t.variables().size() + " variables, " + arrays
                + " with arrays)");
          }
        } catch (ModelFormatException notFb) {
          misread.addSuppressed(notFb);
        }
      }
      throw misread;
    }
  }

  private static FileSystemException wholeModel(String path, String what) {
    return new FileSystemException(path, null, "this is " + what + ", not a graph: a tag's graph file holds the"
        + " FlatGraph without arrays that a model's own graph file shows; copy that one"
        + " (modelfs cp OTHER.fb:/graph MODEL:" + path + "), or bring the whole model in as a model"
        + " (modelfs convert OTHER.fb OUT.sdz)");
  }
}
