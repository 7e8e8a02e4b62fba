package org.lmctfy.testing.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.contract.FileRule.readFails;
import static org.lmctfy.testing.contract.FileRule.reads;
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
 * The v1 memory, cpu and cpuacct files beyond their basic limits: number syntax, ranges, resets and
 * the files that interact, as seen on a real kernel (Linux 6.18, cgroup v1). With {@link
 * CgroupV1ControllersContract} and {@link CgroupV1CpusetDevicesPidsContract}, each v1 rule the fake
 * models has a case that also runs on the kernel.
 */
public abstract class CgroupV1MemoryCpuContract extends CgroupFsContractSupport {

  /**
   * The cases, run on {@code backend}.
   *
   * @param backend the backend under test: {@link ContractBackend#fake} or {@link
   *     ContractBackend#host}
   */
  protected CgroupV1MemoryCpuContract(ContractBackend backend) {
    super(backend);
  }

  private static final String V1_UNLIMITED = CgroupV1ControllersContract.V1_UNLIMITED;

  // The rules that need one fresh cgroup of one controller, a row each.
  static List<FileRule> rules() {
    return List.of(
        // memory
        rule(
            "memory limits take suffixes and hex and ignore surrounding whitespace",
            "memory",
            takes("memory.limit_in_bytes", "2g", "2147483648"),
            takes("memory.limit_in_bytes", "0x1000", "4096"),
            takes("memory.limit_in_bytes", " 8192 ", "8192"),
            takes("memory.limit_in_bytes", "1K", "0"),
            refuses(Errno.EINVAL, "memory.limit_in_bytes", "4096x")),
        rule(
            "unlimiting the memory limit is EINVAL while memory+swap is limited",
            "memory",
            writes("memory.limit_in_bytes", "104857600"),
            writes("memory.memsw.limit_in_bytes", "209715200"),
            refuses(Errno.EINVAL, "memory.limit_in_bytes", "-1"),
            reads("memory.limit_in_bytes", "104857600")),
        rule(
            "swappiness defaults to 60 and takes 0 through 200",
            "memory",
            reads("memory.swappiness", "60"),
            takes("memory.swappiness", "200", "200"),
            takes("memory.swappiness", "0", "0"),
            refuses(Errno.EINVAL, "memory.swappiness", "201", "-1")),
        rule(
            "use_hierarchy takes only 1",
            "memory",
            takes("memory.use_hierarchy", "1", "1"),
            refuses(Errno.EINVAL, "memory.use_hierarchy", "2")),
        rule(
            "move_charge_at_immigrate takes only 0",
            "memory",
            takes("memory.move_charge_at_immigrate", "0", "0"),
            refuses(Errno.EINVAL, "memory.move_charge_at_immigrate", "1", "3")),
        rule(
            "the kmem limit is accepted and ignored",
            "memory",
            takes("memory.kmem.limit_in_bytes", "1048576", V1_UNLIMITED)),
        rule(
            "force_empty and pressure_level cannot be read, which is EINVAL",
            "memory",
            readFails(Errno.EINVAL, "memory.force_empty"),
            readFails(Errno.EINVAL, "memory.pressure_level"),
            writeFails(Errno.EINVAL, "memory.pressure_level", "1")),
        // cpu and cpuacct
        rule("cpu.shares of 0 reads 2", "cpu", takes("cpu.shares", "0", "2")),
        rule(
            "numbers with surrounding blanks are EINVAL but one trailing newline is fine",
            "cpu",
            refuses(Errno.EINVAL, "cpu.shares", " 5 "),
            refuses(Errno.EINVAL, "cpu.cfs_quota_us", " 5000 "),
            takes("cpu.cfs_quota_us", "5000\n", "5000"),
            takes("cpu.shares", "512\n", "512")),
        rule(
            "the CFS quota takes up to 2^44-1 us",
            "cpu",
            takes("cpu.cfs_quota_us", "17592186044415", "17592186044415"),
            refuses(Errno.EINVAL, "cpu.cfs_quota_us", "99999999999999")),
        rule(
            "the CFS burst cannot exceed the quota nor the quota fall below the burst",
            "cpu",
            reads("cpu.cfs_burst_us", "0"),
            writes("cpu.cfs_quota_us", "5000"),
            refuses(Errno.EINVAL, "cpu.cfs_burst_us", "6000"),
            takes("cpu.cfs_burst_us", "4000", "4000"),
            refuses(Errno.EINVAL, "cpu.cfs_quota_us", "3000")),
        rule(
            "cpu.idle takes 0 or 1",
            "cpu",
            reads("cpu.idle", "0"),
            refuses(Errno.EINVAL, "cpu.idle", "2", "-1"),
            takes("cpu.idle", "1", "1")),
        rule(
            "an idle group has the idle weight and refuses shares until it is not idle",
            "cpu",
            writes("cpu.shares", "500"),
            writes("cpu.idle", "1"),
            reads("cpu.shares", "3"),
            refuses(Errno.EINVAL, "cpu.shares", "500"),
            writes("cpu.idle", "0"),
            reads("cpu.shares", "1024")),
        rule(
            "an RT period of 0 is EINVAL",
            "cpu",
            reads("cpu.rt_period_us", "1000000"),
            refuses(Errno.EINVAL, "cpu.rt_period_us", "0")),
        rule(
            "cpuacct.usage takes only 0, which resets it",
            "cpuacct",
            takes("cpuacct.usage", "0", "0"),
            refuses(Errno.EINVAL, "cpuacct.usage", "1"),
            refuses(Errno.EINVAL, "cpuacct.usage_user", "0")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void aFreshCgroupFollowsTheRule(FileRule rule) throws IOException {
    checkOnV1(rule);
  }

  // ---- memory.

  @Test
  void anyWriteToAFailureCounterOrAWatermarkResetsIt() throws IOException {
    Hierarchy h = hierarchy("memory");
    CgroupPath p = make(h, "a");
    assertThat(writeAndRead(h, p, "memory.failcnt", "5")).isEqualTo("0");
    assertThat(writeAndRead(h, p, "memory.memsw.failcnt", "7")).isEqualTo("0");
    assertThat(writeAndRead(h, p, "memory.max_usage_in_bytes", "abc"))
        .isEqualTo(read(h, p, "memory.usage_in_bytes"));
    assertThat(writeAndRead(h, p, "memory.memsw.max_usage_in_bytes", "1"))
        .isEqualTo(read(h, p, "memory.memsw.usage_in_bytes"));
  }

  @Test
  void memoryStatShowsTheSmallestLimitOnTheWayUp() throws IOException {
    Hierarchy h = hierarchy("memory");
    CgroupPath parent = make(h, "a");
    fs.write(h, parent, "memory.limit_in_bytes", "1G");
    CgroupPath child = make(h, "a/b");
    fs.write(h, child, "memory.limit_in_bytes", "2G");
    assertThat(fs.read(h, child, "memory.stat"))
        .contains("\nhierarchical_memory_limit 1073741824\n");
  }

  @Test
  void shownRamTakesPageRoundedBytesBelowTheRootOnly() throws IOException {
    Hierarchy h = hierarchy("memory");
    CgroupPath p = make(h, "a");
    assumeHas(
        fs.hasFile(h, p, "memory.shown_ram_in_bytes"),
        "this kernel has no memory.shown_ram_in_bytes");
    assertThat(fs.hasFile(h, CgroupPath.root(), "memory.shown_ram_in_bytes")).isFalse();
    assertThat(writeAndRead(h, p, "memory.shown_ram_in_bytes", "100000")).isEqualTo("98304");
    assertWriteRefused(Errno.EINVAL, h, p, "memory.shown_ram_in_bytes", "-1");
    assertWriteRefused(Errno.EINVAL, h, p, "memory.shown_ram_in_bytes", "abc");
  }
}
