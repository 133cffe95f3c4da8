package org.modelfs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.SamediffFileAttributes;
import org.modelfs.exchange.Npy;
import org.modelfs.exchange.Safetensors;
import org.modelfs.model.DType;
import org.modelfs.model.Shapes;
import org.modelfs.testing.Fixtures;

/**
 * NumPy as the independent party: it loads every {@code .npy} we export (dtype, shape, Fortran
 * order and every value checked against the model), reads our {@code .safetensors} with a
 * struct + json reader written in the test, writes {@code .npy} files (C and Fortran order,
 * big-endian) and a {@code .safetensors} file by hand that {@code import} reads. Our header
 * bytes are compared with {@code np.save}'s. Skipped, saying so, when {@code python3} with NumPy
 * is absent ({@code apt-get install python3-numpy}; {@code .ci/run} installs it where it can).
 */
class NumpyInteropTest {
  @TempDir Path tmp;
  private static String numpyVersion;

  @BeforeAll
  static void findNumPy() {
    try {
      numpyVersion = python("import numpy; print(numpy.__version__)").strip();
    } catch (IOException | AssertionError e) {
      numpyVersion = null;
    }
  }

  /** Each test is reported skipped, with the reason, where NumPy is missing. */
  @BeforeEach
  void needNumPy() {
    Assumptions.assumeTrue(numpyVersion != null,
        "python3 with NumPy is not installed (apt-get install python3-numpy): the NumPy cross-check is skipped");
  }

  /** Runs {@code python3 -c script args…} and returns its standard output; a failure is an assertion error. */
  static String python(String script, String... args) throws IOException {
    List<String> cmd = new ArrayList<>(List.of("python3", "-c", script));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("PYTHONIOENCODING", "utf-8");
    Process p = pb.start();
    p.getOutputStream().close();
    byte[] out;
    byte[] err;
    try {
      out = p.getInputStream().readAllBytes();
      err = p.getErrorStream().readAllBytes();
      if (!p.waitFor(2, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new AssertionError("python3 timed out");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
    String o = new String(out, StandardCharsets.UTF_8);
    if (p.exitValue() != 0) {
      throw new AssertionError("python3 failed (" + p.exitValue() + "):\n" + new String(err, StandardCharsets.UTF_8) + o);
    }
    return o;
  }

  private static final String SPECS = "FLOAT:2,3:c DOUBLE::c INT64:3,4:f BOOL:0:c INT8:2,2,2:c UINT8:5:c HALF:7:f"
      + " INT32:1:c INT16:12345,2:f UINT16:1,1:c UINT32:0,3:f UINT64:3:c FLOAT:1,2,3,4,5,6,7,8:f";

  @Test
  void ourHeadersAreByteForByteWhatNpSaveWrites() throws IOException {
    Assumptions.assumeTrue(python("import numpy as np; print(np.lib.NumpyVersion(np.__version__) >= '1.24.0')")
        .strip().equals("True"), "NumPy " + numpyVersion + " is older than 1.24, which added the growth-axis room");
    String script = """
        import io, sys, numpy as np
        for spec in sys.argv[1:]:
            descr, dims, order = spec.split(':')
            shape = tuple(int(d) for d in dims.split(',')) if dims else ()
            b = io.BytesIO()
            np.save(b, np.zeros(shape, dtype=descr, order='F' if order == 'f' else 'C'))
            v = b.getvalue()
            print(v[:v.index(b'\\n') + 1].hex())
        """;
    List<String> args = new ArrayList<>();
    List<String> expected = new ArrayList<>();
    for (String spec : SPECS.split(" ")) {
      String[] s = spec.split(":", -1);
      long[] shape = s[1].isEmpty() ? new long[0] : Arrays.stream(s[1].split(",")).mapToLong(Long::parseLong).toArray();
      DType t = DType.valueOf(s[0]);
      args.add(Npy.descr(t, false, "x") + ":" + s[1] + ":" + s[2]);
      expected.add(HexFormat.of().formatHex(Npy.header(t, shape, s[2].charAt(0), false, "x")));
    }
    assertEquals(expected, python(script, args.toArray(String[]::new)).lines().toList());
  }

  /** The array's elements in c order, little-endian, from the bytes the file system shows (stored order). */
  static byte[] rowMajor(byte[] stored, long[] shape, char order, int width) {
    if (order == 'c') {
      return stored;
    }
    int n = stored.length / Math.max(width, 1);
    long[] fs = Shapes.strides(shape, 'f');
    long[] cs = Shapes.strides(shape, 'c');
    byte[] out = new byte[stored.length];
    for (int c = 0; c < n; c++) {
      long rem = c;
      long f = 0;
      for (int a = 0; a < shape.length; a++) {
        long idx = rem / cs[a];
        rem -= idx * cs[a];
        f += idx * fs[a];
      }
      System.arraycopy(stored, (int) f * width, out, c * width, width);
    }
    return out;
  }

  /** What the model holds: name → "descr|shape|fortran|hex of c-order bytes", as the python scripts print it. */
  private static Map<String, String> expected(Path model, boolean npyNames) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"));
        Stream<Path> s = Files.walk(fs.getPath("/params"), Integer.MAX_VALUE);
        Stream<Path> u = Files.walk(fs.getPath("/updater"), Integer.MAX_VALUE)) {
      for (Path p : (Iterable<Path>) Stream.concat(s, u).filter(Files::isRegularFile)::iterator) {
        SamediffFileAttributes a = Files.readAttributes(p, SamediffFileAttributes.class);
        DType t = DType.fromName(a.dtype());
        long[] shape = a.size() == 0 && Shapes.elementCount(a.shape()) != 0 ? new long[] {0} : a.shape();
        char order = a.order().charAt(0);
        boolean fortran = order == 'f' && Arrays.stream(shape).filter(d -> d > 1).count() >= 2;
        String descr = npyNames ? Npy.descr(t, true, "x") : Safetensors.dtypeName(t);
        String dims = Arrays.stream(shape).mapToObj(Long::toString).collect(Collectors.joining(","));
        String name = p.toString().substring(1);
        out.put(npyNames ? name : name.startsWith("params/") ? name.substring(7) : name,
            descr + "|" + dims + "|" + (npyNames ? fortran : "") + "|"
                + HexFormat.of().formatHex(rowMajor(Files.readAllBytes(p), shape, order, t.width())));
      }
    }
    return out;
  }

  private Path model(String fixture, String name) throws IOException {
    Path src = Fixtures.get(fixture);
    Path out = tmp.resolve(name);
    if (name.endsWith(".fb")) {
      Files.copy(src, out);
    } else {
      ExchangeCommandsTest.ok("convert", src.toString(), out.toString());
    }
    return out;
  }

  @Test
  void numpyLoadsEveryExportedArray() throws IOException {
    for (String[] m : new String[][] {{"dtypes.fb", "d.fb"}, {"mlp_adam.fb", "m.sdz"}}) {
      Path model = model(m[0], m[1]);
      Map<String, String> expected = expected(model, true);
      List<String> names = new ArrayList<>(expected.keySet());
      List<String> args = new ArrayList<>();
      for (int i = 0; i < names.size(); i++) { // file names are ASCII: names like ümlaut stay out of argv
        Path npy = tmp.resolve(m[1] + "." + i + ".npy");
        ExchangeCommandsTest.ok("export", model + ":" + names.get(i), npy.toString(), "--raw-bfloat16", "--quiet");
        args.add(npy.toString());
      }
      String script = """
          import sys, numpy as np
          for path in sys.argv[1:]:
              a = np.load(path, allow_pickle=False)
              fortran = a.flags.f_contiguous and not a.flags.c_contiguous
              c = np.ascontiguousarray(a).astype(a.dtype.newbyteorder('<'))
              print('%s|%s|%s|%s' % (a.dtype.str, ','.join(str(d) for d in a.shape),
                    'true' if fortran else 'false', c.tobytes().hex()))
          """;
      List<String> lines = python(script, args.toArray(String[]::new)).lines().toList();
      assertEquals(names.size(), lines.size());
      Map<String, String> got = new TreeMap<>();
      for (int i = 0; i < names.size(); i++) {
        got.put(names.get(i), lines.get(i));
      }
      assertEquals(expected, got, m[1]);
    }
  }

  private static final String SAFETENSORS_READER = """
      import sys, json, struct, numpy as np
      DT = {'F64': '<f8', 'F32': '<f4', 'F16': '<f2', 'BF16': '<u2', 'I64': '<i8', 'I32': '<i4', 'I16': '<i2',
            'I8': 'i1', 'U8': 'u1', 'U16': '<u2', 'U32': '<u4', 'U64': '<u8', 'BOOL': '?'}
      raw = open(sys.argv[1], 'rb').read()
      (n,) = struct.unpack('<Q', raw[:8])
      assert (8 + n) % 8 == 0, 'data not aligned to 8'
      header = json.loads(raw[8:8 + n].decode('utf-8'))
      data = raw[8 + n:]
      meta = header.pop('__metadata__', {})
      spans = sorted(v['data_offsets'] for v in header.values())
      assert [s for s, _ in spans] == [0] + [e for _, e in spans[:-1]], 'offsets not contiguous'
      assert (spans[-1][1] if spans else 0) == len(data), 'data length'
      for k in sorted(meta):
          print('meta:%s\\t%s' % (k, meta[k]))
      for name, v in header.items():
          b, e = v['data_offsets']
          a = np.frombuffer(data[b:e], dtype=DT[v['dtype']]).reshape(v['shape'])
          print('%s\\t%s|%s||%s' % (name, v['dtype'], ','.join(str(d) for d in a.shape), a.tobytes().hex()))
      """;

  @Test
  void numpyReadsAnExportedSafetensorsFile() throws IOException {
    Path model = model("dtypes.fb", "d.sdz");
    ExchangeCommandsTest.ok("meta", "set", model.toString(), "author", "ünï \"quoted\"");
    Path st = tmp.resolve("d.safetensors");
    ExchangeCommandsTest.ok("export", model.toString(), st.toString(), "--quiet");
    Map<String, String> got = new TreeMap<>();
    for (String line : python(SAFETENSORS_READER, st.toString()).lines().toList()) {
      String[] kv = line.split("\t", 2);
      got.put(kv[0], kv[1]);
    }
    assertEquals("ünï \"quoted\"", got.remove("meta:author"));
    assertEquals("APPENDED_BLOB", got.remove("meta:nd4j.format.type"));
    got.keySet().removeIf(k -> k.startsWith("meta:"));
    assertEquals(expected(model, false), got);

    Path m2 = model("mlp_adam.fb", "m.fb");
    ExchangeCommandsTest.ok("export", m2.toString(), st.toString(), "--with-updater", "--quiet");
    got.clear();
    for (String line : python(SAFETENSORS_READER, st.toString()).lines().toList()) {
      String[] kv = line.split("\t", 2);
      got.put(kv[0], kv[1]);
    }
    assertEquals(expected(m2, false), got);
  }

  @Test
  void importReadsWhatNumPyWrites() throws IOException {
    String script = """
        import sys, numpy as np
        d = sys.argv[1]
        arrays = {
          'c_f4': (np.arange(12, dtype='<f4').reshape(3, 4) * 0.5),
          'f_i8': np.asfortranarray(np.arange(6, dtype='<i8').reshape(2, 3) - 3),
          'be_f8': np.arange(6, dtype='>f8').reshape(3, 2) / 3,
          'be_f_i4': np.asfortranarray(np.arange(24, dtype='>i4').reshape(2, 3, 4) * 1000003),
          'bool': np.array([True, False, True]),
          'scalar': np.array(2.5),
          'empty': np.zeros((0, 3), dtype='<f4'),
          'u2': np.array([1, 65535], dtype='<u2'),
          'f2': np.array([1.5, -0.25, 65504], dtype='<f2'),
          'u8': np.array([0, 2**64 - 1], dtype='<u8'),
          'i1': np.array([-128, 127], dtype='i1'),
        }
        for name, a in arrays.items():
            np.save('%s/%s.npy' % (d, name), a)
            fortran = a.flags.f_contiguous and not a.flags.c_contiguous
            le = a.astype(a.dtype.newbyteorder('<'), order='K')
            print('%s\\t%s|%s|%s' % (name, ','.join(str(x) for x in a.shape), 'f' if fortran else 'c',
                  le.tobytes(order='F' if fortran else 'C').hex()))
        """;
    Map<String, String> expected = new LinkedHashMap<>();
    for (String line : python(script, tmp.toString()).lines().toList()) {
      String[] kv = line.split("\t", 2);
      expected.put(kv[0], kv[1]);
    }
    Map<String, String> types = Map.ofEntries(Map.entry("c_f4", "FLOAT"), Map.entry("f_i8", "LONG"),
        Map.entry("be_f8", "DOUBLE"), Map.entry("be_f_i4", "INT"), Map.entry("bool", "BOOL"),
        Map.entry("scalar", "DOUBLE"), Map.entry("empty", "FLOAT"), Map.entry("u2", "UINT16"),
        Map.entry("f2", "HALF"), Map.entry("u8", "UINT64"), Map.entry("i1", "BYTE"));
    assertEquals(types.keySet(), expected.keySet());
    for (String[] m : new String[][] {{"mlp_adam.fb", "m.fb"}, {"mlp_adam.fb", "m.sdz"}}) {
      Path model = model(m[0], m[1]);
      for (String name : expected.keySet()) {
        ExchangeCommandsTest.ok("import", tmp.resolve(name + ".npy").toString(), model + ":np/" + name, "--quiet");
      }
      try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
        for (Map.Entry<String, String> e : expected.entrySet()) {
          Path p = fs.getPath("/params/np/" + e.getKey());
          SamediffFileAttributes a = Files.readAttributes(p, SamediffFileAttributes.class);
          String got = Arrays.stream(a.shape()).mapToObj(Long::toString).collect(Collectors.joining(",")) + "|"
              + (Arrays.stream(a.shape()).filter(d -> d > 1).count() >= 2 ? a.order() : "c") + "|"
              + HexFormat.of().formatHex(Files.readAllBytes(p));
          assertEquals(types.get(e.getKey()), a.dtype(), e.getKey());
          assertEquals(e.getValue(), got, m[1] + " " + e.getKey());
        }
      }
    }
  }

  @Test
  void importReadsASafetensorsFileNumPyWroteByHand() throws IOException {
    String script = """
        import sys, json, struct, numpy as np
        tensors = {
          'layer0/W': np.linspace(-1, 1, 32, dtype='<f4').reshape(4, 8),
          'layer0/b': np.full((1, 8), 0.125, dtype='<f4'),
          'const/scale': np.array(7.0, dtype='<f4'),
        }
        header, blobs, at = {'__metadata__': {'source': 'numpy by hand'}}, [], 0
        for name, a in tensors.items():
            b = a.tobytes()
            header[name] = {'dtype': 'F32', 'shape': list(a.shape), 'data_offsets': [at, at + len(b)]}
            blobs.append(b)
            at += len(b)
        h = json.dumps(header).encode('utf-8')
        h += b' ' * ((8 - len(h) % 8) % 8)
        with open(sys.argv[1], 'wb') as f:
            f.write(struct.pack('<Q', len(h)) + h + b''.join(blobs))
        for name, a in tensors.items():
            print('%s\\t%s' % (name, a.tobytes().hex()))
        """;
    Path st = tmp.resolve("numpy.safetensors");
    Map<String, String> expected = new LinkedHashMap<>();
    for (String line : python(script, st.toString()).lines().toList()) {
      String[] kv = line.split("\t", 2);
      expected.put(kv[0], kv[1]);
    }
    Path model = model("mlp_adam.fb", "m.sdz");
    Map<String, String> before = ExchangeCommandsTest.arrays(model);
    ExchangeCommandsTest.ok("import", st.toString(), model.toString(), "--quiet");
    Map<String, String> after = ExchangeCommandsTest.arrays(model);
    for (Map.Entry<String, String> e : expected.entrySet()) {
      String key = "/tags/default/params/" + e.getKey();
      assertTrue(after.get(key).endsWith(" " + e.getValue()), key + " " + after.get(key));
      assertEquals(before.get(key).substring(0, before.get(key).lastIndexOf(' ')),
          after.get(key).substring(0, after.get(key).lastIndexOf(' ')), "dtype, shape, order kept");
      before.remove(key);
      after.remove(key);
    }
    assertEquals(before, after);
  }
}
