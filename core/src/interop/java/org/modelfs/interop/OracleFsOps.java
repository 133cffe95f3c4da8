package org.modelfs.interop;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.nd4j.shade.jackson.databind.ObjectMapper;
import org.nd4j.shade.jackson.databind.node.ObjectNode;

/**
 * The Path API operations of an {@code fs} line of an {@link OracleScript}, each as a user's code
 * writes it with {@code java.nio.file.Files} on a mount:
 *
 * <ul>
 *   <li>{@code write P SEED}: {@code Files.write} of new bytes, the file's size (16 for a new file);
 *   <li>{@code writen P N SEED}: {@code Files.write} of {@code N} bytes;
 *   <li>{@code new P DTYPE SHAPE SEED}: {@code Files.write} of the elements, then
 *       {@code setAttribute samediff:dtype} and {@code samediff:shape};
 *   <li>{@code channel P POS N SEED}: {@code newByteChannel(WRITE, CREATE)}, N bytes written at POS;
 *   <li>{@code jsoncopy A B}: {@code Files.copy} of tag A's graph.json over tag B's;
 *   <li>{@code move A B [replace]}, {@code copy A B [replace]}, {@code delete P};
 *   <li>{@code setattr P ATTR VALUE}: {@code Files.setAttribute(p, "samediff:" + ATTR, …)};
 *   <li>{@code meta KEY VALUE}: {@code Files.writeString} of {@code /metadata/KEY};
 *   <li>{@code training KEY VALUE}: training.json read, one field set (a number, or a list of one
 *       name for {@code lossVariables}), written back;
 *   <li>{@code mkdir T}, {@code tagcopy A B} (a recursive copy, as the JDK's walk examples do),
 *       {@code rmtag T}, {@code graphcopy A B} ({@code Files.copy} of tag A's {@code graph} over
 *       tag B's).
 * </ul>
 */
final class OracleFsOps {
  private static final ObjectMapper JSON = new ObjectMapper();

  private OracleFsOps() {}

  /**
   * The bytes a write puts at {@code pos}: random ones, except into an existing integer array, which
   * gets its own bytes back (zeros past its end): TF imports keep axes, shapes and indices there, and
   * random ones would make DL4J fail for the values, not for anything ModelFS did.
   */
  static byte[] payload(Path p, long pos, long n, long seed) throws IOException {
    Object dtype = Files.exists(p) ? Files.getAttribute(p, "samediff:dtype") : null;
    if (dtype == null || !List.of("INT", "LONG", "SHORT", "BYTE", "UBYTE", "UINT16", "UINT32", "UINT64").contains(dtype.toString())) {
      return OracleFiles.elements("BYTE", n, seed);
    }
    byte[] old = Files.readAllBytes(p);
    byte[] out = new byte[Math.toIntExact(n)];
    if (pos < old.length) {
      System.arraycopy(old, (int) pos, out, 0, (int) Math.min(n, old.length - pos));
    }
    return out;
  }

  static void apply(FileSystem fs, List<String> op, Path scratch) throws IOException {
    String a1 = op.size() > 1 ? op.get(1) : null;
    String a2 = op.size() > 2 ? op.get(2) : null;
    switch (op.get(0)) {
      case "write" -> {
        Path p = fs.getPath(a1);
        long size = Files.exists(p) ? Files.size(p) : 16;
        Files.write(p, payload(p, 0, size, Long.parseLong(a2)));
      }
      case "writen" -> {
        Path p = fs.getPath(a1);
        Files.write(p, payload(p, 0, Long.parseLong(a2), Long.parseLong(op.get(3))));
      }
      case "new" -> {
        Path p = fs.getPath(a1);
        long[] shape = OracleFiles.shape(op.get(3));
        Files.write(p, OracleFiles.elements(a2, OracleFiles.count(shape), Long.parseLong(op.get(4))));
        Files.setAttribute(p, "samediff:dtype", a2);
        Files.setAttribute(p, "samediff:shape", shape);
      }
      case "move" -> {
        if (op.size() > 3) {
          Files.move(fs.getPath(a1), fs.getPath(a2), StandardCopyOption.REPLACE_EXISTING);
        } else {
          Files.move(fs.getPath(a1), fs.getPath(a2));
        }
      }
      case "copy" -> {
        if (op.size() > 3) {
          Files.copy(fs.getPath(a1), fs.getPath(a2), StandardCopyOption.REPLACE_EXISTING);
        } else {
          Files.copy(fs.getPath(a1), fs.getPath(a2));
        }
      }
      case "channel" -> {
        try (SeekableByteChannel ch = Files.newByteChannel(fs.getPath(a1),
            StandardOpenOption.WRITE, StandardOpenOption.CREATE)) {
          Path p = fs.getPath(a1);
          ch.position(Long.parseLong(a2));
          ch.write(ByteBuffer.wrap(payload(p, Long.parseLong(a2), Long.parseLong(op.get(3)), Long.parseLong(op.get(4)))));
        }
      }
      case "jsoncopy" -> Files.copy(fs.getPath("/tags/" + a1 + "/graph.json"), fs.getPath("/tags/" + a2 + "/graph.json"),
          StandardCopyOption.REPLACE_EXISTING);
      case "delete" -> Files.delete(fs.getPath(a1));
      case "setattr" -> {
        Object v = a2.equals("shape") ? OracleFiles.shape(op.get(3)) : op.get(3);
        Files.setAttribute(fs.getPath(a1), "samediff:" + a2, v);
      }
      case "meta" -> Files.writeString(fs.getPath("/metadata/" + a1), a2);
      case "training" -> {
        Path p = fs.getPath("/training.json");
        ObjectNode t = (ObjectNode) JSON.readTree(Files.readAllBytes(p));
        if (a1.equals("lossVariables")) {
          t.putArray(a1).add(a2);
        } else {
          t.put(a1, Double.parseDouble(a2));
        }
        Files.write(p, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(t).getBytes(StandardCharsets.UTF_8));
      }
      case "mkdir" -> Files.createDirectory(fs.getPath("/tags/" + a1));
      case "tagcopy" -> OracleRun.copyTree(fs.getPath("/tags/" + a1), fs.getPath("/tags/" + a2));
      case "rmtag" -> Files.delete(fs.getPath("/tags/" + a1));
      case "graphcopy" -> Files.copy(fs.getPath("/tags/" + a1 + "/graph"), fs.getPath("/tags/" + a2 + "/graph"),
          StandardCopyOption.REPLACE_EXISTING);
      default -> throw new IllegalArgumentException("unknown fs operation " + op);
    }
  }
}
