package org.lmctfy.metrics.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.lmctfy.ContainerApi;
import org.lmctfy.ContainerProcess;
import org.lmctfy.StatsType;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.ContainerStats;
import org.lmctfy.spec.ContainerStats.Pressure;
import org.lmctfy.spec.RunSpec;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * The bindings' kernel tests' containers, below a scratch parent on this machine's kernel: {@code
 * /batch/web} (64 MiB, 32 tasks, a sleeping process) and {@code /batch/job} (half a CPU, no limit,
 * a shell loop that ended). Closing destroys them, kills the sleeper and removes the scratch
 * parent, whatever the test did. The two containers are still, so their stats stay put while a
 * binding reads them.
 */
public final class KernelContainers implements AutoCloseable {
  /** The containers, by name. */
  public static final List<String> NAMES = List.of("/batch/web", "/batch/job");

  private final ScratchCgroups scratch;
  private final ContainerApi api;
  private ContainerProcess sleeper;

  private KernelContainers(ScratchCgroups scratch) {
    this.scratch = scratch;
    this.api = ContainerApi.open(scratch.fs(), scratch.path());
  }

  /** Makes them on the host, or skips the test where the host's cgroups cannot be used. */
  public static KernelContainers onHost() throws Exception {
    CgroupFs fs = ScratchCgroups.requireHost();
    KernelContainers made = new KernelContainers(ScratchCgroups.on(fs));
    try {
      made.start();
    } catch (Exception | AssertionError e) {
      try {
        made.close();
      } catch (Exception | AssertionError cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
    return made;
  }

  private void start() throws InterruptedException {
    api.create("/batch", ContainerSpec.empty());
    api.create("/batch/web", ContainerSpec.parse("memory { limit: 64M } pids { limit: 32 }"));
    api.create("/batch/job", ContainerSpec.parse("cpu { max_limit: 500 } memory { limit: -1 }"));
    sleeper =
        api.get("/batch/web").run(List.of("/bin/sh", "-c", "exec sleep 300"), RunSpec.detached());
    ContainerProcess work =
        api.get("/batch/job")
            .run(
                List.of("/bin/sh", "-c", "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done"),
                RunSpec.detached());
    assertThat(work.waitFor()).isZero();
  }

  /** The API, whose root is the scratch parent. */
  public ContainerApi api() {
    return api;
  }

  /**
   * Checks that what {@code read} gives of each container (keyed as {@link #figures} keys them)
   * equals its figures of {@code api.stats()} read before and after it; where those two differ,
   * reads again (five times at most).
   *
   * @param read a binding's values of one container, read anew
   */
  public void assertEachEqualsItsStats(Function<String, Map<String, Double>> read) {
    for (String c : NAMES) {
      Map<String, Double> before = null;
      Map<String, Double> values = null;
      Map<String, Double> after = null;
      for (int attempt = 0; attempt < 5 && (before == null || !before.equals(after)); attempt++) {
        before = figures(api.stats(List.of(c), StatsType.SUMMARY).get(c));
        values = read.apply(c);
        after = figures(api.stats(List.of(c), StatsType.SUMMARY).get(c));
      }
      assertThat(values).as(c).isEqualTo(after);
    }
  }

  /**
   * Each figure of the stats as docs/metrics.md has it, keyed by its Micrometer name (and {@code "
   * some"} or {@code " full"} for a pressure total); absent where the stats lack it.
   */
  public static Map<String, Double> figures(ContainerStats s) {
    Map<String, Double> out = new HashMap<>();
    out.put("container.cpu.time", s.cpu().totalNs() / 1e9);
    out.put("container.memory.usage", (double) s.memory().usage());
    out.put("container.memory.working_set", (double) s.memory().workingSet());
    if (s.memory().effectiveLimit() >= 0) {
      out.put("container.memory.limit", (double) s.memory().effectiveLimit());
      out.put(
          "container.memory.available",
          Math.max(0.0, s.memory().effectiveLimit() - s.memory().workingSet()));
    }
    out.put("container.task.count", (double) s.pids().current());
    if (s.pids().limit() >= 0) {
      out.put("container.task.limit", (double) s.pids().limit());
    }
    if (s.pressure() != null) { // the unified hierarchy's PSI files, where the kernel has them
      stalls(out, "cpu", s.pressure().cpu());
      stalls(out, "memory", s.pressure().memory());
      stalls(out, "io", s.pressure().io());
    }
    return out;
  }

  private static void stalls(Map<String, Double> out, String resource, Pressure p) {
    if (p != null && p.some() != null) {
      out.put("container." + resource + ".linux.pressure some", p.some().totalNs() / 1e9);
    }
    if (p != null && p.full() != null) {
      out.put("container." + resource + ".linux.pressure full", p.full().totalNs() / 1e9);
    }
  }

  @Override
  public void close() throws IOException {
    try {
      if (api.exists("/batch")) {
        api.destroy("/batch"); // kills the sleeper
      }
      if (sleeper != null) {
        sleeper.waitFor();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while the sleeper ended", e);
    } finally {
      try {
        api.close();
      } finally {
        scratch.close();
      }
    }
  }
}
