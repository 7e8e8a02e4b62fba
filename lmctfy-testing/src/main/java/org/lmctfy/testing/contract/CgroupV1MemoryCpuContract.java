package org.lmctfy.testing.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.internal.host.MachineLacks.assumeHas;

import java.io.IOException;
import org.junit.jupiter.api.Test;
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

  // ---- memory.

  @Test
  void memoryLimitsTakeSuffixesAndHexAndIgnoreSurroundingWhitespace() throws IOException {
    Hierarchy h = hierarchy("memory");
    CgroupPath p = make(h, "a");
    assertThat(writeAndRead(h, p, "memory.limit_in_bytes", "2g")).isEqualTo("2147483648");
    assertThat(writeAndRead(h, p, "memory.limit_in_bytes", "0x1000")).isEqualTo("4096");
    assertThat(writeAndRead(h, p, "memory.limit_in_bytes", " 8192 ")).isEqualTo("8192");
    assertThat(writeAndRead(h, p, "memory.limit_in_bytes", "1K")).isEqualTo("0");
    assertWriteRefused(Errno.EINVAL, h, p, "memory.limit_in_bytes", "4096x");
  }

  @Test
  void unlimitingTheMemoryLimitIsEinvalWhileMemoryPlusSwapIsLimited() throws IOException {
    Hierarchy h = hierarchy("memory");
    CgroupPath p = make(h, "a");
    fs.write(h, p, "memory.limit_in_bytes", "104857600");
    fs.write(h, p, "memory.memsw.limit_in_bytes", "209715200");
    assertWriteRefused(Errno.EINVAL, h, p, "memory.limit_in_bytes", "-1");
    assertThat(read(h, p, "memory.limit_in_bytes")).isEqualTo("104857600");
  }

  @Test
  void swappinessDefaultsTo60AndTakesZeroThrough200() throws IOException {
    Hierarchy h = hierarchy("memory");
    CgroupPath p = make(h, "a");
    assertThat(read(h, p, "memory.swappiness")).isEqualTo("60");
    assertThat(writeAndRead(h, p, "memory.swappiness", "200")).isEqualTo("200");
    assertThat(writeAndRead(h, p, "memory.swappiness", "0")).isEqualTo("0");
    assertWriteRefused(Errno.EINVAL, h, p, "memory.swappiness", "201");
    assertWriteRefused(Errno.EINVAL, h, p, "memory.swappiness", "-1");
  }

  @Test
  void useHierarchyTakesOnlyOne() throws IOException {
    Hierarchy h = hierarchy("memory");
    CgroupPath p = make(h, "a");
    assertThat(writeAndRead(h, p, "memory.use_hierarchy", "1")).isEqualTo("1");
    assertWriteRefused(Errno.EINVAL, h, p, "memory.use_hierarchy", "2");
  }

  @Test
  void moveChargeAtImmigrateTakesOnlyZero() throws IOException {
    Hierarchy h = hierarchy("memory");
    CgroupPath p = make(h, "a");
    assertThat(writeAndRead(h, p, "memory.move_charge_at_immigrate", "0")).isEqualTo("0");
    assertWriteRefused(Errno.EINVAL, h, p, "memory.move_charge_at_immigrate", "1");
    assertWriteRefused(Errno.EINVAL, h, p, "memory.move_charge_at_immigrate", "3");
  }

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
  void theKmemLimitIsAcceptedAndIgnored() throws IOException {
    Hierarchy h = hierarchy("memory");
    CgroupPath p = make(h, "a");
    assertThat(writeAndRead(h, p, "memory.kmem.limit_in_bytes", "1048576")).isEqualTo(V1_UNLIMITED);
  }

  @Test
  void forceEmptyAndPressureLevelCannotBeReadWhichIsEinval() throws IOException {
    Hierarchy h = hierarchy("memory");
    CgroupPath p = make(h, "a");
    assertErrno(Errno.EINVAL, () -> fs.read(h, p, "memory.force_empty"));
    assertErrno(Errno.EINVAL, () -> fs.read(h, p, "memory.pressure_level"));
    assertErrno(Errno.EINVAL, () -> fs.write(h, p, "memory.pressure_level", "1"));
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

  // ---- cpu and cpuacct.

  @Test
  void cpuSharesOfZeroReadsTwo() throws IOException {
    Hierarchy h = hierarchy("cpu");
    CgroupPath p = make(h, "a");
    assertThat(writeAndRead(h, p, "cpu.shares", "0")).isEqualTo("2");
  }

  @Test
  void numbersWithSurroundingBlanksAreEinvalButOneTrailingNewlineIsFine() throws IOException {
    Hierarchy h = hierarchy("cpu");
    CgroupPath p = make(h, "a");
    assertWriteRefused(Errno.EINVAL, h, p, "cpu.shares", " 5 ");
    assertWriteRefused(Errno.EINVAL, h, p, "cpu.cfs_quota_us", " 5000 ");
    assertThat(writeAndRead(h, p, "cpu.cfs_quota_us", "5000\n")).isEqualTo("5000");
    assertThat(writeAndRead(h, p, "cpu.shares", "512\n")).isEqualTo("512");
  }

  @Test
  void cfsQuotaTakesUpTo2To44MinusOneMicroseconds() throws IOException {
    Hierarchy h = hierarchy("cpu");
    CgroupPath p = make(h, "a");
    assertThat(writeAndRead(h, p, "cpu.cfs_quota_us", "17592186044415"))
        .isEqualTo("17592186044415");
    assertWriteRefused(Errno.EINVAL, h, p, "cpu.cfs_quota_us", "99999999999999");
  }

  @Test
  void cfsBurstCannotExceedTheQuotaNorTheQuotaFallBelowTheBurst() throws IOException {
    Hierarchy h = hierarchy("cpu");
    CgroupPath p = make(h, "a");
    assertThat(read(h, p, "cpu.cfs_burst_us")).isEqualTo("0");
    fs.write(h, p, "cpu.cfs_quota_us", "5000");
    assertWriteRefused(Errno.EINVAL, h, p, "cpu.cfs_burst_us", "6000");
    assertThat(writeAndRead(h, p, "cpu.cfs_burst_us", "4000")).isEqualTo("4000");
    assertWriteRefused(Errno.EINVAL, h, p, "cpu.cfs_quota_us", "3000");
  }

  @Test
  void cpuIdleTakesZeroOrOne() throws IOException {
    Hierarchy h = hierarchy("cpu");
    CgroupPath p = make(h, "a");
    assertThat(read(h, p, "cpu.idle")).isEqualTo("0");
    assertWriteRefused(Errno.EINVAL, h, p, "cpu.idle", "2");
    assertWriteRefused(Errno.EINVAL, h, p, "cpu.idle", "-1");
    assertThat(writeAndRead(h, p, "cpu.idle", "1")).isEqualTo("1");
  }

  @Test
  void anIdleGroupHasTheIdleWeightAndRefusesSharesUntilItIsNotIdle() throws IOException {
    Hierarchy h = hierarchy("cpu");
    CgroupPath p = make(h, "a");
    fs.write(h, p, "cpu.shares", "500");
    fs.write(h, p, "cpu.idle", "1");
    assertThat(read(h, p, "cpu.shares")).isEqualTo("3");
    assertWriteRefused(Errno.EINVAL, h, p, "cpu.shares", "500");
    fs.write(h, p, "cpu.idle", "0");
    assertThat(read(h, p, "cpu.shares")).isEqualTo("1024");
  }

  @Test
  void rtPeriodOfZeroIsEinval() throws IOException {
    Hierarchy h = hierarchy("cpu");
    CgroupPath p = make(h, "a");
    assertThat(read(h, p, "cpu.rt_period_us")).isEqualTo("1000000");
    assertWriteRefused(Errno.EINVAL, h, p, "cpu.rt_period_us", "0");
  }

  @Test
  void cpuacctUsageTakesOnlyZeroWhichResetsIt() throws IOException {
    Hierarchy h = hierarchy("cpuacct");
    CgroupPath p = make(h, "a");
    assertThat(writeAndRead(h, p, "cpuacct.usage", "0")).isEqualTo("0");
    assertWriteRefused(Errno.EINVAL, h, p, "cpuacct.usage", "1");
    assertWriteRefused(Errno.EINVAL, h, p, "cpuacct.usage_user", "0");
  }
}
