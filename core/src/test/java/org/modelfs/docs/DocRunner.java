package org.modelfs.docs;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.modelfs.cli.Main;

/**
 * Runs a documented command in this JVM, as the page says to run it from the repository's root:
 * {@code java -jar core/target/modelfs.jar ARGS} and {@code modelfs ARGS} run
 * {@link Main#run}; {@code java -cp core/target/modelfs.jar[:DIR] examples/src/…/X.java ARGS} and
 * {@code java -cp … org.modelfs.examples.X ARGS} run that example's {@code main}. The jars a
 * command names must be the ones the build writes (read from the poms). Files the command names
 * that the repository does not hold (model, .npy, .json … names) live in the block's work
 * directory; files of the repository are used where they are (and must stay as they are).
 */
final class DocRunner {
  /** The runnable CLI jar, as core/pom.xml's shade execution names it: {@code core/target/modelfs.jar}. */
  static String cliJar() {
    return jars().get("core").path();
  }

  /** The object-store module's runnable jar, as s3/pom.xml names it. */
  static String s3Jar() {
    return jars().get("s3").path();
  }

  /** A module's runnable jar: its path from the repository's root and the class its manifest runs. */
  record Jar(String module, String path, String mainClass) {
    /** Whether {@code java -jar} of it is the core's CLI ({@link Main}) and nothing else. */
    boolean isCoresCli() {
      return mainClass.equals(Main.class.getName());
    }
  }

  /**
   * The runnable jar of every module of the root pom's {@code <modules>} that shades one, by
   * module, in the pom's order: {@code core → core/target/modelfs.jar}, … A new module's jar is
   * known here without a change.
   */
  static Map<String, Jar> jars() {
    Map<String, Jar> jars = new LinkedHashMap<>();
    for (String module : modules()) {
      String pom = read(Path.of(module, "pom.xml"));
      Matcher out = Pattern.compile("<outputFile>\\$\\{project\\.build\\.directory}/([^<]+\\.jar)</outputFile>").matcher(pom);
      if (!out.find()) {
        continue; // a module without a runnable jar
      }
      Matcher main = Pattern.compile("<mainClass>([^<]+)</mainClass>").matcher(pom.substring(out.end()));
      if (!main.find()) {
        throw new IllegalStateException(module + "/pom.xml: the shaded jar " + out.group(1) + " names no <mainClass>");
      }
      jars.put(module, new Jar(module, module + "/target/" + out.group(1), main.group(1).strip()));
    }
    return jars;
  }

  /** The modules of the root pom's {@code <modules>}, in its order: core, s3, fuse, … */
  static List<String> modules() {
    List<String> modules = new ArrayList<>();
    Matcher m = Pattern.compile("<module>([^<]+)</module>").matcher(read(Path.of("pom.xml")));
    while (m.find()) {
      modules.add(m.group(1).strip());
    }
    return modules;
  }

  /** The jar at {@code path} ("fuse/target/modelfs-fuse.jar"), or null when the build writes none there. */
  static Jar jar(String path) {
    return jars().values().stream().filter(j -> j.path().equals(path)).findFirst().orElse(null);
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** What a command printed and its exit code. */
  record Result(int code, String out, String err) {}

  /** A name a command gives a file of its own (input or output): placed in the work directory. */
  private static final Pattern FILE = Pattern.compile("[\\w.-]+(/[\\w.-]+)*\\.(fb|sdnb|sdz|zip|sdmc|npy|safetensors|json|bin|html)");

  private final Path work;

  DocRunner(Path work) {
    this.work = work;
  }

  /** Runs one simple command; its standard output also goes to its {@code > FILE}. */
  Result run(Shell.Simple cmd) throws Exception {
    List<String> w = cmd.words();
    Result r;
    if (w.get(0).equals("modelfs")) {
      r = cli(w.subList(1, w.size()));
    } else if (w.get(0).equals("java")) {
      r = java(w.subList(1, w.size()));
    } else {
      throw new IllegalArgumentException("do not know how to run '" + w.get(0)
          + "': run it in docs.DocRunner, or list it in DocCommandsTest.notRun() with the reason");
    }
    if (cmd.stdoutTo() != null) {
      Files.writeString(work.resolve(cmd.stdoutTo()), r.out());
    }
    return r;
  }

  private Result java(List<String> w) throws Exception {
    int i = 0;
    while (i < w.size() && w.get(i).startsWith("-X")) {
      i++; // heap options: this JVM's own
    }
    if (i + 1 >= w.size() || !(w.get(i).equals("-jar") || w.get(i).equals("-cp"))) {
      throw new IllegalArgumentException("java without -jar JAR or -cp PATH: " + w);
    }
    String path = w.get(i + 1);
    List<String> rest = w.subList(i + 2, w.size());
    String jar = path.split(":")[0];
    if (!jar.equals(cliJar())) {
      throw new IllegalArgumentException("'" + jar + "' is not the core's CLI jar " + cliJar() + " (the build writes "
          + jars().values().stream().map(Jar::path).toList() + "): run it in docs.DocRunner, or list it in DocCommandsTest.notRun() with the reason");
    }
    if (w.get(i).equals("-jar")) {
      return cli(rest);
    }
    String program = rest.get(0);
    if (program.endsWith(".java")) {
      if (!Files.isRegularFile(Path.of(program))) {
        throw new IllegalArgumentException("no such source file: " + program);
      }
      program = "org.modelfs.examples." + Path.of(program).getFileName().toString().replace(".java", "");
    }
    return example(program, rest.subList(1, rest.size()));
  }

  private Result cli(List<String> args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    String encoding = System.getProperty("native.encoding");
    System.setProperty("native.encoding", "UTF-8"); // as on a UTF-8 terminal, whatever the build's locale
    try {
      int code = Main.run(placed(args), new PrintStream(out, true, StandardCharsets.UTF_8),
          new PrintStream(err, true, StandardCharsets.UTF_8));
      return new Result(code, normal(out), normal(err));
    } finally {
      if (encoding == null) {
        System.clearProperty("native.encoding");
      } else {
        System.setProperty("native.encoding", encoding);
      }
    }
  }

  private Result example(String className, List<String> args) throws Exception {
    PrintStream stdout = System.out;
    PrintStream stderr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = 0;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      System.setOut(o);
      System.setErr(e);
      Class.forName(className).getMethod("main", String[].class).invoke(null, (Object) placed(args));
    } catch (InvocationTargetException e) {
      err.writeBytes(String.valueOf(e.getCause()).getBytes(StandardCharsets.UTF_8));
      code = 1; // the JVM's exit code for an uncaught exception
    } finally {
      System.setOut(stdout);
      System.setErr(stderr);
    }
    return new Result(code, normal(out), normal(err));
  }

  /** The arguments with the command's own files in the work directory. */
  private String[] placed(List<String> args) {
    List<String> out = new ArrayList<>();
    for (String a : args) {
      out.add(place(a));
    }
    return out.toArray(String[]::new);
  }

  /** {@code m.fb:/params/W} → {@code WORK/m.fb:/params/W} unless the repository holds m.fb. */
  private String place(String arg) {
    if (arg.startsWith("-") || arg.contains("://")) {
      return arg;
    }
    int cut = Arrays.stream(new int[] {arg.indexOf(':'), arg.indexOf('#')}).filter(k -> k >= 0).min().orElse(arg.length());
    String file = arg.substring(0, cut);
    if (!FILE.matcher(file).matches() || Files.exists(Path.of(file))) {
      return arg;
    }
    return work.resolve(file) + arg.substring(cut);
  }

  /** Output as the page shows it: the work directory's names relative ("m.fb", not "/tmp/…/m.fb"). */
  private String normal(ByteArrayOutputStream b) {
    return b.toString(StandardCharsets.UTF_8).replace(work + "/", "");
  }
}
