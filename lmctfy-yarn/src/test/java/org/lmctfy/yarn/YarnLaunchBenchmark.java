package org.lmctfy.yarn;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.server.nodemanager.DefaultContainerExecutor;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * Container launch as YARN's application master sees it, from the allocation to the container's
 * first instruction, with {@link LmctfyContainerExecutor} against {@code DefaultContainerExecutor}:
 * two MiniYARNClusters of the same configuration but the executor, one application master each in
 * this JVM, launching containers one at a time, alternately on each (each first every other round),
 * after a warm-up. A container's command writes {@code date +%s%N} (the same for both); the time is
 * that less the instant the allocation reached the master. Prints the medians, the 90th
 * percentiles, the difference and the ratio. Needs root (the lmctfy side works below a scratch
 * cgroup with the cgroupfs driver).
 *
 * <pre>
 * java -cp lmctfy-yarn/target/test-classes:lmctfy-yarn/target/classes:$(cat lmctfy-yarn/target/test-classpath.txt) \
 *     org.lmctfy.yarn.YarnLaunchBenchmark [containers per executor, default 100]
 * </pre>
 */
public final class YarnLaunchBenchmark {
  /** No usage monitor in either cluster: its rounds would compete with the launches. */
  private static final String MONITORING = "yarn.minicluster.control-resource-monitoring";

  private static final Map<String, String> NO_MONITOR = Map.of(MONITORING, "false");

  private YarnLaunchBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("node")) {
      node(args[1]);
      return;
    }
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 100;
    int warmUp = Math.max(5, n / 10);
    // one cluster per JVM: two ResourceManagers in one JVM share its static cluster timestamp
    try (Node plain = new Node("default");
        Node lmctfy = new Node("lmctfy")) {
      List<Double> plainMs = new ArrayList<>();
      List<Double> lmctfyMs = new ArrayList<>();
      for (int i = 0; i < warmUp + n; i++) {
        // each goes first every other round: the second launch of a round shares the machine
        // with the first container's exit and clean-up in the other JVM
        double a;
        double b;
        if (i % 2 == 0) {
          a = plain.launch();
          b = lmctfy.launch();
        } else {
          b = lmctfy.launch();
          a = plain.launch();
        }
        if (i >= warmUp) {
          plainMs.add(a);
          lmctfyMs.add(b);
        }
      }
      Collections.sort(plainMs);
      Collections.sort(lmctfyMs);
      double p50a = pct(plainMs, 50);
      double p50b = pct(lmctfyMs, 50);
      System.out.printf(
          "container launch, allocation to first instruction, %d containers each (after %d"
              + " warm-up), one at a time, alternating, each first every other round:%n",
          n, warmUp);
      System.out.printf("| executor | p50 | p90 | min | max |%n|---|---|---|---|---|%n");
      row("DefaultContainerExecutor", plainMs);
      row("LmctfyContainerExecutor", lmctfyMs);
      System.out.printf(
          "p50 difference %+.1f ms (target +10 ms), ratio %.2f x%n", p50b - p50a, p50b / p50a);
    }
  }

  /** A child JVM with one cluster: each line it reads launches a container; it prints the ms. */
  private static final class Node implements AutoCloseable {
    private final Process process;
    private final java.io.BufferedReader out;
    private final java.io.PrintStream in;

    Node(String executor) throws Exception {
      process =
          new ProcessBuilder(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-Xmx1g",
                  "-Dorg.slf4j.simpleLogger.defaultLogLevel=error",
                  "-cp",
                  System.getProperty("java.class.path"),
                  YarnLaunchBenchmark.class.getName(),
                  "node",
                  executor)
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      out =
          new java.io.BufferedReader(
              new java.io.InputStreamReader(
                  process.getInputStream(), java.nio.charset.StandardCharsets.UTF_8));
      in = new java.io.PrintStream(process.getOutputStream(), true, "UTF-8");
    }

    double launch() throws Exception {
      in.println("launch");
      String line = out.readLine();
      if (line == null) {
        throw new IllegalStateException("the benchmark's node JVM ended");
      }
      return Double.parseDouble(line);
    }

    @Override
    public void close() throws Exception {
      in.close(); // end of input: the node stops its cluster and exits
      process.waitFor();
    }
  }

  /** The child: a cluster with {@code executor} ("default" or "lmctfy") and its master. */
  private static void node(String executor) throws Exception {
    Path out = Files.createTempDirectory("lmctfy-yarn-bench");
    Path script = MiniYarn.script(out, "start.sh", "date +%s%N > \"$OUT/$CONTAINER_ID.t\"\n");
    java.io.BufferedReader commands =
        new java.io.BufferedReader(
            new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8));
    try (ScratchCgroups scratch = ScratchCgroups.onHost();
        MiniYarn yarn =
            MiniYarn.start(
                "bench-" + executor,
                executor.equals("lmctfy")
                    ? MiniYarn.conf(
                        LmctfyContainerExecutor.class,
                        LmctfyProcessTree.class,
                        Map.of(
                            Settings.DRIVER,
                            "cgroupfs",
                            Settings.CGROUP_ROOT,
                            scratch.path().toString(),
                            MONITORING,
                            "false"))
                    : MiniYarn.conf(
                        DefaultContainerExecutor.class, LmctfyProcessTree.class, NO_MONITOR));
        ShellApp app = ShellApp.start(yarn.clientConf(), "bench-" + executor)) {
      while (commands.readLine() != null) {
        System.out.println(launchOne(app, script, out));
      }
      app.finish();
    }
  }

  /** Allocates one container, starts it, and returns ms from the allocation to its first line. */
  private static double launchOne(ShellApp app, Path script, Path out) throws Exception {
    Container c = app.allocate(1, 32, 1, Duration.ofSeconds(60)).get(0);
    Instant allocated = Instant.now();
    app.start(c, "bash " + script, Map.of("OUT", out.toString()));
    Path t = out.resolve(c.getId() + ".t");
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!Files.exists(t) || Files.size(t) == 0) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(c.getId() + " did not start within 60 s");
      }
      Thread.sleep(1);
    }
    long startedNs = Long.parseLong(Files.readString(t).strip());
    long allocatedNs = allocated.getEpochSecond() * 1_000_000_000L + allocated.getNano();
    return (startedNs - allocatedNs) / 1e6;
  }

  private static double pct(List<Double> sorted, int p) {
    return sorted.get(Math.min(sorted.size() - 1, sorted.size() * p / 100));
  }

  private static void row(String name, List<Double> sorted) {
    System.out.printf(
        "| %s | %.1f ms | %.1f ms | %.1f ms | %.1f ms |%n",
        name, pct(sorted, 50), pct(sorted, 90), sorted.get(0), sorted.get(sorted.size() - 1));
  }
}
