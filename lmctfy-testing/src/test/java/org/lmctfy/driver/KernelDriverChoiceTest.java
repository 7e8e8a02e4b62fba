package org.lmctfy.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.ApiOptions;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * Where systemd is not PID 1 (this project's machine, the v2 guests), the default driver is the
 * cgroupfs driver with the root it always had, and the systemd driver asked for by name is refused
 * once, saying why. Opening reads only.
 */
@Tag("kernel")
class KernelDriverChoiceTest {
  private static CgroupFs withoutSystemd() throws Exception {
    CgroupFs fs = ScratchCgroups.requireHost();
    Assumptions.assumeFalse(
        Files.isDirectory(Path.of("/run/systemd/system")), "systemd runs this machine");
    return fs;
  }

  @Test
  void theDefaultDriverIsCgroupfsWithTheRootItAlwaysHad() throws Exception {
    CgroupFs fs = withoutSystemd();
    try (ContainerApi auto = ContainerApi.open();
        ContainerApi cgroupfs =
            ContainerApi.open(
                fs, ApiOptions.builder().driver(ApiOptions.Driver.CGROUPFS).build())) {
      assertThat(auto.root()).isEqualTo(cgroupfs.root());
    }
  }

  @Test
  void theSystemdDriverByNameIsAFailedPreconditionSayingWhy() throws Exception {
    withoutSystemd();
    assertThatThrownBy(
            () -> ContainerApi.open(ApiOptions.builder().driver(ApiOptions.Driver.SYSTEMD).build()))
        .isInstanceOfSatisfying(
            LmctfyException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.FAILED_PRECONDITION);
              assertThat(e.getMessage())
                  .containsAnyOf("not (/run/systemd/system does not exist)", "on v1 hierarchies")
                  .contains("CGROUPFS");
            });
  }
}
