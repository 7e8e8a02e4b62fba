package org.lmctfy.systemd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.lmctfy.testing.CgroupAssertions.assertThatLmctfyException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.lmctfy.ApiOptions;
import org.lmctfy.CleanupReport;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.ListPolicy;
import org.lmctfy.LmctfyException;
import org.lmctfy.StatsType;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.systemdbus.SystemdException;
import org.lmctfy.testing.CgroupAssertions;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.FakeSnapshot;
import org.lmctfy.testing.FakeSystemd;

/**
 * The systemd driver on {@link FakeSystemd}: the unit is asked for at the first create and found
 * again by later APIs, reads make nothing, every refusal names the unit, the D-Bus error and the
 * remedy, and cleanup stops a unit that holds no container.
 */
class FakeSystemdDriverTest {
  static final ContainerSpec LIMITS =
      ContainerSpec.parse("cpu { max_limit: 500 } memory { limit: 64M } pids { limit: 64 }");
  static final CgroupPath UNIT = CgroupPath.of("/system.slice/lmctfy.service");

  private final FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.V2);
  private final FakeSystemd systemd = FakeSystemd.on(fs);
  private final Hierarchy unified = fs.hierarchies().get(0);
  private final FakeSnapshot booted = fs.snapshot();

  private ContainerApi open() {
    return ContainerApi.open(fs, systemd, ApiOptions.DEFAULTS);
  }

  private ContainerApi open(Duration systemdTimeout) {
    return ContainerApi.open(
        fs, systemd, ApiOptions.builder().systemdTimeout(systemdTimeout).build());
  }

  @Test
  void opening_andReading_makeNothingAndCallNobody() {
    try (ContainerApi api = open()) {
      assertThat(api.root()).isEqualTo(UNIT);
      assertThat(api.exists("/job")).isFalse();
      assertThat(api.get("/").listSubcontainers(ListPolicy.RECURSIVE)).isEmpty();
      assertThatLmctfyException(() -> api.get("/job")).hasCode(ErrorCode.NOT_FOUND);
    }
    assertThat(systemd.calls()).isEmpty();
    assertThat(fs.record().count()).isZero();
    CgroupAssertions.assertThat(fs).matches(booted);
  }

  @Test
  void theFirstCreateStartsTheUnitAndMovesItsKeeperIntoALeaf_theContainerGetsItsLimitsBelowIt()
      throws Exception {
    try (ContainerApi api = open()) {
      api.create("/job", LIMITS);
    }
    assertThat(systemd.calls())
        .containsSubsequence("connect SYSTEM uid 0", "StartTransientUnit lmctfy.service fail");
    assertThat(systemd.unit("lmctfy.service"))
        .hasValueSatisfying(
            u -> {
              assertThat(u.activeState()).isEqualTo("active");
              assertThat(u.controlGroup()).isEqualTo(UNIT);
            });
    assertThat(fs.read(unified, UNIT.resolve("job"), "memory.max").strip()).isEqualTo("67108864");
    assertThat(fs.read(unified, UNIT.resolve("job"), "cpu.max").strip()).isEqualTo("50000 100000");
    assertThat(fs.read(unified, UNIT.resolve("job"), "pids.max").strip()).isEqualTo("64");
    assertThat(fs.read(unified, UNIT, "cgroup.procs")).isBlank();
    assertThat(fs.read(unified, UNIT.resolve("lmctfy-keeper"), "cgroup.procs")).isNotBlank();
    try (ContainerApi api = open()) {
      assertThat(api.get("/").listSubcontainers(ListPolicy.SELF))
          .containsExactly("/job"); // not the keeper's leaf
    }
  }

  @Test
  void laterCreatesAndLaterApisMakeNoSystemdCallAtAll() {
    try (ContainerApi api = open()) {
      api.create("/a", LIMITS);
    }
    int calls = systemd.calls().size();
    try (ContainerApi api = open()) {
      api.create("/b", LIMITS);
      api.create("/b/c", LIMITS);
      api.destroy("/b");
      api.get("/a").stats(StatsType.SUMMARY);
    }
    assertThat(systemd.calls()).hasSize(calls);
  }

  @Test
  void cleanupStopsTheUnitOnceItHoldsNoContainer_andSystemdRemovesItsCgroups() {
    try (ContainerApi api = open()) {
      api.create("/job", LIMITS);
      assertThat(api.cleanup().removed()).isEmpty();
      assertThat(systemd.unit("lmctfy.service")).isPresent();
      api.destroy("/job");
      CleanupReport report = api.cleanup();
      assertThat(report.failures()).isEmpty();
      assertThat(report.removed())
          .singleElement()
          .asString()
          .contains("lmctfy.service", "held no container");
    }
    assertThat(systemd.unit("lmctfy.service")).isEmpty();
    CgroupAssertions.assertThat(fs).matches(booted);
    try (ContainerApi api = open()) { // and the next create starts it again
      api.create("/job", LIMITS);
      assertThat(api.exists("/job")).isTrue();
    }
  }

  @Test
  void closingAnApiThatDestroyedTheLastContainerStopsTheUnitWithOneCall() {
    try (ContainerApi api = open()) {
      api.create("/a", LIMITS);
      api.create("/b", LIMITS);
      api.destroy("/a");
      api.destroy("/b"); // the last one: no StopUnit yet (never one per destroy)
      assertThat(systemd.calls()).noneMatch(c -> c.startsWith("StopUnit"));
      assertThat(systemd.unit("lmctfy.service")).isPresent();
    }
    assertThat(systemd.calls()).filteredOn(c -> c.startsWith("StopUnit")).hasSize(1);
    assertThat(systemd.unit("lmctfy.service")).isEmpty();
    CgroupAssertions.assertThat(fs).matches(booted);
  }

  @Test
  void closingAnApiWhoseUnitHoldsAContainerLeavesItRunning_andAnotherApisCloseStopsItLater() {
    try (ContainerApi api = open()) {
      api.create("/job", LIMITS);
    }
    assertThat(systemd.unit("lmctfy.service"))
        .hasValueSatisfying(u -> assertThat(u.activeState()).isEqualTo("active"));
    try (ContainerApi reader = open()) { // reads change nothing: its close asks systemd nothing
      assertThat(reader.exists("/job")).isTrue();
    }
    assertThat(systemd.calls()).noneMatch(c -> c.startsWith("StopUnit"));
    try (ContainerApi next = open()) { // another program destroys the last container
      next.destroy("/job");
    }
    assertThat(systemd.unit("lmctfy.service")).isEmpty();
    CgroupAssertions.assertThat(fs).matches(booted);
  }

  @Test
  void aStopThatSystemdRefusesAtCloseIsThrownByCloseAfterEverythingElseIsClosed() {
    ContainerApi api = open();
    api.create("/job", LIMITS);
    api.destroy("/job");
    systemd.failNext("StopUnit", SystemdException.ACCESS_DENIED);
    assertThatThrownBy(api::close)
        .isInstanceOfSatisfying(
            LmctfyException.class, e -> assertThat(e.getMessage()).contains("lmctfy.service"));
    assertThat(systemd.openConnections()).isZero(); // the connection was closed all the same
    try (ContainerApi next = open()) { // and cleanup stops it later
      assertThat(next.cleanup().failures()).isEmpty();
    }
    assertThat(systemd.unit("lmctfy.service")).isEmpty();
  }

  @Test
  void aCreateRefusedAfterItStartedTheUnitStopsItAgain_leavingTheMachineAsItWas() {
    try (ContainerApi api = open()) {
      // refused by the plan (the unit must run for the plan to read its root) ...
      assertThatThrownBy(() -> api.create("/job", ContainerSpec.parse("cpu { mask: \"63\" }")))
          .isInstanceOfSatisfying(
              LmctfyException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
      assertThat(systemd.unit("lmctfy.service")).isEmpty();
      CgroupAssertions.assertThat(fs).matches(booted);
      // ... and by the kernel, half-way through the create
      fs.faults().failWhen(op -> "memory.max".equals(op.file()), org.lmctfy.cgroupfs.Errno.EINVAL);
      assertThatThrownBy(() -> api.create("/job", LIMITS))
          .isInstanceOfSatisfying(
              LmctfyException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
      assertThat(systemd.unit("lmctfy.service")).isEmpty();
      CgroupAssertions.assertThat(fs).matches(booted);
      assertThat(systemd.calls())
          .containsSubsequence(
              "StartTransientUnit lmctfy.service fail",
              "StopUnit lmctfy.service replace",
              "StartTransientUnit lmctfy.service fail",
              "StopUnit lmctfy.service replace");
      api.create("/job", LIMITS); // and a create that succeeds starts it once more
      assertThat(api.exists("/job")).isTrue();
    }
  }

  @Test
  void aCreateRefusedInAUnitThatHoldsAContainerLeavesTheUnit() {
    try (ContainerApi api = open()) {
      api.create("/job", LIMITS);
      assertThatThrownBy(() -> api.create("/other", ContainerSpec.parse("cpu { mask: \"63\" }")))
          .isInstanceOf(LmctfyException.class);
      assertThat(systemd.unit("lmctfy.service"))
          .hasValueSatisfying(u -> assertThat(u.activeState()).isEqualTo("active"));
      assertThat(api.exists("/job")).isTrue();
      assertThat(systemd.calls()).noneMatch(c -> c.startsWith("StopUnit"));
    }
  }

  @Test
  void aFailedUnitOfThatNameIsResetAndTheStartTriedOnceMore() {
    systemd.leaveFailedUnit("lmctfy.service");
    try (ContainerApi api = open()) {
      api.create("/job", LIMITS);
    }
    assertThat(systemd.calls())
        .containsSubsequence(
            "StartTransientUnit lmctfy.service fail",
            "GetUnit lmctfy.service",
            "ResetFailedUnit lmctfy.service",
            "StartTransientUnit lmctfy.service fail");
    assertThat(systemd.unit("lmctfy.service"))
        .hasValueSatisfying(u -> assertThat(u.activeState()).isEqualTo("active"));
  }

  @Test
  void aUnitThatAnotherProcessStartedAtTheSameInstantIsAdopted() throws Exception {
    systemd.onNext(
        "StartTransientUnit",
        () -> { // another process's start wins the race
          try (var other =
              systemd.connect(
                  org.lmctfy.systemdbus.SystemdManager.Scope.SYSTEM, Duration.ofSeconds(1))) {
            other.startTransientService(
                "lmctfy.service",
                "fail",
                new org.lmctfy.systemdbus.SystemdManager.TransientService(
                    "another process's", "system.slice", List.of("/usr/bin/sleep", "infinity")));
          } catch (java.io.IOException e) {
            throw new AssertionError(e);
          }
        });
    try (ContainerApi api = open()) {
      api.create("/job", LIMITS);
      assertThat(api.get("/").listSubcontainers(ListPolicy.SELF)).containsExactly("/job");
    }
    assertThat(systemd.calls())
        .containsSubsequence(
            "StartTransientUnit lmctfy.service fail",
            "StartTransientUnit lmctfy.service fail",
            "GetUnit lmctfy.service");
    assertThat(systemd.calls().stream().filter(c -> c.startsWith("StartTransientUnit"))).hasSize(2);
  }

  @Test
  void aUnitThatWentAwayBetweenTheRefusalAndTheLookIsStartedOnceMore() {
    systemd.failNext("StartTransientUnit", SystemdException.UNIT_EXISTS);
    try (ContainerApi api = open()) {
      api.create("/job", LIMITS);
    }
    assertThat(systemd.calls())
        .containsSubsequence(
            "StartTransientUnit lmctfy.service fail",
            "GetUnit lmctfy.service",
            "StartTransientUnit lmctfy.service fail");
  }

  @Test
  void
      aJobThatEndsOtherThanDoneIsUnavailableNamingTheUnitTheResultAndTheJournal_andLeavesNothing() {
    systemd.endNextJob("StartTransientUnit", "failed");
    try (ContainerApi api = open()) {
      assertThatThrownBy(() -> api.create("/job", LIMITS))
          .isInstanceOfSatisfying(
              LmctfyException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.UNAVAILABLE);
                assertThat(e.getMessage())
                    .contains("lmctfy.service", "'failed'", "journalctl -u lmctfy.service");
              });
    }
    assertThat(systemd.unit("lmctfy.service")).isEmpty();
    CgroupAssertions.assertThat(fs).matches(booted);
  }

  @Test
  void aJobWhoseSignalNeverComesEndsAtTheDeadlineNamingTheOption() {
    systemd.loseNextJobRemoved("StartTransientUnit");
    try (ContainerApi api = open(Duration.ofMillis(200))) {
      assertThatThrownBy(() -> api.create("/job", LIMITS))
          .isInstanceOfSatisfying(
              LmctfyException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.DEADLINE_EXCEEDED);
                assertThat(e.getMessage()).contains("lmctfy.service", "ApiOptions.systemdTimeout");
              });
      // systemd did start it: the next create adopts it, and cleanup stops it
      api.create("/job", LIMITS);
      api.destroy("/job");
      assertThat(api.cleanup().failures()).isEmpty();
    }
    CgroupAssertions.assertThat(fs).matches(booted);
  }

  @Test
  void signalsThatComeAfterTheAnswerFromAnotherThreadAreWaitedFor() {
    systemd.answerAfterReply(true);
    try (ContainerApi api = open()) {
      api.create("/job", LIMITS);
      api.destroy("/job");
      assertThat(api.cleanup().failures()).isEmpty();
    }
    assertThat(systemd.unit("lmctfy.service")).isEmpty();
  }

  @Test
  void polkitsRefusalIsPermissionDeniedNamingTheErrorAndTheRemedy() {
    systemd.failNext("StartTransientUnit", SystemdException.INTERACTIVE_AUTHORIZATION_REQUIRED);
    try (ContainerApi api = open()) {
      assertThatThrownBy(() -> api.create("/job", LIMITS))
          .isInstanceOfSatisfying(
              LmctfyException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION_DENIED);
                assertThat(e.getMessage())
                    .contains(
                        "lmctfy.service",
                        SystemdException.INTERACTIVE_AUTHORIZATION_REQUIRED,
                        "only root may ask the system manager");
              });
    }
    CgroupAssertions.assertThat(fs).matches(booted);
  }

  @Test
  void noManagerIsAFailedPreconditionSayingWhereItWasLookedFor() {
    systemd.unreachable(true);
    try (ContainerApi api = open()) {
      assertThat(api.exists("/job")).isFalse();
      assertThatThrownBy(() -> api.create("/job", LIMITS))
          .isInstanceOfSatisfying(
              LmctfyException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.FAILED_PRECONDITION);
                assertThat(e.getMessage())
                    .contains(SystemdException.NO_SERVER, "/run/systemd/private", "lmctfy.service");
              });
    }
    CgroupAssertions.assertThat(fs).matches(booted);
  }

  @Test
  void aDaemonReloadLeavesTheContainersLimitsAndControllers_unlikeInAUnitWithoutDelegate()
      throws Exception {
    try (ContainerApi api = open()) {
      api.create("/job", LIMITS);
    }
    String enabled = fs.read(unified, UNIT, "cgroup.subtree_control");
    systemd.daemonReload();
    assertThat(fs.read(unified, UNIT, "cgroup.subtree_control")).isEqualTo(enabled);
    assertThat(fs.read(unified, UNIT.resolve("job"), "memory.max").strip()).isEqualTo("67108864");
  }

  @Test
  void aManagerAndARootOrTheCgroupfsDriverExcludeEachOther() {
    assertThatLmctfyException(
            () ->
                ContainerApi.open(
                    fs, systemd, ApiOptions.builder().root(CgroupPath.of("/x")).build()))
        .hasCode(ErrorCode.INVALID_ARGUMENT);
    assertThatLmctfyException(
            () ->
                ContainerApi.open(
                    fs, systemd, ApiOptions.builder().driver(ApiOptions.Driver.CGROUPFS).build()))
        .hasCode(ErrorCode.INVALID_ARGUMENT);
  }

  @Test
  void overAFakeWithoutAManagerTheDefaultDriverIsCgroupfsAsBefore() {
    try (ContainerApi api = ContainerApi.open(fs)) {
      assertThat(api.root()).isEqualTo(CgroupPath.of("/system.slice/app.service"));
    }
    assertThat(systemd.calls()).isEmpty();
  }

  @Test
  void closingTheApiClosesItsConnection() {
    try (ContainerApi api = open()) {
      api.create("/job", LIMITS);
      assertThat(systemd.openConnections()).isEqualTo(1);
    }
    assertThat(systemd.openConnections()).isZero();
  }

  @Test
  void aUnitStoppedBehindTheApisBackIsStartedAgainByTheNextCreate() {
    try (ContainerApi api = open()) {
      api.create("/a", LIMITS);
      systemd.stop(
          "lmctfy.service"); // an administrator's systemctl stop: the containers go with it
      assertThat(api.exists("/a")).isFalse();
      api.create("/b", LIMITS);
      assertThat(api.exists("/b")).isTrue();
    }
  }

  @Test
  void threadsCreatingAtOnceStartTheUnitOnce() throws Exception {
    List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    try (ContainerApi api = open()) {
      for (int i = 0; i < 4; i++) {
        String name = "/job" + i;
        Thread t =
            new Thread(
                () -> {
                  try {
                    go.await();
                    api.create(name, LIMITS);
                  } catch (Throwable e) {
                    failures.add(e);
                  }
                });
        t.start();
        threads.add(t);
      }
      go.countDown();
      for (Thread t : threads) {
        t.join();
      }
      assertThat(api.get("/").listSubcontainers(ListPolicy.SELF))
          .containsExactly("/job0", "/job1", "/job2", "/job3");
    }
    assertThat(failures).isEmpty();
    assertThat(systemd.calls().stream().filter(c -> c.startsWith("StartTransientUnit"))).hasSize(1);
  }

  @Test
  void aProcessInAUnitSystemdDelegatedUsesItsOwnUnitAndAsksSystemdNothing() throws Exception {
    CgroupPath own = CgroupPath.of("/system.slice/app.service");
    fs.markDelegated(own);
    try (ContainerApi api = open()) {
      assertThat(api.root()).isEqualTo(own);
      api.create("/job", LIMITS); // no initMachine: the process moves into a leaf by itself
      assertThat(fs.read(unified, own.resolve("job"), "memory.max").strip()).isEqualTo("67108864");
    }
    assertThat(fs.cgroupsOf(fs.selfPid())).containsEntry(unified, own.resolve("lmctfy-supervisor"));
    assertThat(systemd.calls()).isEmpty();
  }

  // ---- a user who is not root: the user's own manager

  static final int UID = 1000;
  static final CgroupPath USER_UNIT =
      CgroupPath.of("/user.slice/user-1000.slice/user@1000.service/app.slice/lmctfy.service");

  private ContainerApi openAsUser() {
    return ContainerApi.open(fs.asUser(UID, UID), systemd.asUser(UID), ApiOptions.DEFAULTS);
  }

  @Test
  void aUserGetsRealContainersInAUnitOfTheirOwnManagerWithTheControllersItDelegates()
      throws Exception {
    systemd.startUserManager(UID);
    try (ContainerApi api = openAsUser()) {
      assertThat(api.root()).isEqualTo(USER_UNIT);
      Container job = api.create("/job", LIMITS);
      assertThat(job.spec()).isEqualTo(api.normalise(LIMITS));
    }
    assertThat(systemd.calls())
        .containsSubsequence("connect USER uid 1000", "StartTransientUnit lmctfy.service fail");
    assertThat(fs.read(unified, USER_UNIT.resolve("job"), "cpu.max").strip())
        .isEqualTo("50000 100000");
    assertThat(fs.read(unified, USER_UNIT, "cgroup.controllers").strip())
        .isEqualTo("cpu memory pids");
  }

  @Test
  void aUsersRunMovesTheCallerIntoAScopeOfItsManagerOnceAndPlacesTheProgramFromThere()
      throws Exception {
    systemd.startUserManager(UID);
    fs.chown(
        unified,
        CgroupPath.of("/system.slice/app.service"),
        null,
        UID,
        UID); // a service with User=
    try (ContainerApi api = openAsUser()) {
      Container job = api.create("/job", LIMITS);
      long first = job.run(List.of("/bin/true"), org.lmctfy.spec.RunSpec.detached()).pid();
      long second = job.run(List.of("/bin/true"), org.lmctfy.spec.RunSpec.detached()).pid();
      assertThat(job.listProcesses(ListPolicy.SELF)).containsExactlyInAnyOrder(first, second);
    }
    CgroupPath scope = USER_UNIT.parent().resolve("lmctfy-" + fs.selfPid() + ".scope");
    assertThat(fs.cgroupsOf(fs.selfPid())).containsEntry(unified, scope);
    assertThat(systemd.calls().stream().filter(c -> c.startsWith("StartTransientUnit lmctfy-")))
        .hasSize(1);
  }

  @Test
  void aSpecNeedingAControllerTheUserManagerDoesNotDelegateNamesItAndTheDropInThatDelegatesIt() {
    systemd.startUserManager(UID);
    try (ContainerApi api = openAsUser()) {
      assertThatThrownBy(() -> api.create("/pinned", ContainerSpec.parse("cpu { mask: \"0\" }")))
          .isInstanceOfSatisfying(
              LmctfyException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.FAILED_PRECONDITION);
                assertThat(e.getMessage())
                    .contains(
                        "cpuset",
                        "/etc/systemd/system/user@.service.d/delegate.conf",
                        "[Service]",
                        "Delegate=cpu cpuset io memory pids",
                        "systemctl daemon-reload",
                        "log in again");
              });
      assertThat(api.exists("/pinned")).isFalse();
    }
  }

  @Test
  void withTheDropInTheUsersManagerDelegatesCpusetToo() {
    systemd.startUserManager(UID, Set.of("cpu", "cpuset", "io", "memory", "pids"));
    try (ContainerApi api = openAsUser()) {
      api.create("/pinned", ContainerSpec.parse("cpu { mask: \"0\" }"));
      assertThat(api.exists("/pinned")).isTrue();
    }
  }

  @Test
  void aUserWithoutAManagerReadsNothingAndIsToldHowToGetOneAtTheFirstCreate() {
    try (ContainerApi api = openAsUser()) {
      assertThat(api.get("/").listSubcontainers(ListPolicy.SELF)).isEmpty();
      assertThatThrownBy(() -> api.create("/job", LIMITS))
          .isInstanceOfSatisfying(
              LmctfyException.class,
              e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.FAILED_PRECONDITION);
                assertThat(e.getMessage())
                    .contains(
                        "no systemd user manager answers for uid 1000",
                        "loginctl enable-linger",
                        "systemctl start user@1000.service",
                        "XDG_RUNTIME_DIR");
              });
    }
    assertThat(fs.record().count()).isZero();
  }

  @Test
  void aUsersReadsOfItsContainersMakeNothing() throws Exception {
    systemd.startUserManager(UID);
    try (ContainerApi api = openAsUser()) {
      api.create("/job", LIMITS);
    }
    fs.record().clear();
    int calls = systemd.calls().size();
    CgroupFs user = fs.asUser(UID, UID);
    try (ContainerApi api = ContainerApi.open(user, systemd.asUser(UID), ApiOptions.DEFAULTS)) {
      assertThat(api.get("/").listSubcontainers(ListPolicy.RECURSIVE)).containsExactly("/job");
      assertThat(api.get("/job").spec()).isEqualTo(api.normalise(LIMITS));
      assertThat(api.get("/job").stats(StatsType.SUMMARY)).isNotNull();
      assertThat(api.stats(List.of("/job"), StatsType.FULL)).containsOnlyKeys("/job");
    }
    assertThat(fs.record().count()).isZero();
    assertThat(systemd.calls()).hasSize(calls);
  }

  @Test
  void aUsersUnitIsStoppedByCleanupWhenEmpty() {
    systemd.startUserManager(UID);
    try (ContainerApi api = openAsUser()) {
      api.create("/job", LIMITS);
      api.destroy("/job");
      assertThat(api.cleanup().failures()).isEmpty();
    }
    assertThat(systemd.userUnit(UID, "lmctfy.service")).isEmpty();
    CgroupAssertions.assertThat(fs).hasNoCgroup("unified:" + USER_UNIT.value());
  }
}
