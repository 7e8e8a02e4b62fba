package org.lmctfy.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.spec.InvalidArgument.messageOf;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.lmctfy.spec.BlockIoSpec.DeviceLimit;
import org.lmctfy.spec.DeviceSpec.DeviceRule;
import org.lmctfy.spec.DeviceSpec.Permission;
import org.lmctfy.spec.DeviceSpec.Type;
import org.lmctfy.spec.HugetlbSpec.HugetlbLimit;
import org.lmctfy.spec.NetworkSpec.InterfacePriority;

class ContainerSpecValidationTest {

  @Test
  void negativeOwnerIsRejected() {
    messageOf(() -> ContainerSpec.builder().owner(-1L).build())
        .isEqualTo("owner: invalid value -1: must be >= 0");
  }

  @Test
  void negativeOwnerGroupIsRejected() {
    messageOf(() -> ContainerSpec.parse("owner_group: -2"))
        .isEqualTo("owner_group: invalid value -2: must be >= 0");
  }

  @Test
  void negativeChildrenLimitIsRejected() {
    messageOf(() -> ContainerSpec.parse("children_limit: -1"))
        .isEqualTo("children_limit: invalid value -1: must be >= 0");
  }

  @Test
  void negativeCpuLimitIsRejected() {
    messageOf(() -> ContainerSpec.parse("cpu { limit: -5 }"))
        .isEqualTo("cpu.limit: invalid value -5: must be >= 0");
  }

  @Test
  void cpuMaxLimitAcceptsMinusOneToRemoveTheCap() {
    assertThat(CpuSpec.ofLimit(1).maxLimit()).isNull();
    assertThat(CpuSpec.builder().maxLimit(-1L).build().maxLimit()).isEqualTo(-1L);
  }

  @Test
  void cpuMaxLimitOfZeroIsRejected() {
    messageOf(() -> ContainerSpec.parse("cpu { max_limit: 0 }"))
        .isEqualTo("cpu.max_limit: invalid value 0: must be -1 (unlimited) or >= 1");
  }

  @Test
  void malformedCpuMaskIsRejected() {
    messageOf(() -> ContainerSpec.parse("cpu { mask: '0-3,x' }"))
        .startsWith("cpu.mask: invalid value \"0-3,x\"");
  }

  @Test
  void backwardsCpuRangeIsRejected() {
    messageOf(() -> CpuSpec.builder().mask("3-1").build())
        .startsWith("cpu.mask: invalid value \"3-1\"")
        .contains("backwards");
  }

  @Test
  void malformedMemoryNodesAreRejected() {
    messageOf(() -> CpuSpec.builder().memoryNodes("").build())
        .startsWith("cpu.memory_nodes: invalid value \"\"");
  }

  @Test
  void memoryLimitBelowMinusOneIsRejected() {
    messageOf(() -> ContainerSpec.parse("memory { limit: -2 }"))
        .isEqualTo("memory.limit: invalid value -2: must be -1 (unlimited) or >= 0");
  }

  @Test
  void swapLimitBelowLimitNamesBothFields() {
    messageOf(() -> ContainerSpec.parse("memory { limit: 200 swap_limit: 100 }"))
        .startsWith("memory.swap_limit: invalid value 100: must be >= memory.limit (200)");
  }

  @Test
  void finiteSwapLimitWithUnlimitedLimitIsRejected() {
    messageOf(() -> MemorySpec.builder().limit(-1L).swapLimit(100L).build())
        .startsWith("memory.swap_limit: invalid value 100: must be >= memory.limit (-1)");
  }

  @Test
  void swapLimitMayEqualLimitOrBeUnlimited() {
    assertThat(MemorySpec.builder().limit(100L).swapLimit(100L).build().swapLimit()).isEqualTo(100);
    assertThat(MemorySpec.builder().limit(100L).swapLimit(-1L).build().swapLimit()).isEqualTo(-1);
    assertThat(MemorySpec.builder().swapLimit(5L).build().swapLimit()).isEqualTo(5);
  }

  @Test
  void negativeReservationAndHighAreRejected() {
    messageOf(() -> ContainerSpec.parse("memory { reservation: -3 }"))
        .startsWith("memory.reservation: invalid value -3");
    messageOf(() -> ContainerSpec.parse("memory { high: -3 }"))
        .startsWith("memory.high: invalid value -3");
  }

  @Test
  void swappinessAbove100IsRejected() {
    messageOf(() -> ContainerSpec.parse("memory { swappiness: 101 }"))
        .isEqualTo("memory.swappiness: invalid value 101: must be in 0..100");
  }

  @Test
  void pidsLimitOfZeroIsRejected() {
    messageOf(() -> ContainerSpec.parse("pids { limit: 0 }"))
        .isEqualTo("pids.limit: invalid value 0: must be -1 (unlimited) or >= 1");
  }

  @Test
  void blockIoWeightOutsideItsRangeIsRejected() {
    messageOf(() -> ContainerSpec.parse("blockio { weight: 5 }"))
        .isEqualTo("blockio.weight: invalid value 5: must be in 10..1000");
  }

  @Test
  void zeroDeviceRateIsRejectedWithTheElementIndex() {
    messageOf(
            () ->
                ContainerSpec.parse(
                    "blockio { device_limits { major: 8 minor: 0"
                        + " read_bps: 1 } device_limits { major: 8 minor: 1 write_bps: 0 } }"))
        .isEqualTo(
            "blockio.device_limits[1].write_bps: invalid value 0: "
                + "must be > 0, or -1 for unlimited");
  }

  @Test
  void deviceLimitWithoutAnyRateIsRejected() {
    messageOf(() -> new DeviceLimit(8, 0, null, null, null, null))
        .contains("blockio.device_limits[]", "8:0", "at least one");
  }

  @Test
  void deviceThrottledTwiceIsRejected() {
    messageOf(
            () ->
                BlockIoSpec.builder()
                    .deviceLimits(
                        List.of(
                            new DeviceLimit(8, 0, 1L, null, null, null),
                            new DeviceLimit(8, 0, null, 1L, null, null)))
                    .build())
        .isEqualTo("blockio.device_limits: invalid value \"8:0\": device given twice");
  }

  @Test
  void deviceRuleAccessMustBeASubsetOfRwm() {
    messageOf(
            () ->
                ContainerSpec.parse(
                    "device { rules { permission: ALLOW type: CHAR major: 1 minor: 3 access: 'rx' } }"))
        .isEqualTo(
            "device.rules[0].access: invalid value \"rx\": "
                + "must be a non-empty subset of \"rwm\" without repeats");
  }

  @Test
  void deviceRuleAccessMustNotRepeatLetters() {
    messageOf(() -> new DeviceRule(Permission.ALLOW, Type.CHAR, 1, 3, "rr"))
        .startsWith("device.rules[].access: invalid value \"rr\"");
  }

  @Test
  void deviceRuleWithoutPermissionIsRejected() {
    messageOf(() -> ContainerSpec.parse("device { rules { type: ALL access: 'r' } }"))
        .isEqualTo("device.rules[0].permission: required");
  }

  @Test
  void deviceRuleOfTypeAllMustNotNameADevice() {
    messageOf(() -> new DeviceRule(Permission.DENY, Type.ALL, 1, -1, "r"))
        .isEqualTo("device.rules[].major: invalid value 1: must be -1 (any) when type is ALL");
  }

  @Test
  void deviceRuleMajorBelowMinusOneIsRejected() {
    messageOf(() -> new DeviceRule(Permission.DENY, Type.CHAR, -2, -1, "r"))
        .startsWith("device.rules[].major: invalid value -2");
  }

  @Test
  void hugetlbPageSizeMustLookLikeTheKernelsName() {
    messageOf(() -> ContainerSpec.parse("hugetlb { limits { page_size: '2M' limit: 1 } }"))
        .startsWith("hugetlb.limits[0].page_size: invalid value \"2M\"");
  }

  @Test
  void hugetlbPageSizeGivenTwiceIsRejected() {
    messageOf(
            () ->
                new HugetlbSpec(
                    List.of(new HugetlbLimit("2MB", 1, null), new HugetlbLimit("2MB", 2, null))))
        .isEqualTo("hugetlb.limits.page_size: invalid value \"2MB\": page size given twice");
  }

  @Test
  void hugetlbLimitBelowMinusOneIsRejected() {
    messageOf(() -> new HugetlbLimit("1GB", -7, null))
        .startsWith("hugetlb.limits[].limit: invalid value -7");
  }

  @Test
  void networkClassidAbove32BitsIsRejected() {
    messageOf(() -> ContainerSpec.parse("network { classid: 4294967296 }"))
        .startsWith("network.classid: invalid value 4294967296");
  }

  @Test
  void negativeInterfacePriorityIsRejected() {
    messageOf(() -> new InterfacePriority("eth0", -1))
        .isEqualTo("network.priorities[].priority: invalid value -1: must be >= 0");
  }

  @Test
  void interfaceNameWithSlashIsRejected() {
    messageOf(() -> ContainerSpec.parse("network { priorities { interface: 'a/b' priority: 1 } }"))
        .startsWith("network.priorities[0].interface: invalid value \"a/b\"");
  }

  @Test
  void interfaceGivenTwiceIsRejected() {
    messageOf(
            () ->
                new NetworkSpec(
                    null, List.of(new InterfacePriority("lo", 1), new InterfacePriority("lo", 2))))
        .startsWith("network.priorities.interface: invalid value \"lo\"");
  }

  @Test
  void listsAreCopiedImmutably() {
    java.util.ArrayList<DeviceRule> rules = new java.util.ArrayList<>();
    rules.add(new DeviceRule(Permission.DENY, Type.ALL, -1, -1, "rwm"));
    DeviceSpec spec = new DeviceSpec(rules);
    rules.clear();

    assertThat(spec.rules()).hasSize(1);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> spec.rules().clear())
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void nullListsBecomeEmpty() {
    assertThat(new BlockIoSpec(100, null, null, null).deviceLimits()).isEmpty();
  }
}
