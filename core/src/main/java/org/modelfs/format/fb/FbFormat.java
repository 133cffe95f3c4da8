package org.modelfs.format.fb;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.modelfs.format.ModelFormatException;
import org.modelfs.io.ByteSource;
import org.modelfs.io.CountingOutput;
import org.modelfs.model.GraphRef;
import org.modelfs.model.GraphRef.Convention;
import org.modelfs.model.Tag;
import org.modelfs.model.Where;

/**
 * Format A, the original single-file FlatBuffers model of {@code SameDiff.save} in DL4J
 * 1.0.0-M2.1: one FlatGraph, every array inline in legacy encoding (docs/FORMATS.md §4).
 */
public final class FbFormat {
  /** DL4J reads a whole fb file into one {@code byte[]}. */
  public static final long MAX_FILE = Integer.MAX_VALUE - 8;

  private FbFormat() {}

  /** Reads the index of an fb file: one tag named {@code default}. */
  public static Tag read(ByteSource source, String tagName) throws IOException {
    long size = source.size();
    if (size < 8) {
      throw new ModelFormatException(source.name(), "FlatGraph", 0,
          "file of " + size + " bytes is too small for a FlatBuffer");
    }
    GraphRef ref = new GraphRef(source, 0, size, Convention.LEGACY);
    GraphReader.Content c = GraphReader.read(ref, source.name());
    return new Tag(tagName, ref, c.variables(), c.updater(), c.trainingConfig(), Map.of());
  }

  /** Checks that {@code tag} can be written as format A; returns the problems found. */
  public static List<String> problems(Tag tag) {
    List<String> out = new ArrayList<>();
    for (var v : tag.variables()) {
      if (v.array() != null && v.array().dtype().legacyExtras() == 0) {
        out.add(Where.param(v.name()) + ": data type " + v.array().dtype() + " has no legacy fb encoding");
      }
    }
    return out;
  }

  /** Writes {@code tag} as an fb file to {@code out}. */
  public static void write(Tag tag, CountingOutput out, String file) throws IOException {
    GraphWriter.Built built = GraphWriter.build(tag, GraphWriter.Mode.LEGACY, null, Map.of(), file);
    if (built.flatBufferLength() > MAX_FILE) {
      throw new ModelFormatException(file, "fb file", 0, "model needs " + built.flatBufferLength()
          + " bytes; DL4J reads fb files into one byte array, which caps them below 2 GiB");
    }
    FlatBufferOut.write(built, out, true);
  }
}
