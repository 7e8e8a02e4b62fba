package org.lmctfy.trust;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import org.junit.jupiter.api.Test;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.RunSpec;

/** Spec texts built to break the parser are INVALID_ARGUMENT, never an Error. */
class HostileSpecTextTest {
  @Test
  void aTextSpecNested2000DeepIsInvalidArgument() {
    String text = "cpu { ".repeat(2000) + "}".repeat(2000);
    assertThatThrownBy(() -> ContainerSpec.parse(text))
        .isInstanceOfSatisfying(
            LmctfyException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
              assertThat(e.getMessage()).contains("nested more than 64");
            });
  }

  @Test
  void aTextRunSpecNested2000DeepIsInvalidArgument() {
    String text = "fd_policy < ".repeat(2000) + ">".repeat(2000);
    assertThatLmctfyException(() -> RunSpec.parse(text)).hasCode(ErrorCode.INVALID_ARGUMENT);
  }

  @Test
  void aJsonSpecNested2000DeepIsInvalidArgument() {
    String json = "{\"cpu\": ".repeat(2000) + "{}" + "}".repeat(2000);
    assertThatLmctfyException(() -> ContainerSpec.parse(json)).hasCode(ErrorCode.INVALID_ARGUMENT);
  }

  @Test
  void aSpecNestedAsDeepAsTheLimitIsJudgedByItsFields() { // 63 messages inside the top one: 64 deep
    String text = "cpu { ".repeat(63) + "}".repeat(63);
    assertThatThrownBy(() -> ContainerSpec.parse(text))
        .isInstanceOfSatisfying(
            LmctfyException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
              assertThat(e.getMessage()).doesNotContain("nested more than");
            });
  }
}
