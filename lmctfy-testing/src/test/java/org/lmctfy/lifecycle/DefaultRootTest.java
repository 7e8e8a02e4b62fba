package org.lmctfy.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;

/** Where {@link ContainerApi#open(org.lmctfy.cgroupfs.CgroupFs)} puts the root container. */
class DefaultRootTest {
  @Test
  void onV2TheRootIsTheCgroupThisProcessRunsInNotTheMountRootBesideSystemSlice()
      throws IOException {
    FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.V2);
    Hierarchy unified = fs.hierarchies().get(0);
    CgroupPath unit = CgroupPath.of("/system.slice/app.service");
    fs.makeCgroup(unified, unit.parent());
    fs.makeCgroup(unified, unit);
    fs.write(unified, unit, "cgroup.procs", "0"); // this process, as systemd starts a unit
    try (ContainerApi api = ContainerApi.open(fs)) {
      assertThat(api.root()).isEqualTo(unit);
    }
  }

  @Test
  void inTheProcessesLeafOfInitMachineTheRootIsTheCgroupTheLeafWasMadeFor() throws IOException {
    FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.V2);
    Hierarchy unified = fs.hierarchies().get(0);
    CgroupPath unit = CgroupPath.of("/app.service");
    fs.makeCgroup(unified, unit);
    fs.write(unified, unit, "cgroup.procs", "0");
    try (ContainerApi api = ContainerApi.open(fs)) {
      api.initMachine(
          org.lmctfy.spec.InitSpec.parse(
              "processes_leaf: \"supervisor\" enable_controllers: [memory]"));
    }
    assertThat(fs.cgroupsOf(fs.selfPid())).containsEntry(unified, unit.resolve("supervisor"));
    try (ContainerApi api = ContainerApi.open(fs)) {
      assertThat(api.root()).isEqualTo(unit);
      api.create("/job", org.lmctfy.spec.ContainerSpec.parse("memory { limit: 104857600 }"));
      assertThat(fs.read(unified, unit.resolve("job"), "memory.max").strip())
          .isEqualTo("104857600");
    }
  }

  @Test
  void onV2InTheRootCgroupTheRootIsTheMountRoot() {
    try (ContainerApi api = ContainerApi.open(FakeCgroupFs.create(FakeLayout.V2))) {
      assertThat(api.root()).isEqualTo(CgroupPath.root());
    }
  }

  @Test
  void onHybridAndV1TheRootIsEveryHierarchysMountRootAsInLmctfy() throws IOException {
    for (FakeLayout layout :
        new FakeLayout[] {FakeLayout.HYBRID, FakeLayout.V1, FakeLayout.HYBRID_HUGETLB_V2}) {
      FakeCgroupFs fs = FakeCgroupFs.create(layout);
      Hierarchy first = fs.hierarchies().get(0);
      fs.makeCgroup(first, CgroupPath.of("/elsewhere"));
      fs.write(first, CgroupPath.of("/elsewhere"), "cgroup.procs", "0");
      try (ContainerApi api = ContainerApi.open(fs)) {
        assertThat(api.root()).as(layout.name()).isEqualTo(CgroupPath.root());
      }
    }
  }
}
