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
  public Backing backing(Path path, boolean shardSet) {
    if (!(path.getFileSystem() instanceof S3FileSystem)) {
      return null;
    }
    return new ObjectBacking(ObjectLocation.of(path), shardSet);
  }
}
