package org.lmctfy.testing.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.contract.FileRule.readFails;
import static org.lmctfy.testing.contract.FileRule.reads;
import static org.lmctfy.testing.contract.FileRule.readsExactly;
import static org.lmctfy.testing.contract.FileRule.readsStartingWith;
import static org.lmctfy.testing.contract.FileRule.refuses;
import static org.lmctfy.testing.contract.FileRule.rule;
import static org.lmctfy.testing.contract.FileRule.takes;
import static org.lmctfy.testing.contract.FileRule.writeFails;
import static org.lmctfy.testing.contract.FileRule.writes;
import static org.lmctfy.testing.internal.host.MachineLacks.assumeHas;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
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

  // The rules that need one fresh cgroup of one controller, a row each.
  static List<FileRule> rules() {
    return List.of(
        rule(
            "memory limits default to unlimited",
            "memory",
            reads("memory.limit_in_bytes", V1_UNLIMITED),
            reads("memory.memsw.limit_in_bytes", V1_UNLIMITED),
            reads("memory.soft_limit_in_bytes", V1_UNLIMITED)),
        rule(
            "memory limits round down to the page size",
            "memory",
            takes("memory.limit_in_bytes", "1048577", "1048576"),
            takes("memory.soft_limit_in_bytes", "12345", "12288")),
        rule(
            "a memory limit of -1 means unlimited and less or garbage is EINVAL",
            "memory",
            writes("memory.limit_in_bytes", "1048576"),
            takes("memory.limit_in_bytes", "-1", V1_UNLIMITED),
            refuses(Errno.EINVAL, "memory.limit_in_bytes", "-2", "abc")),
        rule(
            "memory+swap below the memory limit is EINVAL",
            "memory",
            writes("memory.limit_in_bytes", "8388608"),
            refuses(Errno.EINVAL, "memory.memsw.limit_in_bytes", "4194304")),
        rule(
            "a memory limit above memory+swap is EINVAL",
            "memory",
            writes("memory.limit_in_bytes", "4194304"),
            writes("memory.memsw.limit_in_bytes", "4194304"),
            refuses(Errno.EINVAL, "memory.limit_in_bytes", "8388608")),
        rule(
            "raising both limits works memory+swap first",
            "memory",
            writes("memory.limit_in_bytes", "4194304"),
            writes("memory.memsw.limit_in_bytes", "4194304"),
            writes("memory.memsw.limit_in_bytes", "16777216"),
            writes("memory.limit_in_bytes", "8388608"),
            reads("memory.limit_in_bytes", "8388608"),
            reads("memory.memsw.limit_in_bytes", "16777216")),
        rule(
            "usage is read-only and writing it is EINVAL",
            "memory",
            reads("memory.usage_in_bytes", "0"),
            refuses(Errno.EINVAL, "memory.usage_in_bytes", "1")),
        rule(
            "oom_control takes 0 or 1 for oom_kill_disable",
            "memory",
            readsStartingWith("memory.oom_control", "oom_kill_disable 0\nunder_oom 0\n"),
            writes("memory.oom_control", "1"),
            readsStartingWith("memory.oom_control", "oom_kill_disable 1\n"),
            refuses(Errno.EINVAL, "memory.oom_control", "2")),
        rule(
            "use_hierarchy cannot be turned off",
            "memory",
            reads("memory.use_hierarchy", "1"),
            refuses(Errno.EINVAL, "memory.use_hierarchy", "0")),
        rule(
            "cpu.shares default to 1024 and are clamped to 2 through 262144",
            "cpu",
            reads("cpu.shares", "1024"),
            takes("cpu.shares", "1", "2"),
            takes("cpu.shares", "999999", "262144"),
            refuses(Errno.EINVAL, "cpu.shares", "abc", "-5")),
        rule(
            "a CFS quota below 1000 us is EINVAL and any negative one means no quota",
            "cpu",
            reads("cpu.cfs_quota_us", "-1"),
            refuses(Errno.EINVAL, "cpu.cfs_quota_us", "500"),
            takes("cpu.cfs_quota_us", "50000", "50000"),
            takes("cpu.cfs_quota_us", "-2", "-1")),
        rule(
            "a CFS period outside 1000 to 1000000 us is EINVAL",
            "cpu",
            reads("cpu.cfs_period_us", "100000"),
            refuses(Errno.EINVAL, "cpu.cfs_period_us", "999", "1000001"),
            takes("cpu.cfs_period_us", "250000", "250000")),
        rule(
            "cpu.stat is read-only",
            "cpu",
            readsStartingWith("cpu.stat", "nr_periods 0\nnr_throttled 0\nthrottled_time 0\n"),
            refuses(Errno.EINVAL, "cpu.stat", "1")),
        rule(
            "a new cpuset has no cpus and no memory nodes",
            "cpuset",
            readsExactly("cpuset.cpus", "\n"),
            readsExactly("cpuset.mems", "\n")),
        rule(
            "freezer.state takes FROZEN and THAWED only",
            "freezer",
            reads("freezer.state", "THAWED"),
            takes("freezer.state", "FROZEN", "FROZEN"),
            refuses(Errno.EINVAL, "freezer.state", "FREEZING", "BOGUS"),
            takes("freezer.state", "THAWED", "THAWED")),
        rule(
            "pids.max takes max or a number",
            "pids",
            reads("pids.max", "max"),
            takes("pids.max", "10", "10"),
            takes("pids.max", "0", "0"),
            takes("pids.max", "max", "max"),
            refuses(Errno.EINVAL, "pids.max", "-1", "abc"),
            reads("pids.current", "0")),
        rule(
            "devices start with everything allowed and take rules",
            "devices",
            reads("devices.list", "a *:* rwm"),
            writes("devices.deny", "a"),
            readsExactly("devices.list", ""),
            writes("devices.allow", "c 1:3 rwm"),
            reads("devices.list", "c 1:3 rwm"),
            writeFails(Errno.EINVAL, "devices.allow", "x 1:3 rwm"),
            reads("devices.list", "c 1:3 rwm")),
        rule(
            "write-only files cannot be read, which is EINVAL",
            "devices",
            readFails(Errno.EINVAL, "devices.allow"),
            readFails(Errno.EINVAL, "devices.deny")),
        rule(
            "a blkio throttle of an unknown device is ENODEV and garbage is EINVAL",
            "blkio",
            writeFails(Errno.ENODEV, "blkio.throttle.read_bps_device", "4095:4095 1000"),
            writeFails(Errno.EINVAL, "blkio.throttle.read_bps_device", "abc"),
            readsExactly("blkio.throttle.read_bps_device", "")),
        rule(
            "clone_children reads 1 for any non-zero number",
            "memory",
            reads("cgroup.clone_children", "0"),
            takes("cgroup.clone_children", "3", "1")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void aFreshCgroupFollowsTheRule(FileRule rule) throws IOException {
    checkOnV1(rule);
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
}
