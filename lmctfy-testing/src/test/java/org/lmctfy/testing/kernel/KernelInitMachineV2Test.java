package org.lmctfy.testing.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.ListPolicy;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.InitSpec;
import org.lmctfy.support.Teardown;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * initMachine's v2 half and the no-internal-processes rule on a real v2 kernel, as inside a systemd
 * unit with {@code Delegate=yes}: the API's root is a cgroup that holds a process (the "unit",
 * below the scratch parent, which gives it memory and pids as systemd would).
 */
@Tag("kernel")
@Tag("needs-v2") // controllers enabled on a v2 hierarchy
class KernelInitMachineV2Test {
  private ScratchCgroups scratch;
  private CgroupFs fs;
  private Hierarchy unified;
  private CgroupPath unit;
  private Process member;

  @BeforeEach
  void aUnitWithAProcessInIt() throws IOException {
    scratch = ScratchCgroups.onHost();
    fs = scratch.fs();
    unified =
        fs.hierarchies().stream()
            .filter(h -> h.version() == org.lmctfy.cgroupfs.CgroupVersion.V2)
            .findFirst()
            .orElseThrow(); // needs-v2: it runs only where the cgroup2 root enables memory, pids
    fs.write(unified, scratch.path(), "cgroup.subtree_control", "+memory +pids");
    unit = scratch.path().resolve("app.service");
    fs.makeCgroup(unified, unit);
    member = new ProcessBuilder("sleep", "3600").start();
    fs.write(unified, unit, "cgroup.procs", Long.toString(member.pid()));
  }

  @AfterEach
  void removeIt() throws Exception {
    try {
      if (member != null) {
        member.destroyForcibly();
        member.waitFor(10, TimeUnit.SECONDS);
      }
    } finally {
      Teardown.close(scratch);
    }
  }

  private String read(CgroupPath p, String file) throws IOException {
    return fs.read(unified, p, file).strip();
  }

  @Test
  void aCreateInARootThatHoldsProcessesNamesTheRuleAndChangesNothing() throws IOException {
    ContainerApi api = ContainerApi.open(fs, unit);
    assertThatLmctfyException(
            () -> api.create("/job", ContainerSpec.parse("memory { limit: 104857600 }")))
        .hasCode(ErrorCode.FAILED_PRECONDITION)
        .hasMessageContainingAll(
            "no-internal-processes",
            unified.display(unit, null),
            Long.toString(member.pid()),
            "processes_leaf",
            "EBUSY");
    assertThat(fs.children(unified, unit)).isEmpty();
    assertThat(read(unit, "cgroup.subtree_control")).isEmpty();
  }

  @Test
  void processesLeafMovesTheUnitsProcessesIntoALeafAndThenContainersGetTheirLimits()
      throws IOException {
    ContainerApi api = ContainerApi.open(fs, unit);
    api.initMachine(
        InitSpec.parse("enable_controllers: [memory, pids] processes_leaf: \"supervisor\""));
    assertThat(read(unit, "cgroup.procs")).isEmpty();
    assertThat(read(unit.resolve("supervisor"), "cgroup.procs"))
        .isEqualTo(Long.toString(member.pid()));
    assertThat(read(unit, "cgroup.subtree_control")).isEqualTo("memory pids");

    api.create("/job", ContainerSpec.parse("memory { limit: 104857600 } pids { limit: 20 }"));
    assertThat(read(unit.resolve("job"), "memory.max")).isEqualTo("104857600");
    assertThat(read(unit.resolve("job"), "pids.max")).isEqualTo("20");
    assertThat(api.get("/").listSubcontainers(ListPolicy.SELF)).containsExactly("/job");
    assertThat(api.cleanup().failures()).isEmpty();
    api.destroy("/job");
    assertThat(fs.children(unified, unit)).containsExactly("supervisor");
  }

  @Test
  void controllersTheRootsParentDoesNotGiveAreRefusedAndNothingAboveTheRootIsWritten()
      throws IOException {
    ContainerApi api = ContainerApi.open(fs, unit);
    LmctfyException e =
        assertThatLmctfyException(
                () -> api.initMachine(InitSpec.parse("enable_controllers: [cpu]")))
            .hasCode(ErrorCode.FAILED_PRECONDITION)
            .actual();
    assertThat(e.getMessage()).contains("[cpu]", unified.display(scratch.path(), null));
    assertThat(read(scratch.path(), "cgroup.subtree_control")).isEqualTo("memory pids");
    assertThat(read(unit, "cgroup.procs")).isEqualTo(Long.toString(member.pid()));
  }
}
