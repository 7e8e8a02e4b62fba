package org.lmctfy.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.assertj.core.api.AbstractStringAssert;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;

/** Asserts that code fails with INVALID_ARGUMENT, then on the failure's message. */
final class InvalidArgument {
  private InvalidArgument() {}

  static AbstractStringAssert<?> messageOf(ThrowingCallable call) {
    LmctfyException e = catchThrowableOfType(LmctfyException.class, call);
    assertThat(e).as("expected an LmctfyException").isNotNull();
    assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    return assertThat(e.getMessage());
  }
}
