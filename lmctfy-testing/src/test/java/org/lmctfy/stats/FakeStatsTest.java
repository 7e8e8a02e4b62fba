package org.lmctfy.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.StatsType;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.ContainerStats;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;

/** Stats on the fake: values a test sets through the kernel side, and absent files. */
class FakeStatsTest {

  @Test
  void valuesComeFromTheKernelFilesATestSets() throws IOException {
    FakeCgroupFs fs = FakeCgroupFs.create();
    Container job = ContainerApi.open(fs).create("/job", ContainerSpec.parse("memory { limit: 8192000 }"));
    fs.setKernelValue(fs.hierarchy("memory").orElseThrow(), CgroupPath.of("/job"), "memory.usage_in_bytes", "4096000\n");
    fs.setKernelValue(fs.hierarchy("cpuacct").orElseThrow(), CgroupPath.of("/job"), "cpuacct.usage", "123456789\n");
    ContainerStats stats = job.stats(StatsType.SUMMARY);
    assertThat(stats.memory().usage()).isEqualTo(4096000);
    assertThat(stats.memory().limit()).isEqualTo(8192000L);
    assertThat(stats.cpu().totalNs()).isEqualTo(123456789);
  }

  @Test
  void aHostWithoutAUnifiedHierarchyHasNoPressureButEverythingElse() {
    Container job = ContainerApi.open(FakeCgroupFs.create(FakeLayout.V1)).create("/job", ContainerSpec.empty());
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
}
