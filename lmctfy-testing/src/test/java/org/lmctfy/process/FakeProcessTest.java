package org.lmctfy.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ContainerProcess;
import org.lmctfy.ErrorCode;
import org.lmctfy.ListPolicy;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.RunSpec;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.FakeOperation;

/**
 * The process operations on the fake, whose processes run nothing but live in cgroups like real
 * ones.
 */
class FakeProcessTest {
  final FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.HYBRID_HUGETLB_V2);
  final ContainerApi api = ContainerApi.open(fs);

  private List<Hierarchy> managed(FakeCgroupFs f) {
    return f.hierarchies().stream()
        .filter(h -> h.version() == CgroupVersion.V2 || !h.controllers().isEmpty())
        .toList();
  }

  private static LmctfyException failure(
      ErrorCode code, org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
    return assertThatLmctfyException(call).hasCode(code).actual();
  }

  @Test
  void runPlacesAFakeProcessInEveryHierarchyAndRecordsItsCommand() throws IOException {
    Container job = api.create("/job", ContainerSpec.empty());
    ContainerProcess p = job.run(List.of("/bin/sleep", "60"), RunSpec.inherit());
    for (Hierarchy h : managed(fs)) {
      assertThat(fs.cgroupsOf(p.pid())).as(h.label()).containsEntry(h, CgroupPath.of("/job"));
    }
    assertThat(fs.processes().commandOf(p.pid())).contains(List.of("/bin/sleep", "60"));
    assertThat(api.detect(p.pid())).isEqualTo("/job");
    assertThat(p.exitCode()).isEmpty();
  }

  @Test
  void detachedGoesThroughSetsidAndUseShellThroughShDashC() {
    Container job = api.create("/job", ContainerSpec.empty());
    ContainerProcess detached = job.run(List.of("/bin/sleep", "60"), RunSpec.detached());
    assertThat(fs.processes().commandOf(detached.pid()).orElseThrow())
        .endsWith("--", "/bin/sleep", "60")
        .first()
        .asString()
        .endsWith("setsid");
    ContainerProcess shell =
        job.run(List.of("echo", "$HOME", "|", "wc"), RunSpec.parse("use_shell: true"));
    assertThat(fs.processes().commandOf(shell.pid()))
        .contains(List.of("/bin/sh", "-c", "echo $HOME | wc"));
  }

  @Test
  void theExitStatusTheTestGivesIsWhatWaitForReturns() throws InterruptedException {
    ContainerProcess p =
        api.create("/job", ContainerSpec.empty()).run(List.of("/bin/true"), RunSpec.inherit());
    assertThat(p.waitFor(Duration.ofMillis(1))).isEmpty();
    fs.processes().exit(p.pid(), 3);
    assertThat(p.waitFor()).isEqualTo(3);
    assertThat(p.exitCode()).hasValue(3);
  }

  @Test
  void aRefusedPlacementLeavesNoProcessAndNamesTheFile() {
    Container job = api.create("/job", ContainerSpec.empty());
    Hierarchy memory = fs.hierarchy("memory").orElseThrow();
    var before = fs.processes().living();
    fs.faults()
        .failWhen(
            op ->
                op.kind() == FakeOperation.Kind.WRITE
                    && "cgroup.procs".equals(op.file())
                    && op.hierarchy().equals("memory"),
            Errno.ENOMEM);
    LmctfyException e =
        failure(
            ErrorCode.RESOURCE_EXHAUSTED,
            () -> job.run(List.of("/bin/sleep", "60"), RunSpec.inherit()));
    assertThat(e.getMessage())
        .contains(memory.display(CgroupPath.of("/job"), "cgroup.procs"), "ENOMEM");
    assertThat(fs.processes().living()).isEqualTo(before);
    assertThat(job.listProcesses(ListPolicy.RECURSIVE)).isEmpty();
  }

  @Test
  void anEmptyArgvIsInvalid() {
    Container job = api.create("/job", ContainerSpec.empty());
    failure(ErrorCode.INVALID_ARGUMENT, () -> job.run(List.of(), RunSpec.inherit()));
  }

  @Test
  void enterMovesEveryThreadAndAFailureHalfWayMovesThemBack() throws IOException {
    Container a = api.create("/a", ContainerSpec.empty());
    Container b = api.create("/b", ContainerSpec.empty());
    long pid = fs.processes().spawn();
    long tid = fs.processes().spawnThread(pid);
    a.enter(List.of(pid, tid));
    assertThat(a.listThreads(ListPolicy.SELF)).containsExactly(pid, tid);
    Hierarchy cpuset = fs.hierarchy("cpuset").orElseThrow();
    fs.write(cpuset, CgroupPath.of("/b"), "cpuset.cpus", "\n");
    LmctfyException e = failure(ErrorCode.FAILED_PRECONDITION, () -> b.enter(List.of(pid, tid)));
    assertThat(e.getMessage())
        .contains(Long.toString(pid), "cpuset:" + cpuset.display(CgroupPath.of("/b"), null));
    assertThat(e.errno()).contains(Errno.ENOSPC);
    for (Hierarchy h : managed(fs)) {
      assertThat(fs.cgroupsOf(pid)).as(h.label()).containsEntry(h, CgroupPath.of("/a"));
      assertThat(fs.cgroupsOf(tid)).as(h.label()).containsEntry(h, CgroupPath.of("/a"));
    }
  }

  @Test
  void listsAreSortedAndRecursiveOnesReachEveryCgroupBelow() throws IOException {
    Container job = api.create("/job", ContainerSpec.empty());
    Container sub = api.create("/job/sub", ContainerSpec.empty());
    long p1 = fs.processes().spawn();
    long p2 = fs.processes().spawn();
    long p3 = fs.processes().spawn();
    sub.enter(List.of(p1));
    job.enter(List.of(p3, p2));
    long t = fs.processes().spawnThread(p1);
    assertThat(job.listProcesses(ListPolicy.SELF)).containsExactly(p2, p3);
    assertThat(job.listProcesses(ListPolicy.RECURSIVE)).containsExactly(p1, p2, p3);
    assertThat(job.listThreads(ListPolicy.RECURSIVE)).containsExactly(p1, p2, p3, t);
    assertThat(sub.listThreads(ListPolicy.SELF)).containsExactly(p1, t);
  }

  @Test
  void killAllEndsEveryProcessOfTheContainerAndItsSubcontainersFrozenOrNot() throws Exception {
    Container job = api.create("/job", ContainerSpec.empty());
    Container sub = api.create("/job/sub", ContainerSpec.empty());
    ContainerProcess top = job.run(List.of("/bin/sleep", "60"), RunSpec.inherit());
    ContainerProcess below = sub.run(List.of("/bin/sleep", "60"), RunSpec.inherit());
    long outside = fs.processes().spawn();
    sub.pause();
    job.killAll();
    assertThat(job.listProcesses(ListPolicy.RECURSIVE)).isEmpty();
    assertThat(top.waitFor()).isEqualTo(137);
    assertThat(below.waitFor()).isEqualTo(137);
    assertThat(fs.processes().living()).contains(outside);
    Hierarchy freezer = fs.hierarchy("freezer").orElseThrow();
    assertThat(fs.read(freezer, CgroupPath.of("/job/sub"), "freezer.state")).isEqualTo("THAWED\n");
  }

  @Test
  void pauseFreezesWithTheV1FreezerAndResumeThaws() throws IOException {
    Container job = api.create("/job", ContainerSpec.empty());
    api.create("/job/sub", ContainerSpec.empty());
    Hierarchy freezer = fs.hierarchy("freezer").orElseThrow();
    job.pause();
    assertThat(fs.read(freezer, CgroupPath.of("/job"), "freezer.state")).isEqualTo("FROZEN\n");
    assertThat(fs.read(freezer, CgroupPath.of("/job/sub"), "freezer.state")).isEqualTo("FROZEN\n");
    Hierarchy unified = fs.hierarchy("hugetlb").orElseThrow();
    assertThat(fs.read(unified, CgroupPath.of("/job"), "cgroup.freeze"))
        .as("v1 only")
        .isEqualTo("0\n");
    job.resume();
    assertThat(fs.read(freezer, CgroupPath.of("/job/sub"), "freezer.state")).isEqualTo("THAWED\n");
  }

  @Test
  void onV2PauseUsesCgroupFreezeAndWaitsForFrozenInCgroupEvents() throws IOException {
    FakeCgroupFs v2 = FakeCgroupFs.create(FakeLayout.V2);
    Container job = ContainerApi.open(v2).create("/job", ContainerSpec.empty());
    Hierarchy unified = v2.hierarchies().get(0);
    job.pause();
    assertThat(v2.read(unified, CgroupPath.of("/job"), "cgroup.events")).contains("frozen 1");
    job.resume();
    assertThat(v2.read(unified, CgroupPath.of("/job"), "cgroup.events")).contains("frozen 0");
  }

  @Test
  void killAllOfAPausedTreeThawsItOnEveryLayoutAndTheNextRunIsPlaced() throws Exception {
    for (FakeLayout layout : new FakeLayout[] {FakeLayout.V2, FakeLayout.HYBRID, FakeLayout.V1}) {
      FakeCgroupFs f = FakeCgroupFs.create(layout);
      ContainerApi a = ContainerApi.open(f);
      Container job = a.create("/job", ContainerSpec.empty());
      Container sub = a.create("/job/sub", ContainerSpec.empty());
      ContainerProcess top = job.run(List.of("/bin/sleep", "60"), RunSpec.inherit());
      ContainerProcess below = sub.run(List.of("/bin/sleep", "60"), RunSpec.inherit());
      sub.pause();
      job.pause();
      job.killAll();
      assertThat(top.waitFor()).as(layout.name()).isEqualTo(137);
      assertThat(below.waitFor()).as(layout.name()).isEqualTo(137);
      for (String c : List.of("/job", "/job/sub")) {
        for (Hierarchy h : f.hierarchies()) {
          if (h.has("freezer")) {
            assertThat(f.read(h, CgroupPath.of(c), "freezer.state"))
                .as(layout + " " + c)
                .isEqualTo("THAWED\n");
          } else if (h.version() == CgroupVersion.V2) {
            assertThat(f.read(h, CgroupPath.of(c), "cgroup.freeze"))
                .as(layout + " " + c)
                .isEqualTo("0\n");
            assertThat(f.read(h, CgroupPath.of(c), "cgroup.events"))
                .as(layout + " " + c)
                .contains("frozen 0");
          }
        }
      }
      assertThat(sub.run(List.of("/bin/true"), RunSpec.inherit()).exitCode())
          .as(layout.name())
          .isEmpty();
    }
  }

  @Test
  void aKillAllThatCannotThawSaysSoAndStillTriesEveryFreezer() {
    Container job = api.create("/job", ContainerSpec.empty());
    job.pause();
    fs.faults()
        .failWhen(
            op -> op.kind() == FakeOperation.Kind.WRITE && "freezer.state".equals(op.file()),
            Errno.EIO);
    Hierarchy unified =
        fs.hierarchies().stream()
            .filter(h -> h.version() == CgroupVersion.V2)
            .findFirst()
            .orElseThrow();
    try {
      fs.write(unified, CgroupPath.of("/job"), "cgroup.freeze", "1"); // frozen by another tool too
    } catch (IOException ex) {
      throw new AssertionError(ex);
    }
    LmctfyException e = failure(ErrorCode.UNKNOWN, job::killAll); // EIO, as the errno table says
    assertThat(e.getMessage()).contains("freezer.state", "EIO");
    try {
      assertThat(fs.read(unified, CgroupPath.of("/job"), "cgroup.freeze"))
          .as("thawed all the same")
          .isEqualTo("0\n");
    } catch (IOException ex) {
      throw new AssertionError(ex);
    }
  }

  @Test
  void resumeUnderAPausedParentIsAFailedPreconditionNamingIt() throws IOException {
    for (FakeLayout layout : new FakeLayout[] {FakeLayout.V2, FakeLayout.HYBRID}) {
      FakeCgroupFs f = FakeCgroupFs.create(layout);
      ContainerApi a = ContainerApi.open(f);
      Container job = a.create("/job", ContainerSpec.empty());
      Container sub = a.create("/job/sub", ContainerSpec.empty());
      sub.pause();
      job.pause();
      LmctfyException e = failure(ErrorCode.FAILED_PRECONDITION, sub::resume);
      assertThat(e.getMessage()).as(layout.name()).contains("/job ", "frozen");
      job.resume();
      sub.resume();
    }
  }

  @Test
  void runIntoAPausedContainerIsPlacedAndEnteringAnEndedProcessIsNotFound() {
    Container job = api.create("/job", ContainerSpec.empty());
    job.pause();
    ContainerProcess p = job.run(List.of("/bin/sleep", "60"), RunSpec.inherit());
    assertThat(job.listProcesses(ListPolicy.SELF)).containsExactly(p.pid());
    long gone = fs.processes().spawn();
    fs.processes().exit(gone);
    LmctfyException e = failure(ErrorCode.NOT_FOUND, () -> job.enter(List.of(gone)));
    assertThat(e.errno()).contains(Errno.ESRCH);
  }

  @Test
  void aLauncherKilledWhilePlacedIsAbortedAndARefusedPlacementAFailedPrecondition() {
    Container job = api.create("/job", ContainerSpec.empty());
    fs.faults()
        .failWhen(
            op ->
                op.kind() == FakeOperation.Kind.WRITE
                    && "cgroup.procs".equals(op.file())
                    && op.hierarchy().equals("memory"),
            Errno.ESRCH);
    failure(ErrorCode.ABORTED, () -> job.run(List.of("/bin/sleep", "60"), RunSpec.inherit()));
    Hierarchy cpuset = fs.hierarchy("cpuset").orElseThrow();
    try {
      fs.write(cpuset, CgroupPath.of("/job"), "cpuset.cpus", "\n");
    } catch (IOException ex) {
      throw new AssertionError(ex);
    }
    LmctfyException e =
        failure(
            ErrorCode.FAILED_PRECONDITION, () -> job.run(List.of("/bin/true"), RunSpec.inherit()));
    assertThat(e.errno()).contains(Errno.ENOSPC);
    assertThat(e.file()).contains(cpuset.display(CgroupPath.of("/job"), "cgroup.procs"));
    assertThat(job.listProcesses(ListPolicy.RECURSIVE)).isEmpty();
  }

  @Test
  void killAllAndPauseRefuseAContainerHoldingTheCaller() {
    Container job = api.create("/job", ContainerSpec.empty());
    job.enter(List.of(fs.selfPid()));
    assertThat(failure(ErrorCode.FAILED_PRECONDITION, job::killAll).getMessage())
        .contains("calling process");
    failure(ErrorCode.FAILED_PRECONDITION, job::pause);
    assertThat(fs.processes().living()).contains(fs.selfPid());
  }

  @Test
  void detectNamesTheDeepestContainerInsideTheRootAndRefusesProcessesOutsideIt()
      throws IOException {
    FakeCgroupFs f = FakeCgroupFs.create(FakeLayout.HYBRID_HUGETLB_V2);
    for (Hierarchy h : f.hierarchies()) {
      f.makeCgroup(h, CgroupPath.of("/root"));
      if (h.has("cpuset")) {
        f.write(h, CgroupPath.of("/root"), "cpuset.cpus", "0-1");
        f.write(h, CgroupPath.of("/root"), "cpuset.mems", "0");
      }
    }
    ContainerApi scoped = ContainerApi.open(f, CgroupPath.of("/root"));
    scoped.create("/job", ContainerSpec.empty());
    Container sub = scoped.create("/job/sub", ContainerSpec.empty());
    long pid = f.processes().spawn();
    assertThat(failure(ErrorCode.NOT_FOUND, () -> scoped.detect(pid)).getMessage())
        .contains("outside this API's root");
    sub.enter(List.of(pid));
    assertThat(scoped.detect(pid)).isEqualTo("/job/sub");
    f.makeCgroup(f.hierarchies().get(0), CgroupPath.of("/root/job/sub/notacontainer"));
    f.write(
        f.hierarchies().get(0),
        CgroupPath.of("/root/job/sub/notacontainer"),
        "cgroup.procs",
        Long.toString(pid));
    assertThat(scoped.detect(pid))
        .as("the deepest container, not the stray cgroup")
        .isEqualTo("/job/sub");
  }
}
