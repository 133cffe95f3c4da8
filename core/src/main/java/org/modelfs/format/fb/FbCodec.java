package org.modelfs.format.fb;

import java.io.IOException;
import java.util.List;
import org.modelfs.format.BaseCodec;
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

  @Override
  public Model open(String location, ByteSource src, Closer closer) throws IOException {
    return new Model(location, format(), List.of(FbFormat.read(src, DEFAULT_TAG)), closer);
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
