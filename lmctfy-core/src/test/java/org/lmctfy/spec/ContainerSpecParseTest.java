package org.lmctfy.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.lmctfy.spec.BlockIoSpec.DeviceLimit;
import org.lmctfy.spec.CpuSpec.SchedulingLatency;
import org.lmctfy.spec.DeviceSpec.DeviceRule;
import org.lmctfy.spec.DeviceSpec.Permission;
import org.lmctfy.spec.DeviceSpec.Type;
import org.lmctfy.spec.HugetlbSpec.HugetlbLimit;
import org.lmctfy.spec.NetworkSpec.InterfacePriority;

class ContainerSpecParseTest {

  @Test
  void parsesLmctfysIssue37Example() {
    ContainerSpec spec = ContainerSpec.parse("cpu { limit: 1000 } memory { limit: -1 }");

    assertThat(spec)
        .isEqualTo(
            ContainerSpec.builder()
                .cpu(CpuSpec.ofLimit(1000))
                .memory(MemorySpec.ofLimit(-1))
                .build());
  }

  @Test
  void parsesColonBeforeBraceWithoutSpaces() {
    assertThat(ContainerSpec.parse("memory:{limit:100000000}").memory())
        .isEqualTo(MemorySpec.ofLimit(100_000_000));
  }

  @Test
  void blankTextIsTheEmptySpec() {
    assertThat(ContainerSpec.parse("  \n\t")).isEqualTo(ContainerSpec.empty());
    assertThat(ContainerSpec.parse("")).isEqualTo(ContainerSpec.empty());
  }

  @Test
  void absentSectionsAreNull() {
    ContainerSpec spec = ContainerSpec.parse("cpu { limit: 1 }");

    assertThat(spec.memory()).isNull();
    assertThat(spec.device()).isNull();
  }

  @Test
  void acceptsCommasSemicolonsCommentsAndAngleBrackets() {
    ContainerSpec spec =
        ContainerSpec.parse("# a comment\ncpu < limit: 5, max_limit: 10; > # trailing\nowner: 7;");

    assertThat(spec.cpu()).isEqualTo(CpuSpec.builder().limit(5L).maxLimit(10L).build());
    assertThat(spec.owner()).isEqualTo(7L);
  }

  @Test
  void parsesTopLevelFieldsInText() {
    ContainerSpec spec = ContainerSpec.parse("owner: 1000 owner_group: 100 children_limit: 0");

    assertThat(spec.owner()).isEqualTo(1000L);
    assertThat(spec.ownerGroup()).isEqualTo(100L);
    assertThat(spec.childrenLimit()).isZero();
  }

  @Test
  void parsesCpuSectionInText() {
    ContainerSpec spec =
        ContainerSpec.parse(
            "cpu { limit: 500 max_limit: 2000 mask: \"0-3,6\""
                + " memory_nodes: '0' scheduling_latency: BEST_EFFORT }");

    assertThat(spec.cpu())
        .isEqualTo(
            CpuSpec.builder()
                .limit(500L)
                .maxLimit(2000L)
                .mask("0-3,6")
                .memoryNodes("0")
                .schedulingLatency(SchedulingLatency.BEST_EFFORT)
                .build());
  }

  @Test
  void convertsLmctfysBitmaskToTheKernelsCpuList() {
    // Word 0 = 5 sets CPUs 0 and 2; word 1 = 3 sets CPUs 64 and 65.
    assertThat(ContainerSpec.parse("cpu { mask { data: 5 data: 3 } }").cpu().mask())
        .isEqualTo("0,2,64-65");
  }

  @Test
  void convertsAFullUnsignedBitmaskWord() {
    assertThat(ContainerSpec.parse("cpu { mask { data: 0xFFFFFFFFFFFFFFFF } }").cpu().mask())
        .isEqualTo("0-63");
  }

  @Test
  void acceptsTheBitmaskInJson() {
    assertThat(ContainerSpec.parse("{\"cpu\": {\"mask\": {\"data\": [15, 0]}}}").cpu().mask())
        .isEqualTo("0-3");
  }

  @Test
  void normalizesCpuLists() {
    assertThat(ContainerSpec.parse("cpu { mask: '3,0-2,8' }").cpu().mask()).isEqualTo("0-3,8");
  }

  @Test
  void parsesMemorySectionInText() {
    ContainerSpec spec =
        ContainerSpec.parse(
            "memory { limit: 200 swap_limit: 300"
                + " reservation: 100 high: 150 oom_kill_disable: true oom_group: false swappiness: 60 }");

    assertThat(spec.memory())
        .isEqualTo(
            MemorySpec.builder()
                .limit(200L)
                .swapLimit(300L)
                .reservation(100L)
                .high(150L)
                .oomKillDisable(true)
                .oomGroup(false)
                .swappiness(60)
                .build());
  }

  @Test
  void parsesPidsSectionInText() {
    assertThat(ContainerSpec.parse("pids { limit: 64 }").pids()).isEqualTo(new PidsSpec(64L));
  }

  @Test
  void parsesBlockIoSectionWithRepeatedDeviceLimits() {
    ContainerSpec spec =
        ContainerSpec.parse(
            "blockio { weight: 500"
                + " device_limits { major: 8 minor: 0 read_bps: 1048576 }"
                + " device_limits { major: 8 minor: 16 write_iops: 100 read_iops: -1 } }");

    assertThat(spec.blockio())
        .isEqualTo(
            BlockIoSpec.builder()
                .weight(500)
                .deviceLimits(
                    List.of(
                        new DeviceLimit(8, 0, 1_048_576L, null, null, null),
                        new DeviceLimit(8, 16, null, null, -1L, 100L)))
                .build());
  }

  @Test
  void parsesDeviceRulesDefaultingMajorAndMinorToAny() {
    ContainerSpec spec =
        ContainerSpec.parse(
            "device {"
                + " rules { permission: DENY type: ALL access: 'rwm' }"
                + " rules { permission: ALLOW type: CHAR major: 1 minor: 3 access: 'rw' } }");

    assertThat(spec.device().rules())
        .containsExactly(
            new DeviceRule(Permission.DENY, Type.ALL, -1, -1, "rwm"),
            new DeviceRule(Permission.ALLOW, Type.CHAR, 1, 3, "rw"));
  }

  @Test
  void parsesHugetlbSection() {
    ContainerSpec spec =
        ContainerSpec.parse(
            "hugetlb { limits { page_size: '2MB' limit: 1073741824 } limits { page_size: '1GB'"
                + " limit: -1 } }");

    assertThat(spec.hugetlb().limits())
        .containsExactly(
            new HugetlbLimit("2MB", 1L << 30, null), new HugetlbLimit("1GB", -1, null));
  }

  @Test
  void parsesNetworkSection() {
    ContainerSpec spec =
        ContainerSpec.parse(
            "network { classid: 0x100001 priorities { interface: 'eth0' priority: 5 } }");

    assertThat(spec.network())
        .isEqualTo(new NetworkSpec(0x100001L, List.of(new InterfacePriority("eth0", 5))));
  }

  @Test
  void emptyMonitoringSectionIsPresent() {
    assertThat(ContainerSpec.parse("monitoring {}").monitoring())
        .isEqualTo(new MonitoringSpec(null));
    assertThat(ContainerSpec.parse("monitoring { enable_perf_counters: true }").monitoring())
        .isEqualTo(new MonitoringSpec(true));
  }

  @Test
  void acceptsBracketListsForRepeatedFields() {
    assertThat(ContainerSpec.parse("cpu { mask { data: [1, 2] } }").cpu().mask()).isEqualTo("0,65");
  }

  @Test
  void decodesCEscapesAndConcatenatesAdjacentStrings() {
    assertThat(ContainerSpec.parse("cpu { mask: \"0\\x2d\" '1' }").cpu().mask()).isEqualTo("0-1");
  }

  @Test
  void parsesEverySectionFromJson() {
    ContainerSpec spec =
        ContainerSpec.parse(
            """
        { "owner": 1, "owner_group": 2, "children_limit": 3,
          "cpu": {"limit": 1000, "max_limit": -1, "mask": "0-1", "memory_nodes": "0",
                  "scheduling_latency": "PREMIER"},
          "memory": {"limit": 100, "swap_limit": -1, "reservation": 50, "high": -1,
                     "oom_kill_disable": false, "oom_group": true, "swappiness": 0},
          "pids": {"limit": -1},
          "blockio": {"weight": 10, "device_limits": [{"major": 8, "minor": 0, "write_bps": 7}]},
          "device": {"rules": {"permission": "ALLOW", "type": "BLOCK", "major": 8, "minor": -1,
                               "access": "m"}},
          "hugetlb": {"limits": [{"page_size": "64KB", "limit": 0}]},
          "network": {"classid": 0, "priorities": [{"interface": "lo", "priority": 0}]},
          "monitoring": {} }
        """);

    assertThat(spec)
        .isEqualTo(
            ContainerSpec.builder()
                .owner(1L)
                .ownerGroup(2L)
                .childrenLimit(3L)
                .cpu(
                    CpuSpec.builder()
                        .limit(1000L)
                        .maxLimit(-1L)
                        .mask("0-1")
                        .memoryNodes("0")
                        .schedulingLatency(SchedulingLatency.PREMIER)
                        .build())
                .memory(
                    MemorySpec.builder()
                        .limit(100L)
                        .swapLimit(-1L)
                        .reservation(50L)
                        .high(-1L)
                        .oomKillDisable(false)
                        .oomGroup(true)
                        .swappiness(0)
                        .build())
                .pids(new PidsSpec(-1L))
                .blockio(
                    BlockIoSpec.builder()
                        .weight(10)
                        .deviceLimits(List.of(new DeviceLimit(8, 0, null, 7L, null, null)))
                        .build())
                .device(
                    new DeviceSpec(
                        List.of(new DeviceRule(Permission.ALLOW, Type.BLOCK, 8, -1, "m"))))
                .hugetlb(new HugetlbSpec(List.of(new HugetlbLimit("64KB", 0, null))))
                .network(new NetworkSpec(0L, List.of(new InterfacePriority("lo", 0))))
                .monitoring(new MonitoringSpec(null))
                .build());
  }

  @Test
  void jsonNullSectionIsAbsent() {
    assertThat(ContainerSpec.parse("{\"cpu\": null}")).isEqualTo(ContainerSpec.empty());
  }
}
