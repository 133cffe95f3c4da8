package org.modelfs.testing;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * The round-trip delay of the benchmark as issue 34 asks for it: a network namespace of its own
 * ({@code ip netns add}), its loopback up, {@code tc qdisc … netem delay} on that loopback, and
 * this JVM re-executed inside it ({@code ip netns exec}), servers and client together. Root only;
 * where that fails (not root, no {@code ip}/{@code tc}, a kernel without {@code sch_netem}) the
 * reason is printed and {@link #usable()} is false: the benchmark then delays in its
 * {@link DelayProxy}. Inside the namespace, {@link #delay(long)} changes the qdisc.
 */
public final class Netem {
  static final String INSIDE = "modelfs.bench.netns";

  private Netem() {}

  /** Whether this JVM runs inside the benchmark's namespace (re-executed by {@link #reexec}). */
  static boolean inside() {
    return System.getProperty(INSIDE) != null;
  }

  /** Makes the namespace and tries netem on its loopback; null and a printed reason when it cannot. */
  static String create() {
    String ns = "modelfs-bench-" + ProcessHandle.current().pid();
    try {
      run("ip", "netns", "add", ns);
    } catch (IOException e) {
      System.out.println("no network namespace (" + e.getMessage() + "): the delay is the benchmark's proxy's");
      return null;
    }
    try {
      run("ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up");
      run("ip", "netns", "exec", ns, "tc", "qdisc", "add", "dev", "lo", "root", "netem", "delay", "0ms");
      return ns;
    } catch (IOException e) {
      System.out.println("netem on the namespace's loopback failed (" + e.getMessage()
          + "): the delay is the benchmark's proxy's");
      delete(ns);
      return null;
    }
  }

  static void delete(String ns) {
    try {
      run("ip", "netns", "del", ns);
    } catch (IOException e) {
      System.err.println("could not delete network namespace " + ns + ": " + e.getMessage());
    }
  }

  /** Runs this JVM's command line again inside {@code ns}; returns its exit status. */
  static int reexec(String ns, String mainClass, String[] args) throws IOException, InterruptedException {
    ProcessHandle.Info info = ProcessHandle.current().info();
    List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", ns, info.command().orElseThrow()));
    cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
    cmd.add("-D" + INSIDE + "=" + ns);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(mainClass);
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd).inheritIO().start().waitFor();
  }

  /** Inside the namespace: the loopback's one-way delay ({@code ms} each way through lo = 2 × ms RTT). */
  static void delay(long ms) throws IOException {
    run("tc", "qdisc", "change", "dev", "lo", "root", "netem", "delay", ms + "ms");
  }

  private static void run(String... cmd) throws IOException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes()).trim();
    try {
      if (p.waitFor() != 0) {
        throw new IOException(String.join(" ", cmd) + ": " + out);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(String.join(" ", cmd) + ": interrupted", e);
    }
  }
}
