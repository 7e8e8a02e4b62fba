package org.lmctfy.internal.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.lmctfy.internal.lifecycle.ContainerOperation.Lock;

class ContainerOperationTest {
  @Test
  void runAndEnterTakeNoLockAndSpecLocksWithinTheProcessOnly() {
    assertThat(ContainerOperation.RUN.lock()).isEqualTo(Lock.NONE);
    assertThat(ContainerOperation.ENTER.lock()).isEqualTo(Lock.NONE);
    assertThat(ContainerOperation.SPEC.lock()).isEqualTo(Lock.WITHIN_PROCESS);
  }

  @Test
  void everyOperationThatChangesTheContainerLocksItAcrossProcesses() {
    for (ContainerOperation op :
        EnumSet.of(
            ContainerOperation.CREATE,
            ContainerOperation.DESTROY,
            ContainerOperation.UPDATE,
            ContainerOperation.PAUSE,
            ContainerOperation.RESUME,
            ContainerOperation.KILL_ALL,
            ContainerOperation.CLEANUP)) {
      assertThat(op.lock()).as(op.verb()).isEqualTo(Lock.ACROSS_PROCESSES);
    }
  }

  @Test
  void onlyCreateTakesItsParentsLockFirst() {
    for (ContainerOperation op : ContainerOperation.values()) {
      assertThat(op.parentFirst()).as(op.verb()).isEqualTo(op == ContainerOperation.CREATE);
    }
  }
}
