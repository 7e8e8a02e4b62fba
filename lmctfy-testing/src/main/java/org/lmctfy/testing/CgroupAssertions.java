package org.lmctfy.testing;

import org.lmctfy.LmctfyException;

/**
 * AssertJ entry points for cgroup state.
 *
 * <pre>{@code
 * FakeSnapshot before = cgroups.snapshot();
 * ... code under test fails half-way ...
 * CgroupAssertions.assertThat(cgroups).matches(before);
 * CgroupAssertions.assertThat(cgroups).hasContainer("/job").hasValue("/job", "pids.max", "64");
 * CgroupAssertions.assertThat(cgroups).hasNoContainer("/job").hasNoCgroupsButTheRoots();
 * CgroupAssertions.assertThatLmctfyException(() -> api.create("/job", spec))
 *     .hasCode(ErrorCode.INVALID_ARGUMENT).hasErrno(Errno.EINVAL).hasFileEndingWith("memory.max");
 * }</pre>
 *
 * @since 0.1
 */
public final class CgroupAssertions {
  private CgroupAssertions() {}

  /**
   * Assertions on the state of {@code actual}.
   *
   * @param actual the fake the code under test worked on
   * @return its assertions
   */
  public static FakeCgroupFsAssert assertThat(FakeCgroupFs actual) {
    return new FakeCgroupFsAssert(actual);
  }

  /**
   * Runs {@code call}, which must throw an {@link LmctfyException}, and returns assertions on it
   * (code, errno, file, and AssertJ's own on the message and cause).
   *
   * @param call the code that must fail
   * @return assertions on what it threw
   * @throws AssertionError if it threw nothing, or something else
   */
  public static LmctfyExceptionAssert assertThatLmctfyException(
      org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
    Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(call);
    if (!(thrown instanceof LmctfyException e)) {
      throw new AssertionError(
          "expected an LmctfyException, but "
              + (thrown == null
                  ? "nothing was thrown"
                  : thrown.getClass().getName() + " was thrown: " + thrown.getMessage()),
          thrown);
    }
    return new LmctfyExceptionAssert(e);
  }
}
