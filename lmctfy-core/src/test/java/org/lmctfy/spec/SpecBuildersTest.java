package org.lmctfy.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.spec.InvalidArgument.messageOf;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SpecBuildersTest {
  private static final ContainerSpec EVERY_SECTION =
      ContainerSpec.parse(
          """
      owner: 1000 owner_group: 100 children_limit: 5
      cpu { limit: 500 max_limit: 1000 mask: '0-1' period_us: 50000 uclamp_min: 10 }
      memory { limit: 256M swap_limit: 512M high: 200M min: 10M swappiness: 10 }
      pids { limit: 64 }
      blockio { weight: 300 device_limits { major: 8 minor: 0 read_bps: 1000 }
                device_weights { major: 8 minor: 0 weight: 200 } }
      device { rules { permission: DENY type: ALL access: 'rwm' } }
      hugetlb { limits { page_size: '2MB' limit: 4096 reserved_limit: 8192 } }
      network { classid: 65537 priorities { interface: 'eth0' priority: 3 } }
      monitoring { enable_perf_counters: true }
      misc { limits { resource: 'sev' limit: 4 } }
      rdma { limits { device: 'mlx4_0' hca_handle: 2 } }
      unified { "memory.swap.high": '100M' }
      virtual_host { virtual_hostname: 'vh' network {} }
      filesystem { rootfs: '/srv/vh' mounts { mount { source: '/srv/data' target: '/data' } } }
      """);

  @Test
  void toBuilderBuildsAnEqualSpecAndEqualSections() {
    ContainerSpec s = EVERY_SECTION;
    assertThat(s.toBuilder().build()).isEqualTo(s);
    assertThat(s.cpu().toBuilder().build()).isEqualTo(s.cpu());
    assertThat(s.memory().toBuilder().build()).isEqualTo(s.memory());
    assertThat(s.pids().toBuilder().build()).isEqualTo(s.pids());
    assertThat(s.blockio().toBuilder().build()).isEqualTo(s.blockio());
    assertThat(s.device().toBuilder().build()).isEqualTo(s.device());
    assertThat(s.hugetlb().toBuilder().build()).isEqualTo(s.hugetlb());
    assertThat(s.network().toBuilder().build()).isEqualTo(s.network());
    assertThat(s.monitoring().toBuilder().build()).isEqualTo(s.monitoring());
    assertThat(s.misc().toBuilder().build()).isEqualTo(s.misc());
    assertThat(s.rdma().toBuilder().build()).isEqualTo(s.rdma());
    assertThat(s.virtualHost().toBuilder().build()).isEqualTo(s.virtualHost());
    assertThat(s.filesystem().toBuilder().build()).isEqualTo(s.filesystem());
  }

  @Test
  void anEmptyBuilderGivesEveryFieldAbsentAndEveryListEmpty() {
    assertThat(ContainerSpec.builder().build()).isEqualTo(ContainerSpec.parse(""));
    assertThat(CpuSpec.builder().build()).isEqualTo(ContainerSpec.parse("cpu {}").cpu());
    assertThat(MemorySpec.builder().build()).isEqualTo(ContainerSpec.parse("memory {}").memory());
    assertThat(BlockIoSpec.builder().build().deviceLimits()).isEmpty();
    assertThat(DeviceSpec.builder().build().rules()).isEmpty();
    assertThat(VirtualHostSpec.builder().build()).isEqualTo(VirtualHostSpec.empty());
    assertThat(InitSpec.builder().build()).isEqualTo(InitSpec.empty());
  }

  @Test
  void aBuilderChangesOneFieldOfACopyAndLeavesTheOriginal() {
    ContainerSpec wider =
        EVERY_SECTION.toBuilder()
            .memory(EVERY_SECTION.memory().toBuilder().limit(300L << 20).build())
            .pids(null)
            .build();
    assertThat(wider.memory().limit()).isEqualTo(300L << 20);
    assertThat(wider.memory().swapLimit()).isEqualTo(512L << 20);
    assertThat(wider.pids()).isNull();
    assertThat(EVERY_SECTION.memory().limit()).isEqualTo(256L << 20);
    assertThat(EVERY_SECTION.pids()).isNotNull();
  }

  @Test
  void buildValidatesAsTheConstructorAndTheParserDo() {
    messageOf(() -> MemorySpec.builder().limit(200L).swapLimit(100L).build())
        .startsWith("memory.swap_limit: invalid value 100");
    messageOf(() -> CpuSpec.builder().periodUs(50_000L).build()).startsWith("cpu.period_us");
    messageOf(() -> PidsSpec.builder().limit(0L).build()).startsWith("pids.limit: invalid value 0");
    messageOf(() -> ContainerSpec.builder().filesystem(FilesystemSpec.builder().build()).build())
        .startsWith("filesystem");
    messageOf(() -> InitSpec.builder().processesLeaf("a/b").build()).startsWith("processes_leaf");
  }

  @Test
  void aBuilderCopiesWhatItIsGiven() {
    Map<String, String> files = new java.util.HashMap<>(Map.of("memory.swap.high", "max"));
    ContainerSpec spec = ContainerSpec.builder().unified(files).build();
    files.put("memory.swap.max", "0");
    assertThat(spec.unified()).containsOnlyKeys("memory.swap.high");
    InitSpec init =
        InitSpec.builder().enableControllers(Set.of("CGROUP_CPU")).cgroupMounts(List.of()).build();
    assertThat(init.enableControllers()).containsExactly("cpu");
  }
}
