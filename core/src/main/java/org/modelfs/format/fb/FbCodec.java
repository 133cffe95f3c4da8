package org.modelfs.format.fb;

import java.io.IOException;
import java.util.List;
import org.modelfs.format.BaseCodec;
import org.modelfs.format.BudgetExceededException;
import org.modelfs.format.Codecs;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.PlannedFile;
import org.modelfs.format.WriteOptions;
import org.modelfs.io.ByteSource;
import org.modelfs.io.Closer;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;

/** The fb format's descriptor (docs/FORMATS.md §4): no magic — what a file is read as when no other format's magic matched. */
public final class FbCodec extends BaseCodec {
  public FbCodec() {
    super(ModelFormat.FB, null, Integer.MAX_VALUE); // a FlatBuffer has no magic: tried last, as the fallback
  }

  @Override
  public boolean sniff(ByteSource src) {
    return false; // a FlatBuffer has no magic: it is tried last, as the fallback
  }

  /** Reads the file as fb, the format of a file without another's magic: a failure says it is no model at all. */
  @Override
  public Model open(String location, ByteSource src, Closer closer) throws IOException {
    try {
      return new Model(location, format(), List.of(FbFormat.read(src, DEFAULT_TAG)), closer);
    } catch (BudgetExceededException e) {
      throw e; // a FlatGraph, too costly to unfold: saying "not a SameDiff model" would mislead
    } catch (ModelFormatException e) {
      if (e.offset() < 0 || e.offset() >= src.size()) {
        // the first 4 bytes, read as a FlatBuffer's root offset, point outside the file (a text
        // file, say): the problem is at offset 0, not at the number they make
        throw new ModelFormatException(location, "model file", 0, "not a SameDiff model: no " + Codecs.magics()
            + " magic at its start, and no FlatGraph FlatBuffer (" + (src.size() < 4 ? "only " + src.size() + " bytes"
            : "the root offset it would start with points outside its " + src.size() + " bytes") + ")", e);
      }
      throw new ModelFormatException(location, "model file", e.offset(), "not a SameDiff model: no " + Codecs.magics()
          + " magic, and not a FlatGraph FlatBuffer (" + e.getMessage() + ")", e);
    }
  }

  @Override
  public List<String> layoutProblems(Tag tag, WriteOptions options) {
    return FbFormat.problems(tag);
  }

  @Override
  public boolean keepsMetadata() {
    return false;
  }

  @Override
  public List<PlannedFile> plan(Request r) {
    Tag newest = r.newest();
    return List.of(PlannedFile.streamed(r.fileName(), o -> FbFormat.write(newest, o, r.fileName())));
  }
}
