package org.lmctfy.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.testing.FakeCgroupFs;

/**
 * The listener on the fake. Notifications have not landed on this branch's base: registering is
 * UNIMPLEMENTED, reported as such with nothing registered and nothing printed. When they land,
 * this test changes to drive an OOM through the fake's memory.oom_control and see the line.
 */
class OomListenerTest {
  @Test
  void reportsUnimplementedCleanlyUntilNotificationsLand() {
    try (ContainerApi api = ContainerApi.open(FakeCgroupFs.create())) {
      Container job = api.create("/job", ContainerSpec.parse("memory { limit: 104857600 }"));
      ByteArrayOutputStream printed = new ByteArrayOutputStream();
      LmctfyException e = catchThrowableOfType(() -> OomListener.listen(job, 52428800, new PrintStream(printed)),
          LmctfyException.class);
      assertThat(e.code()).isEqualTo(ErrorCode.UNIMPLEMENTED);
      assertThat(e.getMessage()).contains("registerNotification");
      assertThat(printed.size()).isZero();
    }
  }
}
