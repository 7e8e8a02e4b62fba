package org.lmctfy.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.testing.FakeOperation.Kind;

/** The fake's own machinery: layouts, processes, faults, crashes, the record and snapshots. */
class FakeCgroupFsTest {
  private static final CgroupPath A = CgroupPath.of("/a");

  private final FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.HYBRID_HUGETLB_V2);
  private final Hierarchy memory = fs.hierarchy("memory").orElseThrow();

  private static Errno errnoOf(ThrowingRunnable r) {
    try {
      r.run();
    } catch (CgroupFsException e) {
      return e.errno();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    throw new AssertionError("no failure");
  }

  interface ThrowingRunnable {
    void run() throws Exception;
  }

  // ---- Layouts.

  @Test
  void thisMachineMountsV1ThenSystemdThenUnifiedWithHugetlb() {
    assertThat(fs.hierarchies())
        .extracting(Hierarchy::name)
        .containsExactly(
            "cpu",
            "cpuacct",
            "cpuset",
            "memory",
            "devices",
            "freezer",
            "blkio",
            "pids",
            "name=systemd",
            "");
    Hierarchy unified = fs.hierarchies().get(9);
    assertThat(unified.version()).isEqualTo(CgroupVersion.V2);
    assertThat(unified.controllers()).containsExactly("hugetlb");
    assertThat(unified.mountPoint()).isEqualTo("/sys/fs/cgroup/unified");
    assertThat(fs.hierarchy("name=systemd").orElseThrow().controllers()).isEmpty();
  }

  @Test
  void thisMachineLeavesNetClsNetPrioAndPerfEventUnmounted() throws Exception {
    assertThat(fs.unmountedControllers())
        .containsExactlyInAnyOrder("net_cls", "net_prio", "perf_event");
  }

  @Test
  void v2LayoutIsOneUnifiedHierarchyWithEverythingEnabledAtTheRoot() throws Exception {
    FakeCgroupFs v2 = FakeCgroupFs.create(FakeLayout.V2);
    assertThat(v2.hierarchies()).hasSize(1);
    Hierarchy h = v2.hierarchies().get(0);
    assertThat(h.mountPoint()).isEqualTo("/sys/fs/cgroup");
    assertThat(v2.read(h, CgroupPath.root(), "cgroup.controllers"))
        .isEqualTo("cpuset cpu io memory hugetlb pids rdma misc\n");
    assertThat(v2.read(h, CgroupPath.root(), "cgroup.subtree_control"))
        .isEqualTo("cpuset cpu io memory hugetlb pids rdma misc\n");
  }

  @Test
  void hybridHasAUnifiedMountWithNoControllers() throws Exception {
    FakeCgroupFs hybrid = FakeCgroupFs.create(FakeLayout.HYBRID);
    Hierarchy unified = hybrid.hierarchies().get(hybrid.hierarchies().size() - 1);
    assertThat(unified.controllers()).isEmpty();
    assertThat(hybrid.read(unified, CgroupPath.root(), "cgroup.controllers")).isEmpty();
  }

  @Test
  void v1LayoutHasNoUnifiedHierarchy() {
    FakeCgroupFs v1 = FakeCgroupFs.create(FakeLayout.V1);
    assertThat(v1.hierarchies()).allMatch(h -> h.version() == CgroupVersion.V1);
  }

  @Test
  void builderSetsCpusMemsAndRootSubtreeControl() throws Exception {
    FakeCgroupFs f =
        FakeCgroupFs.builder()
            .layout(FakeLayout.V2)
            .cpus("0-3")
            .memoryNodes("0-1")
            .rootSubtreeControl(java.util.Set.of("memory"))
            .build();
    Hierarchy h = f.hierarchies().get(0);
    assertThat(f.read(h, CgroupPath.root(), "cpuset.cpus.effective")).isEqualTo("0-3\n");
    assertThat(f.read(h, CgroupPath.root(), "cpuset.mems.effective")).isEqualTo("0-1\n");
    assertThat(f.read(h, CgroupPath.root(), "cgroup.subtree_control")).isEqualTo("memory\n");
  }

  // ---- Processes.

  @Test
  void startsWithPidOneAndSelfInEveryRoot() throws Exception {
    assertThat(fs.processes().living()).containsExactlyInAnyOrder(1L, fs.selfPid());
    assertThat(fs.cgroupsOf(fs.selfPid()))
        .hasSize(fs.hierarchies().size())
        .allSatisfy((h, p) -> assertThat(p).isEqualTo(CgroupPath.root()));
  }

  @Test
  void spawnedThreadsFollowTheirProcessIntoCgroupProcs() throws Exception {
    long pid = fs.processes().spawn();
    long tid = fs.processes().spawnThread(pid);
    fs.makeCgroup(memory, A);
    fs.write(memory, A, "cgroup.procs", Long.toString(pid));
    assertThat(fs.read(memory, A, "cgroup.procs")).isEqualTo(pid + "\n");
    assertThat(fs.read(memory, A, "tasks")).isEqualTo(pid + "\n" + tid + "\n");
    assertThat(fs.cgroupsOf(tid)).containsEntry(memory, A);
  }

  @Test
  void exitedProcessLeavesItsCgroupsAndIsUnknown() throws Exception {
    long pid = fs.processes().spawn();
    fs.makeCgroup(memory, A);
    fs.write(memory, A, "cgroup.procs", Long.toString(pid));
    fs.processes().exit(pid);
    assertThat(fs.read(memory, A, "cgroup.procs")).isEmpty();
    assertThat(fs.processes().living()).doesNotContain(pid);
    assertThat(errnoOf(() -> fs.cgroupsOf(pid))).isEqualTo(Errno.ESRCH);
  }

  // ---- Fault injection.

  @Test
  void nthMutationFailsOnceAndChangesNothing() throws Exception {
    fs.faults().failAt(2, Errno.ENOSPC);
    fs.makeCgroup(memory, A);
    FakeSnapshot before = fs.snapshot();
    assertThatThrownBy(() -> fs.write(memory, A, "memory.limit_in_bytes", "4096"))
        .isInstanceOfSatisfying(
            CgroupFsException.class,
            e -> {
              assertThat(e.errno()).isEqualTo(Errno.ENOSPC);
              assertThat(e.file()).isEqualTo("/sys/fs/cgroup/memory/a/memory.limit_in_bytes");
            });
    assertThat(fs.snapshot()).isEqualTo(before);
    fs.write(memory, A, "memory.limit_in_bytes", "4096");
    assertThat(fs.read(memory, A, "memory.limit_in_bytes")).isEqualTo("4096\n");
  }

  @Test
  void failWhenHitsTheNextMatchingMutationOnly() throws Exception {
    fs.faults()
        .failWhen(
            op -> op.kind() == Kind.MKDIR && op.path().equals(CgroupPath.of("/b")), Errno.EACCES);
    fs.makeCgroup(memory, A);
    assertThat(errnoOf(() -> fs.makeCgroup(memory, CgroupPath.of("/b")))).isEqualTo(Errno.EACCES);
    assertThat(fs.exists(memory, CgroupPath.of("/b"))).isFalse();
    fs.makeCgroup(memory, CgroupPath.of("/b"));
    assertThat(fs.exists(memory, CgroupPath.of("/b"))).isTrue();
  }

  // ---- Crashes.

  @Test
  void afterTheCrashPointEveryOperationThrowsFakeCrash() throws Exception {
    fs.faults().crashAt(2);
    fs.makeCgroup(memory, A);
    assertThatThrownBy(() -> fs.makeCgroup(memory, CgroupPath.of("/b")))
        .isInstanceOf(FakeCrash.class);
    assertThat(fs.faults().crashed()).isTrue();
    assertThatThrownBy(() -> fs.read(memory, A, "tasks")).isInstanceOf(FakeCrash.class);
    assertThatThrownBy(fs::hierarchies).isInstanceOf(FakeCrash.class);
  }

  @Test
  void recoverKeepsTheStateAndDropsPendingFaults() throws Exception {
    fs.faults().failAt(3, Errno.EIO);
    fs.faults().crashAt(2);
    fs.makeCgroup(memory, A);
    assertThatThrownBy(() -> fs.makeCgroup(memory, CgroupPath.of("/b")))
        .isInstanceOf(FakeCrash.class);
    fs.faults().recover();
    assertThat(fs.faults().crashed()).isFalse();
    assertThat(fs.exists(memory, A)).isTrue();
    assertThat(fs.exists(memory, CgroupPath.of("/b"))).isFalse();
    fs.makeCgroup(memory, CgroupPath.of("/b"));
    fs.makeCgroup(memory, CgroupPath.of("/c"));
    assertThat(fs.children(memory, CgroupPath.root())).containsExactly("a", "b", "c");
  }

  // ---- Record.

  @Test
  void recordHoldsEveryAttemptedMutationInOrderWithItsErrno() throws Exception {
    fs.makeCgroup(memory, A);
    errnoOf(() -> fs.makeCgroup(memory, A));
    fs.read(memory, A, "tasks");
    fs.setMarker(memory, A, "owner", "me");
    assertThat(fs.record().mutations())
        .containsExactly(
            new FakeOperation(Kind.MKDIR, "memory", A, null, null, null),
            new FakeOperation(Kind.MKDIR, "memory", A, null, null, Errno.EEXIST),
            new FakeOperation(Kind.SET_MARKER, "memory", A, null, "me", null));
    assertThat(fs.record().count()).isEqualTo(3);
  }

  @Test
  void clearingTheRecordEmptiesItAndKeepsPendingFaults() throws Exception {
    fs.faults().failAt(2, Errno.EIO);
    fs.makeCgroup(memory, A);
    fs.record().clear();
    assertThat(fs.record().mutations()).isEmpty();
    assertThat(errnoOf(() -> fs.makeCgroup(memory, CgroupPath.of("/b")))).isEqualTo(Errno.EIO);
  }

  // ---- Snapshots.

  @Test
  void snapshotsOfEqualStatesAreEqual() throws Exception {
    FakeSnapshot before = fs.snapshot();
    fs.makeCgroup(memory, A);
    fs.removeCgroup(memory, A);
    assertThat(fs.snapshot()).isEqualTo(before).hasSameHashCodeAs(before);
    assertThat(fs.snapshot().differencesFrom(before)).isEmpty();
  }

  @Test
  void differencesNameAddedCgroupsAndChangedFiles() throws Exception {
    fs.makeCgroup(memory, A);
    FakeSnapshot before = fs.snapshot();
    fs.makeCgroup(memory, CgroupPath.of("/b"));
    fs.write(memory, A, "memory.limit_in_bytes", "1M");
    fs.setMarker(memory, A, "k", "v");
    assertThat(fs.snapshot().differencesFrom(before))
        .containsExactly(
            "~ memory:/a @marker k: (none) -> v",
            "~ memory:/a memory.limit_in_bytes: 9223372036854771712 -> 1048576",
            "~ memory:/a memory.stat: " + statLine(before) + " -> " + statLine(fs.snapshot()),
            "+ memory:/b");
  }

  private static String statLine(FakeSnapshot s) {
    return s.file("memory:/a", "memory.stat").strip().replace("\n", " | ");
  }

  @Test
  void snapshotListsCgroupsAndShowsThemInToString() throws Exception {
    fs.makeCgroup(memory, CgroupPath.of("/a"));
    fs.makeCgroup(memory, CgroupPath.of("/a/b"));
    FakeSnapshot s = fs.snapshot();
    assertThat(s.cgroups())
        .contains("memory:/", "memory:/a", "memory:/a/b", "name=systemd:/", "unified:/");
    assertThat(s.toString()).contains("memory:/a/b\n  @owner: 0:0\n");
  }

  @Test
  void snapshotCoversMembershipOwnersAndMarkers() throws Exception {
    fs.makeCgroup(memory, A);
    FakeSnapshot before = fs.snapshot();
    fs.chown(memory, A, "tasks", 1000, -1);
    long pid = fs.processes().spawn();
    assertThat(fs.snapshot().differencesFrom(before))
        .contains("~ memory:/a @owner tasks: (none) -> 1000:0", "+ process " + pid);
  }

  @Test
  void snapshotWorksWhileCrashed() throws Exception {
    fs.faults().crashAt(1);
    assertThatThrownBy(() -> fs.makeCgroup(memory, A)).isInstanceOf(FakeCrash.class);
    assertThat(fs.snapshot().cgroups()).doesNotContain("memory:/a");
  }
}
