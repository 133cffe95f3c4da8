package org.modelfs.format;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import org.modelfs.io.CountingOutput;
import org.modelfs.io.EarlyWriteback;

/**
 * One file a codec plans: its final name and how to stream it into a channel the store opened,
 * or — a weight shard a commit did not change — no body: the file under that name is kept.
 */
public record PlannedFile(String name, Body body) {
  /** A file the model keeps unchanged: the one under {@code name} now, neither written nor renamed. */
  public static PlannedFile keep(String name) {
    return new PlannedFile(name, null);
  }

  /** A file whose bytes {@code body} writes, forced in the background as it grows where the channel allows. */
  public static PlannedFile written(String name, Body body) {
    return new PlannedFile(name, withWriteback(body));
  }

  /** A file streamed by {@code e} through a counting output, forced in the background as it grows. */
  public static PlannedFile streamed(String name, Encoder e) {
    return written(name, (ch, what) -> e.writeTo(new CountingOutput(ch)));
  }

  /** Streams one file's bytes into {@code out}, an empty channel opened for writing (and reading). */
  @FunctionalInterface
  public interface Body {
    void writeTo(SeekableByteChannel out, String what) throws IOException;
  }

  /** What writes the bytes of one file through a counting output. */
  @FunctionalInterface
  public interface Encoder {
    void writeTo(CountingOutput out) throws IOException;
  }

  private static Body withWriteback(Body body) {
    return (SeekableByteChannel ch, String what) -> {
      if (ch instanceof FileChannel fc) {
        try (EarlyWriteback wb = EarlyWriteback.start(fc, what)) {
          body.writeTo(fc, what);
          wb.finish();
        }
      } else {
        body.writeTo(ch, what);
      }
    };
  }
}
