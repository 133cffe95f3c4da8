package org.modelfs.fuzz;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.io.PrintWriter;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * The {@code -Pfuzz} driver (docs/RELIABILITY.md "Fuzzing"). Jazzer fuzzes one target per JVM,
 * so this runs each target in a child JVM of its own ({@code JAZZER_FUZZ=1}, the heap bound
 * {@code -Xmx512m}, {@code -Djazzer.max_duration}, coverage of our classes, commons-compress's zip
 * reader and FlatBuffers) and prints one line per target: its
 * executions, its corpus and whether it found something. Crash inputs land in the target's
 * inputs directory under {@code src/test/resources} (kept: the default build replays them),
 * the growing corpus in {@code .cifuzz-corpus/}; each child's output in
 * {@code target/fuzz/<target>.log}.
 *
 * <p>Arguments: seconds per target, then optionally the targets ({@code Class#method}, default
 * all). With {@code --one Class#method} it is the child: runs that one fuzz test.
 */
public final class FuzzMain {
  /** Every fuzz target. */
  static final List<String> TARGETS = List.of(
      "org.modelfs.fuzz.ReaderFuzzTest#fb",
      "org.modelfs.fuzz.ReaderFuzzTest#sdnb",
      "org.modelfs.fuzz.ReaderFuzzTest#sharded",
      "org.modelfs.fuzz.ReaderFuzzTest#sdz",
      "org.modelfs.fuzz.ReaderFuzzTest#zipTags",
      "org.modelfs.fuzz.ReaderFuzzTest#container",
      "org.modelfs.format.unified.ContainerFuzzTest#read",
      "org.modelfs.format.sdnb.ManifestFuzzTest#parse",
      "org.modelfs.fuzz.ZipDirectoryFuzzTest#centralDirectory",
      "org.modelfs.fuzz.NameMappingFuzzTest#roundTripAndInjectivity",
      "org.modelfs.fuzz.RecoveryFuzzTest#recover",
      "org.modelfs.provider.GraphJsonFuzzTest#write");
  private static final Pattern DONE = Pattern.compile("Done (\\d+) runs in (\\d+) second");
  private static final Pattern STAT = Pattern.compile("#(\\d+)\\s+(?:pulse|NEW|REDUCE|DONE)\\s+cov: (\\d+) ft: (\\d+) corp: (\\d+)");

  private FuzzMain() {}

  /**
   * Runs the targets, or (with {@code --one}) one target in this JVM.
   *
   * @param args seconds per target and optionally targets; or {@code --one Class#method}
   * @throws Exception if a child cannot be started
   */
  public static void main(String[] args) throws Exception {
    if (args.length == 2 && args[0].equals("--one")) {
      System.exit(runOne(args[1]));
    }
    long seconds = Long.parseLong(args[0]);
    List<String> targets = args.length > 1 ? List.of(args).subList(1, args.length) : TARGETS;
    Path logs = Files.createDirectories(Path.of("target/fuzz"));
    int failed = 0;
    for (String t : targets) {
      Path log = logs.resolve(t.substring(t.lastIndexOf('.') + 1).replace('#', '.') + ".log");
      List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Xmx512m", "-Xss4m", "-Djazzer.max_duration=" + seconds + "s",
          // coverage of our classes and of the parsers we hand hostile bytes to (jars are not
          // instrumented unless named)
          "-Djazzer.instrumentation_includes=org.modelfs.**:org.apache.commons.compress.archivers.zip.**"
              + ":com.google.flatbuffers.**",
          "-cp", System.getProperty("java.class.path"), FuzzMain.class.getName(), "--one", t));
      ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
      pb.environment().put("JAZZER_FUZZ", "1");
      int rc = pb.start().waitFor();
      failed += rc == 0 ? 0 : 1;
      System.out.println(summary(t, rc, Files.readString(log, StandardCharsets.UTF_8)) + "  (" + log + ")");
    }
    System.exit(failed == 0 ? 0 : 1);
  }

  /** One line: target, executions and time, last coverage, and the outcome. */
  static String summary(String target, int rc, String log) {
    Matcher d = DONE.matcher(log);
    String runs = "?";
    String secs = "?";
    while (d.find()) {
      runs = d.group(1);
      secs = d.group(2);
    }
    Matcher s = STAT.matcher(log);
    String cov = "";
    while (s.find()) {
      cov = "cov " + s.group(2) + ", features " + s.group(3) + ", corpus " + s.group(4);
    }
    return String.format("%-62s %s runs in %s s; %s; %s", target, runs, secs, cov,
        rc == 0 ? "no finding" : "FINDING (exit " + rc + ")");
  }

  private static int runOne(String target) {
    String[] cm = target.split("#");
    LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
        .selectors(selectMethod(cm[0] + "#" + cm[1] + "(" + paramType(cm[0], cm[1]) + ")")).build();
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    LauncherFactory.create().execute(request, listener);
    TestExecutionSummary summary = listener.getSummary();
    summary.printTo(new PrintWriter(System.out, true));
    summary.printFailuresTo(new PrintWriter(System.out, true), 50);
    return summary.getTotalFailureCount() == 0 && summary.getTestsSucceededCount() > 0 ? 0 : 3;
  }

  private static String paramType(String cls, String method) {
    try {
      for (Method m : Class.forName(cls).getDeclaredMethods()) {
        if (m.getName().equals(method) && m.getParameterCount() == 1) {
          return m.getParameterTypes()[0].getName();
        }
      }
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException(target(cls, method), e);
    }
    throw new IllegalArgumentException(target(cls, method) + ": no such fuzz test");
  }

  private static String target(String cls, String method) {
    return cls + "#" + method;
  }

}
