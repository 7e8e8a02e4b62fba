package org.lmctfy.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.testing.CgroupAssertions;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeSnapshot;
import org.lmctfy.testing.junit.FakeCgroups;

/**
 * How a downstream project tests its own code with the fake: {@link JobSlots} (the code under test,
 * a stand-in for yours) gives each job a container under {@code /jobs}; the fake injects the
 * kernel's refusals, and the tests check that your code reports them and leaves nothing.
 */
@FakeCgroups
class DownstreamTestExample {
  FakeCgroupFs cgroups;
  ContainerApi api;

  /** The downstream code: a container per job, with a memory cap, released when the job ends. */
  static final class JobSlots {
    private final ContainerApi api;

    JobSlots(ContainerApi api) {
      this.api = api;
      if (!api.exists("/jobs")) {
        api.create("/jobs", ContainerSpec.empty());
      }
    }

    /**
     * A container for {@code job} capped at {@code memoryBytes}; the caller's error if the kernel
     * refuses.
     */
    Container acquire(String job, long memoryBytes) {
      try {
        return api.create(
            "/jobs/" + job, ContainerSpec.parse("memory { limit: " + memoryBytes + " }"));
      } catch (LmctfyException e) {
        throw new IllegalStateException("no slot for job " + job + ": " + e, e);
      }
    }

    void release(String job) {
      api.destroy("/jobs/" + job);
    }
  }

  @Test
  void aSlotHasTheJobsMemoryCap() throws Exception {
    JobSlots slots = new JobSlots(api);
    slots.acquire("build-1", 104857600);
    CgroupAssertions.assertThat(cgroups)
        .hasContainer("/jobs/build-1")
        .hasValue("/jobs/build-1", "memory.max", "104857600");
    slots.release("build-1");
    CgroupAssertions.assertThat(cgroups).hasNoContainer("/jobs/build-1");
  }

  @Test
  void whenTheKernelRefusesTheLimitTheJobFailsAndNothingIsLeft() {
    JobSlots slots = new JobSlots(api);
    FakeSnapshot before = cgroups.snapshot();
    cgroups.faults().failWhen(op -> "memory.max".equals(op.file()), Errno.EINVAL);
    assertThatThrownBy(() -> slots.acquire("build-2", 104857600))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("build-2")
        .hasMessageContaining("EINVAL")
        .cause()
        .isInstanceOf(LmctfyException.class)
        .satisfies(
            e -> assertThat(((LmctfyException) e).code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    CgroupAssertions.assertThat(cgroups).matches(before);
  }

  @Test
  void aFailureAtAnyStepOfAcquireLeavesTheTreeAsItWas() {
    JobSlots slots = new JobSlots(api);
    slots.acquire(
        "warm-up", 104857600); // the first acquire also makes what slots share (on v2: /jobs)
    slots.release("warm-up");
    cgroups.record().clear();
    slots.acquire("probe", 104857600);
    int steps = cgroups.record().count(); // the kernel operations of one acquire
    slots.release("probe");
    assertThat(steps).isGreaterThan(3);
    FakeSnapshot before = cgroups.snapshot();
    for (int step = 1; step <= steps; step++) {
      cgroups.faults().failAt(step, Errno.ENOSPC);
      assertThatThrownBy(() -> slots.acquire("build-3", 104857600))
          .as("failing step %d", step)
          .isInstanceOf(IllegalStateException.class);
      CgroupAssertions.assertThat(cgroups).as("failing step " + step).matches(before);
    }
  }
}
