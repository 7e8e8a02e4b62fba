package org.lmctfy.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.ApiOptions;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.internal.lock.ContainerLocks;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.support.CapturedLogs;
import org.lmctfy.testing.junit.ScratchCgroups;
import org.slf4j.event.Level;

/**
 * What the library tells its log on the kernel: each write at DEBUG, a long lock wait at INFO, the
 * wait's deadline as the API was opened with.
 */
@Tag("kernel")
class KernelFeedbackTest {

  @Test
  @Tag("needs-controllers") // a pids limit: not on v2-bare, where the API refuses it
  void everyKernelWriteOfACreateIsADebugLineNamingTheFileAndTheValue() throws Exception {
    CgroupFs fs = ScratchCgroups.requireHost();
    try (ScratchCgroups scratch = ScratchCgroups.on(fs);
        ContainerApi api = ContainerApi.open(fs, scratch.path())) {
      long mark = CapturedLogs.mark();
      api.create("/job", ContainerSpec.parse("pids { limit: 64 }"));
      List<String> debug =
          CapturedLogs.since(mark).stream()
              .filter(e -> e.level() == Level.DEBUG)
              .map(CapturedLogs.Event::message)
              .toList();
      assertThat(debug).anyMatch(m -> m.startsWith("create /job"));
      assertThat(debug)
          .anyMatch(
              m -> m.startsWith("mkdir ") && m.endsWith(scratch.path().resolve("job").value()));
      assertThat(debug)
          .anyMatch(
              m ->
                  m.matches(
                      "write .*" + scratch.path().resolve("job").value() + "/pids.max = \"64\""));
      api.destroy("/job");
    }
  }

  @Test
  void aLockWaitPastOneSecondIsLoggedAtInfoAndEndsAtTheApisLockTimeout() throws Exception {
    CgroupFs fs = ScratchCgroups.requireHost();
    try (ScratchCgroups scratch = ScratchCgroups.on(fs);
        ContainerApi api =
            ContainerApi.open(
                fs,
                ApiOptions.builder()
                    .root(scratch.path())
                    .lockTimeout(Duration.ofMillis(1500))
                    .build())) {
      api.create("/job", ContainerSpec.empty());
      // another process's lock of the container, as this machine's lock files hold it
      ContainerLocks other =
          new ContainerLocks(fs.lockDirectory().orElseThrow(), Duration.ofSeconds(5));
      long mark = CapturedLogs.mark();
      try (ContainerLocks.Held held = other.lock(scratch.path().resolve("job").value(), "/job")) {
        assertThatThrownBy(() -> api.destroy("/job"))
            .isInstanceOfSatisfying(
                LmctfyException.class,
                e -> {
                  assertThat(e.code()).isEqualTo(ErrorCode.DEADLINE_EXCEEDED);
                  assertThat(e.getMessage()).contains("container /job", "PT1.5S");
                });
      }
      assertThat(CapturedLogs.since(mark))
          .anySatisfy(
              e -> {
                assertThat(e.level()).isEqualTo(Level.INFO);
                assertThat(e.message())
                    .contains("waiting for the lock of container /job", "giving up after PT1.5S");
              });
      api.destroy("/job");
    }
  }
}
