package org.modelfs.hdfs;

import java.io.IOException;
import java.nio.file.Path;
import org.modelfs.hdfs.nio.HdfsPath;
import org.modelfs.store.Backing;
import org.modelfs.store.BackingFactory;

/**
 * The {@link BackingFactory} service of this module: {@code hdfs://} paths (this module's NIO
 * provider, {@link org.modelfs.hdfs.nio.HdfsProvider}) are models in HDFS ({@link HdfsBacking}).
 */
public final class HdfsBackings implements BackingFactory {
  @Override
  public Backing backing(Path path, boolean shardSet) throws IOException {
    if (!(path instanceof HdfsPath p)) {
      return null;
    }
    return new HdfsBacking(HdfsModel.of(p), shardSet);
  }

  /** Its provider reads only: a plain file output is refused, named ({@code store.OutputFile}). */
  @Override
  public String modelsOnly(Path path) {
    return path instanceof HdfsPath ? "HDFS" : null;
  }
}
