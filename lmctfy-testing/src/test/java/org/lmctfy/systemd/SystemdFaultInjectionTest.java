package org.lmctfy.systemd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.lmctfy.ApiOptions;
import org.lmctfy.CleanupReport;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.systemdbus.SystemdException;
import org.lmctfy.testing.CgroupAssertions;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeCrash;
import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.FakeSnapshot;
import org.lmctfy.testing.FakeSystemd;

/**
 * Every systemd call of the driver refused with every D-Bus error it may meet, every job ending
 * otherwise than {@code done}, and the process dying at every call (before and after systemd acted)
 * and at every cgroup write of a first create: the failure is said with lmctfy's status, the unit
 * and the error's name, nothing is left that a later create or cleanup does not clear, and after
 * cleanup no unit and no cgroup remain.
 */
class SystemdFaultInjectionTest {
  /** Each D-Bus error, and the status the driver gives it. */
  static Stream<Arguments> errors() {
    return Stream.of(
        Arguments.of(SystemdException.ACCESS_DENIED, ErrorCode.PERMISSION_DENIED),
        Arguments.of(
            SystemdException.INTERACTIVE_AUTHORIZATION_REQUIRED, ErrorCode.PERMISSION_DENIED),
        Arguments.of(SystemdException.NO_REPLY, ErrorCode.DEADLINE_EXCEEDED),
        Arguments.of(SystemdException.NO_SERVER, ErrorCode.FAILED_PRECONDITION),
        Arguments.of(SystemdException.DISCONNECTED, ErrorCode.UNAVAILABLE),
        Arguments.of(SystemdException.UNKNOWN_PROPERTY, ErrorCode.UNIMPLEMENTED),
        Arguments.of(SystemdException.INVALID_ARGS, ErrorCode.INVALID_ARGUMENT),
        Arguments.of(SystemdException.NO_SUCH_UNIT, ErrorCode.NOT_FOUND),
        Arguments.of("org.freedesktop.systemd1.TransactionIsDestructive", ErrorCode.UNKNOWN));
  }

  /** The calls of a first create, each with each error. */
  static Stream<Arguments> createCallFaults() {
    List<Arguments> out = new ArrayList<>();
    for (String call : List.of("connect", "StartTransientUnit")) {
      errors().forEach(a -> out.add(Arguments.of(call, a.get()[0], a.get()[1])));
    }
    return out.stream();
  }

  private final FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.V2);
  private final FakeSystemd systemd = FakeSystemd.on(fs);
  private final FakeSnapshot booted = fs.snapshot();

  private ContainerApi open() {
    return ContainerApi.open(fs, systemd, ApiOptions.DEFAULTS);
  }

  /** After anything: cleanup leaves no unit and no cgroup but systemd's own. */
  private void cleanupLeavesNothing() {
    try (ContainerApi api = open()) {
      CleanupReport report = api.cleanup();
      assertThat(report.failures()).isEmpty();
    }
    assertThat(systemd.unit("lmctfy.service")).isEmpty();
    CgroupAssertions.assertThat(fs).matches(booted);
  }

  @ParameterizedTest(name = "create: {0} answers {1}")
  @MethodSource("createCallFaults")
  void aRefusedCallOfACreateIsSaidWithItsStatusAndChangesNothing(
      String call, String error, ErrorCode code) {
    systemd.failNext(call, error);
    try (ContainerApi api = open()) {
      assertThatThrownBy(() -> api.create("/job", FakeSystemdDriverTest.LIMITS))
          .isInstanceOfSatisfying(
              LmctfyException.class,
              e -> {
                assertThat(e.code()).isEqualTo(code);
                assertThat(e.getMessage())
                    .contains("lmctfy.service", error, "the system manager (PID 1)");
              });
    }
    assertThat(systemd.unit("lmctfy.service")).isEmpty();
    CgroupAssertions.assertThat(fs).matches(booted);
    try (ContainerApi api = open()) { // the fault was once: the next create works
      api.create("/job", FakeSystemdDriverTest.LIMITS);
      api.destroy("/job");
    }
    cleanupLeavesNothing();
  }

  static Stream<String> jobResults() {
    return Stream.of("failed", "timeout", "canceled", "dependency", "skipped");
  }

  @ParameterizedTest(name = "create: the start job ends {0}")
  @MethodSource("jobResults")
  void aStartJobThatEndsOtherwiseThanDoneIsUnavailableAndLeavesNoUnit(String result) {
    systemd.endNextJob("StartTransientUnit", result);
    try (ContainerApi api = open()) {
      assertThatThrownBy(() -> api.create("/job", FakeSystemdDriverTest.LIMITS))
          .isInstanceOfSatisfying(
              LmctfyException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.UNAVAILABLE);
                assertThat(e.getMessage())
                    .contains("lmctfy.service", "'" + result + "'", "journalctl -u lmctfy.service");
              });
    }
    assertThat(systemd.unit("lmctfy.service")).isEmpty();
    CgroupAssertions.assertThat(fs).matches(booted);
  }

  @ParameterizedTest(name = "cleanup: StopUnit answers {0}")
  @MethodSource("errors")
  void aRefusedStopIsACleanupFailureNamingTheUnitAndTheNextCleanupStopsIt(
      String error, ErrorCode code) {
    try (ContainerApi api = open()) {
      api.create("/job", FakeSystemdDriverTest.LIMITS);
      api.destroy("/job");
      systemd.failNext("StopUnit", error);
      CleanupReport report = api.cleanup();
      if (error.equals(SystemdException.NO_SUCH_UNIT)) {
        assertThat(report.failures()).isEmpty(); // it went meanwhile: nothing to stop
      } else {
        assertThat(report.failures()).singleElement().asString().contains("lmctfy.service", error);
        assertThat(systemd.unit("lmctfy.service")).isPresent();
      }
    }
    if (!error.equals(SystemdException.NO_SUCH_UNIT)) {
      cleanupLeavesNothing();
    }
  }

  @ParameterizedTest(name = "cleanup: the stop job ends {0}")
  @MethodSource("jobResults")
  void aStopJobThatEndsOtherwiseThanDoneIsACleanupFailureAndTheNextCleanupStopsIt(String result) {
    try (ContainerApi api = open()) {
      api.create("/job", FakeSystemdDriverTest.LIMITS);
      api.destroy("/job");
      systemd.endNextJob("StopUnit", result);
      assertThat(api.cleanup().failures())
          .singleElement()
          .asString()
          .contains("lmctfy.service", "'" + result + "'");
    }
    cleanupLeavesNothing();
  }

  /** The calls a first create and a cleanup of an empty unit make, where the process may die. */
  static Stream<Arguments> callCrashes() {
    List<Arguments> out = new ArrayList<>();
    out.add(Arguments.of("connect", false)); // a connection has no effect to die after
    for (String call : List.of("StartTransientUnit", "GetUnit", "StopUnit")) {
      out.add(Arguments.of(call, false));
      out.add(Arguments.of(call, true));
    }
    return out.stream();
  }

  @ParameterizedTest(name = "the process dies at {0} (after systemd acted: {1})")
  @MethodSource("callCrashes")
  void aProcessThatDiesAtAnySystemdCallLeavesNothingThatCleanupDoesNotClear(
      String call, boolean afterActing) {
    systemd.crashAt(call, afterActing);
    try {
      try (ContainerApi api = open()) {
        api.create("/job", FakeSystemdDriverTest.LIMITS);
        api.destroy("/job");
        api.cleanup();
      }
    } catch (FakeCrash e) {
      fs.faults().recover();
    }
    cleanupLeavesNothing();
  }

  static IntStream createMutations() {
    FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.V2);
    FakeSystemd systemd = FakeSystemd.on(fs);
    int before = fs.record().count();
    try (ContainerApi api = ContainerApi.open(fs, systemd, ApiOptions.DEFAULTS)) {
      api.create("/job", FakeSystemdDriverTest.LIMITS);
    }
    return IntStream.rangeClosed(1, fs.record().count() - before);
  }

  @ParameterizedTest(name = "the process dies at cgroup write {0} of the first create")
  @MethodSource("createMutations")
  void aProcessThatDiesAtAnyWriteOfTheFirstCreateLeavesNothingThatCleanupDoesNotClear(int k) {
    ContainerApi api = open(); // a process that dies never closes its API
    fs.faults().crashAt(k);
    assertThatThrownBy(() -> api.create("/job", FakeSystemdDriverTest.LIMITS))
        .isInstanceOf(FakeCrash.class);
    fs.faults().recover();
    try (ContainerApi next = open()) { // the next process's create of the name works
      next.create("/job", FakeSystemdDriverTest.LIMITS);
      next.destroy("/job");
    }
    cleanupLeavesNothing();
  }

  @ParameterizedTest(
      name = "the process dies at cgroup write {0} of the first create; cleanup alone")
  @MethodSource("createMutations")
  void cleanupAloneClearsWhatADeathAtAnyWriteOfTheFirstCreateLeft(int k) {
    ContainerApi api = open(); // a process that dies never closes its API
    fs.faults().crashAt(k);
    assertThatThrownBy(() -> api.create("/job", FakeSystemdDriverTest.LIMITS))
        .isInstanceOf(FakeCrash.class);
    fs.faults().recover();
    cleanupLeavesNothing();
  }

  @org.junit.jupiter.api.Test
  void aCreateOfTheKeepersLeafHasWritesToBreak() {
    assertThat(createMutations().count()).isGreaterThan(5);
  }
}
