package org.lmctfy.examples.bench;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.lmctfy.ContainerApi;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;

/**
 * The kernel half of {@link Benchmarks}, on the five v1 hierarchies cpu, cpuacct, memory, freezer
 * and pids, below a scratch parent: lifecycle next to raw NIO, and scale.
 */
final class KernelBenchmarks {
  private final PrintStream out;
  private final CgroupFs fs;
  private final CgroupPath scratch;
  private final boolean quick;
  private final ContainerApi api;

  KernelBenchmarks(PrintStream out, CgroupFs fs, CgroupPath scratch, boolean quick) {
    this.out = out;
    this.fs = fs;
    this.scratch = scratch;
    this.quick = quick;
    this.api = ContainerApi.open(fs, scratch);
  }

  void run() throws Exception {
    lifecycle();
    scale();
  }

  private Path dir(Hierarchy h, String name) {
    return Path.of(h.display(CgroupPath.of(name).under(scratch), null));
  }

  /** Create and destroy, the library's next to the raw floor's, measured side by side. */
  private void lifecycle() throws Exception {
    Timer.Comparison both = compareLifecycles("/lib", quick ? 100 : 500, 7);
    row("lifecycle: raw NIO floor (5 mkdir, 3 writes, 5 rmdir)", both.floor(), "1.00");
    row("lifecycle: library create + destroy", both.contender(), String.format("%.2f x raw", both.ratio()));
  }

  private Timer.Comparison compareLifecycles(String name, int ops, int rounds) throws Exception {
    return Timer.compare(rounds, ops, n -> rawLifecycles(name + "-raw", n), n -> {
      for (int i = 0; i < n; i++) {
        api.create(name, Benchmarks.SPEC);
        api.destroy(name);
      }
    });
  }

  /** mkdir in each hierarchy, the three limit writes, rmdir in each: the unavoidable work. */
  private void rawLifecycles(String name, int n) throws Exception {
    List<Hierarchy> hs = fs.hierarchies();
    Path cpu = dir(fs.hierarchy("cpu").orElseThrow(), name).resolve("cpu.shares");
    Path memory = dir(fs.hierarchy("memory").orElseThrow(), name).resolve("memory.limit_in_bytes");
    Path pids = dir(fs.hierarchy("pids").orElseThrow(), name).resolve("pids.max");
    for (int i = 0; i < n; i++) {
      for (Hierarchy h : hs) {
        Files.createDirectory(dir(h, name));
      }
      Files.writeString(cpu, "512");
      Files.writeString(memory, "104857600");
      Files.writeString(pids, "100");
      for (Hierarchy h : hs) {
        Files.delete(dir(h, name));
      }
    }
  }

  /** Per-operation cost at 100, 1,000 and 10,000 containers, the library's and the floor's. */
  private void scale() throws Exception {
    int[][] shapes = quick ? new int[][] {{10, 10}, {10, 100}} : new int[][] {{10, 10}, {10, 100}, {100, 100}};
    new ScaleBenchmark(out, fs, scratch, api).run(shapes, quick ? 1 : 3);
  }

  private void row(String what, Timer.Result r, String ratio) {
    out.printf("%-46s %9.1f µs %14s %s%n", what, r.median(), r.spread(), ratio);
  }
}
