package org.modelfs.bench;

import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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

/**
 * Item 1: time to mount and unmount a model (read-only), by format, model size at 100 arrays
 * ({@code a100-1MiB} … {@code a100-1GiB}) and array count at 32 MiB ({@code a10} …
 * {@code a10000}). The target: flat in size, growing with the array count only.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
public class OpenBench {
  @Param({"a100-1MiB", "a100-32MiB", "a100-320MiB", "a100-1GiB", "a10-32MiB", "a1000-32MiB", "a10000-32MiB"})
  public String model;

  @Param({"fb", "sdnb", "sdnb-sharded", "sdz", "sdz-deflate", "zip-tags", "container", "container-deflate"})
  public String format;

  private Path path;

  @Setup
  public void setup() throws Exception {
    path = BenchModels.ensure(model, format);
  }

  /** Mounts, looks one parameter's size up (index only), unmounts. */
  @Benchmark
  public long open() throws Exception {
    try (FileSystem fs = ModelFileSystems.open(path, Map.of("readOnly", "true"))) {
      return Files.size(fs.getPath("/params/large/w0"));
    }
  }
}
