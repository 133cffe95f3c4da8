package org.modelfs.provider;

import java.nio.channels.FileChannel;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import org.modelfs.ModelFileSystems;
import org.modelfs.JournaledFileSystem;
import org.modelfs.testing.Descriptors;

/**
 * Prints what one long-lived mount holds over N commits of an M-MiB parameter (the figures of
 * docs/FILESYSTEM.md §8): descriptors, descriptors on deleted files and their bytes, journal bytes.
 * Arguments: DIR COMMITS MIB. Run with the test class path.
 */
public final class LeakFigures {
  private LeakFigures() {}

  public static void main(String[] args) throws Exception {
    Path dir = Files.createDirectories(Path.of(args[0]));
    int commits = Integer.parseInt(args[1]);
    int elements = Integer.parseInt(args[2]) << 18;
    Path model = LongLivedMountTest.sdnb(dir, elements);
    try (FileSystem fs = ModelFileSystems.open(model)) {
      System.out.println("start: " + Descriptors.now());
      for (int k = 1; k <= commits; k++) {
        Files.write(fs.getPath("/params/big/w0"), LongLivedMountTest.filled(elements, k));
        ((JournaledFileSystem) fs).commit();
        try (FileChannel ch = FileChannel.open(fs.getPath("/params/big/w0"))) {
          ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
        }
        if (k % 10 == 0 || k == commits) {
          System.out.println("after " + k + " commits: " + Descriptors.now() + " journalBytes="
              + Descriptors.journalBytes(model));
        }
      }
    }
    System.out.println("closed: " + Descriptors.now());
  }
}
