package org.modelfs.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystem;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.modelfs.JournaledFileSystem;
import org.modelfs.ModelFileSystems;
import org.modelfs.SamediffFileAttributes;

/**
 * Averages checkpoints with the file API: mounts every input, reads each parameter as floats
 * (or doubles), and writes the element-wise mean into a new tag of a multi-tag model or into a new
 * model file. The output takes the graph, training configuration and metadata of the last input
 * and no updater state (averaged optimizer state means nothing). {@code modelfs avg} does the
 * same for the tags of one model, streaming.
 *
 * <pre>
 * AverageCheckpoints OUT IN IN...
 *   IN   MODEL (its newest tag) or MODEL#TAG
 *   OUT  MODEL#NEWTAG: a new tag of an sdz or zip-tags model (it may be one of the inputs)
 *        MODEL: a new model file (format from its name: .fb, .sdnb, .sdz, .zip)
 * AverageCheckpoints                 (no arguments) a demo in a temp dir: checkpoints.sdz with
 *                                    tags step1..step3 made from examples/mlp.fb, averaged into
 *                                    checkpoints.sdz#avg
 * </pre>
 *
 * <p>Inputs are read; only OUT is written. The demo's three "checkpoints" are stand-ins: the
 * example's weights scaled by 0.9, 1.0 and 1.2 (ModelFS does not train; real checkpoints come
 * from DL4J).
 */
public final class AverageCheckpoints {
  private AverageCheckpoints() {}

  /** A model file and, optionally, one of its tags: {@code MODEL} or {@code MODEL#TAG}. */
  private record Ref(Path file, String tag) {
    static Ref parse(String s) {
      int hash = s.lastIndexOf('#');
      return hash < 0 ? new Ref(Path.of(s), null) : new Ref(Path.of(s.substring(0, hash)), s.substring(hash + 1));
    }

    Path key() {
      return file.toAbsolutePath().normalize();
    }

    @Override
    public String toString() {
      return tag == null ? file.toString() : file + "#" + tag;
    }
  }

  public static void main(String[] args) throws Exception {
    List<String> a = List.of(args);
    if (a.isEmpty()) {
      Path example = exampleModel();
      Path dir = workDir();
      Path sdz = demoCheckpoints(example, dir.resolve("checkpoints.sdz"));
      a = List.of(sdz + "#avg", sdz + "#step1", sdz + "#step2", sdz + "#step3");
    } else if (a.size() < 3) {
      throw new IllegalArgumentException("usage: AverageCheckpoints OUT IN IN... (IN and OUT: MODEL or MODEL#TAG)");
    }
    Ref out = Ref.parse(a.get(0));
    List<Ref> ins = a.subList(1, a.size()).stream().map(Ref::parse).toList();
    average(out, ins);
  }

  private static void average(Ref out, List<Ref> ins) throws IOException {
    Map<Path, FileSystem> mounts = new LinkedHashMap<>(); // one mount per model file
    FileSystem outFs;
    Path target;
    if (out.tag() == null) {
      if (Files.exists(out.file())) {
        throw new FileAlreadyExistsException(out.file().toString(), null, "OUT names a new model file (or MODEL#NEWTAG)");
      }
      outFs = ModelFileSystems.open(out.file(), Map.of("create", true)); // one empty tag, "default"
      target = outFs.getPath("/tags/default");
    } else {
      outFs = ModelFileSystems.open(out.file());
      target = outFs.getPath("/tags", out.tag());
      if (Files.exists(target)) {
        outFs.close();
        throw new FileAlreadyExistsException(out.toString(), null, "OUT names a new tag");
      }
    }
    mounts.put(out.key(), outFs);
    try {
      List<Path> tags = new ArrayList<>();
      for (Ref in : ins) {
        FileSystem fs = mounts.get(in.key());
        if (fs == null) {
          fs = ModelFileSystems.open(in.file(), Map.of("readOnly", true));
          mounts.put(in.key(), fs);
        }
        // the newest tag is where the root alias /params leads
        Path tag = in.tag() == null ? fs.getPath("/params").toRealPath().getParent() : fs.getPath("/tags", in.tag());
        if (!Files.isDirectory(tag)) {
          throw new NoSuchFileException(in.toString(), null, "no such tag");
        }
        tags.add(tag);
      }
      Path last = tags.get(tags.size() - 1);
      List<String> params = arrays(last.resolve("params"));
      check(ins, tags, params);

      Files.createDirectories(target); // a new tag is empty until written
      copyStructure(last, target, !out.file().getFileName().toString().endsWith(".fb"));
      for (String rel : params) {
        Path to = target.resolve(rel);
        Files.copy(last.resolve(rel), to); // the last input's array: dtype, shape, order, kind
        SamediffFileAttributes at = Files.readAttributes(to, SamediffFileAttributes.class);
        String what = rel + " " + at.dtype() + " " + Arrays.toString(at.shape());
        if (!at.dtype().equals("FLOAT") && !at.dtype().equals("DOUBLE")) {
          System.out.println("kept " + what + " (not averaged: " + at.dtype() + ")");
          continue;
        }
        boolean isFloat = at.dtype().equals("FLOAT");
        int n = Math.toIntExact(at.size() / (isFloat ? 4 : 8));
        double[] sum = new double[n];
        StringBuilder first = new StringBuilder();
        for (Path tag : tags) {
          ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(tag.resolve(rel))).order(ByteOrder.LITTLE_ENDIAN);
          for (int i = 0; i < n; i++) {
            sum[i] += isFloat ? b.getFloat(4 * i) : b.getDouble(8 * i);
          }
          first.append(String.format(" %.6f", isFloat ? b.getFloat(0) : b.getDouble(0)));
        }
        ByteBuffer mean = ByteBuffer.allocate(Math.toIntExact(at.size())).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n; i++) {
          if (isFloat) {
            mean.putFloat((float) (sum[i] / tags.size()));
          } else {
            mean.putDouble(sum[i] / tags.size());
          }
        }
        Files.write(to, mean.array()); // replaces the content; dtype and shape stay
        System.out.printf("averaged %s: first element%s -> %.6f%n", what, first,
            isFloat ? mean.getFloat(0) : mean.getDouble(0));
      }
    } catch (IOException | RuntimeException e) {
      ((JournaledFileSystem) outFs).rollback(); // close() would commit what was written so far
      throw e;
    } finally {
      for (FileSystem fs : mounts.values()) {
        if (fs != outFs) {
          fs.close();
        }
      }
      outFs.close(); // commits
    }
    System.out.println("wrote the mean of " + ins.size() + " checkpoints to " + out);
    try (FileSystem fs = ModelFileSystems.open(out.file(), Map.of("readOnly", true));
        Stream<Path> s = Files.list(fs.getPath("/tags"))) {
      System.out.println("tags of " + out.file() + ": " + s.map(p -> p.getFileName().toString()).toList());
    }
  }

  /** Every input has the last one's parameters, with the same dtype and shape. */
  private static void check(List<Ref> ins, List<Path> tags, List<String> params) throws IOException {
    Path last = tags.get(tags.size() - 1);
    for (int i = 0; i < tags.size(); i++) {
      List<String> own = arrays(tags.get(i).resolve("params"));
      if (!own.equals(params)) {
        throw new IllegalArgumentException(ins.get(i) + " has the parameters " + own + ", " + ins.get(ins.size() - 1)
            + " has " + params);
      }
      for (String rel : params) {
        SamediffFileAttributes a = Files.readAttributes(tags.get(i).resolve(rel), SamediffFileAttributes.class);
        SamediffFileAttributes b = Files.readAttributes(last.resolve(rel), SamediffFileAttributes.class);
        if (!a.dtype().equals(b.dtype()) || !Arrays.equals(a.shape(), b.shape()) || !a.order().equals(b.order())) {
          throw new IllegalArgumentException(rel + " differs: " + a.dtype() + Arrays.toString(a.shape()) + " in "
              + ins.get(i) + ", " + b.dtype() + Arrays.toString(b.shape()) + " in " + ins.get(ins.size() - 1));
        }
      }
    }
  }

  /** The regular files below {@code dir}, relative to the tag ({@code params/layer0/W}), sorted. */
  private static List<String> arrays(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).map(p -> dir.getParent().relativize(p).toString()).sorted().toList();
    }
  }

  /** The graph, training configuration and (if wanted) metadata of tag {@code from}, into {@code to}. */
  private static void copyStructure(Path from, Path to, boolean metadata) throws IOException {
    Files.copy(from.resolve("graph"), to.resolve("graph"));
    if (Files.exists(from.resolve("training.json"))) {
      Files.copy(from.resolve("training.json"), to.resolve("training.json"));
    }
    if (metadata) { // an fb file holds no metadata
      for (String rel : arrays(from.resolve("metadata"))) {
        Files.copy(from.resolve(rel), to.resolve(rel));
      }
    }
  }

  /**
   * The demo's checkpoints: {@code sdz}, a copy of {@code fb} committed as SDZ with three tags,
   * {@code step1}, {@code step2}, {@code step3}, whose FLOAT parameters are the example's scaled
   * by 0.9, 1.0 and 1.2 (each tag keeps the example's graph, training configuration and updater
   * state).
   */
  static Path demoCheckpoints(Path fb, Path sdz) throws IOException {
    Files.copy(fb, sdz);
    double[] scales = {0.9, 1.0, 1.2};
    // a copy of an fb file, committed as SDZ ("format": what the next commit writes)
    try (FileSystem fs = ModelFileSystems.open(sdz, Map.of("format", "sdz"))) {
      Path step1 = Files.move(fs.getPath("/tags/default"), fs.getPath("/tags/step1"));
      for (int k = 2; k <= scales.length; k++) { // a new tag, then a recursive copy of step1 into it
        Path tag = Files.createDirectory(fs.getPath("/tags/step" + k));
        try (Stream<Path> s = Files.walk(step1)) {
          for (Path p : (Iterable<Path>) s::iterator) {
            Path q = tag.resolve(step1.relativize(p).toString());
            if (Files.isDirectory(p)) {
              Files.createDirectories(q);
            } else {
              Files.copy(p, q);
            }
          }
        }
      }
      for (int k = 1; k <= scales.length; k++) {
        Path tag = fs.getPath("/tags/step" + k);
        for (String rel : arrays(tag.resolve("params"))) {
          Path p = tag.resolve(rel);
          if ("FLOAT".equals(Files.getAttribute(p, "samediff:dtype")) && scales[k - 1] != 1.0) {
            ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(p)).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < b.capacity(); i += 4) {
              b.putFloat(i, (float) (b.getFloat(i) * scales[k - 1]));
            }
            Files.write(p, b.array());
          }
        }
        System.out.println("checkpoint " + sdz + "#" + tag.getFileName() + ": the example's parameters x " + scales[k - 1]);
      }
    } // close() commits: the file is now an SDZ with three tags
    return sdz;
  }

  /**
   * The default model, examples/mlp.fb of the ModelFS project (a path from its directory). Run
   * from elsewhere, the program says where it looked and how to name a model, and exits with 2.
   */
  static Path exampleModel() {
    Path model = Path.of("examples", "mlp.fb");
    if (!Files.isRegularFile(model)) {
      System.err.println("AverageCheckpoints: no example model at " + model.toAbsolutePath() + ": run it from the ModelFS"
          + " project's directory, or name a model: AverageCheckpoints OUT IN IN...");
      System.exit(2);
    }
    return model;
  }

  /** A new temporary directory for the default run ("working in DIR"), removed with its files when the program ends. */
  static Path workDir() throws IOException {
    Path dir = Files.createTempDirectory("modelfs-example-");
    System.out.println("working in " + dir);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      } catch (NoSuchFileException gone) {
        // removed already
      } catch (IOException | UncheckedIOException e) {
        System.err.println("could not remove " + dir + ": " + e.getMessage());
      }
    }));
    return dir;
  }
}
