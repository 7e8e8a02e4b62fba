package org.lmctfy.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.StatsType;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.ContainerStats;
import org.lmctfy.support.Proves;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;

/** Stats on the fake: values a test sets through the kernel side, and absent files. */
class FakeStatsTest {

  @Test
  void valuesComeFromTheKernelFilesATestSets() throws IOException {
    FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.HYBRID_HUGETLB_V2);
    Container job =
        ContainerApi.open(fs).create("/job", ContainerSpec.parse("memory { limit: 8192000 }"));
    fs.kernel()
        .setValue(
            fs.hierarchy("memory").orElseThrow(),
            CgroupPath.of("/job"),
            "memory.usage_in_bytes",
            "4096000\n");
    fs.kernel()
        .setValue(
            fs.hierarchy("cpuacct").orElseThrow(),
            CgroupPath.of("/job"),
            "cpuacct.usage",
            "123456789\n");
    ContainerStats stats = job.stats(StatsType.SUMMARY);
    assertThat(stats.memory().usage()).isEqualTo(4096000);
    assertThat(stats.memory().limit()).isEqualTo(8192000L);
    assertThat(stats.cpu().totalNs()).isEqualTo(123456789);
  }

  @Test
  void aHostWithoutAUnifiedHierarchyHasNoPressureButEverythingElse() {
    Container job =
        ContainerApi.open(FakeCgroupFs.create(FakeLayout.V1)).create("/job", ContainerSpec.empty());
    ContainerStats stats = job.stats(StatsType.FULL);
    assertThat(stats.pressure()).isNull();
    assertThat(stats.cpu()).isNotNull();
    assertThat(stats.memory()).isNotNull();
    assertThat(stats.pids()).isNotNull();
  }

  @Test
  void onV2TheEffectiveMemoryLimitIsTheLowestOfTheAncestors() {
    ContainerApi api = ContainerApi.open(FakeCgroupFs.create(FakeLayout.V2));
    api.create("/a", ContainerSpec.parse("memory { limit: 40960000 }"));
    Container b = api.create("/a/b", ContainerSpec.parse("memory { limit: 81920000 }"));
    ContainerStats stats = b.stats(StatsType.FULL);
    assertThat(stats.memory().limit()).isEqualTo(81920000L);
    assertThat(stats.memory().effectiveLimit()).isEqualTo(40960000L);
    assertThat(stats.memory().oomKills()).isZero();
    assertThat(stats.cpu()).isNotNull();
  }

  private static Hierarchy unified(FakeCgroupFs fs) {
    return fs.hierarchies().stream()
        .filter(h -> h.version() == CgroupVersion.V2)
        .findFirst()
        .orElseThrow();
  }

  @Test
  void v1FilesAsTheKernelPrintsThemAreParsedWhole() {
    FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.HYBRID_HUGETLB_V2);
    Container job =
        ContainerApi.open(fs).create("/job", ContainerSpec.parse("cpu { max_limit: 500 }"));
    CgroupPath p = CgroupPath.of("/job");
    fs.kernel()
        .setValue(fs.hierarchy("cpuacct").orElseThrow(), p, "cpuacct.usage_percpu", "1200 3400 \n");
    fs.kernel()
        .setValue(
            fs.hierarchy("cpu").orElseThrow(),
            p,
            "cpu.stat",
            "nr_periods 11\nnr_throttled 2\nthrottled_time 7764138\nnr_bursts 0\nburst_time 0\n");
    Hierarchy memory = fs.hierarchy("memory").orElseThrow();
    fs.kernel().setValue(memory, p, "memory.usage_in_bytes", "1000000\n");
    fs.kernel()
        .setValue(
            memory,
            p,
            "memory.stat",
            "cache 4096\nrss 8192\ninactive_file 100\n"
                + "hierarchical_memory_limit 9223372036854771712\ntotal_cache 4096\ntotal_rss 8192\n"
                + "total_inactive_file 200000\n");
    fs.kernel()
        .setValue(memory, p, "memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 3\n");
    Hierarchy blkio = fs.hierarchy("blkio").orElseThrow();
    fs.kernel()
        .setValue(
            blkio,
            p,
            "blkio.throttle.io_service_bytes",
            "8:0 Read 4096\n8:0 Write 512\n8:0 Sync 0\n8:0 Async 4608\n8:0 Discard 8192\n8:0 Total 4608\n254:1 Read 7\n"
                + "Total 4615\n");
    fs.kernel()
        .setValue(
            blkio,
            p,
            "blkio.throttle.io_serviced",
            "8:0 Read 2\n8:0 Write 1\n8:0 Discard 1\n8:0 Total 3\nTotal 3\n");
    fs.kernel().setValue(memory, p, "memory.memsw.usage_in_bytes", "1500000\n");
    fs.kernel()
        .setValue(
            unified(fs),
            p,
            "cpu.pressure",
            "some avg10=1.25 avg60=0.50 avg300=0.07 total=123456\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=9\n");

    ContainerStats s = job.stats(StatsType.FULL);
    assertThat(s.cpu().perCpuNs()).containsExactly(1200L, 3400L);
    assertThat(s.cpu().throttling())
        .isEqualTo(new ContainerStats.Throttling(11, 2, 7764138, 0L, 0L));
    assertThat(s.memory().swapUsage()).isEqualTo(500000L);
    assertThat(s.memory().highEvents()).isNull(); // v1 has no memory.events
    assertThat(s.memory().usage()).isEqualTo(1000000);
    assertThat(s.memory().effectiveLimit()).isEqualTo(-1L);
    assertThat(s.memory().workingSet()).isEqualTo(800000L);
    assertThat(s.memory().oomKills()).isEqualTo(3L);
    assertThat(s.memory().containerData())
        .containsEntry("cache", 4096L)
        .containsEntry("rss", 8192L)
        .doesNotContainKey("hierarchical_memory_limit");
    assertThat(s.memory().hierarchicalData()).containsEntry("inactive_file", 200000L);
    assertThat(s.blockio())
        .containsExactly(
            new ContainerStats.DeviceIo(8, 0, 4096, 512, 2, 1, 8192L, 1L),
            new ContainerStats.DeviceIo(254, 1, 7, 0, 0, 0, null, null));
    assertThat(s.pressure().cpu().some())
        .isEqualTo(new ContainerStats.Stall(1.25, 0.5, 0.07, 123456000));
    assertThat(s.pressure().cpu().full().totalNs()).isEqualTo(9000);
  }

  @Test
  @Proves("stats cpu")
  @Proves("stats cpu throttling")
  @Proves("stats cpu bursts")
  @Proves("stats memory")
  @Proves("stats memory events")
  @Proves("stats swap")
  @Proves("stats blockio")
  @Proves("stats hugetlb")
  @Proves("stats pids")
  @Proves("stats pressure")
  void v2FilesAsTheKernelPrintsThemAreParsedWhole() {
    FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.V2);
    Container job =
        ContainerApi.open(fs).create("/job", ContainerSpec.parse("memory { limit: 40960000 }"));
    CgroupPath p = CgroupPath.of("/job");
    Hierarchy v2 = unified(fs);
    fs.kernel()
        .setValue(
            v2,
            p,
            "cpu.stat",
            "usage_usec 5000\nuser_usec 3000\nsystem_usec 2000\n"
                + "nr_periods 7\nnr_throttled 1\nthrottled_usec 450\nnr_bursts 3\nburst_usec 20\n");
    fs.kernel().setValue(v2, p, "memory.current", "3000000\n");
    fs.kernel().setValue(v2, p, "memory.stat", "anon 1000\nfile 2000\ninactive_file 1000000\n");
    fs.kernel()
        .setValue(
            v2, p, "memory.events", "low 6\nhigh 4\nmax 5\noom 2\noom_kill 1\noom_group_kill 1\n");
    fs.kernel().setValue(v2, p, "memory.swap.current", "8192\n");
    fs.kernel()
        .setValue(
            v2,
            p,
            "io.stat",
            "8:0 rbytes=4096 wbytes=512 rios=2 wios=1 dbytes=1024 dios=1\n"
                + "254:1 rbytes=7 wbytes=0 rios=1 wios=0 dbytes=0 dios=0 cost.vrate=100.00 cost.usage=12\n");
    fs.kernel().setValue(v2, p, "hugetlb.2MB.current", "4194304\n");
    fs.kernel().setValue(v2, p, "hugetlb.2MB.events", "max 3\n");
    fs.kernel().setValue(v2, p, "hugetlb.2MB.rsvd.current", "2097152\n");
    fs.kernel().setValue(v2, p, "pids.current", "3\n");
    fs.kernel()
        .setValue(
            v2,
            p,
            "memory.pressure",
            "some avg10=0.50 avg60=0.25 avg300=0.00 total=777\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=5\n");

    ContainerStats s = job.stats(StatsType.FULL);
    assertThat(s.cpu().totalNs()).isEqualTo(5_000_000);
    assertThat(s.cpu().userNs()).isEqualTo(3_000_000L);
    assertThat(s.cpu().perCpuNs()).isEmpty();
    assertThat(s.cpu().throttling())
        .isEqualTo(new ContainerStats.Throttling(7, 1, 450_000, 3L, 20_000L));
    assertThat(s.memory().highEvents()).isEqualTo(4L);
    assertThat(s.memory().lowEvents()).isEqualTo(6L);
    assertThat(s.memory().oomGroupKills()).isEqualTo(1L);
    assertThat(s.memory().swapUsage()).isEqualTo(8192L);
    assertThat(s.hugetlb())
        .containsExactly(
            new ContainerStats.HugetlbStats("2MB", 4194304, null, -1L, 3L, 2097152L),
            new ContainerStats.HugetlbStats("1GB", 0, null, -1L, 0L, 0L));
    assertThat(job.stats(StatsType.SUMMARY).hugetlb()).isEmpty(); // FULL only
    assertThat(s.pids().current()).isEqualTo(3);
    assertThat(s.pressure().memory().some())
        .isEqualTo(new ContainerStats.Stall(0.5, 0.25, 0, 777_000));
    assertThat(s.memory().oomKills()).isEqualTo(1L);
    assertThat(job.stats(StatsType.SUMMARY).memory().swapUsage()).isNull();
    assertThat(s.memory().limit()).isEqualTo(40960000L);
    assertThat(s.memory().workingSet()).isEqualTo(2000000L);
    assertThat(s.memory().failCount()).isEqualTo(5L);
    assertThat(s.memory().oomEvents()).isEqualTo(2L);
    assertThat(s.memory().oomKills()).isEqualTo(1L);
    assertThat(s.memory().hierarchicalData())
        .containsEntry("anon", 1000L)
        .containsEntry("file", 2000L);
    assertThat(s.blockio())
        .containsExactly(
            new ContainerStats.DeviceIo(8, 0, 4096, 512, 2, 1, 1024L, 1L),
            new ContainerStats.DeviceIo(254, 1, 7, 0, 1, 0, 0L, 0L));
  }

  @Test
  void manyContainersInOneCallShareTheirAncestorsLimits() {
    ContainerApi api = ContainerApi.open(FakeCgroupFs.create(FakeLayout.V2));
    api.create("/a", ContainerSpec.parse("memory { limit: 40960000 }"));
    api.create("/a/b", ContainerSpec.parse("memory { limit: 81920000 }"));
    api.create("/a/c", ContainerSpec.empty());
    api.create("/d", ContainerSpec.empty());
    java.util.Map<String, ContainerStats> all =
        api.stats(java.util.List.of("/a/b", "/a/c", "/d"), StatsType.SUMMARY);
    assertThat(all).containsOnlyKeys("/a/b", "/a/c", "/d");
    assertThat(all.get("/a/b").memory().effectiveLimit()).isEqualTo(40960000L);
    assertThat(all.get("/a/c").memory().effectiveLimit()).isEqualTo(40960000L);
    assertThat(all.get("/d").memory().effectiveLimit()).isEqualTo(-1L);
  }
}
