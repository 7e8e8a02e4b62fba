package org.lmctfy.examples.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ContainerProcess;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.RunSpec;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * {@code run} of {@code /bin/true} into a container, start to exit, next to a C floor that makes
 * the fewest system calls for the same end state: {@code fork}; the child writes {@code 0} (itself)
 * into the container's {@code cgroup.procs} in every managed hierarchy and {@code execve}s {@code
 * /bin/true}; the parent {@code waitpid}s. The floor is compiled with the system's {@code cc}. A
 * third column is the JDK alone: {@code ProcessBuilder} start and {@code waitFor} of {@code
 * /bin/true} with no placement, the least any JVM code pays for a process through the JDK. Two more
 * take the library's cost apart: the floor without placement (fork, execve, waitpid: what the 9
 * writes add), and the launcher's gate placed nowhere (the JDK starting {@code /bin/sh} that reads
 * one line from a pipe, then execs {@code /bin/true}: what the shell and its handshake add). Runs
 * alternate in rounds after a warm-up; prints medians per run and the median of per-round ratios.
 * With {@code --strace}, also counts the system calls of each (strace -f -c over one batch).
 *
 * <pre>
 * java -cp examples/target/lmctfy.jar org.lmctfy.examples.bench.RunBenchmark [--quick] [--strace]
 * </pre>
 */
public final class RunBenchmark {
  private static final String FLOOR_C =
      String.join(
          "\n",
          "#include <fcntl.h>",
          "#include <stdio.h>",
          "#include <stdlib.h>",
          "#include <sys/wait.h>",
          "#include <unistd.h>",
          "int main(int argc, char **argv) {", // argv: count, then each cgroup.procs
          "  int n = atoi(argv[1]);",
          "  char *const args[] = {\"/bin/true\", NULL};",
          "  char *const env[] = {NULL};",
          "  for (int i = 0; i < n; i++) {",
          "    pid_t pid = fork();",
          "    if (pid == 0) {",
          "      for (int j = 2; j < argc; j++) {",
          "        int fd = open(argv[j], O_WRONLY | O_CLOEXEC);",
          "        if (fd < 0 || write(fd, \"0\", 1) != 1) _exit(125);",
          "        close(fd);",
          "      }",
          "      execve(args[0], args, env);",
          "      _exit(127);",
          "    }",
          "    int status;",
          "    if (pid < 0 || waitpid(pid, &status, 0) != pid || status != 0) return 1;",
          "  }",
          "  return 0;",
          "}",
          "");

  public static void main(String[] args) throws Exception {
    boolean quick = List.of(args).contains("--quick");
    boolean strace = List.of(args).contains("--strace");
    PrintStream out = System.out;
    String unusable = ScratchCgroups.hostUnusableReason();
    if (unusable != null) {
      out.println("run benchmark skipped: " + unusable);
      return;
    }
    Path floor;
    try {
      floor = CFloor.compile("run-floor", FLOOR_C);
    } catch (CFloor.Unavailable e) {
      out.println("run benchmark skipped: " + e.getMessage());
      return;
    }
    Path dir = floor.getParent();
    CgroupFs fs = ContainerApi.hostCgroupFs();
    try (ScratchCgroups scratch = ScratchCgroups.on(fs);
        ContainerApi api = ContainerApi.open(fs, scratch.path())) {
      Container job = api.create("/job", Benchmarks.SPEC);
      List<String> procs = new ArrayList<>();
      for (Hierarchy h : fs.hierarchies()) {
        if (h.version() == CgroupVersion.V2 || !h.controllers().isEmpty()) {
          procs.add(h.display(scratch.path().resolve("job"), "cgroup.procs"));
        }
      }
      RunSpec quiet =
          RunSpec.builder()
              .environment(java.util.Map.of())
              .stdout("/dev/null")
              .stderr("/dev/null")
              .build();
      int batch = quick ? 50 : 200;
      int rounds = quick ? 3 : 7;
      // warm-up: the JIT compiles the library's path; the floor's page cache warms
      long warmEnd = System.nanoTime() + (quick ? 1_000_000_000L : 3_000_000_000L);
      while (System.nanoTime() < warmEnd) {
        library(job, quiet, 20);
        floor(floor, procs, 20);
        jdkAlone(20);
        gateAlone(20);
        floor(floor, List.of(), 20);
      }
      double[] lib = new double[rounds];
      double[] jdk = new double[rounds];
      double[] raw = new double[rounds];
      double[] gate = new double[rounds];
      double[] unplaced = new double[rounds];
      double[] ratio = new double[rounds];
      double[] toJdk = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        raw[r] = floor(floor, procs, batch);
        lib[r] = library(job, quiet, batch);
        jdk[r] = jdkAlone(batch);
        gate[r] = gateAlone(batch);
        unplaced[r] = floor(floor, List.of(), batch);
        ratio[r] = lib[r] / raw[r];
        toJdk[r] = lib[r] / jdk[r];
      }
      out.printf(
          "machine: %d cpus, Linux %s, Java %s; %d hierarchies to place in%n",
          Runtime.getRuntime().availableProcessors(),
          Files.readString(Path.of("/proc/sys/kernel/osrelease")).strip(),
          System.getProperty("java.version"),
          procs.size());
      out.printf(
          "run /bin/true, start to exit: C floor (fork, write 0 to %d cgroup.procs, execve, waitpid) %.0f µs%n",
          procs.size(), median(raw));
      out.printf(
          "run /bin/true, start to exit: library run + waitFor (empty environment)             %.0f µs%n",
          median(lib));
      out.printf(
          "run /bin/true, start to exit: the JDK alone (ProcessBuilder, no placement)        %.0f µs"
              + " = %.2f x floor%n",
          median(jdk), median(jdk) / median(raw));
      out.printf(
          "run /bin/true, start to exit: the C floor without placement (fork, execve, waitpid) %.0f µs:"
              + " the %d writes cost %.0f µs%n",
          median(unplaced), procs.size(), median(raw) - median(unplaced));
      out.printf(
          "run /bin/true, start to exit: the launcher's gate placed nowhere (JDK, sh, read, exec) %.0f µs"
              + " = %.2f x the JDK alone%n",
          median(gate), median(gate) / median(jdk));
      out.printf(
          "ratio (median of %d rounds of %d): %.2f x floor  [rounds: %s]%n",
          rounds,
          batch,
          median(ratio),
          Arrays.toString(Arrays.stream(ratio).map(x -> Math.round(x * 100) / 100.0).toArray()));
      out.printf(
          "ratio to the JDK alone (median of %d rounds): %.2f x  [rounds: %s]%n",
          rounds,
          median(toJdk),
          Arrays.toString(Arrays.stream(toJdk).map(x -> Math.round(x * 100) / 100.0).toArray()));
      if (strace) {
        out.println("system calls per run (strace -f -c of 20 runs, divided by 20):");
        out.println("  floor: " + straceFloor(floor, procs, dir));
      }
      job.destroy();
    }
  }

  /** Microseconds per run of the library. */
  static double library(Container job, RunSpec spec, int n) throws InterruptedException {
    long start = System.nanoTime();
    for (int i = 0; i < n; i++) {
      ContainerProcess p = job.run(List.of("/bin/true"), spec);
      if (p.waitFor() != 0) {
        throw new IllegalStateException("true exited " + p.exitCode());
      }
    }
    return (System.nanoTime() - start) / 1000.0 / n;
  }

  /** Microseconds per start and exit of {@code /bin/true} through the JDK, placed nowhere. */
  static double jdkAlone(int n) throws IOException, InterruptedException {
    ProcessBuilder pb =
        new ProcessBuilder("/bin/true")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD);
    pb.environment().clear();
    long start = System.nanoTime();
    for (int i = 0; i < n; i++) {
      if (pb.start().waitFor() != 0) {
        throw new IllegalStateException("/bin/true failed");
      }
    }
    return (System.nanoTime() - start) / 1000.0 / n;
  }

  /**
   * Microseconds per start and exit of the launcher's gate placed nowhere: {@code /bin/sh} reads
   * one line from its stdin pipe, then execs {@code /bin/true}.
   */
  static double gateAlone(int n) throws IOException, InterruptedException {
    ProcessBuilder pb =
        new ProcessBuilder("/bin/sh", "-c", "IFS= read -r g || exit 125; exec /bin/true")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD);
    pb.environment().clear();
    byte[] go = "go\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    long start = System.nanoTime();
    for (int i = 0; i < n; i++) {
      Process p = pb.start();
      try (java.io.OutputStream in = p.getOutputStream()) {
        in.write(go);
      }
      if (p.waitFor() != 0) {
        throw new IllegalStateException("the gate failed");
      }
    }
    return (System.nanoTime() - start) / 1000.0 / n;
  }

  /**
   * Microseconds per run of the C floor (one process running n forks), placing in {@code procs}.
   */
  static double floor(Path floor, List<String> procs, int n)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(floor.toString(), Integer.toString(n)));
    cmd.addAll(procs);
    Process p = new ProcessBuilder(cmd).start();
    long start = System.nanoTime();
    // the floor's own start is outside the measure only approximately: it is one exec per batch
    if (p.waitFor() != 0) {
      throw new IllegalStateException(
          "the floor failed: " + new String(p.getErrorStream().readAllBytes()));
    }
    return (System.nanoTime() - start) / 1000.0 / n;
  }

  private static String straceFloor(Path floor, List<String> procs, Path dir)
      throws IOException, InterruptedException {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                "strace",
                "-f",
                "-c",
                "-o",
                dir.resolve("floor.strace").toString(),
                floor.toString(),
                "20"));
    cmd.addAll(procs);
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    p.waitFor();
    List<String> lines = Files.readAllLines(dir.resolve("floor.strace"));
    String total = lines.stream().filter(l -> l.strip().endsWith("total")).findFirst().orElse("");
    String[] f = total.strip().split("\\s+");
    return f.length >= 4
        ? (Long.parseLong(f[3]) / 20) + " (strace total " + f[3] + " for 20)"
        : total;
  }

  static double median(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
