package org.modelfs.format.badinput;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.function.ThrowingSupplier;
import org.modelfs.format.ModelFormatException;
import org.modelfs.container.Models;
import org.modelfs.model.ArrayStreams;
import org.modelfs.model.ArrayData;
import org.modelfs.model.Model;
import org.modelfs.model.Shapes;
import org.modelfs.model.Tag;
import org.modelfs.model.UpdaterState;
import org.modelfs.model.Variable;
import org.opentest4j.AssertionFailedError;

/**
 * Shared machinery of the bad-input suite (docs/FORMATS.md §11): open a file and read every array,
 * and classify the outcome. The only acceptable failure is an {@link IOException} whose message
 * names the file and an offset; anything else (a {@link RuntimeException}, an {@link Error}
 * such as {@link OutOfMemoryError}, a hang) fails the test with the input described.
 */
public final class BadInput {
  /** Time allowed for a single open-and-read of a small input. */
  public static final Duration ONE = Duration.ofSeconds(5);

  /** Set BADINPUT_VERBOSE=1 to print every refusal message (for reviewing them). */
  private static final boolean VERBOSE = System.getenv("BADINPUT_VERBOSE") != null;
  private static final Pattern OFFSET = Pattern.compile("offset \\d+");
  private static final String FIXTURES = "/fixtures/dl4j-1.0.0-M2.1/";

  private BadInput() {}

  // ---- fixtures ----------------------------------------------------------------------------------

  /** A DL4J fixture from the test classpath, e.g. {@code mlp_adam.fb} or {@code tf-import/pad_1D.fb}. */
  public static byte[] fixture(String name) {
    try (InputStream in = BadInput.class.getResourceAsStream(FIXTURES + name)) {
      if (in == null) {
        throw new IllegalStateException("fixture missing from the test classpath: " + FIXTURES + name
            + " (src/test/resources/fixtures/README.md says what belongs there)");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A fresh in-memory directory: the loops over thousands of mutants write there, which is
   * several times faster than a real disk (the targeted cases use a real {@code @TempDir}).
   */
  public static Path memoryDir() throws IOException {
    FileSystem fs = Jimfs.newFileSystem(
        Configuration.unix());
    return Files.createDirectories(fs.getPath("/work"));
  }

  public static Path put(Path dir, String name, byte[] content) throws IOException {
    Path p = dir.resolve(name);
    Files.write(p, content);
    return p;
  }

  // ---- outcomes ----------------------------------------------------------------------------------

  /**
   * Opens {@code path} and reads every variable and updater array to the end. Returns {@code
   * null} when everything could be read, or the {@link IOException} that refused the input. Any
   * other throwable fails the test, naming {@code what}.
   */
  public static IOException openAndReadAll(Path path, String what) {
    try (Model m = Models.open(path)) {
      readAll(m);
      return null;
    } catch (IOException e) {
      return e;
    } catch (Throwable t) { // RuntimeException, OutOfMemoryError, StackOverflowError, AssertionError...
      if (t instanceof AssertionFailedError a) {
        throw a;
      }
      throw new AssertionError(what + ": expected success or an IOException, but got " + t, t);
    }
  }

  /** Reads every array of every tag, checking each stream delivers exactly the stored length. */
  public static void readAll(Model m) throws IOException {
    for (Tag t : m.tags()) {
      for (Variable v : t.variables()) {
        if (v.array() != null) {
          drain(v.array(), "variable '" + v.name() + "'");
        }
      }
      for (UpdaterState u : t.updater()) {
        for (Map.Entry<String, ArrayData> e : u.arrays().entrySet()) {
          drain(e.getValue(), "updater state '" + u.paramName() + "/" + e.getKey() + "'");
        }
      }
    }
  }

  private static void drain(ArrayData a, String what) throws IOException {
    if (a.empty()) {
      assertEquals(0, a.length(), what + ": an empty array stores no bytes: " + a);
    } else if (a.dtype().width() > 0) {
      assertEquals(Shapes.byteLength(a.shape(), a.dtype().width()), a.length(),
          what + ": the index accepted an array whose stored length disagrees with its shape: " + a);
    }
    try (InputStream in = ArrayStreams.littleEndianStream(a)) {
      byte[] bytes = in.readAllBytes();
      assertEquals(a.length(), bytes.length, what + ": stream length differs from the stored length");
    }
  }

  /**
   * Asserts that opening {@code path} (and reading its arrays) is refused with an IOException
   * whose message names the file and an offset; returns it.
   */
  public static IOException assertRefused(Path path, String what) {
    return assertRefused(path, what, List.of(path.getFileName().toString()));
  }

  /** As {@link #assertRefused(Path, String)}, the message naming any one of {@code fileNames}. */
  public static IOException assertRefused(Path path, String what, List<String> fileNames) {
    IOException e = assertTimeoutPreemptively(ONE, () -> openAndReadAll(path, what),
        () -> what + ": hangs (no answer within " + ONE.toSeconds() + " s)");
    if (e == null) {
      fail(what + ": was accepted, but must be refused with an IOException");
    }
    assertGoodMessage(e, what, fileNames);
    return e;
  }

  /** Like {@link #assertRefused} but also requires a {@link ModelFormatException}. */
  public static ModelFormatException assertFormatError(Path path, String what) {
    return assertFormatError(path, what, List.of(path.getFileName().toString()));
  }

  public static ModelFormatException assertFormatError(Path path, String what, List<String> fileNames) {
    IOException e = assertRefused(path, what, fileNames);
    if (!(e instanceof ModelFormatException mfe)) {
      throw new AssertionError(what + ": expected a ModelFormatException, got " + e, e);
    }
    assertTrue(mfe.offset() >= 0, what + ": negative offset in " + mfe.getMessage());
    return mfe;
  }

  /**
   * The input may open (then all arrays must read back) or be refused with a good IOException.
   * Returns the refusal, or {@code null} if it opened.
   */
  public static IOException assertOpensOrRefused(Path path, String what) {
    IOException e = openAndReadAll(path, what);
    if (e != null) {
      assertGoodMessage(e, what, List.of(path.getFileName().toString()));
    }
    return e;
  }

  /** The message names one of the files, and an offset ("offset N", N ≥ 0). */
  public static void assertGoodMessage(IOException e, String what, List<String> fileNames) {
    String msg = String.valueOf(e.getMessage());
    if (VERBOSE) {
      System.out.println("[bad-input] " + what + " => " + e.getClass().getSimpleName() + ": " + msg);
    }
    boolean named = fileNames.stream().anyMatch(msg::contains);
    if (!named || !OFFSET.matcher(msg).find()) {
      throw new AssertionError(what + ": the " + e.getClass().getSimpleName() + " message must name the file "
          + fileNames + " and \"offset N\", but is: " + msg, e);
    }
  }

  /**
   * Runs many cases under one preemptive timeout; on a hang, the message names the case that
   * was running.
   */
  public static void runAll(Duration limit, List<Case> cases) {
    AtomicReference<String> current = new AtomicReference<>("(none)");
    assertTimeoutPreemptively(limit, () -> {
      for (Case c : cases) {
        current.set(c.name());
        c.run();
      }
    }, () -> "timed out after " + limit.toSeconds() + " s while running case: " + current.get());
  }

  /** A named check. */
  public record Case(String name, Executable body) {
    void run() throws Throwable {
      body.execute();
    }
  }

  /** {@link #openAndReadAll} under the single-case timeout. */
  public static IOException openTimed(Path path, String what) {
    return assertTimeoutPreemptively(ONE, () -> openAndReadAll(path, what),
        () -> what + ": hangs (no answer within " + ONE.toSeconds() + " s)");
  }

  public static <T> T timed(ThrowingSupplier<T> s) {
    return assertTimeoutPreemptively(ONE, s);
  }

  // ---- byte patching -----------------------------------------------------------------------------

  public static int i32le(byte[] b, int p) {
    return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getInt(p);
  }

  public static int u16le(byte[] b, int p) {
    return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getShort(p) & 0xffff;
  }

  public static long i64le(byte[] b, int p) {
    return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong(p);
  }

  public static byte[] putI32le(byte[] b, int p, int v) {
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(p, v);
    return b;
  }

  public static byte[] putU16le(byte[] b, int p, int v) {
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putShort(p, (short) v);
    return b;
  }

  public static byte[] putI64le(byte[] b, int p, long v) {
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putLong(p, v);
    return b;
  }

  public static long i64be(byte[] b, int p) {
    return ByteBuffer.wrap(b).getLong(p);
  }

  public static byte[] putI64be(byte[] b, int p, long v) {
    ByteBuffer.wrap(b).putLong(p, v);
    return b;
  }

  public static byte[] putI32be(byte[] b, int p, int v) {
    ByteBuffer.wrap(b).putInt(p, v);
    return b;
  }

  /** Index of the first occurrence of {@code needle} at or after {@code from}, or -1. */
  public static int indexOf(byte[] hay, byte[] needle, int from) {
    outer:
    for (int i = Math.max(from, 0); i <= hay.length - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  /** All occurrences of {@code from} replaced by {@code to} (same length); fails if none. */
  public static byte[] replaceAll(byte[] data, byte[] from, byte[] to) {
    if (from.length != to.length) {
      throw new IllegalArgumentException("same length only");
    }
    byte[] out = data.clone();
    int n = 0;
    for (int i = indexOf(out, from, 0); i >= 0; i = indexOf(out, from, i + from.length)) {
      System.arraycopy(to, 0, out, i, to.length);
      n++;
    }
    if (n == 0) {
      throw new IllegalStateException("pattern not found: " + new String(from, StandardCharsets.ISO_8859_1));
    }
    return out;
  }

  public static byte[] concat(byte[]... parts) {
    int n = 0;
    for (byte[] p : parts) {
      n += p.length;
    }
    byte[] out = new byte[n];
    int at = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, at, p.length);
      at += p.length;
    }
    return out;
  }

  public static byte[] prefix(byte[] b, int n) {
    return Arrays.copyOf(b, n);
  }

  // ---- FlatBuffers navigation (independent of the code under test) ------------------------------

  /** Minimal FlatBuffers reader over a well-formed buffer, to find what to corrupt. */
  public static final class Fb {
    public final byte[] b;
    /** Absolute position of the buffer's byte 0 (32 inside an SDNB file). */
    public final int base;

    public Fb(byte[] b, int base) {
      this.b = b;
      this.base = base;
    }

    public int root() {
      return base + i32le(b, base);
    }

    public int vtable(int table) {
      return table - i32le(b, table);
    }

    /** Absolute position of slot {@code slot}'s field, or -1 when absent. */
    public int field(int table, int slot) {
      int vt = vtable(table);
      int vtLen = u16le(b, vt);
      if (4 + 2 * slot >= vtLen) {
        return -1;
      }
      int off = u16le(b, vt + 4 + 2 * slot);
      return off == 0 ? -1 : table + off;
    }

    /** Absolute position of the vtable entry of {@code slot}. */
    public int vtableEntry(int table, int slot) {
      return vtable(table) + 4 + 2 * slot;
    }

    /** Target of the uoffset stored at {@code pos}. */
    public int deref(int pos) {
      return pos + i32le(b, pos);
    }

    /** Target of a reference field (table, vector or string), or -1 when absent. */
    public int ref(int table, int slot) {
      int f = field(table, slot);
      return f < 0 ? -1 : deref(f);
    }

    public int vectorLength(int vec) {
      return i32le(b, vec);
    }

    /** Element {@code i} of a vector of tables or strings. */
    public int element(int vec, int i) {
      return deref(vec + 4 + 4 * i);
    }

    public String string(int s) {
      return new String(b, s + 4, i32le(b, s), StandardCharsets.UTF_8);
    }

    /** Tables of FlatGraph.variables. */
    public List<Integer> variables() {
      int vec = ref(root(), 1);
      List<Integer> out = new ArrayList<>();
      for (int i = 0; i < vectorLength(vec); i++) {
        out.add(element(vec, i));
      }
      return out;
    }

    /** The variable table with this name. */
    public int variable(String name) {
      for (int v : variables()) {
        if (string(ref(v, 1)).equals(name)) {
          return v;
        }
      }
      throw new IllegalStateException("no variable " + name);
    }
  }
}
