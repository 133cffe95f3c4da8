package org.modelfs.bench;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.nd4j.autodiff.samediff.SameDiff;
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
 * Item 1's anchor: DL4J 1.0.0-M2.1 {@code SameDiff.load(file, false)} of the same {@code fb}
 * models {@link OpenBench} mounts (DL4J reads the whole file and creates every array).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xmx8g", "-Dorg.bytedeco.javacpp.maxbytes=8G",
    "-Dorg.bytedeco.javacpp.maxphysicalbytes=12G"})
public class Dl4jLoadBench {
  @Param({"a100-1MiB", "a100-32MiB", "a100-320MiB", "a100-1GiB", "a10-32MiB", "a1000-32MiB", "a10000-32MiB"})
  public String model;

  private Path path;

  @Setup
  public void setup() throws Exception {
    path = BenchModels.ensure(model, "fb");
  }

  /** Loads the model with DL4J; returns the number of variables. */
  @Benchmark
  public int load() {
    SameDiff sd = SameDiff.load(path.toFile(), false);
    return sd.variables().size();
  }
}
