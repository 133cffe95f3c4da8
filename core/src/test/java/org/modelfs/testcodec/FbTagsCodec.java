package org.modelfs.testcodec;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.modelfs.format.BaseCodec;
import org.modelfs.format.ModelFormatException;
import org.modelfs.format.PlannedFile;
import org.modelfs.format.WriteOptions;
import org.modelfs.format.fb.FbFormat;
import org.modelfs.io.ByteSource;
import org.modelfs.io.Closer;
import org.modelfs.io.CountingOutput;
import org.modelfs.io.SliceSource;
import org.modelfs.model.Model;
import org.modelfs.model.ModelFormat;
import org.modelfs.model.Tag;

/**
 * A small container format of the test scope, registered through its descriptor only: one fb
 * FlatGraph per tag, each after a text line that names the tag and says its length.
 *
 * <pre>
 * MODELFS-FB-TAGS\n
 * tag &lt;name, %-escaped&gt; &lt;length, 20 digits&gt;\n  &lt;that many bytes: the tag as an fb file&gt;
 * …                                              (one per tag, oldest first)
 * end\n
 * </pre>
 *
 * Proves that a format is its package plus one registration (docs/ARCHITECTURE.md "read or write
 * a new format"): nothing outside this package names it.
 */
public final class FbTagsCodec extends BaseCodec {
  /** The format: token {@code fb-tags}, files {@code .fbt}, several tags, not read by DL4J. */
  public static final ModelFormat FORMAT = new ModelFormat("fb-tags", ".fbt", true, false, null);
  static final byte[] MAGIC = "MODELFS-FB-TAGS\n".getBytes(StandardCharsets.US_ASCII);
  private static final int MAX_LINE = 4096;
  private static final int DIGITS = 20;

  public FbTagsCodec() {
    super(FORMAT, "MODELFS-FB-TAGS", 100);
  }

  @Override
  public boolean sniff(ByteSource src) throws IOException {
    if (src.size() < MAGIC.length) {
      return false;
    }
    ByteBuffer b = ByteBuffer.allocate(MAGIC.length);
    src.readFully(b, 0);
    return Arrays.equals(b.array(), MAGIC);
  }

  @Override
  public Model open(String location, ByteSource src, Closer closer) throws IOException {
    List<Tag> tags = new ArrayList<>();
    long pos = MAGIC.length;
    while (true) {
      String line = line(src, pos, location);
      pos += line.length() + 1;
      if (line.equals("end")) {
        break;
      }
      String[] f = line.split(" ");
      if (f.length != 3 || !f[0].equals("tag")) {
        throw new ModelFormatException(location, "fb-tags header", pos - line.length() - 1,
            "expected 'tag NAME LENGTH' or 'end', found '" + line + "'");
      }
      long len = Long.parseLong(f[2]);
      if (len < 0 || len > src.size() - pos) {
        throw new ModelFormatException(location, "fb-tags header", pos, "tag length " + len + " passes the file's end");
      }
      String name = unescape(f[1]);
      tags.add(FbFormat.read(new SliceSource(src, src.name() + "!" + name, pos, len), name));
      pos += len;
    }
    return new Model(location, format(), tags, closer);
  }

  private static String line(ByteSource src, long pos, String location) throws IOException {
    int n = (int) Math.min(MAX_LINE, src.size() - pos);
    ByteBuffer b = ByteBuffer.allocate(Math.max(n, 0));
    src.readFully(b, pos);
    for (int i = 0; i < n; i++) {
      if (b.get(i) == '\n') {
        return new String(b.array(), 0, i, StandardCharsets.US_ASCII);
      }
    }
    throw new ModelFormatException(location, "fb-tags header", pos, "no line end within " + MAX_LINE + " bytes");
  }

  @Override
  public List<String> layoutProblems(Tag tag, WriteOptions options) {
    return FbFormat.problems(tag);
  }

  @Override
  public boolean keepsMetadata() {
    return false;
  }

  @Override
  public List<PlannedFile> plan(Request r) {
    List<Tag> tags = r.tags();
    return List.of(PlannedFile.written(r.fileName(), (ch, what) -> write(tags, ch, r.fileName())));
  }

  private static void write(List<Tag> tags, SeekableByteChannel ch, String file) throws IOException {
    ch.write(ByteBuffer.wrap(MAGIC));
    for (Tag t : tags) {
      ch.write(ascii("tag " + escape(t.name()) + " "));
      long lengthAt = ch.position();
      ch.write(ascii("0".repeat(DIGITS) + "\n"));
      long start = ch.position();
      FbFormat.write(t, new CountingOutput(ch), file);
      long end = ch.position();
      ch.position(lengthAt);
      ch.write(ascii(String.format("%0" + DIGITS + "d", end - start)));
      ch.position(end);
    }
    ch.write(ascii("end\n"));
  }

  private static ByteBuffer ascii(String s) {
    return ByteBuffer.wrap(s.getBytes(StandardCharsets.US_ASCII));
  }

  /** A tag name as one header field: every byte but {@code [A-Za-z0-9._-]} as {@code %XX} of its UTF-8. */
  static String escape(String name) {
    StringBuilder sb = new StringBuilder();
    for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xff);
      if (c < 0x80 && (Character.isLetterOrDigit(c) || c == '.' || c == '_' || c == '-')) {
        sb.append(c);
      } else {
        sb.append(String.format("%%%02X", b & 0xff));
      }
    }
    return sb.toString();
  }

  static String unescape(String field) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < field.length(); i++) {
      char c = field.charAt(i);
      if (c == '%' && i + 2 < field.length()) {
        out.write(Integer.parseInt(field.substring(i + 1, i + 3), 16));
        i += 2;
      } else {
        out.write(c);
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
