package org.modelfs.model;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.modelfs.model.ModelFormat;
import org.modelfs.io.Closer;

/**
 * The index of an opened model: its format and tags (oldest first), and the open sources the
 * arrays are read from. Closing it releases those sources.
 */
public final class Model implements Closeable {
  private final String location;
  private final ModelFormat format;
  private final List<Tag> tags;
  private final Closer resources;
  private final ShardLayout shards;

  public Model(String location, ModelFormat format, List<Tag> tags, Closer resources) {
    this(location, format, tags, null, resources);
  }

  /** A model read from a shard set whose weight shards hold what {@code shards} says. */
  public Model(String location, ModelFormat format, List<Tag> tags, ShardLayout shards, Closer resources) {
    this.location = Objects.requireNonNull(location, "location");
    this.format = Objects.requireNonNull(format, "format");
    this.tags = List.copyOf(tags);
    this.shards = shards;
    this.resources = resources;
  }

  /** What each weight shard holds when the model was read from a shard set, else {@code null}. */
  public ShardLayout shards() {
    return shards;
  }

  /** The file the model was read from, for messages. */
  public String location() {
    return location;
  }

  /** The detected format. */
  public ModelFormat format() {
    return format;
  }

  /** Tags, oldest first; the last one is the default. */
  public List<Tag> tags() {
    return tags;
  }

  /** The newest tag. */
  public Tag newest() {
    return tags.get(tags.size() - 1);
  }

  /** The tag with this name, case-insensitively, or {@code null}. */
  public Tag tag(String name) {
    for (Tag t : tags) {
      if (t.name().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
        return t;
      }
    }
    return null;
  }

  @Override
  public void close() throws IOException {
    if (resources != null) {
      resources.close();
    }
  }
}
