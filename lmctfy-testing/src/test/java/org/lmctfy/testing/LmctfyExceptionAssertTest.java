package org.lmctfy.testing;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.spec.ContainerSpec;

class LmctfyExceptionAssertTest {
  final FakeCgroupFs fs = FakeCgroupFs.create();
  final ContainerApi api = ContainerApi.open(fs);

  @Test
  void checksTheCodeTheErrnoAndTheFileOfARefusal() {
    fs.faults().failWhen(op -> "memory.max".equals(op.file()), Errno.EINVAL);
    assertThatLmctfyException(
            () -> api.create("/job", ContainerSpec.parse("memory { limit: 64M }")))
        .hasCode(ErrorCode.INVALID_ARGUMENT)
        .hasErrno(Errno.EINVAL)
        .hasFileEndingWith("/job/memory.max")
        .hasMessageContaining("create /job");
  }

  @Test
  void failsOnAnotherCodeErrnoOrFileSayingWhatItWas() {
    fs.faults().failWhen(op -> "memory.max".equals(op.file()), Errno.EINVAL);
    LmctfyExceptionAssert refused =
        assertThatLmctfyException(
            () -> api.create("/job", ContainerSpec.parse("memory { limit: 64M }")));
    assertThatThrownBy(() -> refused.hasCode(ErrorCode.NOT_FOUND))
        .hasMessageContaining("INVALID_ARGUMENT");
    assertThatThrownBy(() -> refused.hasErrno(Errno.EBUSY)).hasMessageContaining("EINVAL");
    assertThatThrownBy(() -> refused.hasFileEndingWith("pids.max"))
        .hasMessageContaining("memory.max");
  }

  @Test
  void failsWhenNothingOrSomethingElseIsThrown() {
    assertThatThrownBy(() -> assertThatLmctfyException(() -> {}))
        .hasMessageContaining("nothing was thrown");
    assertThatThrownBy(
            () ->
                assertThatLmctfyException(
                    () -> {
                      throw new IllegalStateException("boom");
                    }))
        .hasMessageContaining("IllegalStateException");
  }
}
