package org.lmctfy.testing.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.internal.host.MachineLacks.assumeHas;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;

/**
 * The v1 cpuset, devices, pids, freezer and blkio rules beyond their basics: list syntax, what a
 * parent and its children constrain, rule syntax and listing order, ranges and whitespace, as seen
 * on a real kernel (Linux 6.18, cgroup v1).
 */
public abstract class CgroupV1CpusetDevicesPidsContract extends CgroupFsContractSupport {

  /**
   * The cases, run on {@code backend}.
   *
   * @param backend the backend under test: {@link ContractBackend#fake} or {@link
   *     ContractBackend#host}
   */
  protected CgroupV1CpusetDevicesPidsContract(ContractBackend backend) {
    super(backend);
  }

  // ---- cpuset.

  private Hierarchy cpusetWithTwoCpus() throws IOException {
    Hierarchy h = hierarchy("cpuset");
    String cpus = read(h, CgroupPath.root(), "cpuset.cpus");
    assumeHas(Integer.parseInt(cpus.replaceAll(".*[-,]", "")) >= 1, "needs two cpus");
    return h;
  }

  @Test
  void aBackwardsCpuRangeIsEinval() throws IOException {
    Hierarchy h = cpusetWithTwoCpus();
    assertWriteRefused(Errno.EINVAL, h, scratch.path(), "cpuset.cpus", "1-0");
  }

  @Test
  void shrinkingACpusetBelowWhatAChildUsesIsEbusy() throws IOException {
    Hierarchy h = cpusetWithTwoCpus();
    fs.write(h, scratch.path(), "cpuset.cpus", "0-1");
    CgroupPath child = make(h, "a");
    fs.write(h, child, "cpuset.cpus", "1");
    assertWriteRefused(Errno.EBUSY, h, scratch.path(), "cpuset.cpus", "0");
    assertThat(writeAndRead(h, scratch.path(), "cpuset.cpus", "1")).isEqualTo("1");
  }

  @Test
  void theEffectiveListsAreTheCgroupsOwn() throws IOException {
    Hierarchy h = cpusetWithTwoCpus();
    fs.write(h, scratch.path(), "cpuset.cpus", "0-1");
    fs.write(h, scratch.path(), "cpuset.mems", "0");
    CgroupPath child = make(h, "a");
    fs.write(h, child, "cpuset.cpus", "1");
    assertThat(read(h, child, "cpuset.effective_cpus")).isEqualTo("1");
    assertThat(read(h, scratch.path(), "cpuset.effective_cpus")).isEqualTo("0-1");
    assertThat(read(h, scratch.path(), "cpuset.effective_mems")).isEqualTo("0");
  }

  @Test
  void cloneChildrenMakesANewChildCopyItsParentsCpusAndMems() throws IOException {
    Hierarchy h = cpusetWithTwoCpus();
    fs.write(h, scratch.path(), "cpuset.cpus", "1");
    fs.write(h, scratch.path(), "cpuset.mems", "0");
    CgroupPath plain = make(h, "a");
    fs.write(h, scratch.path(), "cgroup.clone_children", "1");
    CgroupPath cloned = make(h, "b");
    assertThat(read(h, plain, "cpuset.cpus")).isEmpty();
    assertThat(read(h, cloned, "cpuset.cpus")).isEqualTo("1");
    assertThat(read(h, cloned, "cpuset.mems")).isEqualTo("0");
    assertThat(read(h, cloned, "cgroup.clone_children")).isEqualTo("1");
  }

  @Test
  void movingIntoACpusetWithoutCpusIsEnospc() throws IOException {
    Hierarchy h = hierarchy("cpuset");
    long pid = process();
    CgroupPath before = fs.cgroupsOf(pid).get(h);
    CgroupPath p = make(h, "a");
    assertErrno(Errno.ENOSPC, () -> fs.write(h, p, "cgroup.procs", Long.toString(pid)));
    assertThat(fs.cgroupsOf(pid)).containsEntry(h, before);
  }

  @Test
  void emptyingTheCpusOfACpusetWithAProcessIsEnospc() throws IOException {
    Hierarchy h = hierarchy("cpuset");
    long pid = process();
    fs.write(h, scratch.path(), "cpuset.cpus", "0");
    fs.write(h, scratch.path(), "cpuset.mems", "0");
    fs.write(h, scratch.path(), "cgroup.procs", Long.toString(pid));
    assertWriteRefused(Errno.ENOSPC, h, scratch.path(), "cpuset.cpus", "\n");
  }

  @Test
  void schedRelaxDomainLevelDefaultsToMinusOneAndTakesUpToTwoHere() throws IOException {
    Hierarchy h = hierarchy("cpuset");
    CgroupPath p = make(h, "a");
    assertThat(read(h, p, "cpuset.sched_relax_domain_level")).isEqualTo("-1");
    assertThat(writeAndRead(h, p, "cpuset.sched_relax_domain_level", "2")).isEqualTo("2");
    assertWriteRefused(Errno.EINVAL, h, p, "cpuset.sched_relax_domain_level", "3");
    assertWriteRefused(Errno.EINVAL, h, p, "cpuset.sched_relax_domain_level", "-2");
  }

  // ---- devices.

  @Test
  void deviceRulesNeedSingleSpacesNumbersOrStarsAndAnAccess() throws IOException {
    Hierarchy h = hierarchy("devices");
    CgroupPath p = make(h, "a");
    fs.write(h, p, "devices.deny", "a");
    assertErrno(Errno.EINVAL, () -> fs.write(h, p, "devices.allow", "c  1:3 r"));
    assertErrno(Errno.EINVAL, () -> fs.write(h, p, "devices.allow", "c 1:9 "));
    assertErrno(Errno.EINVAL, () -> fs.write(h, p, "devices.allow", "c 1:4294967296 r"));
    assertErrno(Errno.EINVAL, () -> fs.write(h, p, "devices.allow", "c 1:x r"));
    assertThat(fs.read(h, p, "devices.list")).isEmpty();
    fs.write(h, p, "devices.allow", "c 01:7 r");
    fs.write(h, p, "devices.allow", "b 8:0 rwmx");
    assertThat(fs.read(h, p, "devices.list")).isEqualTo("c 1:7 r\nb 8:0 rwm\n");
  }

  @Test
  void devicesListKeepsTheOrderAddedAndMergesAccessesOfOneDevice() throws IOException {
    Hierarchy h = hierarchy("devices");
    CgroupPath p = make(h, "a");
    fs.write(h, p, "devices.deny", "a");
    fs.write(h, p, "devices.allow", "c 1:5 r");
    fs.write(h, p, "devices.allow", "c 136:* rwm");
    fs.write(h, p, "devices.allow", "c 1:5 w");
    assertThat(fs.read(h, p, "devices.list")).isEqualTo("c 1:5 rw\nc 136:* rwm\n");
    fs.write(h, p, "devices.deny", "c 1:5 r");
    assertThat(fs.read(h, p, "devices.list")).isEqualTo("c 1:5 w\nc 136:* rwm\n");
  }

  @Test
  void aDenialInAParentReachesItsChildren() throws IOException {
    Hierarchy h = hierarchy("devices");
    CgroupPath parent = make(h, "a");
    fs.write(h, parent, "devices.deny", "a");
    fs.write(h, parent, "devices.allow", "c 1:5 rw");
    fs.write(h, parent, "devices.allow", "c 136:* rwm");
    CgroupPath child = make(h, "a/b");
    assertErrno(Errno.EPERM, () -> fs.write(h, child, "devices.allow", "c 1:5 m"));
    fs.write(h, parent, "devices.deny", "c 1:5 w");
    assertThat(fs.read(h, child, "devices.list")).isEqualTo("c 1:5 r\nc 136:* rwm\n");
  }

  // ---- pids, freezer, blkio.

  @Test
  void pidsMaxTakesUpToPidMaxLimitAndIgnoresSurroundingBlanks() throws IOException {
    Hierarchy h = hierarchy("pids");
    CgroupPath p = make(h, "a");
    assertThat(writeAndRead(h, p, "pids.max", "4194304")).isEqualTo("4194304");
    assertWriteRefused(Errno.EINVAL, h, p, "pids.max", "4194305");
    assertWriteRefused(Errno.EINVAL, h, p, "pids.max", "MAX");
    assertThat(writeAndRead(h, p, "pids.max", " 7 ")).isEqualTo("7");
    assertThat(writeAndRead(h, p, "pids.max", " max ")).isEqualTo("max");
  }

  @Test
  void pidsCurrentCountsTheTasksOfTheSubtree() throws IOException {
    Hierarchy h = hierarchy("pids");
    long pid = process();
    CgroupPath child = make(h, "a/b");
    fs.write(h, child, "cgroup.procs", Long.toString(pid));
    assertThat(read(h, child, "pids.current")).isEqualTo("1");
    assertThat(read(h, child.parent(), "pids.current")).isEqualTo("1");
  }

  @Test
  void pidsAndFreezerFilesExistOnlyBelowTheRoot() throws IOException {
    Hierarchy pids = hierarchy("pids");
    Hierarchy freezer = hierarchy("freezer");
    assertThat(fs.hasFile(pids, CgroupPath.root(), "pids.max")).isFalse();
    assertThat(fs.hasFile(pids, CgroupPath.root(), "pids.current")).isFalse();
    assertThat(fs.hasFile(freezer, CgroupPath.root(), "freezer.state")).isFalse();
    assertThat(fs.hasFile(pids, scratch.path(), "pids.max")).isTrue();
    assertThat(fs.hasFile(freezer, scratch.path(), "freezer.state")).isTrue();
  }

  @Test
  void freezerStateIgnoresSurroundingBlanksButNotCase() throws IOException {
    Hierarchy h = hierarchy("freezer");
    CgroupPath p = make(h, "a");
    assertThat(writeAndRead(h, p, "freezer.state", " FROZEN \n")).isEqualTo("FROZEN");
    assertThat(read(h, p, "freezer.self_freezing")).isEqualTo("1");
    assertWriteRefused(Errno.EINVAL, h, p, "freezer.state", "thawed");
    assertThat(writeAndRead(h, p, "freezer.state", "THAWED")).isEqualTo("THAWED");
  }

  @Test
  void blkioBfqWeightOfZeroIsErange() throws IOException {
    Hierarchy h = hierarchy("blkio");
    CgroupPath p = make(h, "a");
    assumeHas(fs.hasFile(h, p, "blkio.bfq.weight"), "this kernel has no BFQ weight file");
    assertThat(read(h, p, "blkio.bfq.weight")).isEqualTo("100");
    assertWriteRefused(Errno.ERANGE, h, p, "blkio.bfq.weight", "0");
  }
}
