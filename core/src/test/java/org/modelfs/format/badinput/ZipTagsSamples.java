package org.modelfs.format.badinput;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.UncheckedIOException;
import java.util.Arrays;
import org.modelfs.store.ModelFiles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.modelfs.ModelFileSystems;
import org.modelfs.model.ModelFormat;
import org.modelfs.format.ModelFormatException;
import org.modelfs.container.ModelWriter;
import org.modelfs.container.Models;
import org.modelfs.format.WriteOptions;
import org.modelfs.format.badinput.Zips.Item;
import org.modelfs.model.Model;
import org.modelfs.model.Tag;

/**
 * A valid two-tag zip-tags sample ({@code v1}, and {@code v2} sharing all its arrays, from the
 * {@code mlp_adam} fixture) as editable entries, and the checks every refused zip-tags input must
 * pass: a {@link ModelFormatException} naming file, structure and offset, and no inflated
 * temporary file ({@code modelfs-ziptags-*}) left behind.
 */
final class ZipTagsSamples {
  static final String TEMP_PREFIX = "modelfs-ziptags-";
  private static byte[] written;

  private ZipTagsSamples() {}

  /** The sample as {@link ModelWriter#writeTags} writes it (STORED). */
  static synchronized byte[] written() throws IOException {
    if (written == null) {
      try (FileSystem mem = Jimfs.newFileSystem(Configuration.unix())) {
        Path fb = Files.write(mem.getPath("/mlp_adam.fb"), BadInput.fixture("mlp_adam.fb"));
        Path out = mem.getPath("/sample.zip");
        try (Model m = Models.open(fb)) {
          Tag t = m.newest();
          Tag v1 = new Tag("v1", t.graph(), t.variables(), t.updater(), t.trainingConfig(), Map.of());
          Tag v2 = new Tag("v2", t.graph(), t.variables(), t.updater(), t.trainingConfig(),
              Map.of("model.name", "two words", "note", "100%"));
          ModelFiles.writeTags(List.of(v1, v2), out, WriteOptions.of(ModelFormat.ZIP_TAGS));
        }
        written = Files.readAllBytes(out);
      }
    }
    return written.clone();
  }

  /** The sample's entries in zip order, as a fresh copy to edit. */
  static Entries entries() throws IOException {
    byte[] z = written();
    Entries e = new Entries();
    for (Zips.Info i : Zips.entries(z)) {
      e.map.put(i.name(), Arrays.copyOfRange(z, i.data(), Math.toIntExact(i.data() + i.csize())));
    }
    return e;
  }

  /** Zip entries by name, in order; edits return {@code this}. */
  static final class Entries {
    final LinkedHashMap<String, byte[]> map = new LinkedHashMap<>();

    byte[] get(String name) {
      byte[] b = map.get(name);
      if (b == null) {
        throw new IllegalStateException("the sample has no entry " + name + ": " + map.keySet());
      }
      return b;
    }

    String text(String name) {
      return new String(get(name), StandardCharsets.UTF_8);
    }

    Entries put(String name, byte[] content) {
      map.put(name, content);
      return this;
    }

    Entries text(String name, String content) {
      return put(name, content.getBytes(StandardCharsets.UTF_8));
    }

    Entries remove(String name) {
      get(name);
      map.remove(name);
      return this;
    }

    /** Line {@code n} (1-based) of a text entry replaced by {@code line}. */
    Entries line(String name, int n, String line) {
      List<String> lines = new ArrayList<>(List.of(text(name).split("\n", -1)));
      lines.set(n - 1, line);
      return text(name, String.join("\n", lines));
    }

    /** {@code line} appended to a text entry. */
    Entries append(String name, String line) {
      return text(name, text(name) + line + "\n");
    }

    List<Item> items(boolean deflate) {
      List<Item> out = new ArrayList<>();
      map.forEach((n, b) -> out.add(new Item(n, deflate ? ZipArchiveEntry.DEFLATED : ZipArchiveEntry.STORED,
          o -> o.write(b), true)));
      return out;
    }

    Path write(Path dir, String file, boolean deflate) throws IOException {
      return Zips.write(dir.resolve(file), items(deflate));
    }
  }

  // ---- refusal checks ----------------------------------------------------------------------------

  /**
   * Asserts {@code Models.open(zip)} is refused with a ModelFormatException naming the file and an
   * offset, whose message contains every one of {@code parts}, and that no temporary file is left.
   */
  static ModelFormatException refused(Path zip, String what, String... parts) {
    Set<Path> before = temps();
    ModelFormatException e = BadInput.assertFormatError(zip, what);
    assertParts(e, what, parts);
    assertNoTempLeft(before, what);
    return e;
  }

  /** As {@link #refused}, mounting with {@link ModelFileSystems#open(Path)}. */
  static ModelFormatException refusedByMount(Path zip, String what, String... parts) {
    Set<Path> before = temps();
    ModelFormatException e = BadInput.timed(() -> assertThrows(ModelFormatException.class, () -> {
      try (FileSystem fs = ModelFileSystems.open(zip)) {
        // mounted: the assertion fails
      }
    }, what + ": mounted, but must be refused"));
    BadInput.assertGoodMessage(e, what, List.of(zip.getFileName().toString()));
    assertParts(e, what, parts);
    assertNoTempLeft(before, what);
    return e;
  }

  static void assertParts(Exception e, String what, String... parts) {
    String msg = String.valueOf(e.getMessage());
    for (String p : parts) {
      assertTrue(msg.contains(p), what + ": the message must contain \"" + p + "\", but is: " + msg);
    }
  }

  // ---- temporary files ---------------------------------------------------------------------------

  /** The zip-tags reader's temporary files now in {@code java.io.tmpdir}. */
  static Set<Path> temps() {
    Path dir = Path.of(System.getProperty("java.io.tmpdir"));
    try (Stream<Path> s = Files.list(dir)) {
      return new TreeSet<>(s.filter(p -> p.getFileName().toString().startsWith(TEMP_PREFIX)).toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * No temporary file appeared since {@code before}, and none is open in this process. Other
   * processes (other builds of this project) share the directory: a new file that another
   * process holds open is theirs, not a leak.
   */
  static void assertNoTempLeft(Set<Path> before, String what) {
    assertEquals(Set.of(), newTemps(before), what + ": temporary files left behind");
    assertEquals(0, new SdzBadInputTest.TempWatch(TEMP_PREFIX, false).openNow(),
        what + ": a temporary file of the refused zip is still open");
  }

  /** Temporary files that appeared since {@code before}, except those another process holds open. */
  static Set<Path> newTemps(Set<Path> before) {
    Set<Path> now = temps();
    now.removeAll(before);
    now.removeIf(ZipTagsSamples::openElsewhere);
    return now;
  }

  /** True if a process other than this one has {@code file} open (Linux {@code /proc}). */
  private static boolean openElsewhere(Path file) {
    Path proc = Path.of("/proc");
    String self = String.valueOf(ProcessHandle.current().pid());
    try (Stream<Path> pids = Files.list(proc)) {
      for (Path pid : (Iterable<Path>) pids::iterator) {
        String n = pid.getFileName().toString();
        if (n.equals(self) || !n.chars().allMatch(Character::isDigit)) {
          continue;
        }
        try (Stream<Path> fds = Files.list(pid.resolve("fd"))) {
          for (Path fd : (Iterable<Path>) fds::iterator) {
            try {
              if (Files.readSymbolicLink(fd).equals(file)) {
                return true;
              }
            } catch (IOException | RuntimeException ignored) {
              // closed meanwhile
            }
          }
        } catch (IOException | RuntimeException ignored) {
          // gone, or not ours to read
        }
      }
    } catch (IOException | RuntimeException e) {
      return false; // no /proc: every new file counts
    }
    return false;
  }
}
