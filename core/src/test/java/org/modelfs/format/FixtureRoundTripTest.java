package org.modelfs.format;

import org.modelfs.store.ModelFiles;

import org.modelfs.model.ModelFormat;
import org.modelfs.container.Models;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.modelfs.model.Model;
import org.modelfs.testing.Fixtures;
import org.modelfs.testing.ModelTsv;

/**
 * Every DL4J-written fixture, read directly and after conversion by our writer into every
 * format, shows exactly what DL4J 1.0.0-M2.1 itself reads ({@code .expected.tsv}).
 */
public class FixtureRoundTripTest {
  @TempDir Path tmp;

  /** Target formats: name, options, output file name. */
  public static List<Object[]> targets() {
    return List.of(
        new Object[] {"fb", WriteOptions.of(ModelFormat.FB), "out.fb"},
        new Object[] {"sdnb", WriteOptions.of(ModelFormat.SDNB), "out.sdnb"},
        new Object[] {"sharded", WriteOptions.of(ModelFormat.SHARDED_SDNB).withMaxShardBytes(200), "out.sdnb"},
        new Object[] {"sdz-stored", WriteOptions.of(ModelFormat.SDZ), "out.sdz"},
        new Object[] {"sdz-deflate", WriteOptions.of(ModelFormat.SDZ).withDeflate(true), "out.sdz"},
        new Object[] {"sdz-sharded", WriteOptions.of(ModelFormat.SDZ).withMaxShardBytes(200), "out.sdz"},
        new Object[] {"zip-tags", WriteOptions.of(ModelFormat.ZIP_TAGS), "out.zip"},
        new Object[] {"zip-tags-deflate", WriteOptions.of(ModelFormat.ZIP_TAGS).withDeflate(true), "out.zip"},
        new Object[] {"container", WriteOptions.of(ModelFormat.CONTAINER), "out.sdmc"},
        new Object[] {"container-deflate", WriteOptions.of(ModelFormat.CONTAINER).withDeflate(true), "out.sdmc"},
        new Object[] {"container-sharded", WriteOptions.of(ModelFormat.SHARDED_CONTAINER).withMaxShardBytes(200),
            "out.sdmc"},
        new Object[] {"container-sharded-deflate",
            WriteOptions.of(ModelFormat.SHARDED_CONTAINER).withMaxShardBytes(200).withDeflate(true), "out.sdmc"},
        new Object[] {"container-deflate-9", WriteOptions.of(ModelFormat.CONTAINER).withDeflate(true).withLevel(9),
            "out.sdmc"});
  }

  static List<Arguments> cases() throws Exception {
    List<Arguments> out = new ArrayList<>();
    for (Path fb : Fixtures.all()) {
      out.add(Arguments.of(Fixtures.dir().relativize(fb).toString(), "original", null, null));
      for (Object[] t : targets()) {
        out.add(Arguments.of(Fixtures.dir().relativize(fb).toString(), t[0], t[1], t[2]));
      }
    }
    return out;
  }

  @ParameterizedTest(name = "{0} as {1}")
  @MethodSource("cases")
  void readsWhatDl4jReads(String fixture, String target, WriteOptions opts, String outName) throws Exception {
    Path fb = Fixtures.get(fixture);
    String expected = ModelTsv.read(Fixtures.expected(fb));
    Path file = fb;
    if (opts != null) {
      file = tmp.resolve(outName);
      try (Model m = Models.open(fb)) {
        ModelFiles.write(m.newest(), file, opts);
      }
    }
    try (Model m = Models.open(file)) {
      assertEquals(expected, ModelTsv.of(m.newest()), fixture + " read as " + target);
    }
  }
}
