package org.lmctfy.examples.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * System calls counted by {@code strace -c} (at /usr/bin/strace or on PATH): of chosen threads of
 * this JVM over a window, or of a whole program. Counts are per system call name, errors included.
 */
final class Strace {
  /** Calls by system call name, most first, and their total. */
  record Counts(Map<String, Long> calls, long total) {
    /** Each count divided by {@code ops}, those of at least half a call, as "name n, ...". */
    String perOp(int ops) {
      StringBuilder sb = new StringBuilder();
      calls.forEach(
          (name, n) -> {
            if (n * 2 >= ops) {
              sb.append(sb.length() == 0 ? "" : ", ")
                  .append(name)
                  .append(' ')
                  .append(Math.round((double) n / ops));
            }
          });
      return sb.toString();
    }

    /** The difference of two counts, {@code this - base}: a program's loop without its start. */
    Counts minus(Counts base) {
      Map<String, Long> out = new LinkedHashMap<>();
      calls.forEach(
          (name, n) -> {
            long d = n - base.calls.getOrDefault(name, 0L);
            if (d != 0) {
              out.put(name, d);
            }
          });
      return new Counts(out, total - base.total);
    }
  }

  private Strace() {}

  /** Whether strace runs here. */
  static boolean available() {
    try {
      Process p = new ProcessBuilder("strace", "-V").redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor() == 0;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }

  /** The calling thread's id in the kernel. */
  static long tid() throws IOException {
    String link =
        Files.readSymbolicLink(Path.of("/proc/thread-self")).toString(); // "<pid>/task/<tid>"
    return Long.parseLong(link.substring(link.lastIndexOf('/') + 1));
  }

  /** A tracer attached to some threads; {@link #stop} detaches and counts. */
  static final class Attached {
    private final Process strace;
    private final Path output;

    private Attached(Process strace, Path output) {
      this.strace = strace;
      this.output = output;
    }

    /** Detaches (SIGTERM: strace reports and leaves the threads running) and counts. */
    Counts stop() throws IOException, InterruptedException {
      strace.destroy();
      if (!strace.waitFor(30, TimeUnit.SECONDS)) {
        strace.destroyForcibly();
        throw new IOException("strace did not stop");
      }
      Counts c = parse(Files.readAllLines(output));
      Files.delete(output);
      return c;
    }
  }

  /** Attaches to the given threads of this JVM and returns once every one is traced. */
  static Attached attach(List<Long> tids) throws IOException, InterruptedException {
    Path output = Files.createTempFile("lmctfy-strace", ".txt");
    List<String> cmd = new ArrayList<>(List.of("strace", "-c", "-o", output.toString()));
    for (long tid : tids) {
      cmd.add("-p");
      cmd.add(Long.toString(tid));
    }
    Process p =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    for (long tid : tids) {
      while (!traced(tid)) {
        if (!p.isAlive() || System.nanoTime() > deadline) {
          p.destroyForcibly();
          throw new IOException(
              "strace could not attach to thread " + tid + " (ptrace permitted?)");
        }
        Thread.sleep(5);
      }
    }
    return new Attached(p, output);
  }

  private static boolean traced(long tid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/task/" + tid + "/status"))) {
      if (line.startsWith("TracerPid:")) {
        return !line.substring("TracerPid:".length()).strip().equals("0");
      }
    }
    return false;
  }

  /**
   * The counts of a whole program and the processes and threads it starts ({@code strace -f -c}).
   */
  static Counts program(List<String> command) throws IOException, InterruptedException {
    Path output = Files.createTempFile("lmctfy-strace", ".txt");
    List<String> cmd = new ArrayList<>(List.of("strace", "-f", "-c", "-o", output.toString()));
    cmd.addAll(command);
    Process p =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    if (p.waitFor() != 0) {
      throw new IOException("strace " + command + " exited " + p.exitValue());
    }
    Counts c = parse(Files.readAllLines(output));
    Files.delete(output);
    return c;
  }

  /** strace -c's table: "% time seconds usecs/call calls [errors] syscall" rows, then "total". */
  static Counts parse(List<String> lines) {
    Map<String, Long> calls = new LinkedHashMap<>();
    long total = 0;
    for (String line : lines) {
      String[] f = line.strip().split("\\s+");
      if (f.length < 5 || !Character.isDigit(f[0].charAt(0))) {
        continue; // header, rule, or a line of strace's own
      }
      String name = f[f.length - 1];
      long n = Long.parseLong(f[3]);
      if (name.equals("total")) {
        total = n;
      } else {
        calls.put(name, n);
      }
    }
    return new Counts(calls, total);
  }
}
