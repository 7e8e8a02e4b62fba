package org.lmctfy.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.Container;
import org.lmctfy.ContainerProcess;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.StatsType;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.ContainerStats;
import org.lmctfy.spec.RunSpec;
import org.lmctfy.support.ApiOnScratch;
import org.lmctfy.testing.contract.ContractBackend;

/** Stats on this machine's kernel, with a real busy process inside the container. */
@Tag("kernel")
@Tag("needs-controllers") // its containers have limits: not on v2-bare, where the API refuses them
class KernelStatsTest extends ApiOnScratch {
  Container job;
  ContainerProcess busy;

  KernelStatsTest() {
    super(ContractBackend.host());
  }

  @BeforeEach
  void startABusyJob() throws IOException {
    job =
        api.create(
            "/job",
            ContainerSpec.parse(
                "cpu { max_limit: 500 } memory { limit: 104857600 } pids { limit: 20 }"));
    busy = job.run(List.of("/bin/sh", "-c", "while :; do :; done"), RunSpec.detached());
  }

  @AfterEach
  void destroyTheJob() throws Exception {
    try {
      if (job != null) {
        job.killAll();
      }
      if (busy != null) {
        busy.waitFor();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      if (job != null) {
        api.destroy("/job");
      }
    }
  }

  /**
   * Whether this machine's memory and cpu accounting is cgroup v1 (else the unified hierarchy's).
   */
  private boolean v1() {
    return fs.hierarchy("cpuacct").isPresent();
  }

  @Test
  void theCpuTimeOfABusyProcessGrowsBetweenTwoCalls() throws InterruptedException {
    long first = job.stats(StatsType.SUMMARY).cpu().totalNs();
    Thread.sleep(300);
    ContainerStats second = job.stats(StatsType.SUMMARY);
    assertThat(second.cpu().totalNs()).isGreaterThan(first);
    if (v1()) {
      assertThat(second.cpu().perCpuNs()).isNotEmpty(); // cpuacct.usage_percpu
    } else {
      assertThat(second.cpu().perCpuNs()).isEmpty(); // cgroup v2 keeps no per-CPU time
    }
    assertThat(second.cpu().userNs()).isNotNull();
    assertThat(second.cpu().systemNs()).isNotNull();
  }

  @Test
  void summaryHasMemoryPidsAndPressureAndFullAddsThrottlingAndBreakdowns()
      throws InterruptedException, IOException {
    Thread.sleep(250); // at least two CFS periods of 100 ms
    ContainerStats summary = job.stats(StatsType.SUMMARY);
    assertThat(summary.memory().usage()).isPositive();
    assertThat(summary.memory().limit()).isEqualTo(104857600L);
    assertThat(summary.memory().effectiveLimit()).isEqualTo(104857600L);
    assertThat(summary.memory().workingSet()).isNotNull();
    assertThat(summary.memory().containerData()).isNull();
    assertThat(summary.pids().current()).isGreaterThanOrEqualTo(1);
    assertThat(summary.pids().limit()).isEqualTo(20L);
    assertThat(summary.pressure().cpu().some()).isNotNull();
    assertThat(summary.pressure().memory()).isNotNull();
    assertThat(summary.cpu().throttling()).isNull();

    ContainerStats full = job.stats(StatsType.FULL);
    // a loaded machine may give the loop less than its quota for a while: wait until it is
    // throttled
    for (long end = System.nanoTime() + 20_000_000_000L;
        full.cpu().throttling().throttledPeriods() == 0 && System.nanoTime() < end;
        full = job.stats(StatsType.FULL)) {
      Thread.sleep(100);
    }
    assertThat(full.cpu().throttling().periods()).isPositive();
    assertThat(full.cpu().throttling().throttledPeriods()).isPositive();
    assertThat(full.cpu().throttling().bursts())
        .as("nr_bursts (5.14+)")
        .isNotNull()
        .isNotNegative();
    assertThat(full.cpu().throttling().burstNs())
        .as("burst_time / burst_usec (5.14+)")
        .isNotNull()
        .isNotNegative();
    if (v1()) { // memory.stat of the container, and its total_* lines
      assertThat(full.memory().containerData()).containsKeys("cache", "rss");
      assertThat(full.memory().hierarchicalData()).containsKeys("cache", "rss");
      assertThat(full.memory().highEvents()).as("v1 has no memory.events").isNull();
      if (fs.hasFile(
          fs.hierarchy("memory").orElseThrow(),
          org.lmctfy.cgroupfs.CgroupPath.root(),
          "memory.memsw.usage_in_bytes")) { // swap accounting on: memsw less usage
        assertThat(full.memory().swapUsage()).isNotNull().isNotNegative();
      }
    } else { // v2's memory.stat counts descendants, under its own names
      assertThat(full.memory().containerData()).isNull();
      assertThat(full.memory().hierarchicalData()).containsKeys("anon", "file");
      assertThat(summary.memory().oomEvents()).isZero();
      assertThat(summary.memory().failCount()).isNotNull(); // memory.events max
    }
  }

  @Test
  void aContainerDestroyedBeforeTheReadIsNotFound() {
    Container other = api.create("/other", ContainerSpec.empty());
    other.destroy();
    LmctfyException e =
        assertThatLmctfyException(() -> other.stats(StatsType.SUMMARY))
            .hasCode(ErrorCode.NOT_FOUND)
            .actual();
    assertThat(e.getMessage()).contains("/other");
  }

  @Test
  void manyContainersAreReadInOneCall() {
    api.create("/a", ContainerSpec.empty());
    api.create("/b", ContainerSpec.empty());
    try {
      assertThat(api.stats(List.of("/job", "/a", "/b"), StatsType.SUMMARY))
          .containsOnlyKeys("/job", "/a", "/b")
          .allSatisfy((name, stats) -> assertThat(stats.memory()).isNotNull());
    } finally {
      api.destroy("/a");
      api.destroy("/b");
    }
  }
}
