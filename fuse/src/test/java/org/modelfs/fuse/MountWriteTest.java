package org.modelfs.fuse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;
import org.modelfs.SamediffFileAttributes;

/**
 * Writes through a real kernel mount with the tools people use (issue 31): cp (create empty,
 * then write), setfattr, echo > into an area directory that does not exist yet, sed -i on
 * graph.json (a temporary beside it, renamed over it), mv, rm -r, mkdir of a tag, cp -r of a
 * tag; a refused graph.json is the errno the tool prints; then unmount → the model file holds
 * every change. The other scenarios (commit control, refusal at unmount) each mount their own.
 */
class MountWriteTest {
  @TempDir
  Path tmp;

  @BeforeAll
  static void fuse() {
    KernelMount.assumeFuse();
  }

  @Test
  void toolsWriteAndUnmountCommits() throws Exception {
    Path model = KernelMount.sdzModel(tmp);
    byte[] w = new byte[64];
    new Random(7).nextBytes(w);
    Files.write(tmp.resolve("w.bin"), w);
    try (KernelMount m = new KernelMount(model, tmp.resolve("m"))) {
      // the errnos the tools print, before any change (one mount for the class's main scenario)
      errno(m, "cat m/params/nope", "No such file or directory");
      errno(m, "mkdir m/tags/default", "File exists");
      errno(m, "rmdir m/tags/default/params/layer0", "Directory not empty");
      errno(m, "cat m/params > /dev/null", "Is a directory");
      errno(m, "touch m/params/layer0/W/x", "Not a directory");
      errno(m, "mkdir m/tags/bad%zz", "No such file or directory");
      errno(m, "ln -s x m/params/l", "Operation not permitted");
      m.run("cp w.bin m/params/new").ok();
      m.run("setfattr -n user.samediff.shape -v '[4, 4]' m/params/new").ok();
      assertEquals("[4, 4]", m.run("getfattr --only-values -n user.samediff.shape m/params/new").ok().out());
      m.run("setfattr -n user.samediff.dtype -v INT m/params/new").ok();
      m.run("echo hello > m/tags/default/metadata/note").ok();
      assertEquals("hello\n", m.run("cat m/metadata/note").ok().out());
      // an editor's save: sed -i writes m/tags/default/sedXXXXXX, then renames it over graph.json
      m.run("sed -i 's/\"shape\": \\[-1, 3\\]/\"shape\": [2, 3]/' m/tags/default/graph.json").ok();
      assertTrue(m.run("cat m/graph.json").ok().out().contains("\"shape\": [2, 3]"));
      assertEquals("", m.run("ls m/tags/default | grep sed || true").ok().out(), "the editor's temporary is gone");
      m.run("mv m/params/layer1/W m/params/layer1/W2").ok();
      m.run("rm -r m/tags/default/updater/layer0").ok();
      m.run("mkdir m/tags/v2 && cp -r m/tags/default/. m/tags/v2/").ok();
      m.run("diff -r m/tags/default/params m/tags/v2/params").ok();
      // a copy into a tag that does not exist yet: cp and shutil.copytree make the tag, then each
      // directory below it without looking first, the shown params/, updater/, metadata/ included
      m.run("cp -r m/tags/default m/tags/v3").ok();
      m.run("python3 -c \"import shutil; shutil.copytree('m/tags/default', 'm/tags/v4')\"").ok();
      m.run("diff -r m/tags/default/params m/tags/v3/params && diff -r m/tags/default/updater m/tags/v4/updater").ok();
      errno(m, "mkdir m/tags/v3/params/layer0", "File exists");
      // copies that keep extended attributes set every listed user.samediff.* name on each new
      // file before its close, kind=UPDATER on updater state included: accepted when it says what
      // the file is, so no close is refused and no bytes dropped
      m.run("cp -a m/tags/default m/tags/v6").ok();
      m.run("mkdir m/tags/v8 && tar -C m/tags/default -cf - . | tar -C m/tags/v8 -xf - && diff -r m/tags/default m/tags/v8").ok();
      m.run("python3 -c \"import shutil; shutil.copytree('m/tags/default', 'm/tags/v7', copy_function=shutil.copy2)\"").ok();
      m.run("diff -r m/tags/default/updater m/tags/v6/updater && diff -r m/tags/default/params m/tags/v7/params").ok();
      assertEquals("UPDATER", m.run("getfattr --only-values -n user.samediff.kind m/tags/v6/updater/layer1/W2/M").ok().out());
      errno(m, "setfattr -n user.samediff.kind -v VARIABLE m/tags/v6/updater/layer1/W2/M", "Invalid argument");
      errno(m, "setfattr -n user.samediff.tag -v other m/tags/v6/params/layer1/W2", "Operation not supported");
      assertFalse(m.logText().contains("refused at close"), m.logText());
      // a tag made in the mount starts empty, as a new directory does; its areas show once made
      m.run("mkdir m/tags/v5").ok();
      assertEquals("", m.run("ls -A m/tags/v5").ok().out());
      errno(m, "echo v > m/tags/v5/metadata/k", "nonexistent");
      m.run("mkdir m/tags/v5/metadata && echo v > m/tags/v5/metadata/k").ok();
      assertEquals("metadata\n", m.run("ls m/tags/v5").ok().out());
      m.run("rm -r m/tags/v5").ok();
      m.run("diff m/tags/default/graph.json m/tags/v2/graph.json").ok();
      assertEquals(0, m.unmount(), m.logText());
    }
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      Path d = fs.getPath("/tags/default");
      assertArrayEquals(w, Files.readAllBytes(d.resolve("params/new")));
      SamediffFileAttributes a = Files.readAttributes(d.resolve("params/new"), SamediffFileAttributes.class);
      assertArrayEquals(new long[] {4, 4}, a.shape());
      assertEquals("INT", a.dtype());
      assertEquals("hello\n", Files.readString(d.resolve("metadata/note")));
      assertTrue(Files.readString(d.resolve("graph.json")).contains("\"shape\": [2, 3]"));
      assertTrue(Files.exists(d.resolve("params/layer1/W2")));
      assertFalse(Files.exists(d.resolve("params/layer1/W")));
      assertTrue(Files.exists(d.resolve("updater/layer1/W2/M")), "the updater state follows the rename");
      assertFalse(Files.exists(d.resolve("updater/layer0")));
      Path v2 = fs.getPath("/tags/v2");
      assertArrayEquals(w, Files.readAllBytes(v2.resolve("params/new")));
      for (String t : List.of("v3", "v4", "v6", "v7", "v8")) {
        assertArrayEquals(w, Files.readAllBytes(fs.getPath("/tags", t, "params/new")), t);
        assertArrayEquals(Files.readAllBytes(d.resolve("graph.json")), Files.readAllBytes(fs.getPath("/tags", t, "graph.json")), t);
      }
      assertArrayEquals(Files.readAllBytes(d.resolve("graph.json")), Files.readAllBytes(v2.resolve("graph.json")));
    }
  }

  @Test
  void refusedGraphJsonIsTheToolsErrnoAndChangesNothing() throws Exception {
    Path model = KernelMount.sdzModel(tmp);
    byte[] before = Files.readAllBytes(model);
    Files.writeString(tmp.resolve("bad.json"), "{\"bad\": 1}\n");
    try (KernelMount m = new KernelMount(model, tmp.resolve("m"))) {
      String graph = m.run("cat m/graph.json").ok().out();
      KernelMount.Result cp = m.run("cp bad.json m/tags/default/graph.json");
      assertNotEquals(0, cp.exit());
      assertTrue(cp.err().contains("Invalid argument"), cp.err());
      KernelMount.Result sed = m.run("sed -i 's/\"kind\": \"VARIABLE\"/\"kind\": \"BOGUS\"/' m/tags/default/graph.json");
      assertNotEquals(0, sed.exit());
      assertTrue(sed.err().contains("Invalid argument"), sed.err());
      assertEquals(graph, m.run("cat m/graph.json").ok().out(), "graph.json unchanged");
      assertTrue(m.logText().contains("unknown key \"bad\""), m.logText());
      m.run("rm -f m/tags/default/sed*").ok();
      assertEquals(0, m.unmount(), m.logText());
    }
    assertArrayEquals(before, Files.readAllBytes(model), "nothing to commit: the file is untouched");
  }

  @Test
  void commitControlKeepsTheMount() throws Exception {
    Path model = KernelMount.sdzModel(tmp);
    try (KernelMount m = new KernelMount(model, tmp.resolve("m"))) {
      m.run("echo 1 > m/metadata/a").ok();
      long before = Files.getLastModifiedTime(model).toMillis();
      byte[] old = Files.readAllBytes(model);
      m.run("setfattr -n user.modelfs.commit -v 1 m").ok();
      assertFalse(Arrays.equals(old, Files.readAllBytes(model)), "committed while mounted");
      try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
        assertEquals("1\n", Files.readString(fs.getPath("/metadata/a")));
      }
      assertEquals("1\n", m.run("cat m/metadata/a").ok().out(), "the mount goes on");
      assertTrue(before > 0);
      m.run("echo 2 > m/metadata/b").ok();
      // modelfs unmount: commit, fusermount -u, and return once the mounting process has ended
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      assertEquals(0, FuseMain.run(new String[] {"unmount", m.dir.toString()}, new PrintStream(new ByteArrayOutputStream()),
          new PrintStream(err)), err.toString());
      assertFalse(m.process().isAlive(), "the mount's process has ended when unmount returns");
      assertFalse(MountPoints.isMounted(m.dir));
      try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
        assertEquals("2\n", Files.readString(fs.getPath("/metadata/b")), "committed when unmount returns");
      }
    }
  }

  private static void errno(KernelMount m, String cmd, String text) {
    KernelMount.Result r = m.run(cmd);
    assertNotEquals(0, r.exit(), cmd);
    assertTrue(r.err().contains(text), cmd + ": " + r.err());
  }

  @Test
  void tagMountCommitCommandAndSigterm() throws Exception {
    Path model = KernelMount.sdzModel(tmp);
    try (KernelMount m = new KernelMount(model, tmp.resolve("m"), "--tag", "default")) {
      assertEquals("graph\ngraph.json\nmetadata\nparams\ntraining.json\nupdater\n", m.run("ls m").ok().out());
      m.run("echo 1 > m/metadata/a").ok();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      assertEquals(0, FuseMain.run(new String[] {"commit", m.dir.toString()}, new PrintStream(out), System.err));
      try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
        assertEquals("1\n", Files.readString(fs.getPath("/tags/default/metadata/a")));
      }
      m.run("echo 2 > m/metadata/b").ok();
      // SIGTERM (what a service manager or kill sends): the shutdown hook unmounts and commits
      KernelMount.sh("kill -TERM " + m.pid()).ok();
      assertTrue(m.process().waitFor(60, TimeUnit.SECONDS));
      assertFalse(MountPoints.isMounted(m.dir), m.logText());
      assertTrue(m.logText().contains("committed the changes"), m.logText());
    }
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      assertEquals("2\n", Files.readString(fs.getPath("/tags/default/metadata/b")));
    }
  }

  @Test
  void backgroundReturnsOnceMounted() throws Exception {
    Path model = KernelMount.sdzModel(tmp);
    Path dir = tmp.resolve("bg");
    Files.createDirectories(dir);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = FuseMain.run(new String[] {"mount", "--background", "--read-only", "--log", tmp.resolve("bg.log").toString(),
        model.toString(), dir.toString()}, new PrintStream(out), new PrintStream(err));
    try {
      assertEquals(0, code, err.toString());
      assertTrue(MountPoints.isMounted(dir));
      assertTrue(Files.isRegularFile(dir.resolve("params/layer0/W")), "ready when it returned");
    } finally {
      KernelMount.sh("fusermount -u '" + dir + "'");
    }
    for (int i = 0; i < 100 && Files.readString(tmp.resolve("bg.log")).indexOf("unmounted") < 0; i++) {
      Thread.sleep(100);
    }
    assertFalse(MountPoints.isMounted(dir));
  }

  @Test
  void rsyncIntoTheMount() throws Exception {
    Assumptions.assumeTrue(KernelMount.sh("command -v rsync").exit() == 0, "rsync missing");
    Path model = KernelMount.sdzModel(tmp);
    byte[] w = new byte[128];
    ByteBuffer.wrap(w).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().put(new float[32]).flip();
    w[3] = 0x40;
    Files.write(tmp.resolve("w.bin"), w);
    try (KernelMount m = new KernelMount(model, tmp.resolve("m"))) {
      // rsync writes .NAME.XXXXXX beside each file, then renames it over NAME
      m.run("rsync -a m/tags/default/ copy/ && mkdir m/tags/v3 && rsync -a copy/ m/tags/v3/").ok();
      m.run("diff -r m/tags/default m/tags/v3").ok();
      // -I: times are not stored (docs/MOUNT.md), so rsync's size-and-time check could skip the file
      m.run("rsync -I w.bin m/tags/v3/params/layer0/W").ok();
      assertEquals("[4, 8]", m.run("getfattr --only-values -n user.samediff.shape m/tags/v3/params/layer0/W").ok().out());
      assertEquals(0, m.unmount(), m.logText());
    }
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      assertArrayEquals(w, Files.readAllBytes(fs.getPath("/tags/v3/params/layer0/W")));
      assertArrayEquals(Files.readAllBytes(fs.getPath("/tags/default/params/layer0/b")), Files.readAllBytes(fs.getPath("/tags/v3/params/layer0/b")));
      try (var s = Files.walk(fs.getPath("/tags/v3"))) {
        assertEquals(List.of(), s.filter(p -> p.getFileName() != null && p.getFileName().toString().startsWith(".")).toList(),
            "no rsync temporaries left in the model");
      }
    }
  }

  @Test
  void numpyWritesThroughMemmapAndTofile() throws Exception {
    Assumptions.assumeTrue(KernelMount.sh("python3 -c 'import numpy'").exit() == 0, "NumPy missing: python3-numpy");
    Path model = KernelMount.sdzModel(tmp);
    try (KernelMount m = new KernelMount(model, tmp.resolve("m"))) {
      String py = "import numpy as np\n"
          + "a = np.memmap('m/params/layer0/W', dtype='<f4', mode='r+', shape=(4, 8))\n"
          + "a[1, :] = 7.0\n"
          + "a.flush()\n"
          + "del a\n"
          + "np.arange(8, dtype='<f4').tofile('m/params/layer0/b')\n";
      m.run("python3 -c \"" + py + "\"").ok();
      assertEquals(0, m.unmount(), m.logText());
    }
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      FloatBuffer w = ByteBuffer.wrap(Files.readAllBytes(fs.getPath("/params/layer0/W")))
          .order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
      for (int i = 8; i < 16; i++) {
        assertEquals(7f, w.get(i));
      }
      assertNotEquals(7f, w.get(0));
      FloatBuffer b = ByteBuffer.wrap(Files.readAllBytes(fs.getPath("/params/layer0/b")))
          .order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer();
      assertEquals(7f, b.get(7));
      assertArrayEquals(new long[] {1, 8}, (long[]) Files.getAttribute(fs.getPath("/params/layer0/b"), "samediff:shape"));
    }
  }

  @Test
  void vimSavesGraphJson() throws Exception {
    Assumptions.assumeTrue(KernelMount.sh("command -v vim").exit() == 0, "vim missing");
    Path model = KernelMount.sdzModel(tmp);
    String vim = "timeout 60 vim -N -u NONE -i NONE -es ";
    try (KernelMount m = new KernelMount(model, tmp.resolve("m"))) {
      // vim's default save (a backup beside the file, then the file written anew), and with
      // backupcopy=no (the original renamed to graph.json~, a new graph.json created)
      m.run(vim + "-c '%s/\"shape\": \\[-1, 3\\]/\"shape\": [2, 3]/' -c wq m/tags/default/graph.json").ok();
      m.run(vim + "-c 'set backupcopy=no' -c '%s/\"shape\": \\[-1, 4\\]/\"shape\": [2, 4]/' -c wq m/tags/default/graph.json").ok();
      KernelMount.Result refused = m.run(vim + "-c '%s/\"kind\": \"VARIABLE\"/\"kind\": \"BOGUS\"/' -c wq m/tags/default/graph.json");
      assertNotEquals(0, refused.exit(), "vim reports the refused save");
      String json = m.run("cat m/graph.json").ok().out();
      assertTrue(json.contains("\"shape\": [2, 3]") && json.contains("\"shape\": [2, 4]") && !json.contains("BOGUS"), json);
      assertEquals(0, m.unmount(), m.logText());
    }
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"))) {
      String json = Files.readString(fs.getPath("/graph.json"));
      assertTrue(json.contains("\"shape\": [2, 3]") && json.contains("\"shape\": [2, 4]") && !json.contains("BOGUS"), json);
    }
  }

  /**
   * The same shell script on a plain copy of a tag and on the mount gives the same params/ and
   * metadata/ — POSIX's tmpfs/ext4 as the reference for what each tool's write pattern does —
   * before the commit and after it (a read-only remount).
   */
  @Test
  void differentialAgainstAPlainDirectory() throws Exception {
    Path model = KernelMount.sdzModel(tmp);
    Files.write(tmp.resolve("w.bin"), new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24});
    String script = String.join(" && ",
        "cp w.bin X/params/new",
        "echo a > X/metadata/k1",
        "echo b >> X/metadata/k1",
        "sed -i 's/a/c/' X/metadata/k1",
        "mv X/params/new X/params/new2",
        "mkdir X/params/enc",
        "cp w.bin X/params/enc/W",
        "truncate -s 16 X/params/enc/W",
        "printf 'ABCD' | dd of=X/params/new2 bs=1 seek=4 conv=notrunc 2>/dev/null",
        "cat X/params/layer0/b >> X/params/enc/W",
        "echo z > X/metadata/k2",
        "rm X/metadata/k2",
        "echo y > X/metadata/k3",
        "cp X/metadata/k3 X/metadata/k4",
        "mkdir X/params/tmpd", "cp w.bin X/params/tmpd/x", "rm -r X/params/tmpd",
        "mv X/metadata/k4 X/metadata/k5");
    try (KernelMount m = new KernelMount(model, tmp.resolve("m"))) {
      m.run("rsync -a m/tags/default/ plain/ || cp -r m/tags/default plain").ok();
      m.run(script.replace("X/", "plain/")).ok();
      m.run(script.replace("X/", "m/tags/default/")).ok();
      m.run("diff -r plain/params m/tags/default/params && diff -r plain/metadata m/tags/default/metadata").ok();
      assertEquals(0, m.unmount(), m.logText());
    }
    try (KernelMount m = new KernelMount(model, tmp.resolve("m"), "--read-only")) {
      m.run("diff -r plain/params m/tags/default/params && diff -r plain/metadata m/tags/default/metadata").ok();
    }
  }
}
