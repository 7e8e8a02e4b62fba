package org.lmctfy.testing.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;
import static org.lmctfy.testing.internal.host.MachineLacks.assumeHas;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.InitSpec;
import org.lmctfy.spec.InitSpec.CgroupMount;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * initMachine on this machine's kernel: mounts v1 controllers that no hierarchy carries (net_cls,
 * perf_event here) below a scratch directory, and unmounts them afterwards.
 */
@Tag("kernel")
@Tag("needs-v1") // mounts v1 hierarchies
class KernelInitMachineTest {
  private CgroupFs fs;
  private Path base;

  @BeforeEach
  void setUp() throws IOException {
    fs = ScratchCgroups.requireHost();
    // A hierarchy lives on briefly after its last unmount (the kernel frees it asynchronously).
    for (int i = 0;
        i < 100 && !fs.unmountedControllers().containsAll(Set.of("net_cls", "perf_event"));
        i++) {
      sleepBriefly();
    }
    assumeHas(
        fs.unmountedControllers().containsAll(Set.of("net_cls", "perf_event")),
        "needs net_cls and perf_event unmounted, as on this project's machines");
    base =
        Path.of(
            "/tmp", ScratchCgroups.PREFIX + "mnt-" + UUID.randomUUID().toString().substring(0, 8));
  }

  @AfterEach
  void unmountWhatTheTestMounted() throws IOException {
    if (base == null) {
      return;
    }
    for (Hierarchy h : fs.hierarchies()) {
      if (h.mountPoint().startsWith(base.toString())) {
        fs.unmount(h);
      }
    }
    assertThat(Files.readString(Path.of("/proc/self/mountinfo"))).doesNotContain(base.toString());
    assertThat(base).doesNotExist();
  }

  private static void sleepBriefly() {
    try {
      Thread.sleep(50);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static InitSpec mount(String path, String... controllers) {
    return InitSpec.builder()
        .cgroupMounts(List.of(new CgroupMount(path, Set.of(controllers))))
        .build();
  }

  @Test
  void mountsAMissingHierarchyAndASecondCallChangesNothing() throws IOException {
    String mountPoint = base.resolve("net_cls").toString();
    ContainerApi api = ContainerApi.open(fs);
    api.initMachine(mount(mountPoint, "net_cls"));
    assertThat(fs.hierarchy("net_cls")).map(Hierarchy::mountPoint).contains(mountPoint);
    assertThat(Files.readString(Path.of("/proc/self/mountinfo"))).contains(mountPoint + " ");
    assertThat(Path.of(mountPoint, "net_cls.classid")).exists();

    api.initMachine(mount(mountPoint, "net_cls"));
    assertThat(fs.hierarchies().stream().filter(h -> h.has("net_cls"))).hasSize(1);
  }

  @Test
  void aMountThatFailsHalfWayUndoesTheMountsBeforeIt() throws IOException {
    String first = base.resolve("net_cls").toString();
    InitSpec spec =
        InitSpec.builder()
            .cgroupMounts(
                List.of(
                    new CgroupMount(first, Set.of("net_cls")),
                    new CgroupMount("/proc/version/perf_event", Set.of("perf_event"))))
            .build();

    LmctfyException e =
        assertThatLmctfyException(() -> ContainerApi.open(fs).initMachine(spec))
            .hasCode(ErrorCode.INVALID_ARGUMENT)
            .hasErrno(Errno.ENOTDIR)
            .actual();
    assertThat(e.getMessage()).contains("/proc/version/perf_event");
    assertThat(fs.hierarchy("net_cls")).isEmpty();
    assertThat(Files.readString(Path.of("/proc/self/mountinfo"))).doesNotContain(first);
    assertThat(Path.of(first)).doesNotExist();
  }

  @Test
  void aControllerMountedElsewhereIsInvalidAndNothingChanges() throws IOException {
    String mountPoint = base.resolve("memory").toString();
    InitSpec spec =
        InitSpec.builder()
            .cgroupMounts(
                List.of(
                    new CgroupMount(base.resolve("net_cls").toString(), Set.of("net_cls")),
                    new CgroupMount(mountPoint, Set.of("memory"))))
            .build();

    LmctfyException e =
        assertThatLmctfyException(() -> ContainerApi.open(fs).initMachine(spec))
            .hasCode(ErrorCode.INVALID_ARGUMENT)
            .actual();
    assertThat(e.getMessage())
        .contains("memory", fs.hierarchy("memory").orElseThrow().mountPoint());
    assertThat(fs.hierarchy("net_cls")).isEmpty();
    assertThat(base).doesNotExist();
  }
}
