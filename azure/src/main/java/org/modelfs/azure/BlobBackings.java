package org.modelfs.azure;

import java.io.IOException;
import java.nio.file.Path;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.sdnb.ShardNames;
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
    if (shardSet && ShardNames.CONTAINER.equals(
        ShardNames.setExtension(at.name()))) {
      throw new ModelFormatException(at.uri(), "model to write", 0, "a sharded container"
          + " (<base>.shard<k>-of-<N>.sdmc) is not written to Blob Storage; write a single container (format"
          + " container) or a sharded SDNB (docs/OBJECT-STORES.md)");
    }
    return new BlobBacking(at, shardSet);
  }
}
