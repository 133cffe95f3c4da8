package org.modelfs.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.modelfs.format.WriteOptions;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;
import org.modelfs.store.ModelFiles;

/**
 * The models every store's differential test puts in its store (s3, azure, hdfs): every format
 * ModelFS writes, DL4J's mlp_adam (with Adam updater state) in each, and the odd shapes a store
 * has to carry as well as a local file does: no parameters, 0-element arrays, 10,000 one-float
 * parameters, a sharded SDNB of one shard and of many, a sharded container. Written locally by our own writers.
 */
public final class StoreModels {
  /** Every kind {@link #write} takes. */
  public static final List<String> KINDS = List.of("fb", "sdnb", "sdz-stored", "sdz-deflated", "zip-tags",
      "container", "container-deflated", "sharded-1", "sharded-many", "no-params-sdnb", "no-params-fb",
      "empty-arrays-sdnb", "empty-arrays-sdz", "tiny-10k-sdnb");

  /** A written model: the file to mount locally, its files, and the name it is mounted by in a store. */
  public record Written(Path model, List<Path> files, String name) {}

  private StoreModels() {}

  /** {@link #KINDS} as a stream (a JUnit {@code @MethodSource}). */
  public static java.util.stream.Stream<String> kinds() {
    return KINDS.stream();
  }

  /** Writes the model {@code kind} names into the empty directory {@code dir}. */
  public static Written write(Path dir, String kind) throws IOException {
    Files.createDirectories(dir);
    return switch (kind) {
      case "fb", "sdnb", "sdz-stored", "sdz-deflated" -> mlpAdam(dir, kind, List.of("default"));
      case "zip-tags", "container", "container-deflated" -> mlpAdam(dir, kind, List.of("v1", "v2", "v3"));
      case "sharded-1" -> sharded(dir, "m.sdnb", WriteOptions.of(ModelFormat.SHARDED_SDNB));
      case "sharded-many" -> sharded(dir, "m.sdnb", WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(2_000));
      case "container-sharded" -> sharded(dir, "m.sdmc",
          WriteOptions.of(ModelFormat.SHARDED_CONTAINER).withMaxShardBytes(2_000));
      case "no-params-sdnb" -> synthetic(dir, "m.sdnb", ModelFormat.SDNB, 0, 0);
      case "no-params-fb" -> synthetic(dir, "m.fb", ModelFormat.FB, 0, 0);
      case "empty-arrays-sdnb" -> synthetic(dir, "m.sdnb", ModelFormat.SDNB, 3, 0);
      case "empty-arrays-sdz" -> synthetic(dir, "m.sdz", ModelFormat.SDZ, 3, 0);
      case "tiny-10k-sdnb" -> synthetic(dir, "m.sdnb", ModelFormat.SDNB, 10_000, 1);
      default -> throw new IllegalArgumentException(kind);
    };
  }

  /** Puts a local file into a store under a name. */
  public interface Upload {
    void put(Path file, String name) throws IOException;
  }

  /** Where a store's model of a name is, as a path of its provider. */
  public interface Remote {
    Path path(String name) throws IOException;
  }

  /** Writes {@code kind} into {@code dir} and puts its files into a store under {@code prefix} with {@code upload}. */
  public static Written put(Path dir, String kind, String prefix, Upload upload) throws IOException {
    Written m = write(dir, kind);
    for (Path f : m.files()) {
      upload.put(f, prefix + f.getFileName());
    }
    return m;
  }

  /**
   * Writes {@code kind} into {@code dir}, puts its files into a store under {@code prefix} with
   * {@code upload}, and asserts the store's mount of it equals the local mount.
   */
  public static void assertStoredAsLocal(Path dir, String kind, String prefix, Upload upload, Remote remote)
      throws IOException {
    Written m = put(dir, kind, prefix, upload);
    SameTree.assertSameModel(m.model(), remote.path(prefix + m.name()));
  }

  /**
   * A sharded container ({@code m.shard<k>-of-<N>.sdmc}, which the stores do not read as one
   * model: docs/OBJECT-STORES.md) put into a store: its mount by base name fails saying what the
   * shards are, never "no shard objects of this base name".
   */
  public static void assertShardedContainerRefused(Path dir, String prefix, Upload upload, Remote remote)
      throws IOException {
    Written m = put(dir, "container-sharded", prefix, upload);
    IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
        () -> org.modelfs.ModelFileSystems.open(remote.path(prefix + m.name()), Map.of("readOnly", "true")).close());
    org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("m.sdmc")
        && e.getMessage().contains("container-sharded model") && e.getMessage().contains("m.shard"),
        "names the model and what its shards are: " + e);
  }

  /** {@code modelfs.fixtures} (the store modules' poms set it), else the test resources'. */
  public static Path fixtures() {
    String p = System.getProperty("modelfs.fixtures");
    return p != null ? Path.of(p) : Fixtures.dir();
  }

  /**
   * The {@code .fb} fixtures under {@link #fixtures()}, relative and sorted: every DL4J file a
   * store's differential test mounts from the store and from the local disk.
   */
  public static java.util.stream.Stream<String> fbFixtures() throws IOException {
    Path root = fixtures();
    try (java.util.stream.Stream<Path> s = Files.walk(root)) {
      List<String> out = s.filter(p -> p.toString().endsWith(".fb")).map(p -> root.relativize(p).toString())
          .sorted().toList();
      org.junit.jupiter.api.Assertions.assertTrue(out.size() >= 10, "the fixtures, including tf-import/: " + out);
      return out.stream();
    }
  }

  private static Written mlpAdam(Path dir, String kind, List<String> tagNames) throws IOException {
    WriteOptions o = switch (kind) {
      case "fb" -> WriteOptions.of(ModelFormat.FB);
      case "sdnb" -> WriteOptions.of(ModelFormat.SDNB);
      case "sdz-stored" -> WriteOptions.of(ModelFormat.SDZ);
      case "sdz-deflated" -> WriteOptions.of(ModelFormat.SDZ).withDeflate(true);
      case "zip-tags" -> WriteOptions.of(ModelFormat.ZIP_TAGS);
      case "container" -> WriteOptions.of(ModelFormat.CONTAINER);
      default -> WriteOptions.of(ModelFormat.CONTAINER).withDeflate(true);
    };
    String name = "m." + switch (kind) {
      case "fb" -> "fb";
      case "sdnb" -> "sdnb";
      case "zip-tags" -> "zip";
      case "container", "container-deflated" -> "sdmc";
      default -> "sdz";
    };
    Path out = dir.resolve(name);
    try (Model m = ModelFiles.open(fixtures().resolve("mlp_adam.fb"))) {
      Tag t = m.newest();
      List<Tag> tags = new ArrayList<>();
      for (String n : tagNames) {
        tags.add(tagNames.size() == 1 ? t
            : new Tag(n, t.graph(), t.variables(), t.updater(), t.trainingConfig(), Map.of("step", n)));
      }
      return new Written(out, ModelFiles.writeTags(tags, out, o), name);
    }
  }

  private static Written sharded(Path dir, String name, WriteOptions options) throws IOException {
    try (Model m = ModelFiles.open(fixtures().resolve("mlp_adam.fb"))) {
      List<Path> files = ModelFiles.writeTags(m.tags(), dir.resolve(name), options);
      return new Written(files.get(0), files, name);
    }
  }

  private static Written synthetic(Path dir, String name, ModelFormat format, int count, int elements)
      throws IOException {
    Path data = dir.resolve(name + ".data");
    SyntheticModels.Synthetic s = SyntheticModels.floats(data, count, elements);
    Path out = dir.resolve(name);
    List<Path> files;
    try (var src = s.data()) {
      files = ModelFiles.write(s.tag(), out, WriteOptions.of(format));
    }
    Files.delete(data);
    return new Written(out, files, name);
  }
}
