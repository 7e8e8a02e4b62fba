package org.lmctfy.examples.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ContainerProcess;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.RunSpec;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * What a user sees of {@code run}: {@code /bin/true} run into a container and waited for, each run
 * timed on its own, back to back and now and then (50 ms and 200 ms pauses before each run, which
 * is when moving a process into a cgroup waits for the kernel's RCU grace period), as p50 and p90,
 * beside:
 *
 * <ul>
 *   <li>the JDK's {@code ProcessBuilder} start and {@code waitFor} of the same program, placed
 *       nowhere;
 *   <li>a C floor that migrates: fork, the child writes itself into each managed {@code
 *       cgroup.procs}, execve, waitpid;
 *   <li>on a v2 machine, a C floor that spawns into the cgroup: {@code clone3} with {@code
 *       CLONE_INTO_CGROUP}, execve, waitpid.
 * </ul>
 *
 * The C floors are one process each, compiled with {@code cc} at start, which time each run
 * themselves when told to go. The contenders alternate run by run. It prints whether the cgroup2
 * mount has {@code favordynmods} and which way {@code run} started its processes.
 *
 * <pre>
 * java -cp examples/target/lmctfy.jar org.lmctfy.examples.bench.RunBenchmark [--quick]
 * </pre>
 */
public final class RunBenchmark {
  private static final String FLOOR_C =
      String.join(
          "\n",
          "#define _GNU_SOURCE",
          "#include <fcntl.h>",
          "#include <signal.h>",
          "#include <stdint.h>",
          "#include <stdio.h>",
          "#include <stdlib.h>",
          "#include <string.h>",
          "#include <sys/syscall.h>",
          "#include <sys/wait.h>",
          "#include <time.h>",
          "#include <unistd.h>",
          "struct clone_args_v2 { uint64_t flags, pidfd, child_tid, parent_tid, exit_signal,",
          "  stack, stack_size, tls, set_tid, set_tid_size, cgroup; };",
          "static long ns(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);",
          "  return t.tv_sec * 1000000000L + t.tv_nsec; }",
          // argv: migrate|clone3, then the cgroup.procs files (migrate) or the cgroup dir (clone3)
          "int main(int argc, char **argv) {",
          "  int into = strcmp(argv[1], \"clone3\") == 0;",
          "  int dir = into ? open(argv[2], O_PATH | O_DIRECTORY | O_CLOEXEC) : -1;",
          "  char *const args[] = {\"/bin/true\", NULL};",
          "  char *const env[] = {NULL};",
          "  char line[16];",
          "  while (fgets(line, sizeof line, stdin)) {",
          "    long t0 = ns();",
          "    pid_t pid;",
          "    if (into) {",
          "      struct clone_args_v2 a;",
          "      memset(&a, 0, sizeof a);",
          "      a.flags = 0x200000000ULL; a.exit_signal = SIGCHLD; a.cgroup = dir;",
          "      pid = syscall(SYS_clone3, &a, sizeof a);",
          "    } else {",
          "      pid = fork();",
          "    }",
          "    if (pid == 0) {",
          "      for (int j = 2; !into && j < argc; j++) {",
          "        int fd = open(argv[j], O_WRONLY | O_CLOEXEC);",
          "        if (fd < 0 || write(fd, \"0\", 1) != 1) _exit(125);",
          "        close(fd);",
          "      }",
          "      execve(args[0], args, env);",
          "      _exit(127);",
          "    }",
          "    int status;",
          "    if (pid < 0 || waitpid(pid, &status, 0) != pid || status != 0) {",
          "      printf(\"-1\\n\"); fflush(stdout); return 1;",
          "    }",
          "    printf(\"%ld\\n\", ns() - t0);",
          "    fflush(stdout);",
          "  }",
          "  return 0;",
          "}",
          "");

  /** One contender: times one run, in nanoseconds. */
  private interface Contender {
    long once() throws Exception;
  }

  public static void main(String[] args) throws Exception {
    boolean quick = List.of(args).contains("--quick");
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
    CgroupFs fs = ContainerApi.hostCgroupFs();
    try (ScratchCgroups scratch = ScratchCgroups.on(fs);
        ContainerApi api = ContainerApi.open(fs, scratch.path())) {
      Container job = api.create("/job", Benchmarks.SPEC);
      List<String> procs = new ArrayList<>();
      String v2dir = null;
      for (Hierarchy h : fs.hierarchies()) {
        if (h.version() == CgroupVersion.V2 || !h.controllers().isEmpty()) {
          procs.add(h.display(scratch.path().resolve("job"), "cgroup.procs"));
        }
        if (h.version() == CgroupVersion.V2 && fs.hierarchies().size() == 1) {
          v2dir = h.display(scratch.path().resolve("job"), null);
        }
      }
      RunSpec quiet =
          RunSpec.builder().environment(Map.of()).stdout("/dev/null").stderr("/dev/null").build();
      ProcessBuilder pb =
          new ProcessBuilder("/bin/true")
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .redirectError(ProcessBuilder.Redirect.DISCARD);
      pb.environment().clear();
      List<String> names = new ArrayList<>(List.of("library run", "ProcessBuilder", "C migrate"));
      List<Contender> contenders = new ArrayList<>();
      contenders.add(
          () -> {
            long t0 = System.nanoTime();
            ContainerProcess p = job.run(List.of("/bin/true"), quiet);
            if (p.waitFor() != 0) {
              throw new IllegalStateException("true exited " + p.exitCode());
            }
            return System.nanoTime() - t0;
          });
      contenders.add(
          () -> {
            long t0 = System.nanoTime();
            if (pb.start().waitFor() != 0) {
              throw new IllegalStateException("/bin/true failed");
            }
            return System.nanoTime() - t0;
          });
      List<String> migrate = new ArrayList<>(List.of(floor.toString(), "migrate"));
      migrate.addAll(procs);
      List<Process> floors = new ArrayList<>();
      contenders.add(driven(migrate, floors));
      if (v2dir != null) {
        names.add("C clone3 into");
        contenders.add(driven(List.of(floor.toString(), "clone3", v2dir), floors));
      }
      try {
        for (int i = 0; i < (quick ? 100 : 300); i++) { // warm-up: the JIT, the page cache
          for (Contender c : contenders) {
            c.once();
          }
        }
        out.printf(
            "machine: %d cpus, Linux %s, Java %s; %d hierarchies to place in; cgroup2 mount %s%n",
            Runtime.getRuntime().availableProcessors(),
            Files.readString(Path.of("/proc/sys/kernel/osrelease")).strip(),
            System.getProperty("java.version"),
            procs.size(),
            favordynmods());
        out.println(
            "| /bin/true, start to exit | "
                + String.join(" | ", names)
                + " | library / ProcessBuilder | library / C migrate |");
        out.println("| --- |" + " --- |".repeat(names.size() + 2));
        for (int pause : new int[] {0, 50, 200}) {
          int n =
              pause == 0
                  ? (quick ? 200 : 500)
                  : pause == 50 ? (quick ? 30 : 80) : (quick ? 15 : 40);
          long[][] t = new long[contenders.size()][n];
          for (int i = 0; i < n; i++) {
            for (int c = 0; c < contenders.size(); c++) {
              if (pause > 0) {
                Thread.sleep(pause);
              }
              t[c][i] = contenders.get(c).once();
            }
          }
          StringBuilder row =
              new StringBuilder(
                  "| "
                      + (pause == 0 ? "back to back" : pause + " ms pauses")
                      + ", p50 / p90 ("
                      + n
                      + ") |");
          for (long[] x : t) {
            row.append(String.format(" %.2f / %.2f ms |", pct(x, 50), pct(x, 90)));
          }
          row.append(
              String.format(
                  " %.2f x | %.2f x |",
                  pct(t[0], 50) / pct(t[1], 50), pct(t[0], 50) / pct(t[2], 50)));
          out.println(row);
        }
        out.println("run's path: " + path(procs.size()));
      } finally {
        for (Process p : floors) {
          p.getOutputStream().close();
          p.waitFor();
        }
      }
      job.destroy();
    }
  }

  /** A C floor process, timing one run per line it is sent. */
  private static Contender driven(List<String> command, List<Process> started) throws IOException {
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    started.add(p);
    PrintWriter go = new PrintWriter(p.getOutputStream(), true, StandardCharsets.US_ASCII);
    BufferedReader took =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.US_ASCII));
    return () -> {
      go.println("go");
      long ns = Long.parseLong(took.readLine().strip());
      if (ns < 0) {
        throw new IllegalStateException("the floor " + command + " failed");
      }
      return ns;
    };
  }

  /** The {@code p}th percentile in milliseconds. */
  static double pct(long[] ns, int p) {
    long[] s = ns.clone();
    Arrays.sort(s);
    return s[Math.min(s.length - 1, (int) Math.ceil(p / 100.0 * s.length) - 1)] / 1e6;
  }

  static double median(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  /** Whether the cgroup2 mount has favordynmods, from /proc/self/mountinfo. */
  private static String favordynmods() throws IOException {
    for (String l : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
      if (l.contains(" - cgroup2 ")) {
        return l.contains("favordynmods") ? "has favordynmods" : "has no favordynmods";
      }
    }
    return "absent";
  }

  /** Which way run started its processes: the library's own detection, asked after the runs. */
  private static String path(int hierarchies) {
    try {
      Class<?> spawn = Class.forName("org.lmctfy.internal.libc.Spawn");
      Object noSpawn = spawn.getMethod("unavailable").invoke(null);
      Object noCgroup = spawn.getMethod("cgroupUnavailable").invoke(null);
      String gate =
          noSpawn == null
              ? "the launcher's gate, spawned by posix_spawn"
              : "the launcher's gate, started by ProcessBuilder (" + noSpawn + ")";
      if (hierarchies != 1) {
        return gate + " (" + hierarchies + " hierarchies, not one v2 cgroup)";
      }
      return noCgroup == null
          ? "spawned into the cgroup (posix_spawn, POSIX_SPAWN_SETCGROUP)"
          : gate + " (" + noCgroup + ")";
    } catch (ReflectiveOperationException e) {
      return "unknown (" + e + ")";
    }
  }
}
