package org.lmctfy.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;

class ShowHierarchiesTest {

  private static String print(FakeCgroupFs fs) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ShowHierarchies.print(fs, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void printsEveryHierarchyOfThisMachinesLayoutWithItsControllers() throws Exception {
    String out = print(FakeCgroupFs.create(FakeLayout.HYBRID_HUGETLB_V2));
    assertThat(out)
        .contains(
            "memory         V1  /sys/fs/cgroup/memory",
            "name=systemd",
            "unified        V2  " + "/sys/fs/cgroup/unified",
            "hugetlb",
            "unmounted v1 controllers: [net_cls, net_prio, perf_event]");
  }

  @Test
  void printsTheUnifiedControllersOfAV2Host() throws Exception {
    assertThat(print(FakeCgroupFs.create(FakeLayout.V2)))
        .contains("cpu,cpuset,hugetlb,io,memory,misc,pids,rdma");
  }

  @Test
  void theDemoOnTheDefaultFakeIsASystemdServiceOnPureV2() throws Exception {
    FakeCgroupFs fs = FakeCgroupFs.create();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ShowHierarchies.demo(
        org.lmctfy.ContainerApi.open(fs), new PrintStream(bytes, true, StandardCharsets.UTF_8));
    assertThat(bytes.toString(StandardCharsets.UTF_8))
        .contains(
            "/sys/fs/cgroup/system.slice/app.service/lmctfy-demo-",
            "memory.max=67108864",
            "cpu.max=50000 100000",
            "left behind: nothing");
    org.lmctfy.testing.CgroupAssertions.assertThat(fs).hasNoCgroupsButTheRoots();
  }

  @Test
  void theDemoCreatesAContainerInEveryHierarchyAndLeavesNothing() throws Exception {
    FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.HYBRID_HUGETLB_V2);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ShowHierarchies.demo(
        org.lmctfy.ContainerApi.open(fs), new PrintStream(bytes, true, StandardCharsets.UTF_8));
    assertThat(bytes.toString(StandardCharsets.UTF_8))
        .contains(
            "/sys/fs/cgroup/memory/lmctfy-demo-",
            "memory.limit_in_bytes=67108864",
            "cpu.cfs_quota_us=50000",
            "cpu.cfs_period_us=100000",
            "left behind: nothing");
    org.lmctfy.testing.CgroupAssertions.assertThat(fs).hasNoCgroupsButTheRoots();
  }

  @Test
  void theMainJobSaysWhichBackendItUses() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ShowHierarchies.run(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    assertThat(bytes.toString(StandardCharsets.UTF_8))
        .containsPattern("backend: (host kernel|in-memory fake)")
        .contains("hierarchy");
  }
}
