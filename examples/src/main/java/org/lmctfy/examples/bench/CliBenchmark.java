package org.lmctfy.examples.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code lmctfy} launcher's wall time per command, next to a hello world on the same JVM with
 * the launcher's flags, for each JVM given (the launcher uses its ahead-of-time cache on Java 25
 * and later, its class data sharing archive before). Each command runs once to warm the page cache
 * and make the launcher's cache, then {@code --runs} times; prints medians and each one's ratio to
 * the hello world.
 *
 * <pre>java -cp examples/target/lmctfy.jar org.lmctfy.examples.bench.CliBenchmark [--runs N]
 *     [--launcher examples/lmctfy] [--java JAVA_HOME]...</pre>
 */
public final class CliBenchmark {
  /** The launcher's JVM flags, for the hello world. */
  private static final List<String> FLAGS =
      List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData");

  private static final List<List<String>> COMMANDS =
      List.of(
          List.of("--help"),
          List.of("--backend", "fake", "list", "containers", "/"),
          List.of(
              "--backend", "fake", "create", "/c", "cpu { max_limit: 500 } memory { limit: 64M }"),
          List.of("--backend", "fake", "stats", "summary", "/"),
          List.of("--backend", "host", "--driver", "cgroupfs", "list", "containers", "/"));

  private CliBenchmark() {}

  /** Says hello, the least a JVM start does. */
  public static final class Hello {
    private Hello() {}

    /**
     * Prints hello.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
      System.out.println("hello");
    }
  }

  /**
   * Runs the benchmark.
   *
   * @param args {@code --runs N}, {@code --launcher PATH}, {@code --java JAVA_HOME} (repeatable)
   * @throws Exception if a command cannot start
   */
  public static void main(String[] args) throws Exception {
    int runs = 7;
    Path launcher = Path.of("examples/lmctfy");
    List<Path> javas = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--runs" -> runs = Integer.parseInt(args[++i]);
        case "--launcher" -> launcher = Path.of(args[++i]);
        case "--java" -> javas.add(Path.of(args[++i]));
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    if (javas.isEmpty()) {
      javas.add(Path.of(System.getProperty("java.home")));
    }
    Path jar = launcher.toAbsolutePath().getParent().resolve("target/lmctfy.jar");
    PrintStream out = System.out;
    out.printf(
        "machine: %d cpus, load %s; launcher %s; median of %d runs after one%n",
        Runtime.getRuntime().availableProcessors(),
        Files.readString(Path.of("/proc/loadavg")).split(" ")[0],
        launcher,
        runs);
    for (Path home : javas) {
      List<String> hello = new ArrayList<>(List.of(home.resolve("bin/java").toString()));
      hello.addAll(FLAGS);
      hello.addAll(List.of("-cp", jar.toString(), Hello.class.getName()));
      double base = median(hello, null, runs);
      out.printf("%s: hello world %.0f ms%n", home.getFileName(), base);
      for (List<String> command : COMMANDS) {
        List<String> argv = new ArrayList<>(List.of(launcher.toString()));
        argv.addAll(command);
        double ms = median(argv, home, runs);
        out.printf(
            "%s: lmctfy %-60s %4.0f ms = %.2f x hello world%n",
            home.getFileName(), String.join(" ", command), ms, ms / base);
      }
    }
  }

  /** The median wall time in ms of {@code runs} runs of {@code argv}, after one. */
  private static double median(List<String> argv, Path javaHome, int runs)
      throws IOException, InterruptedException {
    double[] ms = new double[runs];
    for (int i = -1; i < runs; i++) {
      ProcessBuilder pb =
          new ProcessBuilder(argv)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .redirectError(ProcessBuilder.Redirect.DISCARD);
      if (javaHome != null) {
        pb.environment().put("JAVA_HOME", javaHome.toString());
      }
      long start = System.nanoTime();
      int status = pb.start().waitFor();
      long took = System.nanoTime() - start;
      if (status != 0) {
        throw new IllegalStateException(argv + " exited " + status);
      }
      if (i >= 0) {
        ms[i] = took / 1e6;
      }
    }
    return RunBenchmark.median(ms);
  }
}
