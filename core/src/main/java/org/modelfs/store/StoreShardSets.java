package org.modelfs.store;

import java.io.IOException;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.modelfs.container.ContainerPlan;
import org.modelfs.format.Codec;
import org.modelfs.format.Codecs;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.sdnb.ShardNames;
import org.modelfs.model.ModelFormat;

/**
 * Which shard sets a store other than a directory writes (an object store, Azure Blob Storage,
 * HDFS): the family whose shard names the stores' pointers and generations know, SDNB's
 * ({@code <base>.shard<k>-of-<N>.sdnb}). One rule and one message for every store module, asked
 * where a backing is made for a shard set ({@link #check(String, String, String)}, by the
 * model's name) and where it commits ({@link #check(String, String, ContainerPlan)}, by the
 * plan's format); the formats it names come from the codec registry.
 */
public final class StoreShardSets {
  /** The shard extension of the one shard-set family the store modules write. */
  public static final String WRITTEN = ShardNames.SDNB;

  private StoreShardSets() {}

  /**
   * Refuses a shard set named with the set extension {@code setExtension} ({@code null}: the
   * name is no shard set's) that {@code store} (its name for people: "object stores") does not
   * write, naming {@code uri}.
   */
  public static void check(String uri, String store, String setExtension) throws ModelFormatException {
    if (setExtension == null || WRITTEN.equals(setExtension)) {
      return;
    }
    Codec codec = Codecs.ofShardExtension(setExtension);
    ModelFormat refused = codec == null ? null : codec.format();
    Codec written = Codecs.ofShardExtension(WRITTEN);
    String what = refused == null ? "a shard set" : "a " + refused.token() + " model";
    String instead = refused == null ? "" : "one file (format " + refused.unsharded().token() + ") or ";
    throw new ModelFormatException(uri, "model to write", 0, what + " (<base>.shard<k>-of-<N>." + setExtension
        + ") is not written to " + store + "; write " + instead + "a shard set of format "
        + written.format().token() + " (docs/OBJECT-STORES.md)");
  }

  /**
   * The complete plain SDNB shard set {@code <base>.shard<k>-of-<N>.sdnb} of the model named
   * {@code modelName} among a store's {@code items} (a listing of the model's directory; shard 0
   * first), empty if there is none. A shard set of another family named by that name (a sharded
   * container's {@code .sdmc} shards, which the stores do not read as one model) is refused with a
   * message that says so, naming {@code uri} — never "no shards of this base name".
   */
  public static <T> List<T> plainSet(String uri, String store, String modelName, List<T> items, Function<T, String> name,
      UnaryOperator<String> where) throws IOException {
    String base = ShardNames.base(modelName);
    List<T> set = ShardNames.completeSet(base, items, name, where);
    if (set.isEmpty()) {
      for (T item : items) {
        ShardNames.Shard s = ShardNames.parseAny(name.apply(item));
        if (s != null && s.base().equals(base) && !s.ext().equals(WRITTEN)
            && (modelName.equals(base) || modelName.equals(base + "." + s.ext()))) {
          Codec codec = Codecs.ofShardExtension(s.ext());
          String what = codec == null ? "a shard set" : "a " + codec.format().token() + " model";
          throw new ModelFormatException(uri, "model", 0, "no model object, and its shards (" + name.apply(item)
              + ", …) are " + what + ", not read as one model from " + store + " (docs/OBJECT-STORES.md):"
              + " convert it into one file or a shard set of format "
              + Codecs.ofShardExtension(WRITTEN).format().token());
        }
      }
    }
    return set;
  }

  /** {@link #check(String, String, String)} for the format {@code plan} writes. */
  public static void check(String uri, String store, ContainerPlan plan) throws ModelFormatException {
    if (plan.format().sharded()) {
      check(uri, store, Codecs.of(plan.format()).shardExtension());
    }
  }
}
