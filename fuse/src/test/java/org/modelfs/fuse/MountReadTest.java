package org.modelfs.fuse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.modelfs.ModelFileSystems;

/**
 * A read-only kernel mount of a DL4J-written model, read by the tools people use (issue 31):
 * ls -lR, find, du -sb, cat/cmp against {@code modelfs cat}, NumPy fromfile and memmap,
 * getfattr, rsync -a, diff -r, tar; a write is EROFS. One mount for the class.
 */
class MountReadTest {
  @TempDir
  static Path tmp;
  static KernelMount mount;
  static Path model;
  /** Every array file of the model (path in the tree → its size), from the NIO view. */
  static final List<String> arrays = new ArrayList<>();
  static long arrayBytes;

  @BeforeAll
  static void mount() throws Exception {
    KernelMount.assumeFuse();
    model = tmp.resolve("mlp_adam.fb");
    Files.copy(KernelMount.fixture("mlp_adam.fb"), model);
    try (FileSystem fs = ModelFileSystems.open(model, Map.of("readOnly", "true"));
         Stream<Path> s = Files.walk(fs.getPath("/tags/default"))) {
      for (Path p : (Iterable<Path>) s::iterator) {
        String t = p.toString();
        if (Files.isRegularFile(p) && (t.contains("/params/") || t.contains("/updater/"))) {
          arrays.add(t);
          arrayBytes += Files.size(p);
        }
      }
    }
    mount = new KernelMount(model, tmp.resolve("m"), "--read-only");
  }

  @AfterAll
  static void unmount() throws Exception {
    if (mount != null) {
      mount.close();
      assertTrue(!MountPoints.isMounted(mount.dir), "still mounted");
    }
  }

  @Test
  void lsAndFindShowTheTree() {
    String ls = mount.run("ls -lR m").ok().out();
    assertTrue(ls.contains("m/tags/default/params/layer0:"), ls);
    assertTrue(ls.contains("graph.json"), ls);
    String find = mount.run("find m -name W | sort").ok().out();
    assertEquals("m/tags/default/params/layer0/W\nm/tags/default/params/layer1/W\n"
        + "m/tags/default/updater/layer0/W\nm/tags/default/updater/layer1/W\n", find);
    // the root aliases resolve without being listed (docs/FILESYSTEM.md §1)
    assertEquals("tags\n", mount.run("ls m").ok().out());
    mount.run("test -f m/params/layer0/W").ok();
  }

  /**
   * readdir gives each entry's type, so find descends without a stat of any file (a plain file
   * system's d_type; without it find stats every entry, one FUSE call each on a writable mount).
   */
  @Test
  void findStatsNoFile() throws Exception {
    Assumptions.assumeTrue(KernelMount.sh("command -v strace").exit() == 0, "strace missing: apt-get install strace");
    mount.run("strace -f -e trace=stat,lstat,newfstatat,statx -o find.strace find m > /dev/null").ok();
    List<String> files = Files.readAllLines(tmp.resolve("find.strace")).stream()
        .filter(l -> l.contains("S_IFREG") && !l.contains("\"\"") && !l.contains("\"/")).toList();
    assertEquals(List.of(), files, "stat calls of find on regular files of the mount");
    assertTrue(mount.run("find m -type f").ok().out().contains("m/tags/default/params/layer0/W\n"));
  }

  @Test
  void duIsTheSumOfTheArraySizes() {
    String du = mount.run("du -sb m/tags/default/params m/tags/default/updater | awk '{s+=$1} END {print s}'").ok().out().trim();
    assertEquals(arrayBytes, Long.parseLong(du));
  }

  @Test
  void everyFileEqualsModelfsCat() throws Exception {
    for (String a : arrays) {
      byte[] viaCli = KernelMount.modelfs("cat", model.toString(), a);
      byte[] viaMount = Files.readAllBytes(mount.dir.resolve(a.substring(1)));
      assertArrayEquals(viaCli, viaMount, a);
      Path copy = tmp.resolve("cat.bin");
      Files.write(copy, viaCli);
      mount.run("cmp '" + copy + "' 'm" + a + "'").ok();
    }
    byte[] json = KernelMount.modelfs("cat", model.toString(), "/tags/default/graph.json");
    assertArrayEquals(json, mount.run("cat m/graph.json").ok().out().getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void numpyReadsTheValues() throws Exception {
    Assumptions.assumeTrue(KernelMount.sh("python3 -c 'import numpy'").exit() == 0, "NumPy missing: python3-numpy");
    byte[] w = KernelMount.modelfs("cat", model.toString(), "/params/layer0/W");
    float[] expect = new float[w.length / 4];
    ByteBuffer.wrap(w).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(expect);
    String py = "import numpy as np\n"
        + "a = np.fromfile('m/params/layer0/W', dtype='<f4').reshape(4, 8)\n"
        + "b = np.memmap('m/tags/default/params/layer0/W', dtype='<f4', mode='r', shape=(4, 8))\n"
        + "assert (a == b).all()\n"
        + "print(' '.join(repr(float(x)) for x in a.ravel()))\n";
    String out = mount.run("python3 -c \"" + py.replace("\"", "\\\"") + "\"").ok().out().trim();
    String[] got = out.split(" ");
    assertEquals(expect.length, got.length);
    for (int i = 0; i < expect.length; i++) {
      assertEquals(expect[i], Float.parseFloat(got[i]), "element " + i);
    }
    assertNotEquals(0f, expect[0]);
  }

  @Test
  void getfattrShowsTheArrayAttributes() {
    Assumptions.assumeTrue(KernelMount.sh("command -v getfattr").exit() == 0, "getfattr missing: apt-get install attr");
    String x = mount.run("getfattr -d m/params/layer0/W").ok().out();
    assertTrue(x.contains("user.samediff.dtype=\"FLOAT\""), x);
    assertTrue(x.contains("user.samediff.shape=\"[4, 8]\""), x);
    assertTrue(x.contains("user.samediff.order=\"c\""), x);
    assertTrue(x.contains("user.samediff.kind=\"VARIABLE\""), x);
    assertTrue(x.contains("user.samediff.byteOrder=\"little\""), x);
    String u = mount.run("getfattr --only-values -n user.samediff.kind m/updater/layer0/W/M").ok().out();
    assertEquals("UPDATER", u);
    KernelMount.Result none = mount.run("getfattr -n user.samediff.dtype m/tags/default/graph.json");
    assertNotEquals(0, none.exit());
  }

  /**
   * {@code ls -l} asks each file for {@code security.selinux} and {@code system.posix_acl_access}.
   * The mount has neither namespace and answers as the kernel does for a namespace a file system
   * lacks, EOPNOTSUPP, which ls remembers for the whole device: one question of each kind per
   * listing, not one per file (issue 31's {@code ls -lR} goal). The mount's own namespace still
   * answers: a missing {@code user.} name is ENODATA ("No such attribute").
   */
  @Test
  void lsAsksForeignAttributesOncePerListing() throws Exception {
    Assumptions.assumeTrue(KernelMount.sh("command -v strace").exit() == 0, "strace missing: apt-get install strace");
    Assumptions.assumeTrue(KernelMount.sh("command -v getfattr").exit() == 0, "getfattr missing: apt-get install attr");
    mount.run("strace -f -e trace=getxattr,lgetxattr -o ls.strace ls -lR m > /dev/null").ok();
    List<String> asked = Files.readAllLines(tmp.resolve("ls.strace")).stream().filter(l -> l.contains("xattr(")).toList();
    long files = mount.run("find m -type f").ok().out().lines().count();
    assertTrue(files > 10, "files: " + files);
    assertTrue(asked.size() <= 2, "ls -lR over " + files + " files asked " + asked);
    assertTrue(asked.stream().allMatch(l -> l.contains("EOPNOTSUPP")), asked.toString());
    KernelMount.Result selinux = mount.run("getfattr -n security.selinux m/params/layer0/W");
    assertNotEquals(0, selinux.exit());
    assertTrue(selinux.err().contains("Operation not supported"), selinux.err());
    KernelMount.Result other = mount.run("getfattr -n user.other m/params/layer0/W");
    assertNotEquals(0, other.exit());
    assertTrue(other.err().contains("No such attribute"), other.err());
  }

  private record Result(int exit) {}

  @Test
  void rsyncDiffAndTarOfATag() {
    Assumptions.assumeTrue(KernelMount.sh("command -v rsync").exit() == 0, "rsync missing");
    mount.run("rm -rf copy && rsync -a m/tags/default/ copy/ && diff -r m/tags/default copy").ok();
    String tar = mount.run("tar -cf - -C m/tags default | tar -tf - | sort").ok().out();
    assertTrue(tar.contains("default/params/layer0/W\n"), tar);
    assertTrue(tar.contains("default/graph.json\n"), tar);
    mount.run("mkdir -p t && tar -cf - -C m/tags default | tar -xf - -C t && diff -r m/tags/default t/default").ok();
  }

  @Test
  void writesAreEROFS() {
    KernelMount.Result r = mount.run("echo x > m/metadata/k");
    assertNotEquals(0, r.exit());
    assertTrue(r.err().contains("Read-only file system"), r.err());
    r = mount.run("rm m/params/layer0/W");
    assertTrue(r.err().contains("Read-only file system"), r.err());
  }
}
