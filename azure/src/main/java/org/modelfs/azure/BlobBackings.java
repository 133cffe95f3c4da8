package org.modelfs.azure;

import java.io.IOException;
import java.nio.file.Path;
import org.modelfs.store.Backing;
import org.modelfs.store.BackingFactory;

/**
 * The {@link BackingFactory} service of this module: paths of its file system ({@code azb://}
 * URIs, {@link BlobFileSystemProvider}) are models in Azure Blob Storage ({@link BlobBacking}).
 */
public final class BlobBackings implements BackingFactory {
  @Override
  public Backing backing(Path path, boolean shardSet) throws IOException {
    if (!(path instanceof BlobPath p)) {
      return null;
    }
    BlobLocation at = BlobLocation.of(p);
    if (shardSet && org.modelfs.format.sdnb.ShardNames.CONTAINER.equals(
        org.modelfs.format.sdnb.ShardNames.setExtension(at.name()))) {
      throw new org.modelfs.format.ModelFormatException(at.uri(), "model to write", 0, "a sharded container"
          + " (<base>.shard<k>-of-<N>.sdmc) is not written to Blob Storage; write a single container (format"
          + " container) or a sharded SDNB (docs/OBJECT-STORES.md)");
    }
    return new BlobBacking(at, shardSet);
  }
}
