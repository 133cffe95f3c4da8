package org.modelfs.fuse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;

/**
 * What issue 31's hostile trial found beyond a plain directory's answers (MountPosixDiffTest has
 * those): a second writable mount of one model, a rename the model has no place for, a file
 * removed while a reader holds it and a commit meanwhile, and a refused commit whose changed
 * files include one no disk can name.
 */
class MountHostileTest {
  @TempDir
  Path tmp;

  @BeforeAll
  static void fuse() {
    KernelMount.assumeFuse();
  }

  /**
   * A second writable mount of a mounted model is refused when it mounts (exit 2, the reason),
   * not by failing each write at close — which {@code echo >} does not report; a read-only one
   * mounts beside it. A rename the model has none of (a tag into an area, an area out of its
   * tag) is EPERM, not EIO or ENOTEMPTY; mkfifo EPERM, not ENOSYS; mknod of a regular file makes
   * it; a tag's scratch file moves with the tag; a graph or training.json the format refuses is
   * close's EINVAL, not EIO, and so is a NumPy .npy file (np.save) written to a parameter; mkdir
   * where the model has no place for a directory EPERM.
   */
  @Test
  void secondWriterRefusedAtMountAndRenamesTheModelLacksAreEPERM() throws Exception {
    Path model = KernelMount.sdzModel(tmp);
    Files.createDirectories(tmp.resolve("m2"));
    try (KernelMount m = new KernelMount(model, tmp.resolve("m"))) {
      Path staging2 = Files.createDirectories(tmp.resolve("staging2"));
      Process second = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Djava.io.tmpdir=" + staging2, "-cp", System.getProperty("java.class.path"), FuseMain.class.getName(), "mount",
          model.toString(), tmp.resolve("m2").toString()).redirectErrorStream(true).start();
      String said;
      try {
        assertTrue(second.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "a second writable mount came up");
        said = new String(second.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      } finally {
        if (MountPoints.isMounted(tmp.resolve("m2"))) {
          KernelMount.sh("fusermount -u '" + tmp.resolve("m2") + "'");
        }
        second.destroyForcibly();
      }
      assertEquals(2, second.exitValue(), said);
      assertTrue(said.contains("another writer is changing this model"), said);
      try (Stream<Path> left = Files.list(staging2)) {
        assertEquals(List.of(), left.toList(), "a refused mount leaves no staging directory");
      }
      try (KernelMount ro = new KernelMount(model, tmp.resolve("r"), "--read-only")) {
        ro.run("cmp m/params/layer0/W r/params/layer0/W").ok();
      }
      m.run("mkdir m/tags/v2").ok();
      KernelMount.Result mv = m.run("mv m/tags/v2 m/tags/default/params/");
      assertTrue(mv.exit() != 0 && mv.err().contains("Operation not permitted"), mv.err());
      mv = m.run("mv m/tags/default/params m/tags/default/p2");
      assertTrue(mv.exit() != 0 && mv.err().contains("Operation not permitted"), "was ENOTEMPTY: " + mv.err());
      KernelMount.Result fifo = m.run("mkfifo m/metadata/fifo");
      assertTrue(fifo.exit() != 0 && fifo.err().contains("Operation not permitted"), "was ENOSYS: " + fifo.err());
      m.run("python3 -c \"import os; os.mknod('m/metadata/empty')\" && test -f m/metadata/empty").ok();
      // a scratch file of a tag (an editor's backup) moves with the tag, as any file of a directory
      m.run("touch m/tags/v2/graph.json~ && mv m/tags/v2 m/tags/v3 && test -f m/tags/v3/graph.json~ && rm -r m/tags/v3").ok();
      // the model refusing a file's content at close is EINVAL for every file, as for graph.json
      for (String f : new String[] {"graph", "training.json"}) {
        KernelMount.Result cp = m.run("cp /etc/hostname m/tags/default/" + f);
        assertTrue(cp.exit() != 0 && cp.err().contains("Invalid argument"), "was EIO: " + cp.err());
      }
      // np.save into params: a .npy header is no array's bytes (was: stored, the header as values)
      if (KernelMount.sh("python3 -c 'import numpy'").exit() == 0) {
        KernelMount.Result npy = m.run("python3 -c \"import numpy as np; np.save('m/params/new', np.ones((2, 2), dtype='<f4'))\"");
        assertTrue(npy.exit() != 0 && npy.err().contains("Invalid argument"), npy.err());
        m.run("test ! -e m/params/new.npy").ok();
      }
      // a directory where the model has no place for one (beside graph.json, in /): EPERM
      for (String d : new String[] {"m/tags/default/extra", "m/extra"}) {
        KernelMount.Result mkdir = m.run("mkdir " + d);
        assertTrue(mkdir.exit() != 0 && mkdir.err().contains("Operation not permitted"), "was ENOENT/EACCES: " + mkdir.err());
      }
      m.run("echo v > m/metadata/k").ok();
      assertEquals(0, m.unmount(), m.logText());
    }
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      assertEquals("v\n", Files.readString(fs.getPath("/metadata/k")));
    }
  }

  /**
   * rm of a file a reader holds open removes it, as on POSIX: libfuse's default renamed it to
   * {@code .fuse_hiddenNNNN} instead — inside the model, so a commit meanwhile stored a parameter
   * of that name and {@code ls -a} listed it. The reader still reads it, as on POSIX.
   */
  @Test
  void removingAnOpenFileLeavesNoHiddenNameInTheModel() throws Exception {
    Path model = KernelMount.sdzModel(tmp);
    Files.write(tmp.resolve("w.bin"), new byte[16]);
    try (KernelMount m = new KernelMount(model, tmp.resolve("m"))) {
      m.run("cp w.bin m/params/extra && setfattr -n user.modelfs.commit -v 1 m").ok();
      String py = "import os, subprocess\n"
          + "fd = os.open('m/params/extra', os.O_RDONLY)\n"
          + "os.unlink('m/params/extra')\n"
          + "print(sorted(os.listdir('m/params')))\n"
          // it still reads through the descriptor, to its end (a read past the size asks the
          // mount for the size by the handle: fgetattr with a null path)
          + "print('read', len(os.read(fd, 1000)))\n"
          + "subprocess.run(['setfattr', '-n', 'user.modelfs.commit', '-v', '1', 'm'], check=True)\n"
          + "os.close(fd)\n";
      String listed = m.run("python3 -c \"" + py + "\"").ok().out();
      assertFalse(listed.contains("fuse_hidden") || listed.contains("'extra'"), listed);
      assertTrue(listed.contains("read 16\n"), listed);
      assertEquals(0, m.unmount(), m.logText());
    }
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true")); Stream<Path> s = Files.list(fs.getPath("/params"))) {
      assertEquals(0, s.filter(p -> p.getFileName().toString().matches("\\.fuse_hidden.*|extra")).count());
    }
  }

  /**
   * SIGTERM while a program still writes a file: the mount commits what was closed, and the log
   * says the open file's unclosed bytes are dropped — before, it called that model file "a scratch
   * file of the mount (never renamed onto a model name)".
   */
  @Test
  void sigtermWithAWriterOpenNamesWhatIsDropped() throws Exception {
    Path model = KernelMount.sdzModel(tmp);
    try (KernelMount m = new KernelMount(model, tmp.resolve("m"))) {
      m.run("echo closed > m/metadata/closed").ok();
      Process writer = new ProcessBuilder("python3", "-c", "import time, sys\n"
          + "f = open(sys.argv[1], 'w'); f.write('unclosed'); f.flush(); print('open', flush=True); time.sleep(30)",
          m.dir.resolve("metadata/open").toString()).start();
      try {
        assertEquals("open", new String(writer.getInputStream().readNBytes(4), StandardCharsets.UTF_8));
        KernelMount.sh("kill -TERM " + m.pid()).ok();
        assertTrue(m.process().waitFor(60, java.util.concurrent.TimeUnit.SECONDS), m.logText());
      } finally {
        writer.destroyForcibly();
      }
      String log = m.logText();
      assertTrue(log.contains("/metadata/open: still open for writing at unmount"), log);
      assertFalse(log.contains("/metadata/open: a scratch file"), log);
    }
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      assertEquals("closed\n", Files.readString(fs.getPath("/metadata/closed")));
      assertFalse(Files.exists(fs.getPath("/metadata/open")));
    }
  }

  /**
   * A commit refused at unmount copies out every changed file it can: a metadata key whose name
   * is longer than any disk's NAME_MAX (a model may hold one) costs that file only, named in
   * NOT-COPIED.txt — before, it failed the whole copy and every change was lost.
   */
  @Test
  void refusedCommitCopiesOutEveryFileItCan() throws Exception {
    Path model = KernelMount.sdzModel(tmp);
    String longKey = "k".repeat(300);
    try (FileSystem fs = ModelFileSystems.open(model, Map.of())) {
      Files.writeString(fs.getPath("/metadata", longKey), "old");
    }
    byte[] before = Files.readAllBytes(model);
    Files.write(tmp.resolve("bad.bin"), new byte[100]);
    try (KernelMount m = new KernelMount(model, tmp.resolve("m"))) {
      m.run("echo new > m/metadata/" + longKey + " && echo kept > m/metadata/note").ok();
      m.run("touch m/metadata/" + "x".repeat(256) + " 2>&1 | grep -q 'File name too long'").ok();
      m.run("cp bad.bin m/params/layer1/W").ok(); // 100 bytes for FLOAT[8, 3]: refused by the commit
      assertEquals(1, m.unmount());
      String log = m.logText();
      Matcher where = Pattern.compile("copied to (\\S+)").matcher(log);
      assertTrue(where.find(), log);
      Path saved = Path.of(where.group(1));
      assertEquals("kept\n", Files.readString(saved.resolve("tags/default/metadata/note")));
      assertArrayEquals(new byte[100], Files.readAllBytes(saved.resolve("tags/default/params/layer1/W")));
      assertTrue(Files.readString(saved.resolve("NOT-COPIED.txt")).contains(longKey), log);
    }
    assertArrayEquals(before, Files.readAllBytes(model));
  }
}
