package org.lmctfy.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.InitSpec;
import org.lmctfy.spec.InitSpec.CgroupMount;
import org.lmctfy.testing.CgroupAssertions;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.FakeOperation;
import org.lmctfy.testing.FakeSnapshot;

/**
 * initMachine on the fake (the v1 half runs on the kernel in KernelInitMachineTest, the v2 half in
 * the v2 guest in KernelInitMachineV2Test).
 */
class InitMachineTest {
  private static final InitSpec ENABLE =
      InitSpec.builder().enableControllers(Set.of("memory", "pids")).build();

  private static FakeCgroupFs v2WithRootContainer() throws IOException {
    FakeCgroupFs fs =
        FakeCgroupFs.builder().layout(FakeLayout.V2).rootSubtreeControl(Set.of()).build();
    Hierarchy unified = fs.hierarchies().get(0);
    fs.makeCgroup(unified, CgroupPath.of("/lmctfy"));
    fs.makeCgroup(unified, CgroupPath.of("/lmctfy/jobs"));
    return fs;
  }

  private static String subtree(FakeCgroupFs fs, String path) throws IOException {
    return fs.read(fs.hierarchies().get(0), CgroupPath.of(path), "cgroup.subtree_control").strip();
  }

  /**
   * What an administrator or systemd (Delegate=) gives the API's root: memory and pids down to
   * /lmctfy.
   */
  private static FakeCgroupFs v2WithDelegatedRoot() throws IOException {
    FakeCgroupFs fs = v2WithRootContainer();
    Hierarchy unified = fs.hierarchies().get(0);
    fs.write(unified, CgroupPath.root(), "cgroup.subtree_control", "+memory +pids");
    fs.write(unified, CgroupPath.of("/lmctfy"), "cgroup.subtree_control", "+memory +pids");
    return fs;
  }

  @Test
  void enablesV2ControllersInTheContainerRootAndTouchesNothingAboveIt() throws IOException {
    FakeCgroupFs fs = v2WithDelegatedRoot();
    int before = fs.record().count();
    ContainerApi.open(fs, CgroupPath.of("/lmctfy/jobs")).initMachine(ENABLE);
    assertThat(subtree(fs, "/lmctfy/jobs")).isEqualTo("memory pids");
    assertThat(fs.record().count())
        .as("one write, to the root's own subtree_control")
        .isEqualTo(before + 1);
  }

  @Test
  void aControllerTheRootsParentDoesNotGiveIsRefusedNamingTheParentAndNothingChanges()
      throws IOException {
    FakeCgroupFs fs = v2WithRootContainer();
    int before = fs.record().count();
    LmctfyException e =
        assertThatLmctfyException(
                () -> ContainerApi.open(fs, CgroupPath.of("/lmctfy/jobs")).initMachine(ENABLE))
            .hasCode(ErrorCode.FAILED_PRECONDITION)
            .actual();
    assertThat(e.getMessage())
        .contains("[memory, pids]", "/sys/fs/cgroup/lmctfy/cgroup.subtree_control", "Delegate=");
    assertThat(fs.record().count()).isEqualTo(before);
  }

  @Test
  void aSecondCallChangesNothing() throws IOException {
    FakeCgroupFs fs = v2WithDelegatedRoot();
    ContainerApi api = ContainerApi.open(fs, CgroupPath.of("/lmctfy/jobs"));
    api.initMachine(ENABLE);
    int mutations = fs.record().count();
    api.initMachine(ENABLE);
    assertThat(fs.record().count()).isEqualTo(mutations);
  }

  @Test
  void aFailureHalfWayRestoresEverySubtreeControl() throws IOException {
    FakeCgroupFs fs = v2WithDelegatedRoot();
    FakeSnapshot before = fs.snapshot();
    fs.faults()
        .failWhen(
            op -> op.kind() == FakeOperation.Kind.WRITE && op.path().value().equals("/lmctfy/jobs"),
            Errno.EBUSY);
    LmctfyException e =
        assertThatLmctfyException(
                () -> ContainerApi.open(fs, CgroupPath.of("/lmctfy/jobs")).initMachine(ENABLE))
            .hasCode(ErrorCode.FAILED_PRECONDITION)
            .actual();
    assertThat(e.getMessage()).contains("/lmctfy/jobs/cgroup.subtree_control", "EBUSY");
    CgroupAssertions.assertThat(fs).matches(before);
  }

  /** Two processes in the API's root, as in a systemd unit whose manager opened the API there. */
  private static long[] processesIn(FakeCgroupFs fs, String path) throws IOException {
    long[] pids = {fs.processes().spawn(), fs.processes().spawn()};
    for (long pid : pids) {
      fs.write(fs.hierarchies().get(0), CgroupPath.of(path), "cgroup.procs", Long.toString(pid));
    }
    return pids;
  }

  @Test
  void aCreateInARootThatHoldsProcessesNamesTheNoInternalProcessesRuleAndChangesNothing()
      throws IOException {
    FakeCgroupFs fs = v2WithDelegatedRoot();
    long[] pids = processesIn(fs, "/lmctfy/jobs");
    FakeSnapshot before = fs.snapshot();
    LmctfyException e =
        assertThatLmctfyException(
                () ->
                    ContainerApi.open(fs, CgroupPath.of("/lmctfy/jobs"))
                        .create(
                            "/job",
                            org.lmctfy.spec.ContainerSpec.parse("memory { limit: 104857600 }")))
            .hasCode(ErrorCode.FAILED_PRECONDITION)
            .actual();
    assertThat(e.getMessage())
        .contains(
            "no-internal-processes",
            "/sys/fs/cgroup/lmctfy/jobs",
            pids[0] + " " + pids[1],
            "processes_leaf");
    CgroupAssertions.assertThat(fs).matches(before);
  }

  @Test
  void processesLeafMovesTheRootsProcessesIntoTheLeafThenEnablesAndContainersCanBeMade()
      throws IOException {
    FakeCgroupFs fs = v2WithDelegatedRoot();
    long[] pids = processesIn(fs, "/lmctfy/jobs");
    ContainerApi api = ContainerApi.open(fs, CgroupPath.of("/lmctfy/jobs"));
    api.initMachine(
        InitSpec.parse("enable_controllers: [memory, pids] processes_leaf: \"supervisor\""));
    Hierarchy unified = fs.hierarchies().get(0);
    assertThat(fs.read(unified, CgroupPath.of("/lmctfy/jobs"), "cgroup.procs")).isBlank();
    assertThat(fs.read(unified, CgroupPath.of("/lmctfy/jobs/supervisor"), "cgroup.procs").strip())
        .isEqualTo(pids[0] + "\n" + pids[1]);
    assertThat(subtree(fs, "/lmctfy/jobs")).isEqualTo("memory pids");
    api.create("/job", org.lmctfy.spec.ContainerSpec.parse("memory { limit: 104857600 }"));
    assertThat(fs.read(unified, CgroupPath.of("/lmctfy/jobs/job"), "memory.max").strip())
        .isEqualTo("104857600");
    assertThat(api.get("/").listSubcontainers(org.lmctfy.ListPolicy.SELF)).containsExactly("/job");
  }

  @Test
  void aProcessesLeafThatFailsHalfWayPutsEveryProcessBackAndRemovesTheLeaf() throws IOException {
    FakeCgroupFs fs = v2WithDelegatedRoot();
    processesIn(fs, "/lmctfy/jobs");
    FakeSnapshot before = fs.snapshot();
    fs.faults()
        .failWhen(
            op -> op.kind() == FakeOperation.Kind.WRITE && op.path().value().equals("/lmctfy/jobs"),
            Errno.EINVAL);
    LmctfyException e =
        catchThrowableOfType(
            LmctfyException.class,
            () ->
                ContainerApi.open(fs, CgroupPath.of("/lmctfy/jobs"))
                    .initMachine(
                        InitSpec.parse(
                            "enable_controllers: [memory] processes_leaf: \"supervisor\"")));
    assertThat(e).isNotNull();
    assertThat(e.getMessage()).contains("/lmctfy/jobs/cgroup.subtree_control", "EINVAL");
    CgroupAssertions.assertThat(fs).matches(before);
  }

  @Test
  void aProcessesLeafNameMustBeOneCgroupName() {
    LmctfyException e =
        assertThatLmctfyException(() -> InitSpec.parse("processes_leaf: \"a/b\""))
            .hasCode(ErrorCode.INVALID_ARGUMENT)
            .actual();
    assertThat(e.getMessage()).contains("processes_leaf", "a/b");
  }

  @Test
  void aControllerTheUnifiedHierarchyLacksIsRefusedBeforeAnyWrite() {
    FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.HYBRID_HUGETLB_V2);
    LmctfyException e =
        assertThatLmctfyException(
                () ->
                    ContainerApi.open(fs)
                        .initMachine(
                            InitSpec.builder().enableControllers(Set.of("memory")).build()))
            .hasCode(ErrorCode.FAILED_PRECONDITION)
            .actual();
    assertThat(e.getMessage()).contains("memory", "/sys/fs/cgroup/unified");
    assertThat(fs.record().count()).isZero();
  }

  @Test
  void mountsAMissingV1HierarchyAndUndoesItWhenALaterMountFails() {
    FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.HYBRID_HUGETLB_V2);
    FakeSnapshot before = fs.snapshot();
    fs.faults()
        .failWhen(
            op -> op.kind() == FakeOperation.Kind.MOUNT && op.value().equals("/mnt/perf"),
            Errno.EBUSY);
    InitSpec spec =
        InitSpec.builder()
            .cgroupMounts(
                List.of(
                    new CgroupMount("/mnt/net", Set.of("net_cls", "net_prio")),
                    new CgroupMount("/mnt/perf", Set.of("perf_event"))))
            .build();
    LmctfyException e =
        catchThrowableOfType(LmctfyException.class, () -> ContainerApi.open(fs).initMachine(spec));
    assertThat(e.getMessage()).contains("/mnt/perf", "EBUSY");
    assertThat(fs.hierarchy("net_cls")).isEmpty();
    CgroupAssertions.assertThat(fs).matches(before);

    ContainerApi.open(fs).initMachine(spec);
    assertThat(fs.hierarchy("net_prio")).map(Hierarchy::mountPoint).contains("/mnt/net");
    assertThat(fs.hierarchy("perf_event")).map(Hierarchy::mountPoint).contains("/mnt/perf");
  }

  @Test
  void anUnknownOrAlreadyMountedControllerIsInvalidAndNothingChanges() {
    FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.HYBRID_HUGETLB_V2);
    for (InitSpec bad :
        List.of(
            InitSpec.builder()
                .cgroupMounts(List.of(new CgroupMount("/mnt/x", Set.of("bogus"))))
                .build(),
            InitSpec.builder()
                .cgroupMounts(List.of(new CgroupMount("/mnt/x", Set.of("memory"))))
                .build())) {
      assertThatLmctfyException(() -> ContainerApi.open(fs).initMachine(bad))
          .hasCode(ErrorCode.INVALID_ARGUMENT);
    }
    assertThat(fs.record().count()).isZero();
  }
}
