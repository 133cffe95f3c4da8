package org.modelfs.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/** {@link LocalBacking} held to the backing contract: a fresh directory per model. */
class LocalBackingContractTest extends BackingContractTest {
  private int dirs;

  @Override
  protected Backing newBacking(String fileName, boolean shardSet) throws IOException {
    Path dir = Files.createDirectory(tmp.toRealPath().resolve("models" + dirs++));
    return shardSet ? LocalBacking.ofShardSet(dir.resolve(fileName)) : LocalBacking.of(dir.resolve(fileName));
  }

  @Override
  protected Backing anotherClient(Backing b) throws IOException {
    LocalBacking l = (LocalBacking) b;
    Path p = l.id().dir().resolve(l.fileName());
    return l.id().shardBase() != null ? LocalBacking.ofShardSet(p) : LocalBacking.of(p);
  }

  @Override
  protected Map<String, String> storedFiles(Backing b) throws IOException {
    Map<String, String> out = new TreeMap<>();
    for (Path p : b.files()) {
      out.put(p.getFileName().toString(), contentAndKey(p));
    }
    return out;
  }
}
