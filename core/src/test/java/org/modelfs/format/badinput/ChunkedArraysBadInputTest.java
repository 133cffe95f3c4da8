package org.modelfs.format.badinput;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.modelfs.format.badinput.BadInput.assertOpensOrRefused;
import static org.modelfs.format.badinput.BadInput.prefix;
import static org.modelfs.format.badinput.BadInput.put;
import static org.modelfs.testing.HandArrays.*;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.modelfs.format.badinput.BadInput.Case;
import org.modelfs.testing.HandArrays.Chunk;

/**
 * Chunked and appended FlatArrays and older-layout UTF8 buffers (docs/FORMATS.md §3.8, §10)
 * under hostile input: every prefix and thousands of fixed-seed mutations of hand-built fb and
 * SDNB files holding them — each opens with every array readable, or is refused with an
 * IOException naming the file and an offset.
 */
class ChunkedArraysBadInputTest {
  private Path mem;

  @BeforeEach
  void memory() throws IOException {
    mem = BadInput.memoryDir();
  }

  @AfterEach
  void closeMemory() throws IOException {
    mem.getFileSystem().close();
  }

  static final Map<String, byte[]> SAMPLES = samples();

  @ParameterizedTest
  @ValueSource(strings = {"chunked.fb", "appended.fb", "older-utf8.fb", "chunked.sdnb"})
  void sampleOpensAndReads(String name) throws IOException {
    assertNull(BadInput.openAndReadAll(put(mem, name, SAMPLES.get(name)), name), name);
  }

  @ParameterizedTest
  @ValueSource(strings = {"chunked.fb", "appended.fb", "older-utf8.fb", "chunked.sdnb"})
  void everyPrefix(String name) {
    byte[] full = SAMPLES.get(name);
    Path p = mem.resolve(name);
    List<Case> cases = new ArrayList<>();
    for (int n = 0; n < full.length; n++) {
      int len = n;
      cases.add(new Case(name + " cut to " + len + " bytes", () -> {
        put(mem, name, prefix(full, len));
        assertOpensOrRefused(p, name + " cut to " + len + " bytes");
      }));
    }
    BadInput.runAll(Duration.ofSeconds(20), cases);
  }

  @ParameterizedTest
  @ValueSource(strings = {"chunked.fb", "appended.fb", "older-utf8.fb", "chunked.sdnb"})
  void randomByteDamage(String name) {
    byte[] original = SAMPLES.get(name);
    Random rnd = new Random(0xC4A7 ^ name.hashCode());
    Path p = mem.resolve(name);
    List<Case> cases = new ArrayList<>();
    for (int i = 0; i < 1500; i++) {
      byte[] m = FbBadInputTest.mutate(original, rnd);
      String what = name + " mutation #" + i;
      cases.add(new Case(what, () -> {
        put(mem, name, m);
        assertOpensOrRefused(p, what);
      }));
    }
    BadInput.runAll(Duration.ofSeconds(30), cases);
  }

  @Test
  void chunkCountAboveTheLimitIsRefused() throws IOException {
    List<Chunk> many = new ArrayList<>();
    for (int i = 0; i <= (1 << 20); i++) {
      many.add(new Chunk(i, null));
    }
    Path p = put(mem, "many.fb", fb(List.of(new Var("w", FLOAT, VARIABLE, null,
        array(shapeInfo(8192, 0), FLOAT, 1, null, many, null, 0, 0)))));
    BadInput.assertFormatError(p, "1,048,577 chunks");
  }
}
