package org.lmctfy.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;

/** The kernel rules the fake reproduces; the v1 ones were checked on this machine's kernel. */
class FakeKernelRulesTest {
  private static final CgroupPath A = CgroupPath.of("/a");
  private static final CgroupPath AB = CgroupPath.of("/a/b");

  private final FakeCgroupFs fs = FakeCgroupFs.create();

  private Hierarchy h(String controller) {
    return fs.hierarchy(controller).orElseThrow();
  }

  private Errno errno(ThrowingRunnable r) {
    try {
      r.run();
    } catch (CgroupFsException e) {
      return e.errno();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    return null;
  }

  interface ThrowingRunnable {
    void run() throws Exception;
  }

  private Errno write(Hierarchy h, CgroupPath p, String file, String value) {
    return errno(() -> fs.write(h, p, file, value));
  }

  private String read(Hierarchy h, CgroupPath p, String file) throws Exception {
    return fs.read(h, p, file);
  }

  // ---- Directories.

  @Test
  void mkdirOfAnExistingCgroupOrFileIsEexistAndUnderAMissingParentEnoent() throws Exception {
    Hierarchy m = h("memory");
    fs.makeCgroup(m, A);
    assertThat(errno(() -> fs.makeCgroup(m, A))).isEqualTo(Errno.EEXIST);
    assertThat(errno(() -> fs.makeCgroup(m, CgroupPath.of("/a/tasks")))).isEqualTo(Errno.EEXIST);
    assertThat(errno(() -> fs.makeCgroup(m, CgroupPath.of("/x/y")))).isEqualTo(Errno.ENOENT);
  }

  @Test
  void rmdirIsEbusyWithChildrenMembersOrAtTheRootAndEnoentWhenAbsent() throws Exception {
    Hierarchy m = h("memory");
    fs.makeCgroup(m, A);
    fs.makeCgroup(m, AB);
    assertThat(errno(() -> fs.removeCgroup(m, A))).isEqualTo(Errno.EBUSY);
    fs.write(m, AB, "cgroup.procs", Long.toString(fs.spawnProcess()));
    assertThat(errno(() -> fs.removeCgroup(m, AB))).isEqualTo(Errno.EBUSY);
    assertThat(errno(() -> fs.removeCgroup(m, CgroupPath.root()))).isEqualTo(Errno.EBUSY);
    assertThat(errno(() -> fs.removeCgroup(m, CgroupPath.of("/none")))).isEqualTo(Errno.ENOENT);
    assertThat(errno(() -> fs.removeCgroup(m, CgroupPath.of("/a/tasks")))).isEqualTo(Errno.ENOTDIR);
  }

  @Test
  void rootOnlyFilesExistOnlyAtTheRoot() throws Exception {
    Hierarchy cpu = h("cpu");
    fs.makeCgroup(cpu, A);
    assertThat(fs.hasFile(cpu, CgroupPath.root(), "release_agent")).isTrue();
    assertThat(fs.hasFile(cpu, A, "release_agent")).isFalse();
    assertThat(fs.hasFile(cpu, A, "cgroup.sane_behavior")).isFalse();
    assertThat(fs.hasFile(h("freezer"), CgroupPath.root(), "freezer.state")).isFalse();
    assertThat(fs.hasFile(h("pids"), CgroupPath.root(), "pids.max")).isFalse();
  }

  // ---- Files.

  @Test
  void missingFileIsEnoentDirectoryEisdirReadOnlyWriteEinvalWriteOnlyReadEinval() throws Exception {
    Hierarchy m = h("memory");
    fs.makeCgroup(m, A);
    fs.makeCgroup(m, AB);
    assertThat(write(m, A, "memory.nothing", "1")).isEqualTo(Errno.ENOENT);
    assertThat(write(m, A, "b", "1")).isEqualTo(Errno.EISDIR);
    assertThat(write(m, A, "memory.usage_in_bytes", "1")).isEqualTo(Errno.EINVAL);
    assertThat(errno(() -> fs.read(m, A, "memory.force_empty"))).isEqualTo(Errno.EINVAL);
    assertThat(errno(() -> fs.read(m, CgroupPath.of("/none"), "tasks"))).isEqualTo(Errno.ENOENT);
  }

  @Test
  void freshV1CgroupHasTheKernelDefaults() throws Exception {
    fs.makeCgroup(h("memory"), A);
    fs.makeCgroup(h("cpu"), A);
    fs.makeCgroup(h("cpuset"), A);
    fs.makeCgroup(h("pids"), A);
    assertThat(read(h("memory"), A, "memory.limit_in_bytes")).isEqualTo("9223372036854771712\n");
    assertThat(read(h("memory"), A, "memory.swappiness")).isEqualTo("60\n");
    assertThat(read(h("cpu"), A, "cpu.shares")).isEqualTo("1024\n");
    assertThat(read(h("cpu"), A, "cpu.cfs_quota_us")).isEqualTo("-1\n");
    assertThat(read(h("cpuset"), A, "cpuset.cpus")).isEqualTo("\n");
    assertThat(read(h("pids"), A, "pids.max")).isEqualTo("max\n");
    assertThat(read(h("devices"), CgroupPath.root(), "devices.list")).isEqualTo("a *:* rwm\n");
  }

  // ---- memory v1.

  @Test
  void memoryLimitsRoundDownToPagesAndMinusOneIsTheKernelMax() throws Exception {
    Hierarchy m = h("memory");
    fs.makeCgroup(m, A);
    fs.write(m, A, "memory.limit_in_bytes", "100000");
    assertThat(read(m, A, "memory.limit_in_bytes")).isEqualTo("98304\n");
    fs.write(m, A, "memory.limit_in_bytes", "2g");
    assertThat(read(m, A, "memory.limit_in_bytes")).isEqualTo("2147483648\n");
    fs.write(m, A, "memory.limit_in_bytes", "-1");
    assertThat(read(m, A, "memory.limit_in_bytes")).isEqualTo("9223372036854771712\n");
    assertThat(write(m, A, "memory.limit_in_bytes", "abc")).isEqualTo(Errno.EINVAL);
    assertThat(write(m, A, "memory.limit_in_bytes", "-2")).isEqualTo(Errno.EINVAL);
  }

  @Test
  void memswBelowTheLimitAndTheLimitAboveMemswAreEinval() throws Exception {
    Hierarchy m = h("memory");
    fs.makeCgroup(m, A);
    fs.write(m, A, "memory.limit_in_bytes", "104857600");
    assertThat(write(m, A, "memory.memsw.limit_in_bytes", "50000000")).isEqualTo(Errno.EINVAL);
    fs.write(m, A, "memory.memsw.limit_in_bytes", "209715200");
    assertThat(write(m, A, "memory.limit_in_bytes", "300000000")).isEqualTo(Errno.EINVAL);
    assertThat(write(m, A, "memory.limit_in_bytes", "-1")).isEqualTo(Errno.EINVAL);
    assertThat(read(m, A, "memory.limit_in_bytes")).isEqualTo("104857600\n");
  }

  @Test
  void memoryStatShowsTheSmallestLimitOnTheWayUp() throws Exception {
    Hierarchy m = h("memory");
    fs.makeCgroup(m, A);
    fs.write(m, A, "memory.limit_in_bytes", "1G");
    fs.makeCgroup(m, AB);
    assertThat(read(m, AB, "memory.stat")).contains("hierarchical_memory_limit 1073741824\n");
  }

  @Test
  void newCgroupInheritsNotifyOnReleaseAndCloneChildren() throws Exception {
    Hierarchy m = h("memory");
    fs.makeCgroup(m, A);
    fs.write(m, A, "notify_on_release", "5");
    fs.makeCgroup(m, AB);
    assertThat(read(m, A, "notify_on_release")).isEqualTo("1\n");
    assertThat(read(m, AB, "notify_on_release")).isEqualTo("1\n");
    assertThat(write(m, A, "notify_on_release", "-1")).isEqualTo(Errno.EINVAL);
  }

  // ---- cpu v1.

  @Test
  void cpuQuotaPeriodAndSharesFollowTheKernelRanges() throws Exception {
    Hierarchy cpu = h("cpu");
    fs.makeCgroup(cpu, A);
    assertThat(write(cpu, A, "cpu.cfs_quota_us", "999")).isEqualTo(Errno.EINVAL);
    fs.write(cpu, A, "cpu.cfs_quota_us", "-5");
    assertThat(read(cpu, A, "cpu.cfs_quota_us")).isEqualTo("-1\n");
    assertThat(write(cpu, A, "cpu.cfs_period_us", "999")).isEqualTo(Errno.EINVAL);
    assertThat(write(cpu, A, "cpu.cfs_period_us", "1000001")).isEqualTo(Errno.EINVAL);
    fs.write(cpu, A, "cpu.shares", "1");
    assertThat(read(cpu, A, "cpu.shares")).isEqualTo("2\n");
    fs.write(cpu, A, "cpu.shares", "262145");
    assertThat(read(cpu, A, "cpu.shares")).isEqualTo("262144\n");
    assertThat(write(cpu, A, "cpu.shares", " 5 ")).isEqualTo(Errno.EINVAL);
  }

  // ---- cpuset v1.

  @Test
  void cpusetListsMustStayInsideTheParentsAndTheMachine() throws Exception {
    Hierarchy cs = h("cpuset");
    fs.makeCgroup(cs, A);
    assertThat(write(cs, A, "cpuset.cpus", "0-2")).isEqualTo(Errno.ERANGE);
    assertThat(write(cs, A, "cpuset.mems", "1")).isEqualTo(Errno.EINVAL);
    assertThat(write(cs, A, "cpuset.cpus", "1-0")).isEqualTo(Errno.EINVAL);
    fs.write(cs, A, "cpuset.cpus", "1");
    fs.makeCgroup(cs, AB);
    assertThat(write(cs, AB, "cpuset.cpus", "0")).isEqualTo(Errno.EACCES);
    fs.write(cs, AB, "cpuset.cpus", "1");
    assertThat(write(cs, A, "cpuset.cpus", "0")).isEqualTo(Errno.EBUSY);
  }

  @Test
  void movingIntoACpusetWithoutCpusIsEnospc() throws Exception {
    Hierarchy cs = h("cpuset");
    fs.makeCgroup(cs, A);
    long pid = fs.spawnProcess();
    assertThat(write(cs, A, "cgroup.procs", Long.toString(pid))).isEqualTo(Errno.ENOSPC);
    fs.write(cs, A, "cpuset.cpus", "0-1");
    fs.write(cs, A, "cpuset.mems", "0");
    fs.write(cs, A, "cgroup.procs", Long.toString(pid));
    assertThat(read(cs, A, "cgroup.procs")).isEqualTo(pid + "\n");
  }

  @Test
  void cloneChildrenCopiesTheParentsCpus() throws Exception {
    Hierarchy cs = h("cpuset");
    fs.makeCgroup(cs, A);
    fs.write(cs, A, "cpuset.cpus", "1");
    fs.write(cs, A, "cpuset.mems", "0");
    fs.write(cs, A, "cgroup.clone_children", "1");
    fs.makeCgroup(cs, AB);
    assertThat(read(cs, AB, "cpuset.cpus")).isEqualTo("1\n");
  }

  // ---- freezer, devices, pids, blkio.

  @Test
  void freezerStateTakesFrozenOrThawedAndChildrenOfAFrozenCgroupReadFrozen() throws Exception {
    Hierarchy f = h("freezer");
    fs.makeCgroup(f, A);
    fs.makeCgroup(f, AB);
    assertThat(write(f, A, "freezer.state", "FREEZING")).isEqualTo(Errno.EINVAL);
    fs.write(f, A, "freezer.state", "FROZEN\n");
    assertThat(read(f, AB, "freezer.state")).isEqualTo("FROZEN\n");
    assertThat(read(f, AB, "freezer.parent_freezing")).isEqualTo("1\n");
    fs.write(f, A, "freezer.state", "THAWED");
    assertThat(read(f, AB, "freezer.state")).isEqualTo("THAWED\n");
  }

  @Test
  void devicesRulesMergeAndChildrenCannotWidenTheirParent() throws Exception {
    Hierarchy d = h("devices");
    fs.makeCgroup(d, A);
    fs.write(d, A, "devices.deny", "a");
    assertThat(read(d, A, "devices.list")).isEmpty();
    fs.write(d, A, "devices.allow", "c 1:5 r");
    fs.write(d, A, "devices.allow", "c 1:5 w");
    fs.write(d, A, "devices.allow", "c 136:* rwm");
    assertThat(read(d, A, "devices.list")).isEqualTo("c 1:5 rw\nc 136:* rwm\n");
    assertThat(write(d, A, "devices.allow", "x 1:3 r")).isEqualTo(Errno.EINVAL);
    fs.makeCgroup(d, AB);
    assertThat(write(d, AB, "devices.allow", "c 1:5 m")).isEqualTo(Errno.EPERM);
    assertThat(write(d, A, "devices.deny", "a")).isEqualTo(Errno.EINVAL);
    fs.write(d, A, "devices.deny", "c 1:5 w");
    assertThat(read(d, AB, "devices.list")).isEqualTo("c 1:5 r\nc 136:* rwm\n");
  }

  @Test
  void pidsMaxIsMaxOrABoundedNumberAndCurrentCountsTasks() throws Exception {
    Hierarchy p = h("pids");
    fs.makeCgroup(p, A);
    assertThat(write(p, A, "pids.max", "-1")).isEqualTo(Errno.EINVAL);
    assertThat(write(p, A, "pids.max", "4194305")).isEqualTo(Errno.EINVAL);
    fs.write(p, A, "pids.max", "10");
    long pid = fs.spawnProcess();
    fs.spawnThread(pid);
    fs.write(p, A, "cgroup.procs", Long.toString(pid));
    assertThat(read(p, A, "pids.current")).isEqualTo("2\n");
  }

  @Test
  void blkioWeightIsOneToAThousandAndUnknownDisksAreEnodev() throws Exception {
    Hierarchy b = h("blkio");
    fs.makeCgroup(b, A);
    assertThat(write(b, A, "blkio.bfq.weight", "0")).isEqualTo(Errno.ERANGE);
    assertThat(write(b, A, "blkio.throttle.read_bps_device", "8:0 1000")).isEqualTo(Errno.ENODEV);
    fs.write(b, A, "blkio.throttle.read_bps_device", "254:0 1000");
    assertThat(read(b, A, "blkio.throttle.read_bps_device")).isEqualTo("254:0 1000\n");
  }

  // ---- tasks and cgroup.procs.

  @Test
  void procsWritesNameOnePid() throws Exception {
    Hierarchy m = h("memory");
    fs.makeCgroup(m, A);
    assertThat(write(m, A, "cgroup.procs", "999999")).isEqualTo(Errno.ESRCH);
    assertThat(write(m, A, "cgroup.procs", "abc")).isEqualTo(Errno.EINVAL);
    assertThat(write(m, A, "cgroup.procs", "1 2")).isEqualTo(Errno.EINVAL);
    fs.write(m, A, "cgroup.procs", "0");
    assertThat(read(m, A, "cgroup.procs")).isEqualTo(fs.selfPid() + "\n");
  }

  @Test
  void tasksMovesOneThread() throws Exception {
    Hierarchy m = h("memory");
    fs.makeCgroup(m, A);
    long pid = fs.spawnProcess();
    long tid = fs.spawnThread(pid);
    fs.write(m, A, "tasks", Long.toString(tid));
    assertThat(read(m, A, "tasks")).isEqualTo(tid + "\n");
    assertThat(read(m, CgroupPath.root(), "tasks")).contains(pid + "\n");
  }

  // ---- markers, owners, mount.

  @Test
  void markersAreSetReadAndRemovedAndNeedTheCgroup() throws Exception {
    Hierarchy m = h("memory");
    fs.makeCgroup(m, A);
    fs.setMarker(m, A, "lmctfy.owner", "me");
    assertThat(fs.marker(m, A, "lmctfy.owner")).contains("me");
    fs.removeMarker(m, A, "lmctfy.owner");
    fs.removeMarker(m, A, "lmctfy.owner");
    assertThat(fs.marker(m, A, "lmctfy.owner")).isEmpty();
    assertThat(errno(() -> fs.setMarker(m, AB, "k", "v"))).isEqualTo(Errno.ENOENT);
  }

  @Test
  void chownChangesOnlyTheIdsGiven() throws Exception {
    Hierarchy m = h("memory");
    fs.makeCgroup(m, A);
    fs.chown(m, A, null, 1000, 1000);
    fs.chown(m, A, null, -1, 50);
    assertThat(fs.owner(m, A, null)).containsExactly(1000, 50);
    assertThat(fs.owner(m, A, "tasks")).containsExactly(0, 0);
    assertThat(errno(() -> fs.chown(m, A, "nothing", 1, 1))).isEqualTo(Errno.ENOENT);
  }

  @Test
  void mountTakesAnUnmountedControllerOnceAndUnmountGivesItBack() throws Exception {
    Hierarchy netCls = fs.mount(Set.of("net_cls"), "/sys/fs/cgroup/net_cls");
    assertThat(fs.unmountedControllers()).doesNotContain("net_cls");
    assertThat(fs.cgroupsOf(fs.selfPid())).containsEntry(netCls, CgroupPath.root());
    assertThat(errno(() -> fs.mount(Set.of("memory"), "/mnt/m"))).isEqualTo(Errno.EBUSY);
    fs.makeCgroup(netCls, A);
    assertThat(errno(() -> fs.unmount(netCls))).isEqualTo(Errno.EBUSY);
    fs.removeCgroup(netCls, A);
    fs.unmount(netCls);
    assertThat(fs.unmountedControllers()).contains("net_cls");
  }
}
