package org.modelfs.azure;

import java.io.IOException;
import java.nio.file.Path;
import org.modelfs.store.Backing;
import org.modelfs.store.BackingFactory;
import org.modelfs.store.StoreShardSets;
import org.modelfs.format.sdnb.ShardNames;

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
    if (shardSet) {
      StoreShardSets.check(at.uri(), "Blob Storage", ShardNames.setExtension(at.name()));
    }
    return new BlobBacking(at, shardSet);
  }

  /** Its provider reads only: a plain file output is refused, named ({@code store.OutputFile}). */
  @Override
  public String modelsOnly(Path path) {
    return path instanceof BlobPath ? "Azure Blob Storage" : null;
  }
}
