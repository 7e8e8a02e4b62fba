package org.lmctfy.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.UpdateOption;
import org.lmctfy.UpdatePolicy;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.support.Proves;
import org.lmctfy.testing.CgroupAssertions;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.FakeOperation;
import org.lmctfy.testing.FakeSnapshot;

/**
 * An update that lowers memory.limit below the usage, on the fake: on v2 the difference is
 * reclaimed first (the fake's memory.reclaim takes it off memory.current) and, where the usage
 * stays above, the update is refused naming both, nothing changed, unless forced; on v1 the
 * kernel's own EBUSY is named the same way, forced or not.
 */
class FakeMemoryShrinkTest {
  private static final CgroupPath JOB = CgroupPath.of("/job");
  private static final ContainerSpec WAS = ContainerSpec.parse("memory { limit: 268435456 }");
  private static final ContainerSpec LOWER = ContainerSpec.parse("memory { limit: 67108864 }");
  private static final String USAGE = "104857600";

  private final FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.V2);
  private final Hierarchy unified = fs.hierarchy("memory").orElseThrow();
  private final ContainerApi api = ContainerApi.open(fs);

  private Container jobUsing(String usage) {
    Container job = api.create("/job", WAS);
    fs.kernel().setValue(unified, JOB, "memory.current", usage + "\n");
    return job;
  }

  private String file(String name) throws IOException {
    return fs.read(unified, JOB, name).strip();
  }

  private void reclaimFails() {
    fs.faults()
        .failWhen(
            op -> op.kind() == FakeOperation.Kind.WRITE && "memory.reclaim".equals(op.file()),
            Errno.EAGAIN);
  }

  @Test
  @Proves("Container.update lowering memory.limit below the usage")
  void aLowerLimitIsReclaimedDownToFirst() throws IOException {
    Container job = jobUsing(USAGE);
    job.update(LOWER, UpdatePolicy.DIFF);
    assertThat(file("memory.current")).as("reclaimed 37748736 bytes").isEqualTo("67108864");
    assertThat(file("memory.max")).isEqualTo("67108864");
    assertThat(job.spec()).isEqualTo(LOWER);
  }

  @Test
  void aLimitAtOrAboveTheUsageReclaimsNothing() throws IOException {
    Container job = jobUsing("67108864");
    job.update(LOWER, UpdatePolicy.DIFF);
    job.update(ContainerSpec.parse("memory { limit: -1 }"), UpdatePolicy.DIFF);
    assertThat(file("memory.current")).isEqualTo("67108864");
    assertThat(file("memory.max")).isEqualTo("max");
  }

  @Test
  @Proves(
      value = "Container.update lowering memory.limit below the usage",
      refusal = "FAILED_PRECONDITION")
  void whatCannotBeReclaimedIsRefusedAndNothingChanges() throws IOException {
    Container job = jobUsing(USAGE);
    reclaimFails();
    FakeSnapshot before = fs.snapshot();
    LmctfyException e =
        assertThatLmctfyException(
                () ->
                    job.update(
                        ContainerSpec.parse("memory { limit: 67108864 } pids { limit: 9 }"),
                        UpdatePolicy.DIFF))
            .hasCode(ErrorCode.FAILED_PRECONDITION)
            .actual();
    assertThat(e.getMessage())
        .contains(
            "update /job",
            "memory.limit 67108864",
            "memory.current",
            USAGE,
            "EAGAIN",
            "OOM-kill",
            "UpdateOption.FORCE_MEMORY_LIMIT");
    CgroupAssertions.assertThat(fs).matches(before);
    assertThat(job.spec()).isEqualTo(WAS);
  }

  @Test
  void aForcedLimitIsWrittenAsItIsWithoutAskingForReclaim() throws IOException {
    Container job = jobUsing(USAGE);
    reclaimFails();
    job.update(LOWER, UpdatePolicy.DIFF, UpdateOption.FORCE_MEMORY_LIMIT);
    assertThat(file("memory.max")).isEqualTo("67108864");
    assertThat(file("memory.current")).as("the fake's kernel kills nobody").isEqualTo(USAGE);
    assertThat(job.spec()).isEqualTo(LOWER);
  }

  @Test
  void onV1TheKernelsRefusalNamesTheUsageForcedOrNot() throws IOException {
    FakeCgroupFs v1 = FakeCgroupFs.create(FakeLayout.V1);
    Hierarchy memory = v1.hierarchy("memory").orElseThrow();
    Container job = ContainerApi.open(v1).create("/job", WAS);
    v1.kernel().setValue(memory, JOB, "memory.usage_in_bytes", USAGE + "\n");
    FakeSnapshot before = v1.snapshot();
    for (UpdateOption[] options : new UpdateOption[][] {{}, {UpdateOption.FORCE_MEMORY_LIMIT}}) {
      LmctfyException e =
          assertThatLmctfyException(() -> job.update(LOWER, UpdatePolicy.DIFF, options))
              .hasCode(ErrorCode.FAILED_PRECONDITION)
              .actual();
      assertThat(e.getMessage())
          .contains("memory.limit 67108864", "memory.usage_in_bytes", USAGE, "EBUSY");
      CgroupAssertions.assertThat(v1).matches(before);
    }
    assertThat(job.spec()).isEqualTo(WAS);
  }
}
