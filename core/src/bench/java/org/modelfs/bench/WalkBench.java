package org.modelfs.bench;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.modelfs.ModelFileSystems;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Item 5: {@code Files.walk} of {@code /tags} plus {@code readAttributes} (basic) of every path,
 * over the mounted 20,000-parameter model {@code walk20k}, beside the same tree (same names,
 * same file sizes) copied into jimfs. {@code sdnb-samediff} reads {@code "samediff:*"} instead.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
public class WalkBench {
  @Param({"fb", "sdnb", "sdz", "sdnb-samediff", "jimfs"})
  public String target;

  private FileSystem mount;
  private FileSystem jimfs;
  private Path root;
  private boolean samediff;

  @Setup
  public void setup() throws Exception {
    String format = switch (target) {
      case "jimfs", "sdnb-samediff" -> "sdnb";
      default -> target;
    };
    samediff = target.equals("sdnb-samediff");
    mount = ModelFileSystems.open(BenchModels.ensure("walk20k", format), Map.of("readOnly", "true"));
    root = mount.getPath("/tags");
    if (target.equals("jimfs")) {
      jimfs = Jimfs.newFileSystem(Configuration.unix());
      root = copy(root, jimfs);
    }
    if (count() < 20_000) {
      throw new IllegalStateException(target + ": only " + count() + " paths");
    }
  }

  /** The tree at {@code root} copied to {@code /tags} of {@code jimfs} (same names, same sizes); returns that path. */
  static Path copy(Path root, FileSystem jimfs) throws IOException {
    Path to = jimfs.getPath("/tags");
    List<Path> all;
    try (Stream<Path> s = Files.walk(root)) {
      all = s.toList();
    }
    for (Path p : all) {
      Path q = to.resolve(root.relativize(p).toString());
      if (Files.isDirectory(p)) {
        Files.createDirectories(q);
      } else {
        Files.copy(p, q);
      }
    }
    return to;
  }

  @TearDown
  public void tearDown() throws Exception {
    mount.close();
    if (jimfs != null) {
      jimfs.close();
    }
  }

  private long count() throws Exception {
    try (Stream<Path> s = Files.walk(root)) {
      return s.count();
    }
  }

  /** Walks the tree and reads every path's attributes; returns the sum of the sizes. */
  @Benchmark
  public long walk() throws Exception {
    long sum = 0;
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        if (samediff) {
          sum += (Long) Files.readAttributes(p, "samediff:*").get("size");
        } else {
          sum += Files.readAttributes(p, BasicFileAttributes.class).size();
        }
      }
    }
    return sum;
  }
}
