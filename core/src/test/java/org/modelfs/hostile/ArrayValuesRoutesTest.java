package org.modelfs.hostile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.CommitRefusedException;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.testing.Fixtures;
import org.modelfs.verify.Problem;
import org.modelfs.verify.Verifier;

/**
 * Element values DL4J does not load as written (oracle regression scripts 23–26, 36, 37), by
 * every route: a BOOL byte other than 0 or 1 and a HALF NaN other than 0x7e00 written in a
 * session are refused at the commit (Files.write, cli import), a stored array retyped to one at
 * the setattr, a stored one reported by verify; an empty array given a shape with elements needs
 * its bytes ({@code model.ArrayRules}).
 */
class ArrayValuesRoutesTest {
  @TempDir Path tmp;

  private int copies;

  private Path dtypes() throws IOException {
    return Files.copy(Fixtures.get("dtypes.fb"), tmp.resolve("dtypes" + copies++ + ".fb"));
  }

  private static void refusedAtCommit(Path model, GraphRulesRoutesTest.MountEdit edit, String says) throws IOException {
    byte[] before = Files.readAllBytes(model);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      edit.apply(fs);
      CommitRefusedException e = assertThrows(CommitRefusedException.class, () -> ((JournaledFileSystem) fs).commit());
      assertTrue(e.getMessage().contains(says), e.getMessage());
      ((JournaledFileSystem) fs).rollback();
    }
    assertArrayEquals(before, Files.readAllBytes(model));
  }

  private static void commits(Path model, GraphRulesRoutesTest.MountEdit edit) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(model)) {
      edit.apply(fs);
      ((JournaledFileSystem) fs).commit();
    }
  }

  @Test
  void aBoolByteOtherThan0Or1WrittenIsRefused() throws IOException {
    byte[] b = new byte[128];
    b[5] = 3;
    refusedAtCommit(dtypes(), fs -> Files.write(fs.getPath("/params/bool"), b),
        "/tags/default/params/bool: BOOL element 5 is 0x03: DL4J reads a BOOL as 0 or 1");
    b[5] = 1;
    commits(dtypes(), fs -> Files.write(fs.getPath("/params/bool"), b));
  }

  @Test
  void aHalfNanWithAPayloadWrittenIsRefused() throws IOException {
    ByteBuffer b = ByteBuffer.allocate(14).order(ByteOrder.LITTLE_ENDIAN);
    b.putShort(0, (short) 0x7e00).putShort(4, (short) 0xffff);
    refusedAtCommit(dtypes(), fs -> Files.write(fs.getPath("/params/f16"), b.array()),
        "/tags/default/params/f16: HALF element 2 is the NaN 0xffff: DL4J loads every HALF NaN as 0x7e00");
    b.putShort(4, (short) 0xfe00); // a negative quiet NaN is a payload too
    refusedAtCommit(dtypes(), fs -> Files.write(fs.getPath("/params/f16"), b.array()), "HALF element 2 is the NaN 0xfe00");
    b.putShort(4, (short) 0x7c00); // +Inf is kept
    commits(dtypes(), fs -> Files.write(fs.getPath("/params/f16"), b.array()));
  }

  @Test
  void aStoredArrayRetypedToHalfWithANanPayloadIsRefusedAtTheSetattr() throws IOException {
    Path m = dtypes();
    byte[] before = Files.readAllBytes(m);
    try (FileSystem fs = ModelFileSystems.open(m)) {
      Path i16 = fs.getPath("/params/i16");
      FileSystemException e = assertThrows(FileSystemException.class, () -> Files.setAttribute(i16, "samediff:dtype", "HALF"));
      assertTrue(e.getMessage().contains("/params/i16: its stored bytes as HALF: HALF element 1 is the NaN 0xffff"), e.getMessage());
      assertTrue(e.getMessage().contains("write the new bytes first, then change the dtype"), e.getMessage());
      // the order the message asks for works
      Files.write(i16, new byte[6]);
      Files.setAttribute(i16, "samediff:dtype", "HALF");
      ((JournaledFileSystem) fs).commit();
    }
    assertNotEquals(before.length, 0);
  }

  @Test
  void anImportedBoolNpyWithOtherBytesIsRefused() throws IOException {
    Path m = dtypes();
    byte[] before = Files.readAllBytes(m);
    byte[] data = {1, 0, (byte) 0xfe};
    Path npy = npy(tmp.resolve("b.npy"), "|b1", "(3,)", data);
    GraphRulesRoutesTest.Result r = GraphRulesRoutesTest.run("import", npy.toString(), m + ":params/bool");
    assertNotEquals(0, r.code(), r.out());
    assertTrue(r.err().contains("BOOL element 2 is 0xfe"), r.err());
    assertArrayEquals(before, Files.readAllBytes(m));
  }

  @Test
  void verifyReportsStoredBoolAndHalfValues() throws IOException {
    Path m = dtypes();
    byte[] bool = new byte[128];
    for (int i = 0; i < bool.length; i++) {
      bool[i] = (byte) (Integer.bitCount(i * 37) & 1);
    }
    ByteBuffer half = ByteBuffer.allocate(14).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < 7; i++) {
      half.putShort(2 * i, (short) (0x1234 + i));
    }
    commits(m, fs -> {
      Files.write(fs.getPath("/params/bool"), bool);
      Files.write(fs.getPath("/params/f16"), half.array());
    });
    // then damaged where it is stored, as a bad writer or a bit flip would
    byte[] file = Files.readAllBytes(m);
    int boolAt = indexOf(file, bool);
    int halfAt = indexOf(file, half.array());
    boolean bigEndian = halfAt < 0;
    if (bigEndian) {
      ByteBuffer be = ByteBuffer.allocate(14);
      for (int i = 0; i < 7; i++) {
        be.putShort(2 * i, (short) (0x1234 + i));
      }
      halfAt = indexOf(file, be.array());
    }
    assertTrue(boolAt >= 0 && halfAt >= 0);
    file[boolAt + 9] = 2;
    file[halfAt + 6] = (byte) (bigEndian ? 0x7e : 1);
    file[halfAt + 7] = (byte) (bigEndian ? 1 : 0x7e);
    Files.write(m, file);
    List<Problem> got = Verifier.verify(m, Verifier.Options.defaults()).problems();
    assertTrue(got.stream().anyMatch(p -> p.path().equals("/tags/default/params/bool")
        && p.message().startsWith("BOOL element 9 is 0x02")), got.toString());
    assertTrue(got.stream().anyMatch(p -> p.path().equals("/tags/default/params/f16")
        && p.message().startsWith("HALF element 3 is the NaN 0x7e01")), got.toString());
  }

  @Test
  void anEmptyArrayGivenAShapeWithElementsNeedsItsBytes() throws IOException {
    Path m = Files.copy(Fixtures.get("tf-import/non2d_1.fb"), tmp.resolve("non2d_1.fb"));
    refusedAtCommit(m, fs -> Files.setAttribute(fs.getPath("/params/Reshape/shape"), "samediff:shape", "8,3"),
        "/tags/default/params/Reshape%2Fshape: holds 0 bytes, but FLOAT[8, 3] needs 96");
    commits(m, fs -> {
      Path p = fs.getPath("/params/Reshape/shape");
      Files.setAttribute(p, "samediff:shape", "8,3");
      Files.write(p, new byte[96]);
    });
    assertEquals(0, Verifier.verify(m, Verifier.Options.defaults()).problems().size());
  }

  @Test
  void emptyArraysAsDl4jWritesThemStayValid() throws IOException {
    for (Path f : Fixtures.all()) {
      List<Problem> got = Verifier.verify(f, Verifier.Options.defaults()).problems();
      assertTrue(got.stream().noneMatch(p -> p.message().contains("needs") || p.message().contains("element")),
          f + ": " + got);
    }
  }

  private static int indexOf(byte[] in, byte[] what) {
    int found = -1;
    for (int i = 0; i + what.length <= in.length; i++) {
      if (Arrays.equals(in, i, i + what.length, what, 0, what.length)) {
        assertEquals(-1, found, "the array's bytes occur once in the file");
        found = i;
      }
    }
    return found;
  }

  static Path npy(Path out, String descr, String shape, byte[] data) throws IOException {
    String dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
    int pad = 64 - (10 + dict.length() + 1) % 64;
    String header = dict + " ".repeat(pad) + "\n";
    ByteBuffer b = ByteBuffer.allocate(10 + header.length() + data.length).order(ByteOrder.LITTLE_ENDIAN);
    b.put((byte) 0x93).put("NUMPY".getBytes(StandardCharsets.US_ASCII)).put((byte) 1).put((byte) 0);
    b.putShort((short) header.length()).put(header.getBytes(StandardCharsets.US_ASCII)).put(data);
    return Files.write(out, b.array());
  }
}
