package org.lmctfy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.lmctfy.cgroupfs.CgroupPath;

class ApiOptionsTest {

  @Test
  void theDefaultsAreThirtySecondsForLocksAndTenForKillsWithTheDefaultRoot() {
    assertThat(ApiOptions.DEFAULTS).isEqualTo(new ApiOptions(null, Duration.ofSeconds(30), Duration.ofSeconds(10)));
  }

  @Test
  void aBuilderChangesWhatItIsToldAndToBuilderKeepsTheRest() {
    ApiOptions options = ApiOptions.builder().lockTimeout(Duration.ofMillis(500)).root(CgroupPath.of("/a")).build();
    assertThat(options.toBuilder().killTimeout(Duration.ofSeconds(2)).build())
        .isEqualTo(new ApiOptions(CgroupPath.of("/a"), Duration.ofMillis(500), Duration.ofSeconds(2)));
  }

  @Test
  void aWaitThatIsZeroOrNegativeIsAnInvalidArgumentNamingIt() {
    assertThatThrownBy(() -> ApiOptions.builder().lockTimeout(Duration.ZERO).build())
        .isInstanceOfSatisfying(LmctfyException.class, e -> {
          assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
          assertThat(e.getMessage()).contains("lockTimeout", "PT0S");
        });
    assertThatThrownBy(() -> ApiOptions.builder().killTimeout(Duration.ofSeconds(-1)).build())
        .isInstanceOfSatisfying(LmctfyException.class, e -> assertThat(e.getMessage()).contains("killTimeout"));
  }
}
