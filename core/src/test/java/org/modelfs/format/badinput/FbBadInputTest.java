package org.modelfs.format.badinput;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.modelfs.format.badinput.BadInput.assertFormatError;
import static org.modelfs.format.badinput.BadInput.assertOpensOrRefused;
import static org.modelfs.format.badinput.BadInput.assertRefused;
import static org.modelfs.format.badinput.BadInput.fixture;
import static org.modelfs.format.badinput.BadInput.i32le;
import static org.modelfs.format.badinput.BadInput.i64le;
import static org.modelfs.format.badinput.BadInput.prefix;
import static org.modelfs.format.badinput.BadInput.put;
import static org.modelfs.format.badinput.BadInput.putI32le;
import static org.modelfs.format.badinput.BadInput.putI64le;
import static org.modelfs.format.badinput.BadInput.putU16le;
import static org.modelfs.format.badinput.BadInput.u16le;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.format.badinput.BadInput.Case;
import org.modelfs.format.badinput.BadInput.Fb;

/**
 * Format A (single FlatBuffers file) under hostile input: every truncation, broken offsets and
 * lengths, impossible shapeInfo, unknown types and random byte damage. Each must be refused with
 * an IOException naming the file and offset, or (for harmless damage) open with every array
 * readable.
 */
class FbBadInputTest {
  private static final String MLP = "mlp_adam.fb";
  private static final String DTYPES = "dtypes.fb";
  private static final String PAD = "tf-import/pad_1D.fb";
  private static final String UTF8 = "tf-import/assertsomething.fb";

  // FlatGraph / FlatVariable / FlatArray / UpdaterState slots (docs/FORMATS.md §3)
  private static final int G_VARIABLES = 1;
  private static final int G_TRAINING = 7;
  private static final int G_UPDATER = 8;
  private static final int V_NAME = 1;
  private static final int V_DTYPE = 2;
  private static final int V_NDARRAY = 4;
  private static final int V_VARTYPE = 6;
  private static final int A_SHAPE = 0;
  private static final int A_BUFFER = 1;
  private static final int A_DTYPE = 2;
  private static final int U_KEYS = 1;
  private static final int U_VALUES = 2;

  @TempDir Path dir;
  /** In-memory directory for the loops over thousands of inputs. */
  private Path mem;

  @BeforeEach
  void memory() throws IOException {
    mem = BadInput.memoryDir();
  }

  @AfterEach
  void closeMemory() throws IOException {
    mem.getFileSystem().close();
  }

  // ---- baseline ----------------------------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(strings = {MLP, DTYPES, PAD, UTF8, "mlp_noupdater.fb", "tf-import/simplewhile_1.fb"})
  void fixturesThemselvesOpenAndRead(String name) throws IOException {
    Path p = put(dir, "ok.fb", fixture(name));
    assertNull(BadInput.openTimed(p, name), name + " must open");
  }

  // ---- truncation ---------------------------------------------------------------------------------

  /** Every prefix of two small fixtures (0 .. size-1 bytes): refused, or opened and fully readable. */
  @ParameterizedTest
  @ValueSource(strings = {PAD, MLP})
  void everyPrefix(String name) {
    byte[] full = fixture(name);
    Path p = mem.resolve("prefix.fb");
    List<Case> cases = new ArrayList<>();
    for (int n = 0; n < full.length; n++) {
      int len = n;
      cases.add(new Case(name + " cut to " + len + " bytes", () -> {
        put(mem, "prefix.fb", prefix(full, len));
        assertOpensOrRefused(p, name + " cut to " + len + " bytes");
      }));
    }
    BadInput.runAll(Duration.ofSeconds(20), cases);
  }

  /** Every 4th prefix of the other fixtures, which have different table layouts. */
  @ParameterizedTest
  @ValueSource(strings = {DTYPES, UTF8, "tf-import/simplewhile_1.fb", "tf-import/non2d_1.fb"})
  void sampledPrefixes(String name) {
    byte[] full = fixture(name);
    Path p = mem.resolve("prefix.fb");
    List<Case> cases = new ArrayList<>();
    for (int n = 0; n < full.length; n += (n < 64 ? 1 : 4)) {
      int len = n;
      cases.add(new Case(name + " cut to " + len, () -> {
        put(mem, "prefix.fb", prefix(full, len));
        assertOpensOrRefused(p, name + " cut to " + len + " bytes");
      }));
    }
    BadInput.runAll(Duration.ofSeconds(20), cases);
  }

  // ---- targeted corruption --------------------------------------------------------------------------

  /** A named corruption of a fixture that must be refused. */
  record Corruption(String fixture, String name, UnaryOperator<byte[]> patch) {
    @Override
    public String toString() {
      return fixture + ": " + name;
    }
  }

  private static Corruption c(String fixture, String name, UnaryOperator<byte[]> patch) {
    return new Corruption(fixture, name, patch);
  }

  private static Fb fb(byte[] b) {
    return new Fb(b, 0);
  }

  /** The FlatArray table of the named variable. */
  private static int ndarray(byte[] b, String var) {
    Fb f = fb(b);
    return f.ref(f.variable(var), V_NDARRAY);
  }

  /** The shapeInfo vector of the named variable's FlatArray. */
  private static int shapeInfo(byte[] b, String var) {
    return fb(b).ref(ndarray(b, var), A_SHAPE);
  }

  private static byte[] setRank(byte[] b, String var, long rank) {
    return putI64le(b, shapeInfo(b, var) + 4, rank);
  }

  private static byte[] setDim(byte[] b, String var, int i, long dim) {
    return putI64le(b, shapeInfo(b, var) + 4 + 8 * (1 + i), dim);
  }

  private static byte[] setBufferLength(byte[] b, String var, int delta) {
    int buf = fb(b).ref(ndarray(b, var), A_BUFFER);
    return putI32le(b, buf, i32le(b, buf) + delta);
  }

  static Stream<Corruption> corruptions() {
    return Stream.of(
        // root offset
        c(MLP, "root offset past EOF", b -> putI32le(b, 0, b.length + 100)),
        c(MLP, "root offset 0xFFFFFFFF", b -> putI32le(b, 0, -1)),
        c(MLP, "root offset at the last 2 bytes", b -> putI32le(b, 0, b.length - 2)),
        c(MLP, "root offset 0 (root table overlaps the offset)", b -> putI32le(b, 0, 0)),
        // vtables
        c(MLP, "root vtable past EOF", b -> {
          int root = fb(b).root();
          return putI32le(b, root, root - (b.length + 64));
        }),
        c(MLP, "root vtable before the buffer", b -> {
          int root = fb(b).root();
          return putI32le(b, root, root + 100);
        }),
        c(MLP, "root vtable soffset Integer.MIN_VALUE", b -> putI32le(b, fb(b).root(), Integer.MIN_VALUE)),
        c(MLP, "root vtable length 0", b -> putU16le(b, fb(b).vtable(fb(b).root()), 0)),
        c(MLP, "root vtable length odd", b -> putU16le(b, fb(b).vtable(fb(b).root()), 7)),
        c(MLP, "root vtable length 0xFFFF", b -> putU16le(b, fb(b).vtable(fb(b).root()), 0xFFFF)),
        c(MLP, "root table length 0xFFFF", b -> putU16le(b, fb(b).vtable(fb(b).root()) + 2, 0xFFFF)),
        c(MLP, "variables field outside its table", b -> putU16le(b, fb(b).vtableEntry(fb(b).root(), G_VARIABLES), 0xFFF0)),
        c(MLP, "variables uoffset past EOF", b -> {
          int f = fb(b).field(fb(b).root(), G_VARIABLES);
          return putI32le(b, f, b.length);
        }),
        c(MLP, "variables uoffset 0xFFFFFFFF", b -> putI32le(b, fb(b).field(fb(b).root(), G_VARIABLES), -1)),
        // vector lengths
        c(MLP, "variables vector length 0x7fffffff", b -> putI32le(b, fb(b).ref(fb(b).root(), G_VARIABLES), 0x7fffffff)),
        c(MLP, "variables vector length 0xFFFFFFFF", b -> putI32le(b, fb(b).ref(fb(b).root(), G_VARIABLES), -1)),
        c(MLP, "variables vector one element too long", b -> {
          int vec = fb(b).ref(fb(b).root(), G_VARIABLES);
          return putI32le(b, vec, i32le(b, vec) + 1);
        }),
        c(MLP, "variable element uoffset past EOF", b -> {
          int vec = fb(b).ref(fb(b).root(), G_VARIABLES);
          return putI32le(b, vec + 4, b.length);
        }),
        c(MLP, "updaterState vector length 0x7fffffff", b -> putI32le(b, fb(b).ref(fb(b).root(), G_UPDATER), 0x7fffffff)),
        c(MLP, "updater keys vector shorter than values", b -> {
          Fb f = fb(b);
          int u = f.element(f.ref(f.root(), G_UPDATER), 0);
          int keys = f.ref(u, U_KEYS);
          return putI32le(b, keys, i32le(b, keys) - 1);
        }),
        c(MLP, "updater values vector length 0x7fffffff", b -> {
          Fb f = fb(b);
          int u = f.element(f.ref(f.root(), G_UPDATER), 0);
          return putI32le(b, f.ref(u, U_VALUES), 0x7fffffff);
        }),
        c(MLP, "updater value FlatArray dtype 99", b -> {
          Fb f = fb(b);
          int u = f.element(f.ref(f.root(), G_UPDATER), 0);
          int arr = f.element(f.ref(u, U_VALUES), 0);
          b[f.field(arr, A_DTYPE)] = 99;
          return b;
        }),
        c(MLP, "updater value buffer one byte short", b -> {
          Fb f = fb(b);
          int u = f.element(f.ref(f.root(), G_UPDATER), 0);
          int buf = f.ref(f.element(f.ref(u, U_VALUES), 0), A_BUFFER);
          return putI32le(b, buf, i32le(b, buf) - 1);
        }),
        // strings
        c(MLP, "variable name length past EOF", b -> {
          int s = fb(b).ref(fb(b).variables().get(0), V_NAME);
          return putI32le(b, s, b.length);
        }),
        c(MLP, "variable name length 0x7fffffff", b -> putI32le(b, fb(b).ref(fb(b).variables().get(0), V_NAME), 0x7fffffff)),
        c(MLP, "variable name length 0xFFFFFFFF", b -> putI32le(b, fb(b).ref(fb(b).variables().get(0), V_NAME), -1)),
        c(MLP, "variable name malformed UTF-8", b -> {
          int s = fb(b).ref(fb(b).variables().get(0), V_NAME);
          b[s + 4] = (byte) 0xFF;
          return b;
        }),
        c(MLP, "trainingConfig length 0x7ffffff0", b -> putI32le(b, fb(b).ref(fb(b).root(), G_TRAINING), 0x7ffffff0)),
        c(MLP, "two variables with the same name", FbBadInputTest::duplicateName),
        // legacy shapeInfo
        c(MLP, "rank -1", b -> setRank(b, "layer0/W", -1)),
        c(MLP, "rank 33", b -> setRank(b, "layer0/W", 33)),
        c(MLP, "rank 0x7fffffff", b -> setRank(b, "layer0/W", 0x7fffffff)),
        c(MLP, "rank Long.MAX_VALUE", b -> setRank(b, "layer0/W", Long.MAX_VALUE)),
        c(MLP, "rank Long.MIN_VALUE", b -> setRank(b, "layer0/W", Long.MIN_VALUE)),
        c(MLP, "rank 3 but shapeInfo has 8 entries", b -> setRank(b, "layer0/W", 3)),
        c(MLP, "shapeInfo vector length 0", b -> putI32le(b, shapeInfo(b, "layer0/W"), 0)),
        c(MLP, "shapeInfo vector length 0x7fffffff", b -> putI32le(b, shapeInfo(b, "layer0/W"), 0x7fffffff)),
        c(MLP, "negative dimension", b -> setDim(b, "layer0/W", 0, -4)),
        c(MLP, "dimension Long.MAX_VALUE (size overflows)", b -> setDim(b, "layer0/W", 1, Long.MAX_VALUE)),
        c(MLP, "dimensions whose product overflows to the right size",
            b -> setDim(setDim(b, "layer0/W", 0, 1L << 62), "layer0/W", 1, 1L << 33)),
        c(MLP, "dimension doubled (shape needs twice the buffer)", b -> setDim(b, "layer0/W", 0, 8)),
        // buffer length vs shape
        c(MLP, "buffer one byte short of the shape", b -> setBufferLength(b, "layer0/W", -1)),
        c(MLP, "buffer 4 bytes short of the shape", b -> setBufferLength(b, "layer0/W", -4)),
        c(MLP, "buffer 4 bytes longer than the shape", b -> setBufferLength(b, "layer0/W", 4)),
        c(MLP, "buffer length 0x7fffffff", b -> putI32le(b, fb(b).ref(ndarray(b, "layer0/W"), A_BUFFER), 0x7fffffff)),
        c(MLP, "buffer length 0", b -> putI32le(b, fb(b).ref(ndarray(b, "layer0/W"), A_BUFFER), 0)),
        c(MLP, "buffer uoffset past EOF", b -> {
          int f = fb(b).field(ndarray(b, "layer0/W"), A_BUFFER);
          return putI32le(b, f, b.length - f + 16);
        }),
        // dtypes
        c(MLP, "FlatArray dtype 99", b -> {
          b[fb(b).field(ndarray(b, "layer0/W"), A_DTYPE)] = 99;
          return b;
        }),
        c(MLP, "FlatArray dtype 0 (INHERIT)", b -> {
          b[fb(b).field(ndarray(b, "layer0/W"), A_DTYPE)] = 0;
          return b;
        }),
        c(MLP, "FlatArray dtype 4 (HALF2)", b -> {
          b[fb(b).field(ndarray(b, "layer0/W"), A_DTYPE)] = 4;
          return b;
        }),
        c(MLP, "FlatArray dtype 0xFF", b -> {
          b[fb(b).field(ndarray(b, "layer0/W"), A_DTYPE)] = (byte) 0xFF;
          return b;
        }),
        c(MLP, "FlatArray dtype DOUBLE on FLOAT data (width mismatch)", b -> {
          b[fb(b).field(ndarray(b, "layer0/W"), A_DTYPE)] = 6;
          return b;
        }),
        c(MLP, "FlatArray dtype UTF8 on FLOAT data", b -> {
          b[fb(b).field(ndarray(b, "layer0/W"), A_DTYPE)] = 50;
          return b;
        }),
        c(MLP, "FlatVariable dtype 99", b -> {
          b[fb(b).field(fb(b).variable("layer0/W"), V_DTYPE)] = 99;
          return b;
        }),
        c(MLP, "FlatVariable variabletype 9", b -> {
          b[fb(b).field(fb(b).variable("sd_var"), V_VARTYPE)] = 9;
          return b;
        }),
        c(DTYPES, "UTF8 dtype on a BYTE array", b -> {
          b[fb(b).field(ndarray(b, "i8"), A_DTYPE)] = 50;
          return b;
        }),
        c(UTF8, "UTF8 array: offsets header cut (buffer 7 bytes)", b -> {
          int buf = fb(b).ref(ndarray(b, "assert_equal/Assert/AssertGuard/Assert/data_1"), A_BUFFER);
          return putI32le(b, buf, 7);
        }),
        c(UTF8, "UTF8 array claims 2^61 strings (8·(n+1) overflows)", b -> {
          // data_1 is a rank-0 UTF8 array, shapeInfo [0, extras, ews, order]. Rewrite it in place
          // as rank 1, [1, 2^61, 1, extras, (ews), (order)]: the vector grows from 4 to 6 longs,
          // its last two read from the bytes that follow (in bounds, values irrelevant).
          int si = shapeInfo(b, "assert_equal/Assert/AssertGuard/Assert/data_1");
          long extras = i64le(b, si + 4 + 8);
          putI32le(b, si, 6);
          putI64le(b, si + 4, 1);
          putI64le(b, si + 12, 1L << 61);
          putI64le(b, si + 20, 1);
          putI64le(b, si + 28, extras);
          return b;
        }));
  }

  /** Points variable 1's name at variable 0's name string (possible when it lies after the field). */
  private static byte[] duplicateName(byte[] b) {
    Fb f = fb(b);
    List<Integer> vars = f.variables();
    for (int i = 0; i < vars.size(); i++) {
      for (int j = 0; j < vars.size(); j++) {
        int field = f.field(vars.get(i), V_NAME);
        int other = f.ref(vars.get(j), V_NAME);
        if (i != j && other > field) {
          return putI32le(b, field, other - field);
        }
      }
    }
    throw new IllegalStateException("no suitable pair of variables");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corruptions")
  void targetedCorruptionIsRefused(Corruption c) throws IOException {
    byte[] bytes = c.patch().apply(fixture(c.fixture()));
    Path p = put(dir, "bad.fb", bytes);
    assertFormatError(p, c.toString());
  }

  /** The UTF8 case above is the only one whose shapeInfo changes vector layout; sanity-check it. */
  @Test
  void utf8FixtureHasTheExpectedScalarShapeInfo() {
    byte[] b = fixture(UTF8);
    int si = shapeInfo(b, "assert_equal/Assert/AssertGuard/Assert/data_1");
    assertTrue(i32le(b, si) >= 4 && i64le(b, si + 4) == 0, "data_1 is a rank-0 UTF8 array");
  }

  // ---- whole-file oddities ----------------------------------------------------------------------

  static Stream<Arguments> oddFiles() {
    return Stream.of(
        Arguments.of("empty file", new byte[0]),
        Arguments.of("one byte", new byte[] {1}),
        Arguments.of("8 zero bytes", new byte[8]),
        Arguments.of("4 KiB of zeros", new byte[4096]),
        Arguments.of("4 KiB of 0xFF", filled(4096, (byte) 0xFF)),
        Arguments.of("root pointing to itself", putI32le(new byte[64], 0, 0)),
        Arguments.of("text file", "this is not a model, just some text\n".getBytes()),
        Arguments.of("PK but not a zip", "PK\u0003\u0004garbage garbage garbage".getBytes()),
        Arguments.of("SDN prefix", "SDN".getBytes()));
  }

  private static byte[] filled(int n, byte v) {
    byte[] b = new byte[n];
    Arrays.fill(b, v);
    return b;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("oddFiles")
  void oddFilesAreRefused(String name, byte[] content) throws IOException {
    assertRefused(put(dir, "odd.fb", content), name);
  }

  /** Self-referencing tables: the root table's vtable is the root table itself. */
  @Test
  void tableThatIsItsOwnVtable() throws IOException {
    byte[] b = new byte[32];
    putI32le(b, 0, 8); // root table at 8
    putI32le(b, 8, 0); // soffset 0: vtable at 8 too → vtable length = low half of soffset = 0
    assertFormatError(put(dir, "self.fb", b), "table that is its own vtable");
  }

  // ---- random damage ------------------------------------------------------------------------------

  /**
   * Thousands of fixed-seed mutations (bit flips, byte overwrites, 4-byte overwrites with
   * boundary values) of real fixtures: each either opens with every array readable, or is
   * refused with a good IOException.
   */
  @ParameterizedTest
  @ValueSource(strings = {MLP, DTYPES, UTF8})
  void randomByteDamage(String name) {
    byte[] original = fixture(name);
    Random rnd = new Random(0x5EED ^ name.hashCode());
    Path p = mem.resolve("mutant.fb");
    List<Case> cases = new ArrayList<>();
    for (int i = 0; i < 1500; i++) {
      byte[] m = mutate(original, rnd);
      String what = name + " mutation #" + i;
      cases.add(new Case(what, () -> {
        put(mem, "mutant.fb", m);
        assertOpensOrRefused(p, what);
      }));
    }
    BadInput.runAll(Duration.ofSeconds(30), cases);
  }

  private static final int[] BOUNDARY_INTS = {0, -1, 0x7fffffff, 0x80000000, 0x7ffffff0, 1, 4, 0xFFFF, 0x10000};

  /** 1–4 random mutations; all operations deterministic given {@code rnd}. */
  static byte[] mutate(byte[] original, Random rnd) {
    byte[] m = original.clone();
    int n = 1 + rnd.nextInt(4);
    for (int k = 0; k < n; k++) {
      int at = rnd.nextInt(m.length);
      switch (rnd.nextInt(4)) {
        case 0 -> m[at] ^= (byte) (1 << rnd.nextInt(8));
        case 1 -> m[at] = (byte) rnd.nextInt(256);
        case 2 -> {
          int aligned = Math.min(at & ~3, m.length - 4);
          putI32le(m, aligned, BOUNDARY_INTS[rnd.nextInt(BOUNDARY_INTS.length)]);
        }
        default -> {
          int aligned = Math.min(at & ~1, m.length - 2);
          putU16le(m, aligned, u16le(m, aligned) + rnd.nextInt(64) - 32);
        }
      }
    }
    return m;
  }
}
