package org.modelfs.fuse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;

/**
 * A differential trial of the write side (issue 31's hostile trial): {@code posix_steps.py} runs
 * the same programs' write patterns on a plain directory (a copy of the tag: tmpfs or ext4, the
 * reference) and on the tag of a mounted model, and both must print the same — each step's
 * result or errno, then every file with its size and hash. Then the model, committed at unmount
 * and mounted read-only, holds the plain directory's files. The steps include what failed before
 * (bytes written after a rename dropped at close, rm of an open file renamed to .fuse_hidden
 * inside the model, names over NAME_MAX accepted, rename onto a non-empty directory EEXIST).
 */
class MountPosixDiffTest {
  @TempDir
  Path tmp;

  @BeforeAll
  static void fuse() {
    KernelMount.assumeFuse();
    assumeTrue(KernelMount.sh("command -v python3 && command -v rsync").exit() == 0, "python3 or rsync missing");
  }

  @Test
  void theMountAnswersAsAPlainDirectory() throws Exception {
    Path model = KernelMount.sdzModel(tmp);
    Path steps = Path.of(MountPosixDiffTest.class.getResource("posix_steps.py").toURI());
    String plain;
    try (KernelMount m = new KernelMount(model, tmp.resolve("m"))) {
      m.run("cp -r m/tags/default plain").ok();
      plain = m.run("python3 '" + steps + "' plain").ok().out();
      String mounted = m.run("python3 '" + steps + "' m/tags/default").ok().out();
      assertEquals(List.of(), differing(plain, mounted), "lines of the plain run / of the mount's\n" + m.logText());
      assertFalse(m.logText().contains("refused at close"), m.logText());
      assertEquals(0, m.unmount(), m.logText());
    }
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true")); Stream<Path> s = Files.walk(fs.getPath("/"))) {
      assertEquals(0, s.filter(p -> String.valueOf(p.getFileName()).startsWith(".fuse_hidden")).count(), "libfuse's hidden names");
    }
    try (KernelMount m = new KernelMount(model, tmp.resolve("m"), "--read-only")) {
      String files = plain.substring(plain.indexOf("\nmetadata/") + 1);
      assertEquals(List.of(), differing(files, m.run("python3 '" + steps + "' --list m/tags/default").ok().out()));
    }
  }

  /** The lines where two outputs differ, each as "plain line / mounted line". */
  private static List<String> differing(String plain, String mounted) {
    String[] a = plain.split("\n", -1);
    String[] b = mounted.split("\n", -1);
    List<String> out = new ArrayList<>();
    for (int i = 0; i < Math.max(a.length, b.length); i++) {
      String x = i < a.length ? a[i] : "(none)";
      String y = i < b.length ? b[i] : "(none)";
      if (!x.equals(y)) {
        out.add(x + " / " + y);
      }
    }
    return out;
  }
}
