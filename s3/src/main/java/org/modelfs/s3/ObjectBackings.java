package org.modelfs.s3;

import java.nio.file.Path;
import org.modelfs.store.Backing;
import org.modelfs.store.BackingFactory;
import software.amazon.nio.spi.s3.S3FileSystem;

/**
 * The {@link BackingFactory} service of this module: paths of the AWS NIO provider for S3
 * ({@code s3:} and {@code s3x:} URIs, any S3-compatible endpoint) are models in an object store
 * ({@link ObjectBacking}).
 */
public final class ObjectBackings implements BackingFactory {
  @Override
  public Backing backing(Path path, boolean shardSet) throws java.io.IOException {
    if (!(path.getFileSystem() instanceof S3FileSystem fs)) {
      return null;
    }
    ProviderTempDirs.register(fs);
    ObjectLocation at = ObjectLocation.of(path);
    if (shardSet && org.modelfs.format.sdnb.ShardNames.CONTAINER.equals(
        org.modelfs.format.sdnb.ShardNames.setExtension(at.name()))) {
      throw new org.modelfs.format.ModelFormatException(at.uri(), "model to write", 0, "a sharded container"
          + " (<base>.shard<k>-of-<N>.sdmc) is not written to object stores; write a single container (format"
          + " container) or a sharded SDNB (docs/OBJECT-STORES.md)");
    }
    return new ObjectBacking(at, shardSet);
  }
}
