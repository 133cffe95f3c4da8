package org.modelfs.format.ziptags;

import java.io.IOException;
import java.util.List;
import org.modelfs.format.BaseCodec;
import org.modelfs.format.PlannedFile;
import org.modelfs.format.WriteOptions;
import org.modelfs.format.sdz.SdzCodec;
import org.modelfs.format.sdz.SdzFormat;
import org.modelfs.io.ByteSource;
import org.modelfs.io.Closer;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;

/** The tagged zip's descriptor (docs/FORMATS.md §8): a zip with {@code tags.txt} and {@code <tag>/graph.fb}. */
public final class ZipTagsCodec extends BaseCodec {
  public ZipTagsCodec() {
    super(ModelFormat.ZIP_TAGS, "ZIP", 30); // a zip with tags.txt: before any zip (SDZ)
  }

  @Override
  public String wholeModel() {
    return "a zip (an SDZ or zip-tags model?)";
  }

  @Override
  public boolean sniff(ByteSource src) throws IOException {
    return SdzFormat.sniff(src) && ZipTagsReader.sniff(src);
  }

  @Override
  public boolean ownsExtension() {
    return false; // any zip is named .zip
  }

  @Override
  public boolean compresses() {
    return true;
  }

  @Override
  public Model open(String location, ByteSource src, Closer closer) throws IOException {
    return new Model(location, format(), ZipTagsReader.read(src, closer), closer);
  }

  @Override
  public List<String> layoutProblems(Tag tag, WriteOptions options) {
    return ZipTagsWriter.problems(tag);
  }

  @Override
  public List<PlannedFile> plan(Request r) throws IOException {
    return List.of(PlannedFile.written(r.fileName(), SdzCodec.zip(ZipTagsWriter.parts(r.tags(), r.fileName()), r.options())));
  }
}
