package org.lmctfy.examples.bench;

import java.io.PrintStream;
import org.lmctfy.ContainerApi;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;

/**
 * The kernel half of {@link Benchmarks}, on the five v1 hierarchies cpu, cpuacct, memory, freezer
 * and pids (or every hierarchy of a machine without them), below a scratch parent: lifecycle shapes
 * next to a C floor, and scale.
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

  void run(boolean lifecycle, boolean scale) throws Exception {
    if (lifecycle) {
      lifecycle();
    }
    if (scale) {
      scale();
    }
  }

  /**
   * Each lifecycle shape, the library's next to the C floor's, measured side by side, with system
   * calls.
   */
  private void lifecycle() throws Exception {
    java.nio.file.Path floor;
    java.nio.file.Path guarded;
    try {
      floor = CFloor.compile("lifecycle-floor", LifecycleBenchmark.FLOOR_C);
      guarded = CFloor.compile("lifecycle-floor-guarded", LifecycleBenchmark.GUARDED_FLOOR_C);
    } catch (CFloor.Unavailable e) {
      out.println("lifecycle benchmarks skipped: " + e.getMessage());
      return;
    }
    boolean strace = Strace.available();
    if (!strace) {
      out.println("lifecycle: no strace on PATH, so no system call counts");
    }
    new LifecycleBenchmark(out, fs, scratch, api, floor, guarded)
        .run(quick ? 100 : 500, quick ? 3 : 7, strace);
  }

  /** Per-operation cost at 100, 1,000 and 10,000 containers, the library's and the floor's. */
  private void scale() throws Exception {
    int[][] shapes =
        quick ? new int[][] {{10, 10}, {10, 100}} : new int[][] {{10, 10}, {10, 100}, {100, 100}};
    new ScaleBenchmark(out, fs, scratch, api).run(shapes, quick ? 1 : 3);
  }
}
