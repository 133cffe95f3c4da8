package org.modelfs.format;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.function.IntFunction;
import org.modelfs.io.ByteSource;
import org.modelfs.io.Closer;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;

/**
 * A container format's descriptor: everything ModelFS asks of one format, in the format's own
 * package — its identity ({@link #format()}: token, extension, tags, shards, DL4J), how a file is
 * recognised and read ({@link #sniff}, {@link #open}, {@link #openShards}), what the format can
 * hold ({@link #layoutProblems}, {@link #storedFormatKey}) and which files hold a model
 * ({@link #plan}). Found through {@link Codecs}, the one registry: adding a format is its
 * package plus one line in {@code META-INF/services/org.modelfs.format.Codec} (docs/FORMATS.md §1,
 * docs/ARCHITECTURE.md "Where do I change").
 */
public interface Codec {
  /** The tag name of a model in a format without tags. */
  String DEFAULT_TAG = "default";

  /** The format this codec reads and writes. */
  ModelFormat format();

  /** Other tokens the command line and {@code env} accept for this format, lower case. */
  default List<String> aliases() {
    return List.of();
  }

  /**
   * Whether {@code src} starts as this format's files do (its magic): one file of a one-file
   * format, shard 0 of a shard set's. Reads a few bytes at most (a zip's directory for a tagged
   * zip); never an array.
   */
  boolean sniff(ByteSource src) throws IOException;

  /**
   * Asks {@code src} — one file of this format, or one shard of its shard set, whose first and
   * last blocks are held ({@link org.modelfs.io.ParallelReads#prefetchEnds}) — for what its reader
   * reads next, in as few requests as it can (SDNB: its FlatGraph), so that an object store's
   * shard does not wait for every other shard's ends first (issue 34). Nothing by default. A
   * format error found here is the reader's to report, in the shards' order: this may stop at it.
   */
  default void prefetchIndex(ByteSource src) throws IOException {}

  /** The magic {@link #sniff} looks for, as an error message names it ({@code "SDNB"}), or {@code null} for none. */
  default String magic() {
    return null;
  }

  /**
   * How a message names a whole file of this format found where something else was expected (a
   * tag's graph file): {@code "a whole SDNB model"}.
   */
  default String wholeModel() {
    return "a whole " + format().token() + " model" + (magic() == null ? "" : " (" + magic() + ")");
  }

  /**
   * The order the readers are tried in, lowest first (a more specific magic before a more
   * general one: a zip with {@code tags.txt} before any zip); {@link Integer#MAX_VALUE} for the
   * format read when no magic matched ({@link #fallback()}).
   */
  default int sniffOrder() {
    return 100;
  }

  /** Whether this is the format a file (or shard set) without any registered magic is read as. */
  default boolean fallback() {
    return sniffOrder() == Integer.MAX_VALUE;
  }

  /**
   * Whether a file named with {@link ModelFormat#extension()} is a model of ModelFS's even when it
   * cannot be read (the provider then reports the format's error, not "not a model"); false for
   * an extension any file may have ({@code .zip}).
   */
  default boolean ownsExtension() {
    return true;
  }

  /** Other extensions a file of this format may be named with (an SDZ is a zip: {@code .zip}). */
  default List<String> otherExtensions() {
    return List.of();
  }

  /**
   * The model held by the one file {@code src} (a one-file format). The model's sources are
   * registered in {@code closer}.
   */
  default Model open(String location, ByteSource src, Closer closer) throws IOException {
    throw new ModelFormatException(location, "model file", 0, "the " + format().token() + " format is a set of shard files");
  }

  /** The shard files' extension (without the dot) of a sharded format, else {@code null}. */
  default String shardExtension() {
    return null;
  }

  /**
   * The model held by the shards {@code shards} (shard 0 first) of a sharded format; {@code files}
   * are the file names they were read from, empty when they are not files.
   */
  default Model openShards(String location, List<ByteSource> shards, List<String> files, Closer closer)
      throws IOException {
    throw new ModelFormatException(location, "model file", 0, "the " + format().token() + " format is one file");
  }

  /** Whether every tag is held to the format's layout ({@link #layoutProblems}), or only the newest. */
  default boolean laysOutEveryTag() {
    return format().holdsTags();
  }

  /** What the format cannot hold of {@code tag}, each {@code "<path in the tag>: <reason>"}. */
  default List<String> layoutProblems(Tag tag, WriteOptions options) {
    return List.of();
  }

  /**
   * The value the format stores for the SDNB format key {@code key} ({@code nd4j.format.*}) given
   * {@code value}, or {@code null} when it keeps no such key (every other key is kept as given).
   */
  default String storedFormatKey(String key, String value) {
    return null;
  }

  /** Whether the format keeps a tag's metadata (what a commit reads back and compares). */
  default boolean keepsMetadata() {
    return true;
  }

  /**
   * Whether a model written with {@code options} is a set of shards whose unchanged weight shards
   * a commit may keep ({@link ShardPacking}): a sharded format, or an SDZ of shard entries.
   */
  default boolean writesShards(WriteOptions options) {
    return format().sharded() || shardsInOneFile() && options.shardedSdz();
  }

  /**
   * Whether the format keeps shard entries inside its one file when a shard limit is given (an
   * SDZ of {@code model.shard<k>-of-<N>.sdnb} entries: {@link WriteOptions#shardedSdz()}).
   */
  default boolean shardsInOneFile() {
    return false;
  }

  /** Whether the format compresses what it stores when asked ({@code --compression deflate}, env {@code compression}). */
  default boolean compresses() {
    return false;
  }

  /** Whether a kept shard must also have been stored with the compression {@code options} ask for. */
  default boolean shardsKeepCompression() {
    return false;
  }

  /**
   * Why {@code fileName} must not name a model of this format (a shard set's base name), in the
   * user's words, or {@code null} when it may.
   */
  default String fileNameProblem(String fileName) {
    return null;
  }

  /**
   * The files that hold {@code request}'s tags, in the order a reader needs them. Called after
   * the tags passed every problem check; nothing is written here.
   */
  List<PlannedFile> plan(Request request) throws IOException;

  /**
   * What to write.
   *
   * @param tags oldest first, at least one
   * @param fileName the model's file name (a shard set's base name)
   * @param options format and options
   * @param previous the model as the mount read it (its files still the stored ones), or {@code null}
   * @param packing the weight shards' packing kept from {@code previous}, or {@code null} to pack afresh
   * @param shardLimit the size limit of a weight shard
   */
  record Request(List<Tag> tags, String fileName, WriteOptions options, Model previous, ShardPacking packing,
      long shardLimit) {
    public Request {
      tags = List.copyOf(tags);
    }

    /** The newest tag: the model DL4J loads. */
    public Tag newest() {
      return tags.get(tags.size() - 1);
    }

    /**
     * Which of {@code weightShards} weight shards stay where they are: those {@link #packing()}
     * keeps that the mount read from a regular file under the very name the plan gives them
     * ({@code nameOf.apply(k)}) — a shard read through a link, or from a file of another spelling
     * ({@code shard01-of-5}), is written again (docs/FILESYSTEM.md §7.4).
     */
    public boolean[] keptInPlace(int weightShards, IntFunction<String> nameOf) {
      boolean[] kept = new boolean[weightShards];
      for (int k = 1; packing != null && k <= weightShards; k++) {
        kept[k - 1] = packing.kept()[k - 1] && previous.shards().readFrom(k, nameOf.apply(k));
      }
      return kept;
    }

    /** The weight shards' names: the kept packing's, or {@code fresh} (a new packing). */
    public List<Set<String>> sets(List<Set<String>> fresh) {
      return packing != null ? packing.sets() : fresh;
    }
  }
}
