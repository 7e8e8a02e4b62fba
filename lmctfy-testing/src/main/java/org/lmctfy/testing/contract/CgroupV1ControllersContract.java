package org.lmctfy.testing.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.internal.host.MachineLacks.assumeHas;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;

/**
 * How the v1 controllers' interface files take values: defaults, units, rounding, clamping and
 * refusals, as seen on a real kernel (Linux 6.18, cgroup v1). Each rule the fake models has a case
 * here, so the fake cannot drift from the kernel.
 */
public abstract class CgroupV1ControllersContract extends CgroupFsContractSupport {

  /**
   * The cases, run on {@code backend}.
   *
   * @param backend the backend under test: {@link ContractBackend#fake} or {@link
   *     ContractBackend#host}
   */
  protected CgroupV1ControllersContract(ContractBackend backend) {
    super(backend);
  }

  /** What a v1 memory limit of -1 (unlimited) reads back as on 4 KiB pages. */
  protected static final String V1_UNLIMITED = "9223372036854771712";

  @Test
  void memoryLimitsDefaultToUnlimited() throws IOException {
    Hierarchy h = hierarchy("memory");
    CgroupPath p = make(h, "a");
    assertThat(read(h, p, "memory.limit_in_bytes")).isEqualTo(V1_UNLIMITED);
    assertThat(read(h, p, "memory.memsw.limit_in_bytes")).isEqualTo(V1_UNLIMITED);
    assertThat(read(h, p, "memory.soft_limit_in_bytes")).isEqualTo(V1_UNLIMITED);
  }

  @Test
  void memoryLimitsRoundDownToThePageSize() throws IOException {
    Hierarchy h = hierarchy("memory");
    CgroupPath p = make(h, "a");
    assertThat(writeAndRead(h, p, "memory.limit_in_bytes", "1048577")).isEqualTo("1048576");
    assertThat(writeAndRead(h, p, "memory.soft_limit_in_bytes", "12345")).isEqualTo("12288");
  }

  @Test
  void memoryLimitMinusOneMeansUnlimitedAndLessOrGarbageIsEinval() throws IOException {
    Hierarchy h = hierarchy("memory");
    CgroupPath p = make(h, "a");
    fs.write(h, p, "memory.limit_in_bytes", "1048576");
    assertThat(writeAndRead(h, p, "memory.limit_in_bytes", "-1")).isEqualTo(V1_UNLIMITED);
    assertWriteRefused(Errno.EINVAL, h, p, "memory.limit_in_bytes", "-2");
    assertWriteRefused(Errno.EINVAL, h, p, "memory.limit_in_bytes", "abc");
  }

  @Test
  void memoryPlusSwapBelowTheMemoryLimitIsEinval() throws IOException {
    Hierarchy h = hierarchy("memory");
    CgroupPath p = make(h, "a");
    fs.write(h, p, "memory.limit_in_bytes", "8388608");
    assertWriteRefused(Errno.EINVAL, h, p, "memory.memsw.limit_in_bytes", "4194304");
  }

  @Test
  void memoryLimitAboveMemoryPlusSwapIsEinval() throws IOException {
    Hierarchy h = hierarchy("memory");
    CgroupPath p = make(h, "a");
    fs.write(h, p, "memory.limit_in_bytes", "4194304");
    fs.write(h, p, "memory.memsw.limit_in_bytes", "4194304");
    assertWriteRefused(Errno.EINVAL, h, p, "memory.limit_in_bytes", "8388608");
  }

  @Test
  void raisingBothLimitsWorksMemoryPlusSwapFirst() throws IOException {
    Hierarchy h = hierarchy("memory");
    CgroupPath p = make(h, "a");
    fs.write(h, p, "memory.limit_in_bytes", "4194304");
    fs.write(h, p, "memory.memsw.limit_in_bytes", "4194304");
    fs.write(h, p, "memory.memsw.limit_in_bytes", "16777216");
    fs.write(h, p, "memory.limit_in_bytes", "8388608");
    assertThat(read(h, p, "memory.limit_in_bytes")).isEqualTo("8388608");
    assertThat(read(h, p, "memory.memsw.limit_in_bytes")).isEqualTo("16777216");
  }

  @Test
  void usageIsReadOnlyAndWritingItIsEinval() throws IOException {
    Hierarchy h = hierarchy("memory");
    CgroupPath p = make(h, "a");
    assertThat(read(h, p, "memory.usage_in_bytes")).isEqualTo("0");
    assertWriteRefused(Errno.EINVAL, h, p, "memory.usage_in_bytes", "1");
  }

  @Test
  void oomControlTakesZeroOrOneForOomKillDisable() throws IOException {
    Hierarchy h = hierarchy("memory");
    CgroupPath p = make(h, "a");
    assertThat(fs.read(h, p, "memory.oom_control")).startsWith("oom_kill_disable 0\nunder_oom 0\n");
    fs.write(h, p, "memory.oom_control", "1");
    assertThat(fs.read(h, p, "memory.oom_control")).startsWith("oom_kill_disable 1\n");
    assertWriteRefused(Errno.EINVAL, h, p, "memory.oom_control", "2");
  }

  @Test
  void useHierarchyCannotBeTurnedOff() throws IOException {
    Hierarchy h = hierarchy("memory");
    CgroupPath p = make(h, "a");
    assertThat(read(h, p, "memory.use_hierarchy")).isEqualTo("1");
    assertWriteRefused(Errno.EINVAL, h, p, "memory.use_hierarchy", "0");
  }

  @Test
  void cpuSharesDefaultTo1024AndAreClampedTo2Through262144() throws IOException {
    Hierarchy h = hierarchy("cpu");
    CgroupPath p = make(h, "a");
    assertThat(read(h, p, "cpu.shares")).isEqualTo("1024");
    assertThat(writeAndRead(h, p, "cpu.shares", "1")).isEqualTo("2");
    assertThat(writeAndRead(h, p, "cpu.shares", "999999")).isEqualTo("262144");
    assertWriteRefused(Errno.EINVAL, h, p, "cpu.shares", "abc");
    assertWriteRefused(Errno.EINVAL, h, p, "cpu.shares", "-5");
  }

  @Test
  void cfsQuotaBelow1000MicrosecondsIsEinvalAndAnyNegativeMeansNoQuota() throws IOException {
    Hierarchy h = hierarchy("cpu");
    CgroupPath p = make(h, "a");
    assertThat(read(h, p, "cpu.cfs_quota_us")).isEqualTo("-1");
    assertWriteRefused(Errno.EINVAL, h, p, "cpu.cfs_quota_us", "500");
    assertThat(writeAndRead(h, p, "cpu.cfs_quota_us", "50000")).isEqualTo("50000");
    assertThat(writeAndRead(h, p, "cpu.cfs_quota_us", "-2")).isEqualTo("-1");
  }

  @Test
  void cfsPeriodOutside1000To1000000MicrosecondsIsEinval() throws IOException {
    Hierarchy h = hierarchy("cpu");
    CgroupPath p = make(h, "a");
    assertThat(read(h, p, "cpu.cfs_period_us")).isEqualTo("100000");
    assertWriteRefused(Errno.EINVAL, h, p, "cpu.cfs_period_us", "999");
    assertWriteRefused(Errno.EINVAL, h, p, "cpu.cfs_period_us", "1000001");
    assertThat(writeAndRead(h, p, "cpu.cfs_period_us", "250000")).isEqualTo("250000");
  }

  @Test
  void cpuStatIsReadOnly() throws IOException {
    Hierarchy h = hierarchy("cpu");
    CgroupPath p = make(h, "a");
    assertThat(fs.read(h, p, "cpu.stat"))
        .startsWith("nr_periods 0\nnr_throttled 0\nthrottled_time 0\n");
    assertWriteRefused(Errno.EINVAL, h, p, "cpu.stat", "1");
  }

  @Test
  void aNewCpusetHasNoCpusAndNoMemoryNodes() throws IOException {
    Hierarchy h = hierarchy("cpuset");
    CgroupPath p = make(h, "a");
    assertThat(fs.read(h, p, "cpuset.cpus")).isEqualTo("\n");
    assertThat(fs.read(h, p, "cpuset.mems")).isEqualTo("\n");
  }

  @Test
  void cpusBeyondTheMachineAreErangeAndGarbageIsEinval() throws IOException {
    Hierarchy h = hierarchy("cpuset");
    assertWriteRefused(
        Errno.ERANGE, h, scratch.path(), "cpuset.cpus", Integer.toString(cpuCount(h) + 3));
    assertWriteRefused(Errno.EINVAL, h, scratch.path(), "cpuset.cpus", "x");
  }

  @Test
  void aChildCpusetCannotHaveCpusItsParentLacksWhichIsEacces() throws IOException {
    Hierarchy h = hierarchy("cpuset");
    assumeHas(cpuCount(h) >= 2, "needs two cpus");
    fs.write(h, scratch.path(), "cpuset.cpus", "0");
    CgroupPath child = make(h, "a");
    assertWriteRefused(Errno.EACCES, h, child, "cpuset.cpus", "1");
    assertThat(writeAndRead(h, child, "cpuset.cpus", "0")).isEqualTo("0");
  }

  @Test
  void memoryNodesBeyondTheMachineAreEinval() throws IOException {
    Hierarchy h = hierarchy("cpuset");
    String mems = read(h, CgroupPath.root(), "cpuset.mems");
    int beyond = Integer.parseInt(mems.replaceAll(".*[-,]", "")) + 1;
    assertWriteRefused(Errno.EINVAL, h, scratch.path(), "cpuset.mems", Integer.toString(beyond));
    assertThat(writeAndRead(h, scratch.path(), "cpuset.mems", "0")).isEqualTo("0");
  }

  @Test
  void aProcessMovesIntoACpusetOnceItHasCpusAndMems() throws IOException {
    Hierarchy h = hierarchy("cpuset");
    long pid = process();
    fs.write(h, scratch.path(), "cpuset.cpus", "0");
    fs.write(h, scratch.path(), "cpuset.mems", "0");
    fs.write(h, scratch.path(), "cgroup.procs", Long.toString(pid));
    assertThat(fs.cgroupsOf(pid)).containsEntry(h, scratch.path());
  }

  private int cpuCount(Hierarchy h) throws IOException {
    String cpus = read(h, CgroupPath.root(), "cpuset.cpus");
    return Integer.parseInt(cpus.replaceAll(".*[-,]", "")) + 1;
  }

  @Test
  void freezerStateTakesFrozenAndThawedOnly() throws IOException {
    Hierarchy h = hierarchy("freezer");
    CgroupPath p = make(h, "a");
    assertThat(read(h, p, "freezer.state")).isEqualTo("THAWED");
    assertThat(writeAndRead(h, p, "freezer.state", "FROZEN")).isEqualTo("FROZEN");
    assertWriteRefused(Errno.EINVAL, h, p, "freezer.state", "FREEZING");
    assertWriteRefused(Errno.EINVAL, h, p, "freezer.state", "BOGUS");
    assertThat(writeAndRead(h, p, "freezer.state", "THAWED")).isEqualTo("THAWED");
  }

  @Test
  void aChildOfAFrozenCgroupReadsFrozenBecauseOfItsParent() throws IOException {
    Hierarchy h = hierarchy("freezer");
    CgroupPath child = make(h, "a/b");
    fs.write(h, child.parent(), "freezer.state", "FROZEN");
    assertThat(read(h, child, "freezer.state")).isEqualTo("FROZEN");
    assertThat(read(h, child, "freezer.parent_freezing")).isEqualTo("1");
    assertThat(read(h, child, "freezer.self_freezing")).isEqualTo("0");
    fs.write(h, child.parent(), "freezer.state", "THAWED");
    assertThat(read(h, child, "freezer.state")).isEqualTo("THAWED");
  }

  @Test
  void pidsMaxTakesMaxOrANumber() throws IOException {
    Hierarchy h = hierarchy("pids");
    CgroupPath p = make(h, "a");
    assertThat(read(h, p, "pids.max")).isEqualTo("max");
    assertThat(writeAndRead(h, p, "pids.max", "10")).isEqualTo("10");
    assertThat(writeAndRead(h, p, "pids.max", "0")).isEqualTo("0");
    assertThat(writeAndRead(h, p, "pids.max", "max")).isEqualTo("max");
    assertWriteRefused(Errno.EINVAL, h, p, "pids.max", "-1");
    assertWriteRefused(Errno.EINVAL, h, p, "pids.max", "abc");
    assertThat(read(h, p, "pids.current")).isEqualTo("0");
  }

  @Test
  void devicesStartWithEverythingAllowedAndTakeRules() throws IOException {
    Hierarchy h = hierarchy("devices");
    CgroupPath p = make(h, "a");
    assertThat(read(h, p, "devices.list")).isEqualTo("a *:* rwm");
    fs.write(h, p, "devices.deny", "a");
    assertThat(fs.read(h, p, "devices.list")).isEmpty();
    fs.write(h, p, "devices.allow", "c 1:3 rwm");
    assertThat(read(h, p, "devices.list")).isEqualTo("c 1:3 rwm");
    assertErrno(Errno.EINVAL, () -> fs.write(h, p, "devices.allow", "x 1:3 rwm"));
    assertThat(read(h, p, "devices.list")).isEqualTo("c 1:3 rwm");
  }

  @Test
  void writeOnlyFilesCannotBeReadWhichIsEinval() throws IOException {
    Hierarchy h = hierarchy("devices");
    CgroupPath p = make(h, "a");
    assertErrno(Errno.EINVAL, () -> fs.read(h, p, "devices.allow"));
    assertErrno(Errno.EINVAL, () -> fs.read(h, p, "devices.deny"));
  }

  @Test
  void aChildInheritsItsParentsDeviceRulesAndCannotBeAllowedMore() throws IOException {
    Hierarchy h = hierarchy("devices");
    CgroupPath parent = make(h, "a");
    fs.write(h, parent, "devices.deny", "a");
    fs.write(h, parent, "devices.allow", "c 1:3 rw");
    CgroupPath child = make(h, "a/b");
    assertThat(read(h, child, "devices.list")).isEqualTo("c 1:3 rw");
    assertErrno(Errno.EPERM, () -> fs.write(h, child, "devices.allow", "c 1:5 rw"));
    assertThat(read(h, child, "devices.list")).isEqualTo("c 1:3 rw");
  }

  @Test
  void theDefaultRuleOfACgroupWithChildrenCannotChangeWhichIsEinval() throws IOException {
    Hierarchy h = hierarchy("devices");
    CgroupPath child = make(h, "a/b");
    assertErrno(Errno.EINVAL, () -> fs.write(h, child.parent(), "devices.deny", "a"));
    assertThat(read(h, child.parent(), "devices.list")).isEqualTo("a *:* rwm");
  }

  @Test
  void blkioWeightOutOfRangeIsErange() throws IOException {
    Hierarchy h = hierarchy("blkio");
    CgroupPath p = make(h, "a");
    String file = fs.hasFile(h, p, "blkio.weight") ? "blkio.weight" : "blkio.bfq.weight";
    assumeHas(fs.hasFile(h, p, file), "this kernel has no blkio weight file");
    assertWriteRefused(Errno.ERANGE, h, p, file, "1001");
    assertThat(writeAndRead(h, p, file, "500")).isEqualTo("500");
  }

  @Test
  void blkioThrottleOfAnUnknownDeviceIsEnodevAndGarbageIsEinval() throws IOException {
    Hierarchy h = hierarchy("blkio");
    CgroupPath p = make(h, "a");
    assertErrno(
        Errno.ENODEV, () -> fs.write(h, p, "blkio.throttle.read_bps_device", "4095:4095 1000"));
    assertErrno(Errno.EINVAL, () -> fs.write(h, p, "blkio.throttle.read_bps_device", "abc"));
    assertThat(fs.read(h, p, "blkio.throttle.read_bps_device")).isEmpty();
  }

  @Test
  void cloneChildrenReadsOneForAnyNonZeroNumber() throws IOException {
    Hierarchy h = hierarchy("memory");
    CgroupPath p = make(h, "a");
    assertThat(read(h, p, "cgroup.clone_children")).isEqualTo("0");
    assertThat(writeAndRead(h, p, "cgroup.clone_children", "3")).isEqualTo("1");
  }
}
