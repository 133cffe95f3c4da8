package org.modelfs.format.unified;

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

/** The unified container's descriptor (docs/FORMATS.md §13): one file, magic {@code SAMEDIFF_MODEL}. */
public final class ContainerCodec extends BaseCodec {
  public ContainerCodec() {
    super(ModelFormat.CONTAINER, "SAMEDIFF_MODEL", 10);
  }

  @Override
  public String wholeModel() {
    return "a whole ModelFS container model (SAMEDIFF_MODEL)";
  }

  @Override
  public boolean sniff(ByteSource src) throws IOException {
    return ContainerReader.sniff(src);
  }

  @Override
  public boolean compresses() {
    return true;
  }

  @Override
  public Model open(String location, ByteSource src, Closer closer) throws IOException {
    return new Model(location, format(), ContainerReader.read(src), closer);
  }

  @Override
  public List<String> layoutProblems(Tag tag, WriteOptions options) {
    return ContainerWriter.problems(tag, options.deflate());
  }

  @Override
  public List<PlannedFile> plan(Request r) {
    List<Tag> tags = r.tags();
    return List.of(PlannedFile.written(r.fileName(),
        (ch, what) -> ContainerWriter.write(tags, ch, r.fileName(), r.options().containerLevel())));
  }
}
