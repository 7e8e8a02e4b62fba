package org.lmctfy.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.cgroupfs.Owner;
import org.lmctfy.testing.contract.CgroupFsContract;
import org.lmctfy.testing.contract.CgroupFsFilesContract;
import org.lmctfy.testing.contract.CgroupV1ControllersContract;
import org.lmctfy.testing.contract.CgroupV1CpusetDevicesPidsContract;
import org.lmctfy.testing.contract.CgroupV1MemoryCpuContract;

/**
 * The few v1 rules the fake models that the contract suite cannot check on the kernel. Every other
 * rule has a case in the contracts ({@link CgroupFsContract}, {@link CgroupFsFilesContract}, {@link
 * CgroupV1ControllersContract}, {@link CgroupV1MemoryCpuContract}, {@link
 * CgroupV1CpusetDevicesPidsContract}) that runs on the fake and on the kernel. What stays here
 * would need the kernel tests to touch what they must not (a hierarchy's root, mounts) or a process
 * the kernel harness does not start (one with several threads), or a block device the machine
 * happens to have.
 */
class FakeKernelRulesTest {
  private static final CgroupPath A = CgroupPath.of("/a");

  private final FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.HYBRID_HUGETLB_V2);

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

  @Test
  void removingTheRootIsEbusy() throws Exception {
    Hierarchy m = h("memory");
    assertThat(errno(() -> fs.removeCgroup(m, CgroupPath.root()))).isEqualTo(Errno.EBUSY);
  }

  @Test
  void theRootsMemoryLimitAndCpusetListsCannotBeWritten() throws Exception {
    assertThat(write(h("memory"), CgroupPath.root(), "memory.limit_in_bytes", "1G"))
        .isEqualTo(Errno.EINVAL);
    assertThat(write(h("cpuset"), CgroupPath.root(), "cpuset.cpus", "0")).isEqualTo(Errno.EACCES);
  }

  @Test
  void pidsCurrentCountsThreads() throws Exception {
    Hierarchy p = h("pids");
    fs.makeCgroup(p, A);
    long pid = fs.processes().spawn();
    fs.processes().spawnThread(pid);
    fs.write(p, A, "cgroup.procs", Long.toString(pid));
    assertThat(read(p, A, "pids.current")).isEqualTo("2\n");
  }

  @Test
  void tasksMovesOneThreadOfAProcess() throws Exception {
    Hierarchy m = h("memory");
    fs.makeCgroup(m, A);
    long pid = fs.processes().spawn();
    long tid = fs.processes().spawnThread(pid);
    fs.write(m, A, "tasks", Long.toString(tid));
    assertThat(read(m, A, "tasks")).isEqualTo(tid + "\n");
    assertThat(read(m, CgroupPath.root(), "tasks")).contains(pid + "\n");
  }

  @Test
  void blkioThrottlesOfAKnownDiskAreKeptPerDevice() throws Exception {
    Hierarchy b = h("blkio");
    fs.makeCgroup(b, A);
    fs.write(b, A, "blkio.throttle.read_bps_device", "254:0 1000");
    assertThat(read(b, A, "blkio.throttle.read_bps_device")).isEqualTo("254:0 1000\n");
    fs.write(b, A, "blkio.throttle.read_bps_device", "254:0 0");
    assertThat(read(b, A, "blkio.throttle.read_bps_device")).isEmpty();
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

  @Test
  void chownChangesOnlyTheIdsGiven() throws Exception {
    Hierarchy m = h("memory");
    fs.makeCgroup(m, A);
    fs.chown(m, A, null, 1000, 1000);
    fs.chown(m, A, null, -1, 50);
    assertThat(fs.owner(m, A, null)).isEqualTo(new Owner(1000, 50));
    assertThat(fs.owner(m, A, "tasks")).isEqualTo(new Owner(0, 0));
    assertThat(errno(() -> fs.chown(m, A, "nothing", 1, 1))).isEqualTo(Errno.ENOENT);
  }
}
