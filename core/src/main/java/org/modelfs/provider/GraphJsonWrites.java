package org.modelfs.provider;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.modelfs.format.fb.GraphJson;
import org.modelfs.model.Tag;
import org.modelfs.tree.Content;
import org.modelfs.tree.ModelTree;
import org.modelfs.tree.TagOverlay;

/**
 * {@code graph.json} written through a mount (docs/FILESYSTEM.md §7.1): it is a rendering of
 * {@code graph}, so a write is accepted only with the bytes the tag's graph renders to — a
 * recursive copy of a tag copies it like any file — and changes nothing else. Checked when the
 * write closes if the tag already has its graph, and again at commit (the graph may arrive after).
 */
final class GraphJsonWrites {
  /** graph.json of a graph this large is refused as a write (the rendering is bounded the same way). */
  static final long MAX_BYTES = 256L << 20;

  private GraphJsonWrites() {}

  /** Why {@code written} cannot be {@code tag}'s graph.json, or {@code null} when it can. */
  static String problem(Tag tag, Content written, String file) throws IOException {
    byte[] now = GraphJson.render(tag, file);
    if (written.size() != now.length || !Arrays.equals(now, bytes(written))) {
      return "graph.json differs from what the tag's graph renders to: graph.json shows graph and cannot change it"
          + " (write graph instead" + (tag.graph() == null ? "; this tag has no graph" : "") + ")";
    }
    return null;
  }

  /** The problems of every graph.json written in this session, each naming its path. */
  static List<String> problems(List<Tag> tags, Map<String, TagOverlay> overlays, String file) throws IOException {
    List<String> out = new ArrayList<>();
    for (Tag t : tags) {
      TagOverlay o = overlays.get(t.name());
      if (o != null && o.graphJson() != null) {
        String p = problem(t, o.graphJson(), file);
        if (p != null) {
          out.add("/" + ModelTree.TAGS + "/" + t.name() + "/" + ModelTree.GRAPH_JSON + ": " + p);
        }
      }
    }
    return out;
  }

  private static byte[] bytes(Content c) throws IOException {
    long size = c.size();
    if (size > MAX_BYTES) {
      throw new IOException("graph.json: " + size + " bytes written; at most " + MAX_BYTES);
    }
    ByteBuffer b = ByteBuffer.allocate((int) size);
    long pos = 0;
    while (b.hasRemaining()) {
      int n = c.read(b, pos);
      if (n < 0) {
        break;
      }
      pos += n;
    }
    return b.array();
  }
}
