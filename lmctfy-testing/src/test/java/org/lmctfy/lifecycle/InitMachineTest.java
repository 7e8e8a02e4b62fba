package org.lmctfy.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

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
 * initMachine on the fake: the v2 half cannot be tried on this project's machines without writing
 * to the unified root's subtree_control, which tests must not touch (the v1 half runs on the
 * kernel in KernelInitMachineTest).
 */
class InitMachineTest {
  private static final InitSpec ENABLE = new InitSpec(List.of(), Set.of("memory", "pids"));

  private static FakeCgroupFs v2WithRootContainer() throws IOException {
    FakeCgroupFs fs = FakeCgroupFs.builder().layout(FakeLayout.V2).rootSubtreeControl(Set.of()).build();
    Hierarchy unified = fs.hierarchies().get(0);
    fs.makeCgroup(unified, CgroupPath.of("/lmctfy"));
    fs.makeCgroup(unified, CgroupPath.of("/lmctfy/jobs"));
    return fs;
  }

  private static String subtree(FakeCgroupFs fs, String path) throws IOException {
    return fs.read(fs.hierarchies().get(0), CgroupPath.of(path), "cgroup.subtree_control").strip();
  }

  @Test
  void enablesV2ControllersFromTheUnifiedRootDownToTheContainerRoot() throws IOException {
    FakeCgroupFs fs = v2WithRootContainer();
    ContainerApi.open(fs, CgroupPath.of("/lmctfy/jobs")).initMachine(ENABLE);
    assertThat(subtree(fs, "/")).isEqualTo("memory pids");
    assertThat(subtree(fs, "/lmctfy")).isEqualTo("memory pids");
    assertThat(subtree(fs, "/lmctfy/jobs")).isEqualTo("memory pids");
  }

  @Test
  void aSecondCallChangesNothing() throws IOException {
    FakeCgroupFs fs = v2WithRootContainer();
    ContainerApi api = ContainerApi.open(fs, CgroupPath.of("/lmctfy/jobs"));
    api.initMachine(ENABLE);
    int mutations = fs.mutationCount();
    api.initMachine(ENABLE);
    assertThat(fs.mutationCount()).isEqualTo(mutations);
  }

  @Test
  void aFailureHalfWayRestoresEverySubtreeControl() throws IOException {
    FakeCgroupFs fs = v2WithRootContainer();
    FakeSnapshot before = fs.snapshot();
    fs.failWhen(op -> op.kind() == FakeOperation.Kind.WRITE && op.path().value().equals("/lmctfy/jobs"), Errno.EBUSY);
    LmctfyException e = catchThrowableOfType(LmctfyException.class,
        () -> ContainerApi.open(fs, CgroupPath.of("/lmctfy/jobs")).initMachine(ENABLE));
    assertThat(e.code()).isEqualTo(ErrorCode.FAILED_PRECONDITION);
    assertThat(e.getMessage()).contains("/lmctfy/jobs/cgroup.subtree_control", "EBUSY");
    CgroupAssertions.assertThat(fs).matches(before);
  }

  @Test
  void aControllerTheUnifiedHierarchyLacksIsRefusedBeforeAnyWrite() {
    FakeCgroupFs fs = FakeCgroupFs.create();
    LmctfyException e = catchThrowableOfType(LmctfyException.class,
        () -> ContainerApi.open(fs).initMachine(new InitSpec(List.of(), Set.of("memory"))));
    assertThat(e.code()).isEqualTo(ErrorCode.FAILED_PRECONDITION);
    assertThat(e.getMessage()).contains("memory", "/sys/fs/cgroup/unified");
    assertThat(fs.mutationCount()).isZero();
  }

  @Test
  void mountsAMissingV1HierarchyAndUndoesItWhenALaterMountFails() {
    FakeCgroupFs fs = FakeCgroupFs.create();
    FakeSnapshot before = fs.snapshot();
    fs.failWhen(op -> op.kind() == FakeOperation.Kind.MOUNT && op.value().equals("/mnt/perf"), Errno.EBUSY);
    InitSpec spec = new InitSpec(List.of(new CgroupMount("/mnt/net", Set.of("net_cls", "net_prio")),
        new CgroupMount("/mnt/perf", Set.of("perf_event"))), Set.of());
    LmctfyException e = catchThrowableOfType(LmctfyException.class, () -> ContainerApi.open(fs).initMachine(spec));
    assertThat(e.getMessage()).contains("/mnt/perf", "EBUSY");
    assertThat(fs.hierarchy("net_cls")).isEmpty();
    CgroupAssertions.assertThat(fs).matches(before);

    ContainerApi.open(fs).initMachine(spec);
    assertThat(fs.hierarchy("net_prio")).map(Hierarchy::mountPoint).contains("/mnt/net");
    assertThat(fs.hierarchy("perf_event")).map(Hierarchy::mountPoint).contains("/mnt/perf");
  }

  @Test
  void anUnknownOrAlreadyMountedControllerIsInvalidAndNothingChanges() {
    FakeCgroupFs fs = FakeCgroupFs.create();
    for (InitSpec bad : List.of(
        new InitSpec(List.of(new CgroupMount("/mnt/x", Set.of("bogus"))), Set.of()),
        new InitSpec(List.of(new CgroupMount("/mnt/x", Set.of("memory"))), Set.of()))) {
      LmctfyException e = catchThrowableOfType(LmctfyException.class, () -> ContainerApi.open(fs).initMachine(bad));
      assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }
    assertThat(fs.mutationCount()).isZero();
  }
}
