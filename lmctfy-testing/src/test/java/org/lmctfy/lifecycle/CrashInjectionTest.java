package org.lmctfy.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.lmctfy.CleanupReport;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.testing.CgroupAssertions;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeCrash;
import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.FakeSnapshot;

/**
 * The process dies at every mutating operation of a create and of a destroy, with no chance to
 * clean up; a new process over the same cgroups then tells the truth, and each of create, destroy
 * and cleanup reaches a clean state by itself.
 */
class CrashInjectionTest {
  static final ContainerSpec SPEC = FaultInjectionTest.EVERY_HIERARCHY;

  /**
   * The state left by a crash at mutation {@code k} of {@code op}, and the snapshot to return to.
   */
  private record Crashed(FakeCgroupFs fs, FakeSnapshot clean) {}

  private static Crashed crash(int k, Consumer<ContainerApi> setUp, Consumer<ContainerApi> op) {
    FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.HYBRID_HUGETLB_V2);
    ContainerApi dying = ContainerApi.open(fs);
    dying.create("/parent", ContainerSpec.empty());
    FakeSnapshot clean = fs.snapshot();
    setUp.accept(dying);
    fs.faults().crashAt(k);
    assertThatThrownBy(() -> op.accept(dying)).isInstanceOf(FakeCrash.class);
    fs.faults().recover();
    return new Crashed(fs, clean);
  }

  static IntStream createSteps() {
    return IntStream.rangeClosed(
        1, FaultInjectionTest.mutationsOf(w -> {}, w -> w.api().create("/parent/job", SPEC)));
  }

  static IntStream destroySteps() {
    return IntStream.rangeClosed(
        1,
        FaultInjectionTest.mutationsOf(
            w -> w.api().create("/parent/job", SPEC), w -> w.api().destroy("/parent/job")));
  }

  private static Crashed crashInCreate(int k) {
    return crash(k, api -> {}, api -> api.create("/parent/job", SPEC));
  }

  private static Crashed crashInDestroy(int k) {
    return crash(k, api -> api.create("/parent/job", SPEC), api -> api.destroy("/parent/job"));
  }

  @ParameterizedTest(name = "crash at create step {0}: exists says no")
  @MethodSource("createSteps")
  void afterACrashInCreateTheContainerDoesNotExist(int k) {
    Crashed c = crashInCreate(k);
    ContainerApi next = ContainerApi.open(c.fs());
    assertThat(next.exists("/parent/job")).isFalse();
    assertThatLmctfyException(() -> next.get("/parent/job")).hasCode(ErrorCode.NOT_FOUND);
  }

  @ParameterizedTest(name = "crash at create step {0}: create again")
  @MethodSource("createSteps")
  void afterACrashInCreateTheNextCreateSucceeds(int k) {
    Crashed c = crashInCreate(k);
    ContainerApi next = ContainerApi.open(c.fs());
    next.create("/parent/job", SPEC);
    next.destroy("/parent/job");
    CgroupAssertions.assertThat(c.fs()).matches(c.clean());
  }

  @ParameterizedTest(name = "crash at create step {0}: destroy")
  @MethodSource("createSteps")
  void afterACrashInCreateDestroyClearsItOrSaysNothingIsThere(int k) {
    Crashed c = crashInCreate(k);
    ContainerApi next = ContainerApi.open(c.fs());
    try {
      next.destroy("/parent/job");
    } catch (LmctfyException e) {
      assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND);
      assertThat(k)
          .as("NOT_FOUND only when the crash came before anything was written")
          .isEqualTo(1);
    }
    CgroupAssertions.assertThat(c.fs()).matches(c.clean());
  }

  @ParameterizedTest(name = "crash at create step {0}: cleanup")
  @MethodSource("createSteps")
  void afterACrashInCreateCleanupClearsIt(int k) {
    Crashed c = crashInCreate(k);
    CleanupReport report = ContainerApi.open(c.fs()).cleanup();
    assertThat(report.failures()).isEmpty();
    CgroupAssertions.assertThat(c.fs()).matches(c.clean());
  }

  @ParameterizedTest(name = "crash at destroy step {0}: destroy again")
  @MethodSource("destroySteps")
  void afterACrashInDestroyTheNextDestroyFinishesIt(int k) {
    Crashed c = crashInDestroy(k);
    ContainerApi next = ContainerApi.open(c.fs());
    if (next.exists("/parent/job") || k > 1) {
      next.destroy("/parent/job");
    }
    assertThat(next.exists("/parent/job")).isFalse();
    CgroupAssertions.assertThat(c.fs()).matches(c.clean());
  }

  @ParameterizedTest(name = "crash at destroy step {0}: create again")
  @MethodSource("destroySteps")
  void afterACrashInDestroyCreateEitherRefusesTheIntactContainerOrReplacesTheRemains(int k) {
    Crashed c = crashInDestroy(k);
    ContainerApi next = ContainerApi.open(c.fs());
    if (next.exists("/parent/job")) {
      assertThatLmctfyException(() -> next.create("/parent/job", SPEC))
          .hasCode(ErrorCode.ALREADY_EXISTS);
    } else {
      next.create("/parent/job", SPEC);
    }
    next.destroy("/parent/job");
    CgroupAssertions.assertThat(c.fs()).matches(c.clean());
  }

  @ParameterizedTest(name = "crash at destroy step {0}: cleanup")
  @MethodSource("destroySteps")
  void afterACrashInDestroyCleanupFinishesIt(int k) {
    Crashed c = crashInDestroy(k);
    ContainerApi next = ContainerApi.open(c.fs());
    boolean intact = next.exists("/parent/job");
    assertThat(next.cleanup().failures()).isEmpty();
    if (intact) {
      assertThat(next.exists("/parent/job")).isTrue();
      next.destroy("/parent/job");
    }
    CgroupAssertions.assertThat(c.fs()).matches(c.clean());
  }
}
