package org.modelfs.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.autodiff.samediff.SameDiff;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * Checks {@link Dl4jSnapshot} against the fixtures: real DL4J 1.0.0-M2.1 reading each fixture
 * {@code .fb} must give exactly the {@code .expected.tsv} beside it. Also pins the M2.1 BFLOAT16
 * read quirk and the hash definition on hand-made arrays.
 */
@Tag("interop")
class Dl4jSnapshotFixturesTest {

    static Stream<Path> fixtures() {
        return Dl4jFixtures.modelFiles().stream();
    }

    @Test
    void allFixturesPresent() {
        List<Path> files = Dl4jFixtures.modelFiles();
        assertTrue(files.size() >= 13, "fixtures found: " + files);
        for (Path f : files) {
            assertTrue(Files.isRegularFile(Dl4jFixtures.expectedTsv(f)), "missing tsv for " + f);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void snapshotMatchesExpectedTsv(Path fb) {
        String expected = Dl4jSnapshot.readTsv(Dl4jFixtures.expectedTsv(fb));
        assertEquals(expected, Dl4jSnapshot.load(fb).toTsv(), fb.toString());
    }

    /**
     * dtypes.fb stores bf16 as big-endian bytes {@code 3e08 3ecf 3f46 3f75 3f77 3f5b} (0.133, 0.404,
     * 0.773, 0.957, 0.965, 0.855). M2.1 copies them into memory without swapping, so DL4J holds the
     * stored bytes unchanged as little-endian values (garbage like 5.7e-34), and the fixture hash is
     * the hash of those raw stored bytes.
     */
    @Test
    void bfloat16IsReadWithoutByteSwap() {
        SameDiff sd = Dl4jSnapshot.loadSameDiff(Dl4jFixtures.model("dtypes.fb"));
        INDArray bf16 = sd.getArrForVarName("bf16");
        byte[] stored = HexFormat.of().parseHex("3e083ecf3f463f753f773f5b");
        assertArrayEquals(stored, Dl4jSnapshot.cOrderLeBytes(bf16));
        assertEquals("471f43ad5c4c86c8", Dl4jSnapshot.sha16(bf16));
        byte[] swapped = HexFormat.of().parseHex("083ecf3e463f753f773f5b3f");
        assertEquals("557eb259f1da9616", Dl4jSnapshot.sha256Hex(swapped).substring(0, 16));
        assertTrue(Math.abs(bf16.getDouble(0)) < 1e-30, "M2.1 should see a garbage value, not 0.133");
    }

    @Test
    void hashDefinitionOnHandMadeArrays() {
        // FLOAT c and f order hash the same C-order LE bytes
        INDArray c = Nd4j.createFromArray(new float[][]{{1, 2}, {3, 4}});
        byte[] expected = HexFormat.of().parseHex("0000803f000000400000404000008040");
        assertArrayEquals(expected, Dl4jSnapshot.cOrderLeBytes(c));
        assertArrayEquals(expected, Dl4jSnapshot.cOrderLeBytes(c.dup('f')));
        assertEquals(Dl4jSnapshot.sha256Hex(expected), Dl4jSnapshot.sha256Hex(c.dup('f')));
        // a view (transposed) hashes its logical elements
        assertArrayEquals(HexFormat.of().parseHex("0000803f000040400000004000008040"),
                Dl4jSnapshot.cOrderLeBytes(c.transpose()));
        // one byte per BOOL, two per HALF, eight per LONG
        assertArrayEquals(new byte[]{1, 0, 1}, Dl4jSnapshot.cOrderLeBytes(Nd4j.createFromArray(true, false, true)));
        assertArrayEquals(HexFormat.of().parseHex("003c"),
                Dl4jSnapshot.cOrderLeBytes(Nd4j.createFromArray(1f).castTo(DataType.HALF)));
        assertArrayEquals(HexFormat.of().parseHex("0700000000000000"), Dl4jSnapshot.cOrderLeBytes(Nd4j.scalar(7L)));
        // empty hashes no bytes
        assertEquals("e3b0c44298fc1c14", Dl4jSnapshot.sha16(Nd4j.empty(DataType.FLOAT)));
        assertEquals("e3b0c44298fc1c14", Dl4jSnapshot.sha16(Nd4j.create(DataType.INT, 0, 3)));
        // UTF8: offsets then bytes
        byte[] utf8 = Dl4jSnapshot.cOrderLeBytes(Nd4j.create("ab", "", "c"));
        assertArrayEquals(HexFormat.of().parseHex(
                "0000000000000000" + "0200000000000000" + "0200000000000000" + "0300000000000000" + "616263"), utf8);
        assertNotEquals(Dl4jSnapshot.sha16(Nd4j.create("ab", "", "c")), Dl4jSnapshot.sha16(Nd4j.create("a", "b", "c")));
    }

    @Test
    void bytesOfOneVariableFromAFile() {
        Path fb = Dl4jFixtures.model("dtypes.fb");
        assertArrayEquals(HexFormat.of().parseHex("01ff64"), Dl4jSnapshot.cOrderLeBytes(fb, "i8"));
        assertArrayEquals(HexFormat.of().parseHex("01000000feffffff03000000ffffff7f"),
                Dl4jSnapshot.cOrderLeBytes(fb, "i32"));
        Dl4jSnapshot.Entry e = Dl4jSnapshot.load(fb).get("forder");
        assertEquals(e.sha256(), Dl4jSnapshot.sha256Hex(Dl4jSnapshot.cOrderLeBytes(fb, "forder")));
        assertEquals("74042d3f3ff12c61", e.sha16());
    }
}
