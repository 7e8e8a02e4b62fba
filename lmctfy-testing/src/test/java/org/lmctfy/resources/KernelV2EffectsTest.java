package org.lmctfy.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.Container;
import org.lmctfy.ContainerProcess;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.StatsType;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.ContainerStats;
import org.lmctfy.spec.ContainerStats.DeviceIo;
import org.lmctfy.support.ApiOnScratch;
import org.lmctfy.support.BlockDevices;
import org.lmctfy.support.BlockDevices.Disk;
import org.lmctfy.support.GuestLayout;
import org.lmctfy.support.Proves;
import org.lmctfy.testing.contract.ContractBackend;

/**
 * What the v2 settings do, measured on the kernel, in the {@code v2} guests of .ci/kernel-vm
 * (Debian 6.1 and 6.12 under software emulation, 2 CPUs, a 256 MiB read-only virtio disk with
 * iocost enabled on it by the layout, 8 huge pages of 2 MB and hugetlbfs at /dev/hugepages). Each
 * effect is asserted with a generous margin and in the direction a slow machine cannot fake: a
 * limit caps what a process got (a slower machine gets less, never more), a weight ratio is a ratio
 * of what two processes got over the same window. The stats these tests read are the library's, so
 * they prove the stats rows as well.
 */
@Tag("kernel")
@Tag("needs-v2")
class KernelV2EffectsTest extends ApiOnScratch {
  private static final long MIB = 1L << 20;

  KernelV2EffectsTest() {
    super(ContractBackend.host());
  }

  Hierarchy unified() {
    return fs.hierarchies().stream()
        .filter(h -> h.version() == CgroupVersion.V2)
        .findFirst()
        .orElseThrow();
  }

  String file(String container, String file) throws IOException {
    return fs.read(unified(), CgroupPath.of(container).under(scratch.path()), file).strip();
  }

  static final String SPIN = "while :; do :; done";

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  static long cpuNs(Container c) {
    return c.stats(StatsType.SUMMARY).cpu().totalNs();
  }

  /**
   * Two busy siblings on one CPU (their parent's mask): limit 4000 is weight 302, limit 100 weight
   * 17, so the first should get about 18 times the second's time. Asserted: at least 3 times, over
   * a 4 s window after a 1 s start, which emulation noise and the shells' start do not reach.
   */
  @Test
  @Proves("cpu.limit")
  @Proves("stats cpu")
  void aSiblingWithSeventeenTimesTheWeightGetsMostOfTheirSharedCpu() {
    api.create("/pair", ContainerSpec.parse("cpu { mask: \"0\" }"));
    Container heavy = api.create("/pair/heavy", ContainerSpec.parse("cpu { limit: 4000 }"));
    Container light = api.create("/pair/light", ContainerSpec.parse("cpu { limit: 100 }"));
    run(heavy, SPIN);
    run(light, SPIN);
    sleep(1000);
    long h0 = cpuNs(heavy);
    long l0 = cpuNs(light);
    long t0 = System.nanoTime();
    sleep(4000);
    long dh = cpuNs(heavy) - h0;
    long dl = cpuNs(light) - l0;
    long wall = System.nanoTime() - t0;
    assertThat(dh + dl).as("they share one CPU").isLessThan(wall * 3 / 2);
    assertThat(dh).as("heavy %d ns, light %d ns", dh, dl).isGreaterThan(3 * Math.max(dl, 1));
    ContainerStats.CpuStats s = heavy.stats(StatsType.SUMMARY).cpu();
    assertThat(s.userNs() + s.systemNs()).isPositive();
  }

  /**
   * A quarter of a CPU: over a 3 s window the busy loop gets at most 0.25 CPU (asserted: 0.45 CPU,
   * for the period boundaries and the accounting lag), and the stats show throttled periods.
   */
  @Test
  @Proves("cpu.max_limit, cpu.period_us")
  @Proves("stats cpu throttling")
  void aQuotaOfAQuarterCpuCapsABusyLoop() {
    Container job =
        api.create("/job", ContainerSpec.parse("cpu { max_limit: 250 period_us: 100000 }"));
    run(job, SPIN);
    sleep(1000);
    long u0 = cpuNs(job);
    long t0 = System.nanoTime();
    sleep(3000);
    long used = cpuNs(job) - u0;
    long wall = System.nanoTime() - t0;
    assertThat(used)
        .as("cpu ns in %d ns of wall time", wall)
        .isLessThan(wall * 45 / 100)
        .isPositive();
    ContainerStats.Throttling t = job.stats(StatsType.FULL).cpu().throttling();
    assertThat(t.periods()).isPositive();
    assertThat(t.throttledPeriods()).isPositive();
    assertThat(t.throttledNs()).isPositive();
  }

  /**
   * A loop that sleeps 0.5 s and then spins 0.3 s, with a quota of 10 ms per 100 ms and a burst of
   * 10 ms: each spin spends the quota it banked while asleep, which the kernel counts as a burst.
   */
  @Test
  @Proves("cpu.burst_us")
  @Proves("stats cpu bursts")
  void aBurstSpendsTheQuotaBankedWhileIdleAndTheStatsCountIt() throws IOException {
    Container job =
        api.create("/job", ContainerSpec.parse("cpu { max_limit: 100 burst_us: 10000 }"));
    assertThat(file("/job", "cpu.max.burst")).isEqualTo("10000");
    run(job, "while :; do sleep 0.5; timeout 0.3 sh -c '" + SPIN + "'; done");
    ContainerStats.Throttling t = null;
    for (long end = System.nanoTime() + 20_000_000_000L; System.nanoTime() < end; sleep(500)) {
      t = job.stats(StatsType.FULL).cpu().throttling();
      if (t.bursts() != null && t.bursts() > 0) {
        break;
      }
    }
    assertThat(t.bursts()).as("nr_bursts").isPositive();
    assertThat(t.burstNs()).as("burst_usec * 1000").isPositive();
  }

  /**
   * memory.high below memory.max: reading 64 MiB of the disk through the page cache, the container
   * is held near 16 MiB by reclaim and throttling (memory.events high grows) and never reaches
   * memory.max (no max event, no OOM kill); its peak stays far below the 64 MiB read.
   */
  @Test
  @Proves("memory.high")
  @Proves("stats memory events")
  @Proves("stats memory")
  void memoryHighThrottlesAndReclaimsBeforeMemoryMax() throws Exception {
    Disk disk = BlockDevices.aDisk();
    Container job =
        api.create("/job", ContainerSpec.parse("memory { high: 16777216 limit: 268435456 }"));
    ContainerProcess dd = run(job, "exec dd if=" + disk.node() + " of=/dev/null bs=1M count=64");
    OptionalInt code = dd.waitFor(Duration.ofSeconds(180));
    assertThat(code).as("dd finished").isPresent();
    assertThat(code.getAsInt()).isZero();
    ContainerStats.MemoryStats m = job.stats(StatsType.FULL).memory();
    assertThat(m.highEvents()).as("memory.events high").isPositive();
    assertThat(m.failCount()).as("memory.events max").isZero();
    assertThat(m.oomKills()).isZero();
    assertThat(m.oomEvents()).isZero();
    assertThat(m.lowEvents()).isZero();
    assertThat(m.maxUsage()).as("memory.peak").isLessThan(40 * MIB);
    assertThat(m.limit()).isEqualTo(268435456L);
    assertThat(m.swapUsage()).as("memory.swap.current (the guest has no swap)").isZero();
  }

  /**
   * oom_group: when one process of the container allocates past memory.max, the OOM killer takes
   * the whole container, the sleeping process too; memory.events counts a group kill.
   */
  @Test
  @Proves("memory.oom_group")
  @Proves("stats memory events")
  void anOomGroupContainerIsKilledWhole() throws Exception {
    Container job =
        api.create("/job", ContainerSpec.parse("memory { limit: 33554432 oom_group: true }"));
    ContainerProcess sleeper = run(job, "exec sleep 600");
    sleep(500);
    ContainerProcess hog = run(job, "exec dd if=/dev/zero of=/dev/null bs=64M count=1");
    assertThat(hog.waitFor(Duration.ofSeconds(120))).hasValue(128 + 9);
    assertThat(sleeper.waitFor(Duration.ofSeconds(60)))
        .as("the sleeper, killed with the group")
        .hasValue(128 + 9);
    ContainerStats.MemoryStats m = job.stats(StatsType.SUMMARY).memory();
    assertThat(m.oomGroupKills()).isPositive();
    assertThat(m.oomKills()).isGreaterThanOrEqualTo(2);
    assertThat(m.oomEvents()).isPositive();
  }

  /**
   * pids.max: a shell that forks sleepers gets no more than the limit, and pids.events counts the
   * refusals.
   */
  @Test
  @Proves("pids.limit")
  @Proves("stats pids")
  void aPidsLimitStopsForksAtTheLimit() throws Exception {
    Container job = api.create("/job", ContainerSpec.parse("pids { limit: 5 }"));
    run(job, "for i in 1 2 3 4 5 6 7 8 9 10; do sleep 600 & done; exec sleep 600");
    for (long end = System.nanoTime() + 30_000_000_000L;
        System.nanoTime() < end && !file("/job", "pids.events").matches("(?s)max [1-9].*"); ) {
      sleep(200);
    }
    assertThat(file("/job", "pids.events")).matches("(?s)max [1-9][0-9]*.*");
    ContainerStats.PidsStats p = job.stats(StatsType.SUMMARY).pids();
    assertThat(p.current()).isBetween(1L, 5L);
    assertThat(p.limit()).isEqualTo(5L);
  }

  /**
   * io.max on the disk: at 1 MiB/s a direct reader gets at most about that (asserted: 1.5 MiB/s
   * plus 1 MiB for the throttle's first slice) where it could read several MiB/s; at 20 IOPS, at
   * most about 20 reads a second. io.stat, read through the stats, counts them.
   */
  @Test
  @Proves("blockio.device_limits")
  @Proves("stats blockio")
  void ioMaxCapsADirectReaderInBytesAndOperations() throws Exception {
    Disk disk = BlockDevices.aDisk();
    String[] mm = disk.majMin().split(":");
    String spec =
        "blockio { device_limits { major: " + mm[0] + " minor: " + mm[1] + " read_bps: 1048576 } }";
    Container job = api.create("/job", ContainerSpec.parse(spec));
    assertThat(file("/job", "io.max"))
        .isEqualTo(disk.majMin() + " rbps=1048576 wbps=max riops=max wiops=max");
    assertThat(job.spec())
        .isEqualTo(
            ContainerSpec.parse(
                "blockio { device_limits { major: "
                    + mm[0]
                    + " minor: "
                    + mm[1]
                    + " read_bps: 1048576 write_bps: -1 read_iops: -1 write_iops: -1 } }"));
    long t0 = System.nanoTime();
    run(job, "exec dd if=" + disk.node() + " of=/dev/null bs=64k iflag=direct");
    sleep(4000);
    DeviceIo io = device(job, disk);
    long wall = System.nanoTime() - t0;
    assertThat(io.readBytes())
        .as("bytes read in %d ns", wall)
        .isPositive()
        .isLessThan(wall * 3 / 2 * MIB / 1_000_000_000L + MIB);
    assertThat(io.readOps()).isPositive();
    assertThat(io.discardBytes()).as("dbytes").isZero();
    assertThat(io.discardOps()).as("dios").isZero();
    job.killAll();

    Container iops =
        api.create(
            "/iops",
            ContainerSpec.parse(
                "blockio { device_limits { major: "
                    + mm[0]
                    + " minor: "
                    + mm[1]
                    + " read_iops: 20 } }"));
    long t1 = System.nanoTime();
    run(iops, "exec dd if=" + disk.node() + " of=/dev/null bs=4k iflag=direct skip=20000");
    sleep(4000);
    long ops = device(iops, disk).readOps();
    long wall1 = System.nanoTime() - t1;
    assertThat(ops)
        .as("reads in %d ns", wall1)
        .isPositive()
        .isLessThan(wall1 * 30 / 1_000_000_000L + 10);
  }

  static DeviceIo device(Container c, Disk disk) {
    String[] mm = disk.majMin().split(":");
    return c.stats(StatsType.SUMMARY).blockio().stream()
        .filter(d -> d.major() == Long.parseLong(mm[0]) && d.minor() == Long.parseLong(mm[1]))
        .findFirst()
        .orElseThrow(
            () -> new AssertionError("no io.stat line for " + disk.majMin() + " in " + c.name()));
  }

  /**
   * io.weight under iocost (the layout enables it on the disk with the cost model of a slow disk,
   * so two direct readers contend): weight 1000 (io.weight 10000) against 100 (910) over the same
   * window; asserted: at least twice the bytes (about 6 times was measured on 6.1 and 6.12).
   */
  @Test
  @Proves("blockio.weight")
  void aReaderWithTenTimesTheWeightReadsMoreUnderIocost() throws Exception {
    Disk disk = BlockDevices.aDisk();
    KernelV2ResourcesTest.requireIocost(disk.majMin());
    Container heavy = api.create("/heavy", ContainerSpec.parse("blockio { weight: 1000 }"));
    Container light = api.create("/light", ContainerSpec.parse("blockio { weight: 100 }"));
    assertThat(file("/heavy", "io.weight")).startsWith("default 10000");
    run(heavy, "exec dd if=" + disk.node() + " of=/dev/null bs=64k iflag=direct");
    run(light, "exec dd if=" + disk.node() + " of=/dev/null bs=64k iflag=direct skip=2000");
    sleep(1000);
    long h0 = device(heavy, disk).readBytes();
    long l0 = device(light, disk).readBytes();
    sleep(4000);
    long dh = device(heavy, disk).readBytes() - h0;
    long dl = device(light, disk).readBytes() - l0;
    assertThat(dh).as("heavy %d bytes, light %d bytes", dh, dl).isGreaterThan(2 * Math.max(dl, 1));
  }

  /**
   * memory.reclaim: 48 MiB of the disk's page cache charged to a container whose process keeps the
   * disk open (the kernel drops a block device's cache at its last close); reclaiming 16 MiB takes
   * at least that off memory.current; more than it holds is UNAVAILABLE naming the usage.
   */
  @Test
  @Proves("Container.reclaim")
  void reclaimTakesPageCacheBackAndSaysWhenItCouldNot() throws Exception {
    Disk disk = BlockDevices.aDisk();
    Container job = api.create("/job", ContainerSpec.parse("memory { limit: 268435456 }"));
    run(
        job,
        "exec 3<"
            + disk.node()
            + "; dd if="
            + disk.node()
            + " of=/dev/null bs=1M count=48 skip=100; "
            + "exec sleep 600");
    long before = 0;
    long last = -1;
    // until dd is done: at least 40 MiB, and the same over a second
    for (long end = System.nanoTime() + 120_000_000_000L;
        System.nanoTime() < end && (before < 40 * MIB || before != last);
        sleep(1000)) {
      last = before;
      before = job.stats(StatsType.SUMMARY).memory().usage();
    }
    assertThat(before).as("page cache charged").isGreaterThanOrEqualTo(40 * MIB);
    job.reclaim(16 * MIB);
    long after = job.stats(StatsType.SUMMARY).memory().usage();
    assertThat(after).as("before %d", before).isLessThanOrEqualTo(before - 15 * MIB);
    LmctfyException e =
        assertThatLmctfyException(() -> job.reclaim(1L << 30))
            .hasCode(ErrorCode.UNAVAILABLE)
            .actual();
    assertThat(e.getMessage()).contains("memory.current", "EAGAIN");
    assertThat(job.spec()).isEqualTo(ContainerSpec.parse("memory { limit: 268435456 }"));
  }

  /**
   * Huge pages (the layout reserves 8 of 2 MB and mounts hugetlbfs at /dev/hugepages): fallocate of
   * 4 huge pages in a container allowed 2 fails at the limit, 2 pages fit and are charged; a
   * reservation limit of 1 page refuses 2 at reservation time.
   */
  @Test
  @Proves("hugetlb.limits")
  @Proves("hugetlb.limits.reserved_limit")
  @Proves("stats hugetlb")
  void hugePageLimitsRefuseAnAllocationPastThemAndTheStatsCountWhatIsCharged() throws Exception {
    Path dir = Path.of("/dev/hugepages");
    boolean ready =
        Files.isDirectory(dir)
            && Files.readString(Path.of("/proc/mounts")).contains(" /dev/hugepages hugetlbfs ")
            && Files.readString(Path.of("/proc/meminfo"))
                .lines()
                .anyMatch(l -> l.matches("HugePages_Free:\\s+([4-9]|[1-9][0-9]+)"));
    GuestLayout.requireEnabledAtTheRoot("hugetlb");
    GuestLayout.requireHas(ready, "4 free 2 MB huge pages and hugetlbfs at /dev/hugepages");
    String id = UUID.randomUUID().toString().substring(0, 8);
    Path a = dir.resolve("lmctfy-test-" + id + "-a");
    Path b = dir.resolve("lmctfy-test-" + id + "-b");
    Path c = dir.resolve("lmctfy-test-" + id + "-c");
    try {
      Container job =
          api.create(
              "/job",
              ContainerSpec.parse("hugetlb { limits { page_size: \"2MB\" limit: 4194304 } }"));
      assertThat(run(job, "exec fallocate -l 8M " + a).waitFor(Duration.ofSeconds(60)))
          .as("8 MB past 4 MB")
          .isNotEqualTo(OptionalInt.of(0))
          .isPresent();
      Files.deleteIfExists(a); // the pages its failed fallocate got go back
      assertThat(run(job, "exec fallocate -l 4M " + b).waitFor(Duration.ofSeconds(60))).hasValue(0);
      ContainerStats.HugetlbStats h =
          job.stats(StatsType.FULL).hugetlb().stream()
              .filter(s -> s.pageSize().equals("2MB"))
              .findFirst()
              .orElseThrow();
      assertThat(h.usage()).isEqualTo(4 * MIB); // b's 2 pages
      assertThat(h.limit()).isEqualTo(4 * MIB);
      assertThat(h.failCount()).isPositive();
      assertThat(h.reservedUsage()).isNotNull();

      Container rsvd =
          api.create(
              "/rsvd",
              ContainerSpec.parse(
                  "hugetlb { limits { page_size: \"2MB\" limit: 8388608 reserved_limit: 2097152 } }"));
      assertThat(file("/rsvd", "hugetlb.2MB.rsvd.max")).isEqualTo("2097152");
      assertThat(run(rsvd, "exec fallocate -l 4M " + c).waitFor(Duration.ofSeconds(60)))
          .as("4 MB past 2 MB reserved")
          .isNotEqualTo(OptionalInt.of(0))
          .isPresent();
      assertThat(Long.parseLong(file("/rsvd", "hugetlb.2MB.rsvd.current")))
          .isLessThanOrEqualTo(2 * MIB);
    } finally {
      for (Path p : List.of(a, b, c)) {
        Files.deleteIfExists(p);
      }
    }
  }

  /**
   * memory.min and memory.low are protections; swap needs swap, which the guests lack: the value,
   * and the swap stat.
   */
  @Test
  @Proves("stats swap")
  void swapUsageIsZeroWithoutSwapAndPresent() {
    Container job =
        api.create("/job", ContainerSpec.parse("memory { limit: 67108864 swap_limit: 134217728 }"));
    assertThat(job.stats(StatsType.FULL).memory().swapUsage()).isZero();
    assertThat(job.stats(StatsType.SUMMARY).memory().swapUsage()).isNull();
  }

  /**
   * PSI of a container whose two busy loops share one CPU: cpu pressure "some" grows; memory and io
   * are read.
   */
  @Test
  @Proves("stats pressure")
  void pressureOfAContainerWithTwoLoopsOnOneCpuIsRead() {
    Container job = api.create("/job", ContainerSpec.parse("cpu { mask: \"0\" }"));
    run(job, SPIN);
    run(job, SPIN);
    long total = 0;
    for (long end = System.nanoTime() + 20_000_000_000L;
        System.nanoTime() < end && total == 0;
        sleep(500)) {
      total = job.stats(StatsType.SUMMARY).pressure().cpu().some().totalNs();
    }
    assertThat(total).as("cpu.pressure some total").isPositive();
    assertThat(job.stats(StatsType.SUMMARY).pressure().io()).isNotNull();
    assertThat(job.stats(StatsType.SUMMARY).pressure().memory()).isNotNull();
  }
}
