package org.lmctfy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.lmctfy.cgroupfs.CgroupPath;

class ApiOptionsTest {

  @Test
  void theDefaultsAreThirtySecondsForLocksAndTenForKillsWithTheDefaultRoot() {
    assertThat(ApiOptions.DEFAULTS)
        .isEqualTo(
            new ApiOptions(
                null,
                Duration.ofSeconds(30),
                Duration.ofSeconds(10),
                ApiOptions.Driver.AUTO,
                "lmctfy.service",
                Duration.ofSeconds(30)));
  }

  @Test
  void aBuilderChangesWhatItIsToldAndToBuilderKeepsTheRest() {
    ApiOptions options =
        ApiOptions.builder().lockTimeout(Duration.ofMillis(500)).root(CgroupPath.of("/a")).build();
    assertThat(options.toBuilder().killTimeout(Duration.ofSeconds(2)).build())
        .isEqualTo(
            new ApiOptions(
                CgroupPath.of("/a"),
                Duration.ofMillis(500),
                Duration.ofSeconds(2),
                ApiOptions.Driver.AUTO,
                "lmctfy.service",
                Duration.ofSeconds(30)));
  }

  @Test
  void aWaitThatIsZeroOrNegativeIsAnInvalidArgumentNamingIt() {
    assertThatThrownBy(() -> ApiOptions.builder().lockTimeout(Duration.ZERO).build())
        .isInstanceOfSatisfying(
            LmctfyException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
              assertThat(e.getMessage()).contains("lockTimeout", "PT0S");
            });
    assertThatThrownBy(() -> ApiOptions.builder().killTimeout(Duration.ofSeconds(-1)).build())
        .isInstanceOfSatisfying(
            LmctfyException.class, e -> assertThat(e.getMessage()).contains("killTimeout"));
  }

  @Test
  void theDriverAndTheSystemdUnitAndTimeoutAreKeptByToBuilder() {
    ApiOptions options =
        ApiOptions.builder()
            .driver(ApiOptions.Driver.SYSTEMD)
            .systemdUnit("jobs-lmctfy.service")
            .systemdTimeout(Duration.ofSeconds(5))
            .build();
    assertThat(options.toBuilder().build()).isEqualTo(options);
    assertThat(options.driver()).isEqualTo(ApiOptions.Driver.SYSTEMD);
    assertThat(options.systemdUnit()).isEqualTo("jobs-lmctfy.service");
    assertThat(options.systemdTimeout()).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void aUnitNameThatIsNoServiceOrThatSystemdWouldRefuseIsAnInvalidArgumentNamingIt() {
    for (String bad :
        new String[] {"lmctfy", "lmctfy.scope", "a b.service", "a/b.service", ".service"}) {
      assertThatThrownBy(() -> ApiOptions.builder().systemdUnit(bad).build())
          .as(bad)
          .isInstanceOfSatisfying(
              LmctfyException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
                assertThat(e.getMessage()).contains("systemdUnit", bad);
              });
    }
  }

  @Test
  void aZeroSystemdTimeoutIsAnInvalidArgumentNamingIt() {
    assertThatThrownBy(() -> ApiOptions.builder().systemdTimeout(Duration.ZERO).build())
        .isInstanceOfSatisfying(
            LmctfyException.class, e -> assertThat(e.getMessage()).contains("systemdTimeout"));
  }

  @Test
  void aRootAndTheSystemdDriverExcludeEachOther() {
    assertThatThrownBy(
            () ->
                ApiOptions.builder()
                    .driver(ApiOptions.Driver.SYSTEMD)
                    .root(CgroupPath.of("/a"))
                    .build())
        .isInstanceOfSatisfying(
            LmctfyException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
              assertThat(e.getMessage()).contains("/a", "SYSTEMD");
            });
  }
}
