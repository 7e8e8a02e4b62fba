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

class ContainerSpecRoundTripTest {
  private static final ContainerSpec FULL =
      ContainerSpec.builder()
          .owner(1000L)
          .ownerGroup(100L)
          .childrenLimit(5L)
          .cpu(
              CpuSpec.builder()
                  .limit(1000L)
                  .maxLimit(-1L)
                  .mask("0-3,6")
                  .memoryNodes("0")
                  .schedulingLatency(SchedulingLatency.NORMAL)
                  .build())
          .memory(
              MemorySpec.builder()
                  .limit(1L << 30)
                  .swapLimit(-1L)
                  .reservation(1L << 29)
                  .high(-1L)
                  .oomKillDisable(true)
                  .oomGroup(false)
                  .swappiness(10)
                  .build())
          .pids(new PidsSpec(128L))
          .blockio(
              BlockIoSpec.builder()
                  .weight(300)
                  .deviceLimits(
                      List.of(
                          new DeviceLimit(8, 0, 1000L, -1L, 5L, null),
                          new DeviceLimit(8, 16, null, null, null, 9L)))
                  .build())
          .device(
              new DeviceSpec(
                  List.of(
                      new DeviceRule(Permission.DENY, Type.ALL, -1, -1, "rwm"),
                      new DeviceRule(Permission.ALLOW, Type.CHAR, 1, 3, "rwm"))))
          .hugetlb(
              new HugetlbSpec(
                  List.of(new HugetlbLimit("2MB", 4096, null), new HugetlbLimit("1GB", -1, null))))
          .network(new NetworkSpec(0x10001L, List.of(new InterfacePriority("eth0", 3))))
          .monitoring(new MonitoringSpec(true))
          .build();

  @Test
  void fullSpecRoundTripsThroughText() {
    assertThat(ContainerSpec.parse(FULL.toText())).isEqualTo(FULL);
  }

  @Test
  void fullSpecRoundTripsThroughJson() {
    assertThat(ContainerSpec.parse(FULL.toJson())).isEqualTo(FULL);
  }

  @Test
  void emptySpecWritesNothingAndRoundTrips() {
    assertThat(ContainerSpec.empty().toText()).isEmpty();
    assertThat(ContainerSpec.empty().toJson()).isEqualTo("{}");
    assertThat(ContainerSpec.parse(ContainerSpec.empty().toText()))
        .isEqualTo(ContainerSpec.empty());
  }

  @Test
  void emptySectionRoundTripsAsPresent() {
    ContainerSpec spec = ContainerSpec.builder().monitoring(new MonitoringSpec(null)).build();

    assertThat(spec.toText()).isEqualTo("monitoring {}\n");
    assertThat(ContainerSpec.parse(spec.toText())).isEqualTo(spec);
    assertThat(ContainerSpec.parse(spec.toJson())).isEqualTo(spec);
  }

  @Test
  void textIsLmctfysFormatInDeclarationOrder() {
    ContainerSpec spec =
        ContainerSpec.parse(
            "memory { limit: -1 } cpu { scheduling_latency: PREMIER limit: 1000 } owner: 0");

    assertThat(spec.toText())
        .isEqualTo(
            """
        owner: 0
        cpu {
          limit: 1000
          scheduling_latency: PREMIER
        }
        memory {
          limit: -1
        }
        """);
  }

  @Test
  void textRepeatsListElements() {
    ContainerSpec spec =
        ContainerSpec.parse(
            "device { rules { permission: DENY type: ALL access: 'rwm' }"
                + " rules { permission: ALLOW type: CHAR major: 1 minor: 3 access: 'r' } }");

    assertThat(spec.toText())
        .isEqualTo(
            """
        device {
          rules {
            permission: DENY
            type: ALL
            major: -1
            minor: -1
            access: "rwm"
          }
          rules {
            permission: ALLOW
            type: CHAR
            major: 1
            minor: 3
            access: "r"
          }
        }
        """);
  }

  @Test
  void jsonUsesLmctfysSnakeCaseNamesAndOmitsAbsentFields() {
    ContainerSpec spec =
        ContainerSpec.builder()
            .ownerGroup(7L)
            .memory(MemorySpec.builder().limit(100L).swapLimit(200L).build())
            .build();

    assertThat(spec.toJson())
        .isEqualTo("{\"owner_group\":7,\"memory\":{\"limit\":100,\"swap_limit\":200}}");
  }

  @Test
  void toBuilderChangesOneSectionAndKeepsTheRest() {
    ContainerSpec changed = FULL.toBuilder().pids(null).build();

    assertThat(changed.pids()).isNull();
    assertThat(changed.cpu()).isEqualTo(FULL.cpu());
    assertThat(changed.toBuilder().build()).isEqualTo(changed);
  }

  @Test
  void bitmaskInputIsWrittenBackAsAList() {
    ContainerSpec spec = ContainerSpec.parse("cpu { mask { data: 5 } }");

    assertThat(spec.toText()).isEqualTo("cpu {\n  mask: \"0,2\"\n}\n");
  }
}
