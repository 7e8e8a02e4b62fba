package org.lmctfy.testing;

import org.assertj.core.api.AbstractThrowableAssert;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.Errno;

/**
 * Assertions on an {@link LmctfyException}: its code, the errno and the file the kernel named. Made
 * by {@link CgroupAssertions#assertThatLmctfyException}.
 *
 * <pre>{@code
 * assertThatLmctfyException(() -> api.create("/job", spec))
 *     .hasCode(ErrorCode.INVALID_ARGUMENT).hasErrno(Errno.EINVAL).hasFileEndingWith("memory.max");
 * }</pre>
 *
 * @since 0.1
 */
public final class LmctfyExceptionAssert
    extends AbstractThrowableAssert<LmctfyExceptionAssert, LmctfyException> {

  LmctfyExceptionAssert(LmctfyException actual) {
    super(actual, LmctfyExceptionAssert.class);
  }

  /**
   * Checks the status code.
   *
   * @param expected the code
   * @return this
   */
  public LmctfyExceptionAssert hasCode(ErrorCode expected) {
    isNotNull();
    if (actual.code() != expected) {
      failWithMessage(
          "expected code %s but was %s: %s", expected, actual.code(), actual.getMessage());
    }
    return this;
  }

  /**
   * Checks the errno the kernel (or the fake) answered.
   *
   * @param expected the errno
   * @return this
   */
  public LmctfyExceptionAssert hasErrno(Errno expected) {
    isNotNull();
    if (actual.errno().orElse(null) != expected) {
      failWithMessage(
          "expected errno %s but was %s: %s",
          expected, actual.errno().map(Errno::name).orElse("none"), actual.getMessage());
    }
    return this;
  }

  /**
   * Checks that the failure names a file ending with {@code suffix} ({@code "memory.max"}, or a
   * cgroup's path).
   *
   * @param suffix the end of the file's path
   * @return this
   */
  public LmctfyExceptionAssert hasFileEndingWith(String suffix) {
    isNotNull();
    if (!actual.file().map(f -> f.endsWith(suffix)).orElse(false)) {
      failWithMessage(
          "expected a file ending with %s but was %s: %s",
          suffix, actual.file().orElse("none"), actual.getMessage());
    }
    return this;
  }
}
