package org.lmctfy.testing.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;

/**
 * The controllers of the unified hierarchy (memory, cpu, io, pids): how enabling them meets
 * processes, threads and limits, as seen on a real kernel. The cases need those controllers given
 * to the scratch parent: on the kernel they run where the layout enables them (tag {@code
 * needs-v2}: the {@code v2} guests of {@code .ci/kernel-vm}); on the fake's v2 layouts everywhere.
 */
public abstract class CgroupV2ControllersContract extends CgroupFsContractSupport {

  /**
   * The cases, run on {@code backend}.
   *
   * @param backend the backend under test: {@link ContractBackend#fake} or {@link
   *     ContractBackend#host}
   */
  protected CgroupV2ControllersContract(ContractBackend backend) {
    super(backend);
  }

  private Hierarchy withController(String controller) throws IOException {
    Hierarchy h = unified();
    assertThat(Set.of(read(h, scratch.path(), "cgroup.controllers").split(" ")))
        .as(
            "controllers of the scratch parent (a needs-v2 case: the layout gives memory, cpu, io, pids)")
        .contains(controller);
    fs.write(h, scratch.path(), "cgroup.subtree_control", "+" + controller);
    return h;
  }

  @Test
  void controllerFilesAppearInChildrenWhenEnabledAndGoWhenDisabled() throws IOException {
    Hierarchy h = withController("memory");
    CgroupPath p = make(h, "a");
    assertThat(read(h, p, "cgroup.controllers")).contains("memory");
    assertThat(fs.hasFile(h, p, "memory.max")).isTrue();
    fs.write(h, scratch.path(), "cgroup.subtree_control", "-memory");
    assertThat(fs.hasFile(h, p, "memory.max")).isFalse();
  }

  @Test
  void disablingAControllerAChildStillEnablesIsEbusy() throws IOException {
    Hierarchy h = withController("memory");
    CgroupPath p = make(h, "a");
    fs.write(h, p, "cgroup.subtree_control", "+memory");
    assertWriteRefused(Errno.EBUSY, h, scratch.path(), "cgroup.subtree_control", "-memory");
  }

  @Test
  void processesAndDomainControllersDoNotMixInOneCgroup() throws IOException {
    Hierarchy h =
        withController("memory"); // a domain controller: threaded ones (pids, cpu) may mix
    long pid = process();
    CgroupPath p = make(h, "a");
    fs.write(h, p, "cgroup.procs", Long.toString(pid));
    assertWriteRefused(Errno.EBUSY, h, p, "cgroup.subtree_control", "+memory");
    CgroupPath q = make(h, "b");
    fs.write(h, q, "cgroup.subtree_control", "+memory");
    assertErrno(Errno.EBUSY, () -> fs.write(h, q, "cgroup.procs", Long.toString(pid)));
  }

  @Test
  void memoryMaxTakesMaxOrBytesRoundedDownToAPage() throws IOException {
    Hierarchy h = withController("memory");
    CgroupPath p = make(h, "a");
    assertThat(read(h, p, "memory.max")).isEqualTo("max");
    assertThat(writeAndRead(h, p, "memory.max", "1048577")).isEqualTo("1048576");
    assertThat(writeAndRead(h, p, "memory.max", "max")).isEqualTo("max");
    assertThat(writeAndRead(h, p, "memory.swap.max", "0")).isEqualTo("0");
    assertThat(writeAndRead(h, p, "memory.low", "4096")).isEqualTo("4096");
    assertWriteRefused(Errno.EINVAL, h, p, "memory.max", "-1");
    assertWriteRefused(Errno.EINVAL, h, p, "memory.high", "abc");
  }

  @Test
  void cpuMaxQuotaBelow1000IsEinvalAndWeightOutsideItsRangeIsErange() throws IOException {
    Hierarchy h = withController("cpu");
    CgroupPath p = make(h, "a");
    assertThat(read(h, p, "cpu.max")).isEqualTo("max 100000");
    assertThat(writeAndRead(h, p, "cpu.max", "50000 100000")).isEqualTo("50000 100000");
    assertWriteRefused(Errno.EINVAL, h, p, "cpu.max", "500 100000");
    assertThat(read(h, p, "cpu.weight")).isEqualTo("100");
    assertWriteRefused(Errno.ERANGE, h, p, "cpu.weight", "0");
    assertWriteRefused(Errno.ERANGE, h, p, "cpu.weight", "10001");
  }

  @Test
  void pidsMaxOnV2TakesMaxOrANumber() throws IOException {
    Hierarchy h = withController("pids");
    CgroupPath p = make(h, "a");
    assertThat(read(h, p, "pids.max")).isEqualTo("max");
    assertThat(writeAndRead(h, p, "pids.max", "64")).isEqualTo("64");
    assertWriteRefused(Errno.EINVAL, h, p, "pids.max", "-1");
  }

  @Test
  void threadedControllersMayShareACgroupWithProcessesWhichThenIsAThreadRoot() throws IOException {
    Hierarchy h = withController("pids");
    withController("memory");
    long pid = process();
    CgroupPath p = make(h, "a");
    fs.write(h, p, "cgroup.procs", Long.toString(pid));
    fs.write(h, p, "cgroup.subtree_control", "+pids"); // pids is threaded: no EBUSY
    assertThat(read(h, p, "cgroup.subtree_control")).isEqualTo("pids");
    assertThat(read(h, p, "cgroup.type")).isEqualTo("domain threaded");
    assertWriteRefused(
        Errno.EOPNOTSUPP, h, p, "cgroup.subtree_control", "+memory"); // no domain one now
    CgroupPath child = p.resolve("c");
    fs.makeCgroup(h, child);
    assertThat(read(h, child, "cgroup.type")).isEqualTo("domain invalid");
    assertErrno(Errno.EOPNOTSUPP, () -> fs.write(h, child, "cgroup.procs", Long.toString(pid)));
  }

  @Test
  void aProcessMayJoinACgroupThatEnablesOnlyThreadedControllers() throws IOException {
    Hierarchy h = withController("pids");
    long pid = process();
    CgroupPath p = make(h, "a");
    fs.write(h, p, "cgroup.subtree_control", "+pids");
    fs.write(h, p, "cgroup.procs", Long.toString(pid));
    assertThat(read(h, p, "cgroup.procs")).isEqualTo(Long.toString(pid));
  }

  @Test
  void memoryMaxBelowUsageIsAcceptedNotRefused() throws IOException {
    Hierarchy h = withController("memory");
    long pid = process();
    CgroupPath p = make(h, "a");
    fs.write(h, p, "cgroup.procs", Long.toString(pid));
    fs.write(h, p, "memory.max", "4096"); // the kernel reclaims or OOM-kills; it does not refuse
    assertThat(read(h, p, "memory.max")).isEqualTo("4096");
  }
}
