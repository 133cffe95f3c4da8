package org.modelfs.format.sdnb;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import org.modelfs.format.BaseCodec;
import org.modelfs.format.PlannedFile;
import org.modelfs.format.fb.GraphWriter;
import org.modelfs.io.ByteSource;
import org.modelfs.io.Closer;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;

/** The SDNB format's descriptor (docs/FORMATS.md §5): one file, magic {@code SDNB}. */
public final class SdnbCodec extends BaseCodec {
  public SdnbCodec() {
    super(ModelFormat.SDNB, "SDNB", 20);
  }

  @Override
  public String wholeModel() {
    return "a whole SDNB model";
  }

  @Override
  public void prefetchIndex(ByteSource src) throws IOException {
    SdnbFormat.prefetchIndex(src);
  }

  @Override
  public boolean sniff(ByteSource src) throws IOException {
    return SdnbFormat.sniff(src);
  }

  @Override
  public Model open(String location, ByteSource src, Closer closer) throws IOException {
    return new Model(location, format(), List.of(SdnbFormat.read(src, DEFAULT_TAG)), closer);
  }

  @Override
  public String storedFormatKey(String key, String value) {
    return storedKey(key, value);
  }

  /**
   * What the SDNB writers (SDNB, its shards, SDZ's entries) store for an SDNB format key: they
   * write {@code nd4j.format.version} and {@code nd4j.format.type} themselves and the shard keys
   * per shard.
   */
  public static String storedKey(String key, String value) {
    return switch (key) {
      case SdnbFormat.KEY_VERSION -> "1";
      case SdnbFormat.KEY_TYPE -> "APPENDED_BLOB";
      case SdnbFormat.KEY_SHARD_INDEX, SdnbFormat.KEY_SHARD_TYPE -> null;
      default -> value;
    };
  }

  @Override
  public List<PlannedFile> plan(Request r) throws IOException {
    Tag newest = r.newest();
    SdnbFormat.Prepared p = SdnbFormat.prepare(newest, GraphWriter.Mode.SDNB, Set.of(),
        SdnbFormat.metadataFor(newest, -1, false), r.fileName());
    return List.of(PlannedFile.streamed(r.fileName(), p::writeTo));
  }
}
