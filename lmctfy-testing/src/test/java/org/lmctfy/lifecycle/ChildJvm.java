package org.lmctfy.lifecycle;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.lmctfy.CleanupReport;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.support.ChildJvms;

/**
 * A second JVM that creates and destroys containers on the host under a scratch root, for the crash
 * and concurrency tests. {@code loop <root> <names...>}: create then destroy each name until
 * killed. {@code hammer <root> <millis> <threads> <names...>}: random creates, destroys and
 * cleanups for a while, one line per successful call ({@code ok <op> <name> <startNanos>
 * <endNanos>}). Any failure other than ALREADY_EXISTS or NOT_FOUND prints {@code UNEXPECTED} and
 * exits 3.
 */
public final class ChildJvm {
  static final ContainerSpec SPEC =
      ContainerSpec.parse("cpu { limit: 500 } memory { limit: 104857600 } pids { limit: 50 }");

  private ChildJvm() {}

  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    ContainerApi api = ContainerApi.open(ContainerApi.hostCgroupFs(), CgroupPath.of(args[1]));
    try {
      if (args[0].equals("loop")) {
        out.println("ready");
        List<String> names = List.of(args).subList(2, args.length);
        while (true) {
          for (String name : names) {
            call(api, "create", name, out);
          }
          for (int i = names.size() - 1; i >= 0; i--) {
            call(api, "destroy", names.get(i), out);
          }
        }
      }
      hammer(
          api,
          Long.parseLong(args[2]),
          Integer.parseInt(args[3]),
          List.of(args).subList(4, args.length),
          out);
    } catch (LmctfyException e) {
      out.println("UNEXPECTED " + e.code() + ": " + e.getMessage());
      System.exit(3);
    }
  }

  private static void hammer(
      ContainerApi api, long millis, int threads, List<String> names, PrintStream out)
      throws InterruptedException {
    long end = System.nanoTime() + millis * 1_000_000;
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread w =
          new Thread(
              () -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                while (System.nanoTime() < end) {
                  String name = names.get(random.nextInt(names.size()));
                  try {
                    if (random.nextInt(10)
                        == 0) { // removes the lock files nobody holds while others lock them
                      CleanupReport report = api.cleanup();
                      if (!report.failures().isEmpty()) {
                        out.println("UNEXPECTED cleanup failures: " + report.failures());
                        System.exit(3);
                      }
                      continue;
                    }
                    call(api, random.nextBoolean() ? "create" : "destroy", name, out);
                  } catch (LmctfyException e) {
                    out.println("UNEXPECTED " + e.code() + ": " + e.getMessage());
                    System.exit(3);
                  }
                }
              });
      w.start();
      workers.add(w);
    }
    for (Thread w : workers) {
      w.join();
    }
    out.println("done");
  }

  /** One call; ALREADY_EXISTS and NOT_FOUND are expected answers, anything else is thrown. */
  static void call(ContainerApi api, String op, String name, PrintStream out) {
    long start = System.nanoTime();
    try {
      if (op.equals("create")) {
        api.create(name, SPEC);
      } else {
        api.destroy(name);
      }
      out.println("ok " + op + " " + name + " " + start + " " + System.nanoTime());
    } catch (LmctfyException e) {
      if (e.code() != ErrorCode.ALREADY_EXISTS && e.code() != ErrorCode.NOT_FOUND) {
        throw e;
      }
    }
  }

  /**
   * Starts this class in a new JVM with the test's class path; its output goes to {@code output}.
   */
  static Process start(Path output, String... args) throws IOException {
    return ChildJvms.start(ChildJvms.java("-Xss512k", ChildJvm.class, args), output);
  }

  /**
   * Waits until {@code output} has the line {@code wanted}, or the child ends; returns the lines.
   */
  public static List<String> awaitLine(Process child, Path output, String wanted)
      throws IOException, InterruptedException {
    while (true) {
      List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
      if (lines.contains(wanted) || !child.isAlive() && lines.equals(Files.readAllLines(output))) {
        return lines;
      }
      Thread.sleep(2);
    }
  }
}
