package org.lmctfy.testing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.testing.contract.CgroupFsFilesContract;
import org.lmctfy.testing.contract.CgroupV2Contract;

/**
 * cgroup v2 rules the kernel contract cannot check here: the controllers (memory, cpu, io, pids,
 * hugetlb), which this machine's kernel does not offer below its unified root, modelled from the
 * kernel's Documentation/admin-guide/cgroup-v2.rst, and a process frozen or killed through the core
 * files. The core files' own rules ({@code cgroup.*}) have cases in {@link CgroupV2Contract} and
 * {@link CgroupFsFilesContract}, which run on the fake and on the kernel.
 */
class FakeV2RulesTest {
  private static final CgroupPath A = CgroupPath.of("/a");
  private static final CgroupPath AB = CgroupPath.of("/a/b");

  private final FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.V2);
  private final Hierarchy v2 = fs.hierarchies().get(0);

  private Errno write(CgroupPath p, String file, String value) {
    try {
      fs.write(v2, p, file, value);
      return null;
    } catch (CgroupFsException e) {
      return e.errno();
    }
  }

  private String read(CgroupPath p, String file) throws Exception {
    return fs.read(v2, p, file);
  }

  @Test
  void controllersOfAChildAreItsParentsSubtreeControl() throws Exception {
    fs.makeCgroup(v2, A);
    fs.makeCgroup(v2, AB);
    assertThat(read(A, "cgroup.controllers"))
        .isEqualTo("cpuset cpu io memory hugetlb pids rdma misc\n");
    assertThat(read(AB, "cgroup.controllers")).isEmpty();
    assertThat(fs.hasFile(v2, AB, "memory.max")).isFalse();
    fs.write(v2, A, "cgroup.subtree_control", "+memory +pids");
    assertThat(read(AB, "cgroup.controllers")).isEqualTo("memory pids\n");
    assertThat(read(AB, "memory.max")).isEqualTo("max\n");
  }

  @Test
  void noInternalProcessesAndNoDisablingWhatAChildUses() throws Exception {
    fs.makeCgroup(v2, A);
    fs.makeCgroup(v2, AB);
    fs.write(v2, A, "cgroup.subtree_control", "+memory");
    assertThat(write(A, "cgroup.procs", Long.toString(fs.processes().spawn())))
        .isEqualTo(Errno.EBUSY);
    fs.write(v2, AB, "cgroup.subtree_control", "+memory");
    assertThat(write(A, "cgroup.subtree_control", "-memory")).isEqualTo(Errno.EBUSY);
  }

  @Test
  void disablingAControllerDropsItsFilesAndValuesInChildren() throws Exception {
    fs.makeCgroup(v2, A);
    fs.makeCgroup(v2, AB);
    fs.write(v2, A, "cgroup.subtree_control", "+memory");
    fs.write(v2, AB, "memory.max", "1M");
    fs.write(v2, A, "cgroup.subtree_control", "-memory");
    assertThat(fs.hasFile(v2, AB, "memory.max")).isFalse();
    fs.write(v2, A, "cgroup.subtree_control", "+memory");
    assertThat(read(AB, "memory.max")).isEqualTo("max\n");
  }

  @Test
  void eventsFreezeAndKill() throws Exception {
    fs.makeCgroup(v2, A);
    long pid = fs.processes().spawn();
    fs.write(v2, A, "cgroup.procs", Long.toString(pid));
    assertThat(read(A, "cgroup.events")).isEqualTo("populated 1\nfrozen 0\n");
    assertThat(write(A, "cgroup.freeze", "2")).isEqualTo(Errno.ERANGE);
    fs.write(v2, A, "cgroup.freeze", "1");
    assertThat(read(A, "cgroup.events")).isEqualTo("populated 1\nfrozen 1\n");
    assertThat(write(A, "cgroup.kill", "0")).isEqualTo(Errno.ERANGE);
    fs.write(v2, A, "cgroup.kill", "1");
    assertThat(fs.processes().living()).doesNotContain(pid);
    assertThat(read(A, "cgroup.events")).isEqualTo("populated 0\nfrozen 1\n");
  }

  @Test
  void memoryLimitsAreMaxOrPageRoundedBytes() throws Exception {
    fs.makeCgroup(v2, A);
    fs.write(v2, A, "memory.max", "100000");
    assertThat(read(A, "memory.max")).isEqualTo("98304\n");
    fs.write(v2, A, "memory.high", "max");
    assertThat(read(A, "memory.high")).isEqualTo("max\n");
    assertThat(write(A, "memory.oom.group", "2")).isEqualTo(Errno.EINVAL);
    assertThat(write(A, "memory.max", "abc")).isEqualTo(Errno.EINVAL);
  }

  @Test
  void cpuWeightMaxAndNice() throws Exception {
    fs.makeCgroup(v2, A);
    assertThat(read(A, "cpu.weight")).isEqualTo("100\n");
    assertThat(write(A, "cpu.weight", "0")).isEqualTo(Errno.ERANGE);
    assertThat(write(A, "cpu.weight", "10001")).isEqualTo(Errno.ERANGE);
    fs.write(v2, A, "cpu.weight.nice", "-20");
    assertThat(read(A, "cpu.weight")).isEqualTo("8668\n");
    assertThat(read(A, "cpu.max")).isEqualTo("max 100000\n");
    assertThat(write(A, "cpu.max", "999 100000")).isEqualTo(Errno.EINVAL);
    fs.write(v2, A, "cpu.max", "50000");
    assertThat(read(A, "cpu.max")).isEqualTo("50000 100000\n");
  }

  @Test
  void hugetlbLimitsRoundToTheHugePage() throws Exception {
    fs.makeCgroup(v2, A);
    fs.write(v2, A, "hugetlb.2MB.max", "5M");
    assertThat(read(A, "hugetlb.2MB.max")).isEqualTo("4194304\n");
    assertThat(fs.hasFile(v2, A, "hugetlb.1GB.max")).isTrue();
  }

  @Test
  void thisMachinesUnifiedChildGetsNoHugetlbFiles() throws Exception {
    FakeCgroupFs machine = FakeCgroupFs.create(FakeLayout.HYBRID_HUGETLB_V2);
    Hierarchy unified = machine.hierarchies().get(machine.hierarchies().size() - 1);
    machine.makeCgroup(unified, A);
    assertThat(machine.read(unified, A, "cgroup.controllers")).isEmpty();
    assertThat(machine.hasFile(unified, A, "hugetlb.2MB.max")).isFalse();
    assertThat(machine.read(unified, A, "cgroup.stat"))
        .isEqualTo(
            "nr_descendants 0\nnr_subsys_perf_event 1\n"
                + "nr_subsys_hugetlb 0\nnr_dying_descendants 0\nnr_dying_subsys_perf_event 0\nnr_dying_subsys_hugetlb 0\n");
    assertThat(machine.read(unified, A, "cgroup.type")).isEqualTo("domain\n");
  }

  @Test
  void ioWeightAndMax() throws Exception {
    fs.makeCgroup(v2, A);
    assertThat(read(A, "io.weight")).isEqualTo("default 100\n");
    fs.write(v2, A, "io.weight", "default 200");
    fs.write(v2, A, "io.max", "254:0 rbps=1000");
    assertThat(read(A, "io.weight")).isEqualTo("default 200\n");
    assertThat(read(A, "io.max")).isEqualTo("254:0 rbps=1000 wbps=max riops=max wiops=max\n");
    assertThat(write(A, "io.max", "8:0 rbps=1")).isEqualTo(Errno.ENODEV);
  }
}
