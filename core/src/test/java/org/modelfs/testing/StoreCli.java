package org.modelfs.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.modelfs.testing.CliRun.run;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.modelfs.ModelFileSystems;

/**
 * The CLI's differential test of a store: the reading commands ({@code info, ls, tree, verify,
 * cat} of every file, {@code diff} against the local file, {@code cp} out, {@code convert} out)
 * on a model in a store print exactly what they print on the same model in a local file (the
 * store's spelling of the model replaced by the local one), exit the same, and write the same
 * parameters.
 */
public final class StoreCli {
  private StoreCli() {}

  /** Asserts the commands on {@code remote} (a store's URI) do what they do on {@code local}; {@code tmp}: scratch. */
  public static void assertSameAsLocal(Path local, String remote, Path tmp) throws IOException {
    String l = local.toString();
    List<String[]> commands = new ArrayList<>();
    commands.add(new String[] {"info", "M"});
    commands.add(new String[] {"ls", "M", "/"});
    commands.add(new String[] {"tree", "M"});
    commands.add(new String[] {"verify", "M"});
    commands.add(new String[] {"diff", l, "M"});
    for (String file : files(local)) {
      commands.add(new String[] {"cat", "M", file});
    }
    for (String[] c : commands) {
      CliRun.Result want = run(with(c, l));
      CliRun.Result got = run(with(c, remote));
      String what = String.join(" ", with(c, remote));
      assertEquals(want.code(), got.code(), what + ": the exit code; " + got.err());
      assertEquals(shown(want.err(), l), shown(got.err(), remote), what + ": stderr");
      if (c[0].equals("cat")) {
        assertArrayEquals(want.bytes(), got.bytes(), what + ": stdout");
      } else {
        assertEquals(shown(want.out(), l), shown(got.out(), remote), what + ": stdout");
      }
    }
    for (String format : List.of("sdnb", "container")) {
      Path fromLocal = tmp.resolve("from-local." + (format.equals("sdnb") ? "sdnb" : "sdmc"));
      Path fromStore = tmp.resolve("from-store." + (format.equals("sdnb") ? "sdnb" : "sdmc"));
      CliRun.Result want = run("convert", l, fromLocal.toString(), "--format", format, "-q");
      CliRun.Result got = run("convert", remote, fromStore.toString(), "--format", format, "-q");
      String what = "convert " + remote + " --format " + format;
      assertEquals(want.code(), got.code(), what + ": the exit code; " + got.err());
      assertEquals(shown(want.err().replace(fromLocal.toString(), "OUT"), l),
          shown(got.err().replace(fromStore.toString(), "OUT"), remote), what + ": stderr");
      if (want.code() == 0) {
        // the same size, and the same parameters (an SDNB written from an fb gets a 'created' time of its own)
        assertEquals(Files.size(fromLocal), Files.size(fromStore), what + ": the size of the file written");
        CliRun.Result d = run("diff", fromLocal.toString(), fromStore.toString());
        assertEquals(0, d.code(), what + ": the file written: " + d.out() + d.err());
      }
    }
  }

  /** The regular files of the mounted model (at most 12: each cat mounts the model; one of 10,000 parameters is sampled). */
  private static List<String> files(Path model) throws IOException {
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"));
        Stream<Path> s = Files.walk(fs.getPath("/"))) {
      return s.filter(Files::isRegularFile).map(Path::toString).limit(12).toList();
    }
  }

  /** {@code text} with the model's spellings (as given, without credentials) as MODEL. */
  private static String shown(String text, String model) {
    return text.replace(model, "MODEL").replace(model.replaceFirst("//[^/@]*@", "//"), "MODEL");
  }

  private static String[] with(String[] command, String model) {
    String[] out = command.clone();
    for (int i = 0; i < out.length; i++) {
      if (out[i].equals("M")) {
        out[i] = model;
      }
    }
    return out;
  }
}
