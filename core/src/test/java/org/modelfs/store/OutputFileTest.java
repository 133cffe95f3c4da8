package org.modelfs.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link OutputFile}'s rule, file by file (the commands over it: cli.OutputFilesTest). */
class OutputFileTest {
  @TempDir Path tmp;

  private static OutputFile.Writer bytes(String s) {
    return out -> out.write(ByteBuffer.wrap(s.getBytes()));
  }

  private Set<String> names() throws IOException {
    try (Stream<Path> s = Files.list(tmp)) {
      return new TreeSet<>(s.map(p -> p.getFileName().toString()).toList());
    }
  }

  @Test
  void aTemporaryIsNeverMoreReadableThanTheFileItReplaces() throws IOException {
    Path f = Files.write(tmp.resolve("secret.npy"), "old".getBytes());
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
    List<String> seen = new ArrayList<>();
    OutputFile.write(f, out -> {
      try (Stream<Path> s = Files.list(tmp)) {
        for (Path p : (Iterable<Path>) s::iterator) {
          if (!p.equals(f)) {
            seen.add(PosixFilePermissions.toString(Files.getPosixFilePermissions(p)));
          }
        }
      }
      out.write(ByteBuffer.wrap("new".getBytes()));
    });
    assertEquals(List.of("rw-------"), seen, "the temporary while it is written");
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
    assertArrayEquals("new".getBytes(), Files.readAllBytes(f));
    assertEquals(Set.of("secret.npy"), names());
  }

  @Test
  void aFailedWriterLeavesTheFileAsItWasAndNoTemporary() throws IOException {
    Path f = Files.write(tmp.resolve("w.npy"), "old".getBytes());
    IOException e = assertThrows(IOException.class, () -> OutputFile.write(f, out -> {
      out.write(ByteBuffer.wrap("half".getBytes()));
      throw new IOException("the array ended early");
    }));
    assertEquals("the array ended early", e.getMessage());
    assertArrayEquals("old".getBytes(), Files.readAllBytes(f));
    assertEquals(Set.of("w.npy"), names());
  }

  @Test
  void severalLinksAreWrittenIntoTheSameInode() throws IOException {
    Path f = Files.write(tmp.resolve("a.bin"), "old".getBytes());
    Path g = Files.createLink(tmp.resolve("b.bin"), f);
    Object ino = Files.getAttribute(f, "unix:ino");
    OutputFile.write(f, bytes("new!"));
    assertEquals(ino, Files.getAttribute(f, "unix:ino"));
    assertArrayEquals("new!".getBytes(), Files.readAllBytes(g));
    assertEquals(Set.of("a.bin", "b.bin"), names());
  }

  @Test
  void aDanglingLinkIsRefusedAndNothingIsCreated() throws IOException {
    Path link = Files.createSymbolicLink(tmp.resolve("out.npy"), Path.of("missing", "x.npy"));
    FileSystemException e = assertThrows(FileSystemException.class, () -> OutputFile.write(link, bytes("x")));
    assertTrue(e.getMessage().contains("dangling symbolic link"), e.getMessage());
    assertTrue(e.getMessage().contains(link.toString()), e.getMessage());
    assertTrue(Files.isSymbolicLink(link));
    assertEquals(Set.of("out.npy"), names());
  }

  @Test
  void aChainOfLinksIsFollowedToTheFile() throws IOException {
    Path real = Files.write(Files.createDirectory(tmp.resolve("d")).resolve("real.bin"), "old".getBytes());
    Path one = Files.createSymbolicLink(tmp.resolve("one"), real);
    Path two = Files.createSymbolicLink(tmp.resolve("two"), one.getFileName());
    OutputFile.write(two, bytes("new"));
    assertTrue(Files.isSymbolicLink(two) && Files.isSymbolicLink(one));
    assertArrayEquals("new".getBytes(), Files.readAllBytes(real));
    assertEquals(real.toRealPath(), OutputFile.resolve(two).path());
  }

  @Test
  void directoriesAndMissingDirectoriesAreRefusedNamingTheFile() {
    FileSystemException dir = assertThrows(FileSystemException.class, () -> OutputFile.write(tmp, bytes("x")));
    assertTrue(dir.getMessage().contains("is a directory"), dir.getMessage());
    Path nowhere = tmp.resolve("no").resolve("w.npy");
    NoSuchFileException missing = assertThrows(NoSuchFileException.class, () -> OutputFile.write(nowhere, bytes("x")));
    assertTrue(missing.getMessage().contains(nowhere.toString()) && missing.getMessage().contains("directory"),
        missing.getMessage());
  }

  @Test
  void aNewFileIsCreatedAndTheKindsAreTold() throws IOException {
    Path f = tmp.resolve("new.npy");
    assertEquals(OutputFile.Kind.ABSENT, OutputFile.resolve(f).kind());
    OutputFile.write(f, bytes("abc"));
    assertTrue(Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS));
    assertArrayEquals("abc".getBytes(), Files.readAllBytes(f));
    assertEquals(OutputFile.Kind.REGULAR, OutputFile.resolve(f).kind());
    assertFalse(OutputFile.resolve(f).writeInto());
    assertEquals(OutputFile.Kind.STREAM, OutputFile.resolve(Path.of("/dev/null")).kind());
  }
}
