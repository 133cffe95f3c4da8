package org.modelfs.format.sdz;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;
import org.apache.commons.compress.archivers.zip.ZipFile;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.TagList;
import org.modelfs.format.fb.GraphWriter;
import org.modelfs.format.zip.DeflatedEntries;
import org.modelfs.format.zip.ZipIo;
import org.modelfs.format.sdnb.SdnbFormat;
import org.modelfs.format.sdnb.ShardNames;
import org.modelfs.format.sdnb.ShardedFormat;
import org.modelfs.io.ByteSource;
import org.modelfs.io.Closer;
import org.modelfs.io.CountingOutput;
import org.modelfs.io.SliceSource;
import org.modelfs.model.ArrayData;
import org.modelfs.model.ArrayStreams;
import org.modelfs.model.ShardLayout;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.Variable;

/**
 * SDZ (docs/FORMATS.md §7): a zip of SDNB file(s) with flat entry names. STORED entries are read in
 * place (a window of the zip file); DEFLATED entries are inflated on demand, in memory, only as
 * far as a read needs ({@link DeflatedEntries}); nothing is written to disk. Writes STORED
 * entries with 64-byte aligned data by default, so appended arrays stay aligned inside the zip.
 */
public final class SdzFormat {
  /** DL4J's default entry limit ({@code nd4j.sdz.maxZipEntries}). */
  public static final int MAX_ENTRIES = 1000;
  /** Name of the single SDNB entry we write. */
  public static final String SINGLE_ENTRY = "model.sdnb";

  private SdzFormat() {}

  /** True if {@code src} starts with a zip local file header signature. */
  public static boolean sniff(ByteSource src) throws IOException {
    if (src.size() < 4) {
      return false;
    }
    ByteBuffer b = ByteBuffer.allocate(4);
    src.readFully(b, 0);
    return b.get(0) == 'P' && b.get(1) == 'K' && b.get(2) == 3 && b.get(3) == 4;
  }

  /** Reads the newest tag of an SDZ file; opened sources are registered with {@code closer}. */
  public static Tag read(ByteSource zipSource, Closer closer, String tagName) throws IOException {
    List<Tag> tags = readTags(zipSource, closer, tagName);
    return tags.get(tags.size() - 1);
  }

  /**
   * Reads every tag of an SDZ file, oldest first: with a {@code tags.txt} entry, the newest tag
   * is the model DL4J loads ({@code model.sdnb} or its shards) and each older one the SDNB entry
   * {@code tag.<name>}; without it, the one model as tag {@code tagName}.
   */
  public static List<Tag> readTags(ByteSource zipSource, Closer closer, String tagName) throws IOException {
    return readModel(zipSource, closer, tagName).tags();
  }

  /**
   * An SDZ read: its tags, and for a newest tag stored as shards, which names each weight shard
   * holds and where each shard's entry is stored (else {@code null}).
   */
  public record Read(List<Tag> tags, ShardLayout shards) {}

  /** Reads every tag as {@link #readTags} does, with the shard layout of the newest tag. */
  public static Read readModel(ByteSource zipSource, Closer closer, String tagName) throws IOException {
    String file = zipSource.name();
    Map<String, Long> crcs = new HashMap<>();
    Map<String, ZipIo.Entry> entries = new LinkedHashMap<>();
    Map<String, ByteSource> sdnb = new LinkedHashMap<>();
    List<ByteSource> inflated = new ArrayList<>();
    DeflatedEntries deflated = null;
    List<String> tagNames = null;
    ZipIo.checkEntryCount(zipSource, file, MAX_ENTRIES, "an SDZ");
    try (ZipFile zf = ZipIo.open(zipSource, file)) {
      List<ZipArchiveEntry> all = Collections.list(zf.getEntriesInPhysicalOrder());
      if (all.size() > MAX_ENTRIES) {
        throw new ModelFormatException(file, "ZIP central directory", 0,
            all.size() + " entries, more than the " + MAX_ENTRIES + " an SDZ may hold");
      }
      long zipSize = zipSource.size();
      Map<ZipIo.Entry, ZipArchiveEntry> checked = new LinkedHashMap<>();
      for (ZipArchiveEntry ze : all) {
        ZipIo.Entry e = check(ze, file, zipSize);
        if (e == null) {
          continue; // a directory entry
        }
        if (entries.put(e.name(), e) != null) {
          throw new ModelFormatException(file, "ZIP entry '" + e.name() + "'", e.dataOffset(), "duplicate entry name");
        }
        checked.put(e, ze);
        crcs.put(e.name(), ze.getCrc());
      }
      ZipIo.checkNoOverlap(entries.values(), file); // before inflating anything
      for (Map.Entry<ZipIo.Entry, ZipArchiveEntry> ce : checked.entrySet()) {
        ZipIo.Entry e = ce.getKey();
        ZipArchiveEntry ze = ce.getValue();
        if (e.name().equals(TAGS_ENTRY)) {
          tagNames = tagList(zf, ze, e, file);
          continue;
        }
        ByteSource src;
        if (e.method() == ZipArchiveEntry.STORED) {
          src = new SliceSource(zipSource, file + "!" + e.name(), e.dataOffset(), e.size());
        } else {
          if (deflated == null) {
            deflated = closer.register(new DeflatedEntries(zipSource, file));
          }
          src = deflated.source(e);
          inflated.add(src);
        }
        if (SdnbFormat.sniff(src)) {
          if (!e.stored()) {
            DeflatedIndex.check(src, e);
          }
          sdnb.put(e.name(), src);
        }
      }
    }
    Map<String, ByteSource> newestEntries = new LinkedHashMap<>(sdnb);
    newestEntries.keySet().removeIf(n -> n.startsWith(TAG_PREFIX));
    List<String> chosen = choose(newestEntries.isEmpty() ? sdnb : newestEntries, file);
    String newestName = tagNames == null ? tagName : tagNames.get(tagNames.size() - 1);
    Tag tag;
    ShardLayout layout = null;
    if (chosen.size() == 1) {
      tag = SdnbFormat.read(sdnb.get(chosen.get(0)), newestName);
    } else {
      List<ByteSource> shards = new ArrayList<>();
      List<ShardLayout.Stored> stored = new ArrayList<>();
      for (String n : chosen) {
        shards.add(sdnb.get(n));
        ZipIo.Entry e = entries.get(n);
        stored.add(new ShardLayout.Stored(zipSource, e.dataOffset(), e.compressedSize(), !e.stored(), e.size(),
            crcs.get(n), sdnb.get(n)));
      }
      ShardedFormat.Read set = ShardedFormat.readSet(shards, newestName);
      tag = set.tag();
      layout = set.layout().withStored(stored);
    }
    List<Tag> out = new ArrayList<>();
    for (int i = 0; tagNames != null && i < tagNames.size() - 1; i++) {
      String entry = TAG_PREFIX + tagNames.get(i);
      ByteSource src = sdnb.get(entry);
      if (src == null) {
        throw new ModelFormatException(file, "ZIP entry '" + entry + "'", 0,
            TAGS_ENTRY + " lists tag '" + tagNames.get(i) + "' but the zip has no SDNB entry for it");
      }
      out.add(inflated.isEmpty() ? SdnbFormat.read(src, tagNames.get(i)) : markDeflated(SdnbFormat.read(src, tagNames.get(i)), inflated));
    }
    out.add(inflated.isEmpty() ? tag : markDeflated(tag, inflated));
    return new Read(out, layout);
  }

  /** Parses {@code tags.txt}: valid, case-insensitively unique names, oldest first. */
  private static List<String> tagList(ZipFile zf, ZipArchiveEntry ze, ZipIo.Entry e, String file) throws IOException {
    return TagList.parse(ZipIo.readSmall(zf, ze, e, file, TagList.MAX_BYTES), file, "ZIP entry '" + TAGS_ENTRY + "'", e.dataOffset());
  }

  /** Validates one entry: flat safe name, known method, data inside the file; null for a directory. */
  private static ZipIo.Entry check(ZipArchiveEntry ze, String file, long zipSize) throws ModelFormatException {
    String name = ze.getName();
    if (ze.isDirectory() && !name.contains("..")) {
      return null;
    }
    if (name.isEmpty() || name.contains("/") || name.contains("\\") || name.contains("\0")
        || name.equals(".") || name.equals("..") || name.contains(":")) {
      throw new ModelFormatException(file, "ZIP entry '" + name + "'", Math.max(ze.getDataOffset(), 0),
          "entry names in an SDZ must be flat file names (no directories, '..', drive or NUL)"
              + (name.indexOf('/') > 0 ? "; a zip whose entries lie below tag directories is zip-tags only with a "
                  + TAGS_ENTRY + " and a <tag>/graph.fb" : ""));
    }
    return ZipIo.bounds(ze, file, zipSize);
  }

  /** DL4J's {@code determineLoadPath}: which SDNB entries make the model (docs/FORMATS.md §7.1). */
  static List<String> choose(Map<String, ByteSource> sdnb, String file) throws ModelFormatException {
    if (sdnb.isEmpty()) {
      throw new ModelFormatException(file, "ZIP entries", 0, "no entry holds an SDNB model");
    }
    if (sdnb.size() == 1) {
      return List.of(sdnb.keySet().iterator().next());
    }
    if (sdnb.containsKey(SINGLE_ENTRY)) {
      return List.of(SINGLE_ENTRY);
    }
    if (sdnb.containsKey("model")) {
      return List.of("model");
    }
    TreeMap<Integer, String> shards = new TreeMap<>();
    int count = -1;
    for (String n : sdnb.keySet()) {
      ShardNames.Shard s = ShardNames.parse(n);
      if (s != null && s.base().equals("model")) {
        if (count >= 0 && s.count() != count) {
          throw new ModelFormatException(file, "ZIP entry '" + n + "'", 0, "shard count " + s.count() + " disagrees with " + count);
        }
        count = s.count();
        shards.put(s.index(), n);
      }
    }
    if (count > 0) {
      List<String> out = new ArrayList<>();
      for (int k = 0; k < count; k++) {
        String n = shards.get(k);
        if (n == null) {
          throw new ModelFormatException(file, "ZIP entries", 0, "shard " + k + " of " + count + " is missing");
        }
        out.add(n);
      }
      return out;
    }
    return List.of(sdnb.keySet().iterator().next());
  }

  private static Tag markDeflated(Tag tag, List<ByteSource> inflated) {
    List<Variable> vars = new ArrayList<>();
    for (Variable v : tag.variables()) {
      vars.add(v.array() == null ? v : v.withArray(deflated(v.array(), inflated)));
    }
    List<UpdaterState> ups = new ArrayList<>();
    for (UpdaterState u : tag.updater()) {
      Map<String, ArrayData> m = new LinkedHashMap<>();
      u.arrays().forEach((k, a) -> m.put(k, deflated(a, inflated)));
      ups.add(new UpdaterState(u.paramName(), m));
    }
    return new Tag(tag.name(), tag.graph(), vars, ups, tag.trainingConfig(), tag.metadata());
  }

  private static ArrayData deflated(ArrayData a, List<ByteSource> inflated) {
    return inflated.contains(a.source())
        ? a.movedTo(a.source(), a.offset(), a.bigEndian(), ArrayData.Storage.DEFLATED)
        : a;
  }

  /** What one entry of a zip to write holds: its exact size and how to stream it. */
  public interface Body {
    long size();

    void writeTo(CountingOutput out) throws IOException;

    /** An SDNB file as an entry. */
    static Body of(SdnbFormat.Prepared p) {
      return new Body() {
        @Override
        public long size() {
          return p.size();
        }

        @Override
        public void writeTo(CountingOutput out) throws IOException {
          p.writeTo(out);
        }
      };
    }

    /**
     * A shard entry a commit keeps unchanged, copied as it is stored: its DEFLATE stream as it is
     * into a DEFLATED zip ({@link PreDeflated}), or its stored bytes; into a zip of the other
     * method its bytes are read through {@code stored.content()} (inflated where they are
     * deflated) and written the new zip's way.
     */
    static Body of(ShardLayout.Stored stored) {
      if (!stored.deflated()) {
        return new Body() {
          @Override
          public long size() {
            return stored.size();
          }

          @Override
          public void writeTo(CountingOutput out) throws IOException {
            ArrayStreams.copyBytes(stored.file(), stored.offset(), stored.size(), out);
          }
        };
      }
      return new PreDeflated() {
        @Override
        public long size() {
          return stored.size();
        }

        @Override
        public void writeTo(CountingOutput out) throws IOException {
          ArrayStreams.copyBytes(stored.content(), 0, stored.size(), out);
        }

        @Override
        public long crc() {
          return stored.crc();
        }

        @Override
        public long compressedSize() {
          return stored.length();
        }

        @Override
        public void writeCompressedTo(CountingOutput out) throws IOException {
          ArrayStreams.copyBytes(stored.file(), stored.offset(), stored.length(), out);
        }
      };
    }

    /** A small text entry. */
    static Body of(byte[] bytes) {
      return new Body() {
        @Override
        public long size() {
          return bytes.length;
        }

        @Override
        public void writeTo(CountingOutput out) throws IOException {
          out.write(bytes);
        }
      };
    }
  }

  /**
   * An entry's content already compressed as one raw DEFLATE stream (an unchanged entry of the
   * zip being replaced, say): a DEFLATED zip copies its compressed bytes as they are, with the
   * CRC-32 and sizes given here; {@link #writeTo} still gives the uncompressed bytes, for a
   * STORED zip.
   */
  public interface PreDeflated extends Body {
    /** The CRC-32 of the uncompressed bytes. */
    long crc();

    /** The length of the DEFLATE stream. */
    long compressedSize();

    /** Writes the DEFLATE stream, exactly {@link #compressedSize} bytes. */
    void writeCompressedTo(CountingOutput out) throws IOException;
  }

  /** One file of the zip to write: its entry name and content. */
  public record Part(String name, Body content) {
    public Part(String name, SdnbFormat.Prepared content) {
      this(name, Body.of(content));
    }
  }

  /** The entry that lists the tags of a multi-tag SDZ, oldest first (UTF-8, one per line). */
  public static final String TAGS_ENTRY = "tags.txt";
  /** The entry name prefix of every tag but the newest: {@code tag.<name>} (an SDNB file). */
  public static final String TAG_PREFIX = "tag.";

  /** The entries that store the older tags of a multi-tag SDZ, plus the tag list. */
  public static List<Part> olderTagParts(List<Tag> tags, String file) throws IOException {
    List<Part> parts = new ArrayList<>();
    StringBuilder list = new StringBuilder();
    for (int i = 0; i < tags.size(); i++) {
      Tag t = tags.get(i);
      list.append(t.name()).append('\n');
      if (i < tags.size() - 1) {
        parts.add(new Part(TAG_PREFIX + t.name(), SdnbFormat.prepare(t, GraphWriter.Mode.SDNB,
            Set.of(), SdnbFormat.metadataFor(t, -1, false), file)));
      }
    }
    parts.add(new Part(TAGS_ENTRY, Body.of(list.toString().getBytes(StandardCharsets.UTF_8))));
    return parts;
  }

  /** Writes the parts as a zip into {@code ch}: {@link #write(List, SeekableByteChannel, boolean, int, String)} at the default level. */
  public static void write(List<Part> parts, SeekableByteChannel ch, boolean deflate, String what) throws IOException {
    write(parts, ch, deflate, -1, what);
  }

  /**
   * Writes the parts as a zip into {@code ch} (an empty file opened for writing, and for reading
   * where it is a {@code FileChannel}; named {@code what} in messages), STORED and aligned or
   * DEFLATED. DEFLATED zips go through {@link DeflatedZipWriter} (every core compresses;
   * docs/FORMATS.md §7.3) at {@code level} (1–9, -1: 6); STORED zips through
   * {@link StoredZipWriter} (arrays copied in the kernel) unless they need Zip64 or the file has
   * no {@code FileChannel}. {@code ch} stays open.
   */
  public static void write(List<Part> parts, SeekableByteChannel ch, boolean deflate, int level, String what)
      throws IOException {
    if (deflate) {
      DeflatedZipWriter.write(parts, ch, level, what);
      return;
    }
    if (ch instanceof FileChannel fc && StoredZipWriter.write(parts, fc, what)) {
      return;
    }
    try (ZipArchiveOutputStream zos = new ZipArchiveOutputStream(new KeepOpen(ch))) {
      for (Part p : parts) {
        ZipArchiveEntry ze = new ZipArchiveEntry(p.name());
        ze.setMethod(ZipArchiveEntry.STORED);
        ze.setSize(p.content().size());
        ze.setAlignment(64);
        zos.putArchiveEntry(ze);
        CountingOutput co = new CountingOutput(new NonClosing(zos));
        p.content().writeTo(co);
        zos.closeArchiveEntry();
      }
      zos.finish();
    }
  }

  /** The caller's channel, which the zip writer may not close (the caller still forces it). */
  private record KeepOpen(SeekableByteChannel ch) implements SeekableByteChannel {
    @Override
    public int read(ByteBuffer dst) throws IOException {
      return ch.read(dst);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
      return ch.write(src);
    }

    @Override
    public long position() throws IOException {
      return ch.position();
    }

    @Override
    public SeekableByteChannel position(long newPosition) throws IOException {
      ch.position(newPosition);
      return this;
    }

    @Override
    public long size() throws IOException {
      return ch.size();
    }

    @Override
    public SeekableByteChannel truncate(long size) throws IOException {
      ch.truncate(size);
      return this;
    }

    @Override
    public boolean isOpen() {
      return ch.isOpen();
    }

    @Override
    public void close() {}
  }

  /** Keeps an entry's writer from closing the zip stream. */
  private static final class NonClosing extends FilterOutputStream {
    NonClosing(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
    }

    @Override
    public void close() {}
  }
}
