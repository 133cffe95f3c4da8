package org.modelfs.format.unified;

import com.google.flatbuffers.FlatBufferBuilder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.TagList;
import org.modelfs.format.fb.FbBuffer;
import org.modelfs.format.fb.FbTable;
import org.modelfs.format.fb.FbVector;
import org.modelfs.io.ByteSource;

/**
 * The small FlatBuffer tables of {@code container.fbs} a container holds (docs/FORMATS.md §13.3):
 * {@code ContainerHeader} (extended with slot 3, the tag names), {@code MetadataSection} and
 * {@code ShardInfo} — built, and read with every field checked.
 */
final class Tables {
  private Tables() {}

  /** What the HEADER section says. */
  record Header(int version, int sections, List<String> tags) {}

  /** What a SHARD_INFO section says. */
  record ShardInfo(int index, int count, String type, String base) {}

  static byte[] header(int sections, List<String> tags) {
    FlatBufferBuilder b = new FlatBufferBuilder(256);
    int[] names = new int[tags.size()];
    for (int i = 0; i < names.length; i++) {
      names[i] = b.createString(tags.get(i));
    }
    int vec = b.createVectorOfTables(names);
    b.startTable(4);
    b.addOffset(3, vec, 0);
    b.addInt(1, sections, 0);
    b.addInt(0, ContainerLayout.VERSION, 0);
    b.finish(b.endTable());
    return b.sizedByteArray();
  }

  static Header readHeader(ByteSource src, long start, long length, long maxSections) throws ModelFormatException {
    String file = src.name();
    FbTable t = new FbBuffer(src, start, length, file).root("ContainerHeader");
    int version = t.getInt(0, 0);
    if (version != ContainerLayout.VERSION) {
      throw new ModelFormatException(file, "ContainerHeader.format_version", t.absolutePosition(),
          "version " + version + "; this reader knows version " + ContainerLayout.VERSION);
    }
    int sections = t.getInt(1, 0);
    if (sections < 1 || sections > maxSections) {
      throw new ModelFormatException(file, "ContainerHeader.section_count", t.absolutePosition(),
          sections + " sections cannot fit (1 to " + maxSections + ")");
    }
    FbVector v = t.getVector(3, "tags", 4);
    List<String> tags = new ArrayList<>();
    if (v == null || v.length() == 0) {
      tags.add("default");
    } else {
      if (v.length() > TagList.MAX_TAGS) {
        throw new ModelFormatException(file, "ContainerHeader.tags", v.absoluteDataOffset(), v.length()
            + " tags; at most " + TagList.MAX_TAGS);
      }
      Set<String> seen = new HashSet<>();
      for (int i = 0; i < v.length(); i++) {
        String name = v.getString(i);
        if (name == null || !TagList.isValid(name) || !seen.add(name.toLowerCase(Locale.ROOT))) {
          throw new ModelFormatException(file, "ContainerHeader.tags[" + i + "]", v.absoluteDataOffset() + 4L * i,
              "'" + name + "' is not a tag name (" + TagList.RULE + ", unique ignoring case)");
        }
        tags.add(name);
      }
    }
    return new Header(version, sections, tags);
  }

  static byte[] metadata(Map<String, String> metadata) {
    FlatBufferBuilder b = new FlatBufferBuilder(1024);
    int[] entries = new int[metadata.size()];
    int i = 0;
    for (Map.Entry<String, String> e : new TreeMap<>(metadata).entrySet()) {
      int k = b.createString(e.getKey());
      int v = b.createString(e.getValue() == null ? "" : e.getValue());
      b.startTable(2);
      b.addOffset(1, v, 0);
      b.addOffset(0, k, 0);
      entries[i++] = b.endTable();
    }
    int vec = b.createVectorOfTables(entries);
    b.startTable(1);
    b.addOffset(0, vec, 0);
    b.finish(b.endTable());
    return b.sizedByteArray();
  }

  static Map<String, String> readMetadata(ByteSource src, long start, long length) throws ModelFormatException {
    String file = src.name();
    FbTable t = new FbBuffer(src, start, length, file).root("MetadataSection");
    FbVector v = t.getVector(0, "entries", 4);
    Map<String, String> out = new TreeMap<>();
    ArrayIndex.Budget budget = new ArrayIndex.Budget(file, length);
    for (int i = 0; v != null && i < v.length(); i++) {
      FbTable e = v.getTable(i);
      budget.charge(ArrayIndex.stringBytes(e, 0) + ArrayIndex.stringBytes(e, 1) + 8, e.absolutePosition(),
          "MetadataEntry " + i);
      String k = e.getString(0, "key");
      String val = e.getString(1, "value");
      if (k == null) {
        throw new ModelFormatException(file, "MetadataEntry " + i, e.absolutePosition(), "has no key");
      }
      if (out.put(k, val == null ? "" : val) != null) {
        throw new ModelFormatException(file, "MetadataEntry " + i, e.absolutePosition(), "duplicate key '" + k + "'");
      }
    }
    return out;
  }

  static byte[] shardInfo(ShardInfo s) {
    FlatBufferBuilder b = new FlatBufferBuilder(128);
    int type = b.createString(s.type());
    int base = b.createString(s.base());
    b.startTable(4);
    b.addOffset(3, base, 0);
    b.addOffset(2, type, 0);
    b.addInt(1, s.count(), 0);
    b.addInt(0, s.index(), 0);
    b.finish(b.endTable());
    return b.sizedByteArray();
  }

  static ShardInfo readShardInfo(ByteSource src, long start, long length) throws ModelFormatException {
    String file = src.name();
    FbTable t = new FbBuffer(src, start, length, file).root("ShardInfo");
    int index = t.getInt(0, 0);
    int count = t.getInt(1, 0);
    String type = t.getString(2, "shard_type");
    String base = t.getString(3, "base_filename");
    if (count < 1 || index < 0 || index >= count) {
      throw new ModelFormatException(file, "ShardInfo", t.absolutePosition(), "shard " + index + " of " + count
          + " is not a valid shard number");
    }
    if (!(index == 0 ? "graph" : "weights").equals(type)) {
      throw new ModelFormatException(file, "ShardInfo.shard_type", t.absolutePosition(), "shard " + index
          + " says type '" + type + "'; shard 0 is 'graph', the others 'weights'");
    }
    return new ShardInfo(index, count, type, base == null ? "" : base);
  }
}
