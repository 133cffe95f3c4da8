package org.modelfs.interop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import org.nd4j.autodiff.samediff.SDVariable;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.autodiff.samediff.TrainingConfig;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.learning.GradientUpdater;

/**
 * What real DL4J (1.0.0-M2.1) sees in a SameDiff model: for every variable its kind, data type,
 * array shape and a SHA-256 of its elements, plus the updater state (one {@code UPDATER} entry per
 * {@code <param>/<stateKey>}), immutable.
 *
 * <p>Built either from a format-A file ({@link #load(Path)}: {@code SameDiff.load(file, true)}) or
 * from an in-memory {@link SameDiff} ({@link #of(SameDiff)}). {@link #toTsv()} renders exactly the
 * {@code *.expected.tsv} format of {@code src/test/resources/fixtures/README.md}.
 *
 * <p>Hash definition ({@link #sha256Hex(INDArray)}, {@link #cOrderLeBytes(INDArray)}): the elements
 * in C (row-major) order, each element little-endian with {@link DataType#width()} bytes (BOOL,
 * BYTE, UBYTE one byte; HALF, BFLOAT16 two); UTF8 arrays hash {@code n+1} little-endian int64
 * offsets followed by the concatenated UTF-8 bytes of the {@code n} strings; an empty array hashes
 * no bytes. The bytes are exactly the in-memory element bytes ND4J holds after loading, so M2.1's
 * own read quirks (e.g. BFLOAT16/UINT16 not byte-swapped on read) are reflected as DL4J has them.
 *
 * <p>{@code ARRAY} variables (activations) never carry an array in a snapshot, even when an
 * inference session of the current thread still holds one; placeholders carry the array that is
 * set for the current thread (as {@code SameDiff.save} would write it), if any.
 */
public final class Dl4jSnapshot {

    /** Kind used for updater-state entries. */
    public static final String UPDATER = "UPDATER";

    /**
     * One line of a snapshot.
     *
     * @param kind   {@code VARIABLE}, {@code CONSTANT}, {@code PLACEHOLDER}, {@code ARRAY},
     *               {@code SEQUENCE} or {@code UPDATER}
     * @param name   variable name, or {@code <param>/<stateKey>} for updater state
     * @param dtype  ND4J {@link DataType} name (of the array if there is one, else of the variable)
     * @param shape  array shape ({@code []} for a scalar), {@code null} when there is no array
     * @param sha256 full lower-case SHA-256 hex of the element bytes, {@code null} when no array
     */
    public record Entry(String kind, String name, String dtype, long[] shape, String sha256) {

        public Entry {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(dtype, "dtype");
            shape = shape == null ? null : shape.clone();
        }

        /** A defensive copy of the shape, or {@code null}. */
        @Override
        public long[] shape() {
            return shape == null ? null : shape.clone();
        }

        /** First 16 hex digits of {@link #sha256()}, or {@code null}. */
        public String sha16() {
            return sha256 == null ? null : sha256.substring(0, 16);
        }

        /** Whether DL4J holds an array for this entry. */
        public boolean hasArray() {
            return shape != null;
        }

        /** This entry as one {@code .expected.tsv} line (no line terminator). */
        public String tsvLine() {
            return kind + '\t' + name + '\t' + dtype + '\t' + (shape == null ? "-" : Arrays.toString(shape))
                    + '\t' + (sha256 == null ? "-" : sha16());
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Entry e && kind.equals(e.kind) && name.equals(e.name) && dtype.equals(e.dtype)
                    && Arrays.equals(shape, e.shape) && Objects.equals(sha256, e.sha256);
        }

        @Override
        public int hashCode() {
            return Objects.hash(kind, name, dtype, Arrays.hashCode(shape), sha256);
        }

        @Override
        public String toString() {
            return tsvLine().replace('\t', ' ');
        }
    }

    /** Orders names by Unicode code point (same as byte order of their UTF-8). */
    public static final Comparator<String> NAME_ORDER = (a, b) -> {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    };

    private final Map<String, Entry> variables;
    private final Map<String, Entry> updaterState;
    private final List<String> lossVariables;
    private final String trainingConfigJson;

    private Dl4jSnapshot(Map<String, Entry> variables, Map<String, Entry> updaterState,
                         List<String> lossVariables, String trainingConfigJson) {
        TreeMap<String, Entry> v = new TreeMap<>(NAME_ORDER);
        v.putAll(variables);
        TreeMap<String, Entry> u = new TreeMap<>(NAME_ORDER);
        u.putAll(updaterState);
        this.variables = Collections.unmodifiableSortedMap(v);
        this.updaterState = Collections.unmodifiableSortedMap(u);
        this.lossVariables = List.copyOf(lossVariables);
        this.trainingConfigJson = trainingConfigJson;
    }

    /** Loads {@code model} with {@code SameDiff.load(file, true)} and describes it. */
    public static Dl4jSnapshot load(Path model) {
        return of(loadSameDiff(model));
    }

    /** {@code SameDiff.load(model, true)}: the model with its updater state (if saved). */
    public static SameDiff loadSameDiff(Path model) {
        return SameDiff.load(model.toFile(), true);
    }

    /** Describes an in-memory SameDiff instance (as seen from the current thread). */
    @SuppressWarnings("rawtypes")
    public static Dl4jSnapshot of(SameDiff sd) {
        Map<String, Entry> vars = new TreeMap<>(NAME_ORDER);
        for (SDVariable v : sd.variables()) {
            String kind = v.getVariableType().name();
            INDArray arr = arrayOf(sd, v.name());
            vars.put(v.name(), entry(kind, v.name(), arr, v.dataType()));
        }
        Map<String, Entry> upd = new TreeMap<>(NAME_ORDER);
        Map<String, GradientUpdater> um = sd.getUpdaterMap();
        if (um != null) {
            for (Map.Entry<String, GradientUpdater> e : um.entrySet()) {
                @SuppressWarnings("unchecked")
                Map<String, INDArray> state = e.getValue().getState();
                if (state == null) {
                    continue;
                }
                for (Map.Entry<String, INDArray> s : state.entrySet()) {
                    String name = e.getKey() + "/" + s.getKey();
                    INDArray arr = s.getValue();
                    upd.put(name, entry(UPDATER, name, arr, arr == null ? DataType.UNKNOWN : arr.dataType()));
                }
            }
        }
        List<String> loss = sd.getLossVariables() == null ? List.of() : new ArrayList<>(sd.getLossVariables());
        TrainingConfig tc = sd.getTrainingConfig();
        return new Dl4jSnapshot(vars, upd, loss, tc == null ? null : tc.toJson());
    }

    /**
     * The array a snapshot entry of {@code sd} is computed from: for a variable name its
     * VARIABLE/CONSTANT/PLACEHOLDER array (ARRAY kinds give {@code null}); for
     * {@code <param>/<stateKey>} of a parameter with updater state the state array.
     */
    @SuppressWarnings("rawtypes")
    public static INDArray arrayOf(SameDiff sd, String name) {
        SDVariable v = sd.getVariables().containsKey(name) ? sd.getVariable(name) : null;
        if (v != null) {
            switch (v.getVariableType()) {
                case VARIABLE:
                case CONSTANT:
                case PLACEHOLDER:
                    return sd.getArrForVarName(name);
                default:
                    return null;
            }
        }
        int slash = name.lastIndexOf('/');
        Map<String, GradientUpdater> um = sd.getUpdaterMap();
        if (slash > 0 && um != null && um.containsKey(name.substring(0, slash))) {
            @SuppressWarnings("unchecked")
            Map<String, INDArray> state = um.get(name.substring(0, slash)).getState();
            if (state != null) {
                return state.get(name.substring(slash + 1));
            }
        }
        throw new IllegalArgumentException("No variable or updater state named " + name);
    }

    private static Entry entry(String kind, String name, INDArray arr, DataType varType) {
        if (arr == null) {
            return new Entry(kind, name, varType.name(), null, null);
        }
        return new Entry(kind, name, arr.dataType().name(), arr.shape(), sha256Hex(arr));
    }

    /** All variables, sorted by name (code point order), unmodifiable. */
    public Map<String, Entry> variables() {
        return variables;
    }

    /** Updater state entries keyed {@code <param>/<stateKey>}, sorted, unmodifiable. */
    public Map<String, Entry> updaterState() {
        return updaterState;
    }

    /** One variable or updater entry by name ({@code null} if absent); variables win on a clash. */
    public Entry get(String name) {
        Entry e = variables.get(name);
        return e != null ? e : updaterState.get(name);
    }

    /** The loss variable names, in DL4J's order. */
    public List<String> lossVariables() {
        return lossVariables;
    }

    /** {@code TrainingConfig.toJson()} of the model, or {@code null} without a training config. */
    public String trainingConfigJson() {
        return trainingConfigJson;
    }

    /** Variable lines then updater lines, each group sorted by name. */
    public List<Entry> entries() {
        List<Entry> all = new ArrayList<>(variables.values());
        all.addAll(updaterState.values());
        return all;
    }

    /** The {@code .expected.tsv} text: one tab-separated line per entry, each ending with {@code \n}. */
    public String toTsv() {
        StringBuilder sb = new StringBuilder();
        for (Entry e : entries()) {
            sb.append(e.tsvLine()).append('\n');
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Dl4jSnapshot s && variables.equals(s.variables) && updaterState.equals(s.updaterState)
                && lossVariables.equals(s.lossVariables) && Objects.equals(trainingConfigJson, s.trainingConfigJson);
    }

    @Override
    public int hashCode() {
        return Objects.hash(variables, updaterState, lossVariables);
    }

    @Override
    public String toString() {
        return toTsv();
    }

    // ------------------------------------------------------------------------------------------
    // hashing

    /** First 16 hex digits of {@link #sha256Hex(INDArray)}. */
    public static String sha16(INDArray arr) {
        return sha256Hex(arr).substring(0, 16);
    }

    /** Lower-case SHA-256 hex of the array's C-order little-endian element bytes (see class doc). */
    public static String sha256Hex(INDArray arr) {
        MessageDigest md = sha256();
        if (arr.dataType() == DataType.UTF8) {
            md.update(utf8Bytes(arr));
        } else if (!arr.isEmpty()) {
            ByteBuffer bb = rawCOrder(arr);
            if (ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN) {
                md.update(bb);
            } else {
                md.update(swapToLe(bb, arr.dataType().width()));
            }
        }
        return HexFormat.of().formatHex(md.digest());
    }

    /** SHA-256 hex of a byte array (convenience for comparing with {@link #cOrderLeBytes}). */
    public static String sha256Hex(byte[] bytes) {
        return HexFormat.of().formatHex(sha256().digest(bytes));
    }

    /**
     * The element bytes hashed by {@link #sha256Hex(INDArray)}: C order, little-endian, width bytes
     * per element (UTF8: offsets header + string bytes; empty array: no bytes).
     */
    public static byte[] cOrderLeBytes(INDArray arr) {
        if (arr.dataType() == DataType.UTF8) {
            return utf8Bytes(arr);
        }
        if (arr.isEmpty()) {
            return new byte[0];
        }
        ByteBuffer bb = rawCOrder(arr);
        if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
            bb = swapToLe(bb, arr.dataType().width());
        }
        byte[] out = new byte[bb.remaining()];
        bb.get(out);
        return out;
    }

    /** Loads {@code model} with DL4J and returns {@link #cOrderLeBytes} of one variable or updater entry. */
    public static byte[] cOrderLeBytes(Path model, String name) {
        INDArray arr = arrayOf(loadSameDiff(model), name);
        if (arr == null) {
            throw new IllegalArgumentException(name + " holds no array in " + model);
        }
        return cOrderLeBytes(arr);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Native-order element bytes of a dense C-order copy (a read-only view, position 0). */
    private static ByteBuffer rawCOrder(INDArray arr) {
        INDArray c = arr.dup('c');
        long n = c.length();
        int width = c.dataType().width();
        long bytes = n * width;
        if (bytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("array too large to hash in one buffer: " + bytes + " bytes");
        }
        if (c.data().offset() != 0 || c.offset() != 0) {
            throw new IllegalStateException("unexpected offset in dup('c') of " + c.shapeInfoToString());
        }
        ByteBuffer bb = c.data().asNio().duplicate();
        if (bb.capacity() < bytes) {
            throw new IllegalStateException("native buffer smaller than " + bytes + " bytes: " + bb.capacity());
        }
        bb.clear().limit((int) bytes);
        ByteBuffer copy = ByteBuffer.allocate((int) bytes);
        copy.put(bb).flip();
        // bb is a view of c's native memory: without this fence the JIT may treat c as dead
        // after asNio(), ND4J's deallocator frees the memory, and the copy above reads freed
        // memory (seen as a SIGSEGV in jlong_disjoint_arraycopy on CI).
        Reference.reachabilityFence(c);
        return copy.asReadOnlyBuffer();
    }

    private static ByteBuffer swapToLe(ByteBuffer bb, int width) {
        ByteBuffer out = ByteBuffer.allocate(bb.remaining());
        byte[] el = new byte[width];
        while (bb.remaining() >= width) {
            bb.get(el);
            for (int k = width - 1; k >= 0; k--) {
                out.put(el[k]);
            }
        }
        return out.flip();
    }

    private static byte[] utf8Bytes(INDArray arr) {
        byte[] raw = rawUtf8(arr);
        return raw != null ? raw : utf8FromStrings(arr);
    }

    /**
     * ND4J's own UTF8 buffer ({@code n+1} native int64 offsets, then the bytes), when the array is a
     * plain C-order array over a whole, consistent buffer; {@code null} otherwise. Preferred over
     * {@link INDArray#getString} because decoding would replace invalid UTF-8 by U+FFFD.
     */
    private static byte[] rawUtf8(INDArray arr) {
        long n = arr.length();
        if (arr.isView() || arr.ordering() != 'c' || arr.offset() != 0 || arr.data().offset() != 0) {
            return null;
        }
        ByteBuffer nio = arr.data().asNio();
        if (nio == null) {
            return null;
        }
        ByteBuffer bb = nio.duplicate().order(ByteOrder.nativeOrder());
        bb.clear();
        long header = (n + 1) * 8;
        if (bb.capacity() < header) {
            return null;
        }
        long prev = 0;
        for (int i = 0; i <= n; i++) {
            long off = bb.getLong(i * 8);
            if ((i == 0 && off != 0) || off < prev) {
                return null;
            }
            prev = off;
        }
        if (header + prev != bb.capacity()) {
            return null;
        }
        byte[] out = new byte[bb.capacity()];
        bb.get(out);
        Reference.reachabilityFence(arr); // bb views arr's native memory
        if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
            ByteBuffer le = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
            ByteBuffer ne = ByteBuffer.wrap(out.clone()).order(ByteOrder.nativeOrder());
            for (int i = 0; i <= n; i++) {
                le.putLong(i * 8, ne.getLong(i * 8));
            }
        }
        return out;
    }

    private static byte[] utf8FromStrings(INDArray arr) {
        INDArray c = arr.ordering() == 'c' && !arr.isView() ? arr : arr.dup('c');
        long n = c.length();
        List<byte[]> strings = new ArrayList<>();
        long total = 0;
        for (long i = 0; i < n; i++) {
            byte[] s = c.getString(i).getBytes(StandardCharsets.UTF_8);
            strings.add(s);
            total += s.length;
        }
        ByteBuffer out = ByteBuffer.allocate(Math.toIntExact((n + 1) * 8 + total)).order(ByteOrder.LITTLE_ENDIAN);
        long off = 0;
        out.putLong(off);
        for (byte[] s : strings) {
            off += s.length;
            out.putLong(off);
        }
        for (byte[] s : strings) {
            out.put(s);
        }
        return out.array();
    }

    /** Reads a whole {@code .expected.tsv}-style file (helper for tests). */
    public static String readTsv(Path tsv) {
        try {
            return Files.readString(tsv, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
