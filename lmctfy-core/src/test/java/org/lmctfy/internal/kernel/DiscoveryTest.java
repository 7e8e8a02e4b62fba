package org.lmctfy.internal.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;

/** Discovery on fixtures copied from real layouts (src/test/resources/layouts). */
class DiscoveryTest {

  private static String fixture(String layout, String file) throws IOException {
    try (InputStream in =
        DiscoveryTest.class.getResourceAsStream("/layouts/" + layout + "/" + file)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static List<Hierarchy> discover(String layout) throws IOException {
    String controllers = fixture(layout, "controllers");
    return Discovery.hierarchies(
        fixture(layout, "mountinfo"),
        fixture(layout, "cgroup"),
        fixture(layout, "cgroups"),
        mp -> controllers);
  }

  @Test
  void thisMachineHasEightSeparateV1ControllersTheNamedSystemdHierarchyAndAUnifiedOne()
      throws IOException {
    assertThat(discover("v1-this-machine"))
        .extracting(Hierarchy::name, Hierarchy::version, Hierarchy::mountPoint)
        .containsExactly(
            tuple("cpu", CgroupVersion.V1, "/sys/fs/cgroup/cpu"),
            tuple("cpuacct", CgroupVersion.V1, "/sys/fs/cgroup/cpuacct"),
            tuple("cpuset", CgroupVersion.V1, "/sys/fs/cgroup/cpuset"),
            tuple("memory", CgroupVersion.V1, "/sys/fs/cgroup/memory"),
            tuple("devices", CgroupVersion.V1, "/sys/fs/cgroup/devices"),
            tuple("freezer", CgroupVersion.V1, "/sys/fs/cgroup/freezer"),
            tuple("blkio", CgroupVersion.V1, "/sys/fs/cgroup/blkio"),
            tuple("pids", CgroupVersion.V1, "/sys/fs/cgroup/pids"),
            tuple("name=systemd", CgroupVersion.V1, "/sys/fs/cgroup/systemd"),
            tuple("", CgroupVersion.V2, "/sys/fs/cgroup/unified"));
  }

  @Test
  void theNamedHierarchyCarriesNoController() throws IOException {
    Hierarchy systemd = discover("v1-this-machine").get(8);
    assertThat(systemd.controllers()).isEmpty();
    assertThat(systemd.label()).isEqualTo("name=systemd");
  }

  @Test
  void theUnifiedHierarchyCarriesTheControllersItsRootLists() throws IOException {
    Hierarchy unified = discover("v1-this-machine").get(9);
    assertThat(unified.controllers()).containsExactly("hugetlb");
    assertThat(unified.label()).isEqualTo("unified");
  }

  @Test
  void pureV2WithSystemdIsOneUnifiedHierarchyWithItsControllers() throws IOException {
    List<Hierarchy> found = discover("v2-systemd");
    assertThat(found).hasSize(1);
    assertThat(found.get(0).version()).isEqualTo(CgroupVersion.V2);
    assertThat(found.get(0).mountPoint()).isEqualTo("/sys/fs/cgroup");
    assertThat(found.get(0).controllers())
        .containsExactlyInAnyOrder(
            "cpuset", "cpu", "io", "memory", "hugetlb", "pids", "rdma", "misc");
  }

  @Test
  void hybridSystemdKeepsCoMountedControllersAsOneHierarchyNamedAsProcSelfCgroupNamesIt()
      throws IOException {
    List<Hierarchy> found = discover("hybrid-systemd");
    assertThat(found)
        .extracting(Hierarchy::name)
        .containsExactly(
            "name=systemd",
            "cpu,cpuacct",
            "memory",
            "net_cls,net_prio",
            "pids",
            "freezer",
            "cpuset",
            "devices",
            "blkio",
            "perf_event",
            "hugetlb",
            "");
    Hierarchy cpu = found.get(1);
    assertThat(cpu.controllers()).containsExactlyInAnyOrder("cpu", "cpuacct");
    assertThat(cpu.mountPoint()).isEqualTo("/sys/fs/cgroup/cpu,cpuacct");
    assertThat(found.get(11).controllers()).isEmpty();
  }

  @Test
  void insideAContainerTheMountRootIsTheContainersCgroup() throws IOException {
    List<Hierarchy> found = discover("v1-in-container");
    assertThat(found)
        .extracting(Hierarchy::name, Hierarchy::mountRoot)
        .containsExactly(
            tuple("name=systemd", "/docker/4e8f0b1c2d3a"),
            tuple("cpu,cpuacct", "/docker/4e8f0b1c2d3a"),
            tuple("memory", "/docker/4e8f0b1c2d3a"),
            tuple("freezer", "/docker/4e8f0b1c2d3a"),
            tuple("cpuset", "/"));
  }

  @Test
  void aHierarchyMountedTwiceIsTakenOnceAtItsFirstMountThatHoldsThisProcess() throws IOException {
    assertThat(discover("v1-in-container"))
        .filteredOn(h -> h.name().equals("cpuset"))
        .extracting(Hierarchy::mountPoint)
        .containsExactly("/sys/fs/cgroup/cpuset");
  }

  @Test
  void mountinfoEscapesInMountPointsAndRootsAreUndone() throws IOException {
    assertThat(discover("escaped-paths"))
        .extracting(Hierarchy::name, Hierarchy::mountPoint, Hierarchy::mountRoot)
        .containsExactly(
            tuple("memory", "/mnt/my cgroups/mem\\ory", "/"),
            tuple("pids", "/mnt/bound", "/a b"),
            tuple("", "/mnt/tab\tv2", "/"));
  }

  @Test
  void procPidCgroupLinesKeepColonsInPathsAndMarkTheUnifiedLine() {
    assertThat(Discovery.memberships("4:memory:/a:b/c\n0::/x\n1:name=systemd:/\n"))
        .containsExactly(
            new Discovery.Membership("memory", false, "/a:b/c"),
            new Discovery.Membership("", true, "/x"),
            new Discovery.Membership("name=systemd", false, "/"));
  }

  @Test
  void controllersBoundToNoV1HierarchyAreTheUnboundOnes() throws IOException {
    assertThat(Discovery.unboundControllers(fixture("v1-this-machine", "cgroups")))
        .containsExactly("net_cls", "perf_event", "net_prio", "hugetlb");
  }

  @Test
  void malformedMountinfoLinesAreSkipped() {
    assertThat(MountLine.parse("")).isNull();
    assertThat(MountLine.parse("1 2 3 / /x rw - cgroup")).isNull();
  }
}
