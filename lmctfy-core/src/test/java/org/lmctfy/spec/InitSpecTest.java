package org.lmctfy.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.spec.InvalidArgument.messageOf;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.lmctfy.spec.InitSpec.CgroupMount;

class InitSpecTest {

  @Test
  void parsesLmctfysTextWithHierarchyEnumNames() {
    InitSpec spec =
        InitSpec.parse(
            "cgroup_mount { mount_path: \"/sys/fs/cgroup/cpu\""
                + " hierarchy: CGROUP_CPU hierarchy: CGROUP_CPUACCT } enable_controllers: \"memory\"");

    assertThat(spec)
        .isEqualTo(
            InitSpec.builder()
                .cgroupMounts(
                    List.of(new CgroupMount("/sys/fs/cgroup/cpu", Set.of("cpu", "cpuacct"))))
                .enableControllers(Set.of("memory"))
                .build());
  }

  @Test
  void mapsLmctfyNamesThatDifferFromTheKernels() {
    InitSpec spec =
        InitSpec.parse(
            "cgroup_mount { mount_path: '/d'"
                + " hierarchy: [CGROUP_DEVICE, CGROUP_BLOCKIO, CGROUP_PERF_EVENT, freezer] }");

    assertThat(spec.cgroupMounts().get(0).hierarchy())
        .containsExactlyInAnyOrder("devices", "blkio", "perf_event", "freezer");
  }

  @Test
  void blankTextIsEmpty() {
    assertThat(InitSpec.parse(" ")).isEqualTo(InitSpec.empty());
  }

  @Test
  void parsesJson() {
    assertThat(InitSpec.parse("{\"enable_controllers\": [\"cpu\", \"pids\"]}").enableControllers())
        .containsExactlyInAnyOrder("cpu", "pids");
  }

  @Test
  void relativeMountPathIsRejected() {
    messageOf(() -> InitSpec.parse("cgroup_mount { mount_path: 'cpu' hierarchy: CGROUP_CPU }"))
        .isEqualTo("cgroup_mount[0].mount_path: invalid value \"cpu\": must be an absolute path");
  }

  @Test
  void mountWithoutHierarchyIsRejected() {
    messageOf(() -> InitSpec.parse("cgroup_mount { mount_path: '/x' }"))
        .startsWith("cgroup_mount[0].hierarchy: at least one controller");
  }
}
