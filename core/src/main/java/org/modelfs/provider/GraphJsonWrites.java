package org.modelfs.provider;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.modelfs.format.fb.Dl4jGraphRules;
import org.modelfs.format.fb.GraphJson;
import org.modelfs.format.fb.GraphJsonException;
import org.modelfs.format.fb.GraphJsonReader;
import org.modelfs.model.Tag;

/**
 * {@code graph.json} written through a mount (docs/GRAPH.md §3, FILESYSTEM.md §7.1): when the
 * file is closed, its JSON replaces the tag's graph — checked whole first by
 * {@link GraphJsonReader}, then the graph it makes against {@link Dl4jGraphRules#graphProblems}
 * (what DL4J makes of its wiring), refused with every problem and nothing changed — and the variables
 * keep their arrays and updater state by name (by id when the JSON renamed one), as when a
 * {@code graph} is written. A graph.json that describes the graph the tag already has changes
 * nothing at all: the tag keeps its stored graph, byte for byte.
 */
final class GraphJsonWrites {
  /**
   * graph.json written larger than this is refused: 3 bytes for each character a rendering may
   * take (GraphJson.MAX_CHARS, at most 3 UTF-8 bytes each), so every rendering can be written back.
   */
  static final long MAX_BYTES = 96L << 20;

  private GraphJsonWrites() {}

  /**
   * {@code tag} with the graph the journal file {@code data} ({@code size} bytes) describes;
   * {@code tag} itself when that is the graph it has. Read from the file itself: the bytes become
   * a graph, and no source of the tree keeps them (another channel on the path shares the file
   * and installs it again).
   *
   * @param path the path written, for messages
   * @param file the container's name, for errors in the tag's own graph
   * @throws GraphJsonException naming every problem
   */
  static Tag apply(Tag tag, Path data, long size, String path, String file) throws IOException {
    if (size > MAX_BYTES) {
      throw new FileSystemException(path, null, "graph.json holds at most " + MAX_BYTES + " bytes; " + size
          + " were written");
    }
    byte[] json = Files.readAllBytes(data);
    byte[] now = GraphJson.render(tag, file);
    if (Arrays.equals(now, json)) {
      return tag;
    }
    GraphJsonReader.Result r = GraphJsonReader.read(json, tag, now, path);
    if (r.unchanged()) {
      return tag; // the same values, formatted otherwise (also for a tag without a graph, whose ids it invents)
    }
    Tag t = applied(tag, r, path);
    // what DL4J makes of the new wiring: the rules every commit holds the tag to, refused now with the file's own problems
    List<Dl4jGraphRules.Problem> wiring = Dl4jGraphRules.graphProblems(t, path);
    if (!wiring.isEmpty()) {
      throw new GraphJsonException(path, wiring.stream().map(Dl4jGraphRules.Problem::toString).toList());
    }
    return Arrays.equals(GraphJson.render(t, file), now) ? tag : t;
  }

  /** {@code tag} with {@code r}'s renames and graph, always (no check that anything changed). */
  static Tag applied(Tag tag, GraphJsonReader.Result r, String path) throws IOException {
    Tag t = r.renames().isEmpty() ? tag : TagEdits.renamed(tag, r.renames());
    return TagEdits.withGraph(t, r.graph(), path);
  }
}
