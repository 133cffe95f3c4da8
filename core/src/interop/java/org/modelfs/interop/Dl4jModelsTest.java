package org.modelfs.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Smoke test of {@link Dl4jModels}: every model DL4J builds and saves must load back in DL4J with
 * the same snapshot as the in-memory SameDiff and give bit-identical forward output.
 */
@Tag("interop")
class Dl4jModelsTest {

    @TempDir
    Path dir;

    private static void assertSameSnapshot(SameDiff inMemory, Path file) {
        Dl4jSnapshot mem = Dl4jSnapshot.of(inMemory);
        Dl4jSnapshot disk = Dl4jSnapshot.load(file);
        assertEquals(mem.toTsv(), disk.toTsv());
        assertEquals(mem.trainingConfigJson(), disk.trainingConfigJson());
        assertEquals(mem.lossVariables(), disk.lossVariables());
        assertEquals(mem, disk);
    }

    private static void assertIdenticalForward(SameDiff inMemory, Path file, long batch) {
        Map<String, INDArray> in = Dl4jModels.inputs(inMemory, batch, 7);
        INDArray a = Dl4jModels.forward(inMemory, in, Dl4jModels.OUTPUT);
        INDArray b = Dl4jModels.forward(file, in, Dl4jModels.OUTPUT);
        assertArrayEquals(a.shape(), b.shape());
        assertEquals(batch, a.size(0));
        assertFalse(a.isNaN().any() || a.isInfinite().any(), "non-finite output");
        assertArrayEquals(Dl4jSnapshot.cOrderLeBytes(a), Dl4jSnapshot.cOrderLeBytes(b));
    }

    @ParameterizedTest(name = "{0} train={1}")
    @CsvSource({"FLOAT,false", "FLOAT,true", "DOUBLE,false", "DOUBLE,true", "HALF,false", "HALF,true"})
    void mlp(DataType dtype, boolean train) throws Exception {
        Path f = dir.resolve("mlp.fb");
        SameDiff sd = Dl4jModels.mlp(f, dtype, 8, train);
        assertTrue(Files.size(f) > 0);
        assertSameSnapshot(sd, f);

        Dl4jSnapshot s = Dl4jSnapshot.load(f);
        for (String p : new String[]{"layer0/W", "layer0/b", "layer1/W", "layer1/b"}) {
            Dl4jSnapshot.Entry e = s.variables().get(p);
            assertEquals("VARIABLE", e.kind(), p);
            assertEquals(dtype.name(), e.dtype(), p);
        }
        assertArrayEquals(new long[]{Dl4jModels.MLP_FEATURES, 8}, s.get("layer0/W").shape());
        assertEquals("PLACEHOLDER", s.get(Dl4jModels.INPUT).kind());
        assertEquals("CONSTANT", s.get("const/scale").kind());
        assertEquals(List.of(Dl4jModels.LOSS), s.lossVariables());
        if (train) {
            assertNotNull(s.trainingConfigJson());
            Set<String> expected = new TreeSet<>();
            for (String p : new String[]{"layer0/W", "layer0/b", "layer1/W", "layer1/b"}) {
                expected.add(p + "/M");
                expected.add(p + "/V");
                assertArrayEquals(s.get(p).shape(), s.get(p + "/M").shape());
            }
            assertEquals(expected, new TreeSet<>(s.updaterState().keySet()));
            assertTrue(s.updaterState().values().stream().allMatch(e -> e.dtype().equals(dtype.name())));
        } else {
            assertNull(s.trainingConfigJson());
            assertTrue(s.updaterState().isEmpty());
        }
        assertIdenticalForward(sd, f, 5);
    }

    @Test
    void constantsOfAllDtypes() {
        Path f = dir.resolve("dtypes.fb");
        SameDiff sd = Dl4jModels.constantsOfAllDtypes(f);
        assertSameSnapshot(sd, f);
        Dl4jSnapshot s = Dl4jSnapshot.load(f);
        Set<String> dtypes = s.variables().values().stream().map(Dl4jSnapshot.Entry::dtype).collect(Collectors.toSet());
        for (String d : new String[]{"FLOAT", "DOUBLE", "HALF", "INT", "LONG", "SHORT", "BYTE", "UBYTE", "BOOL", "UTF8"}) {
            assertTrue(dtypes.contains(d), d);
        }
        assertEquals('f', Dl4jSnapshot.loadSameDiff(f).getArrForVarName("forder").ordering());
        assertArrayEquals(new long[0], s.get("scalar").shape());
        assertTrue(s.variables().containsKey("unicode/ümlaut/日本"));
        assertArrayEquals(Dl4jSnapshot.cOrderLeBytes(sd.getArrForVarName("forder")), Dl4jSnapshot.cOrderLeBytes(f, "forder"));
    }

    @Test
    void large() throws Exception {
        long min = 100L << 20;
        Path f = dir.resolve("large.fb");
        long t0 = System.nanoTime();
        SameDiff sd = Dl4jModels.large(f, min);
        long params = Dl4jModels.paramBytes(sd);
        assertTrue(params >= min, "param bytes " + params);
        long size = Files.size(f);
        assertTrue(size >= params && size < (1L << 31), "file size " + size);
        assertSameSnapshot(sd, f);
        assertIdenticalForward(sd, f, 3);
        System.out.printf("large: %d param bytes, file %d bytes, %.1f s%n", params, size, (System.nanoTime() - t0) / 1e9);
    }
}
