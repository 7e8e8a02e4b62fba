package org.lmctfy.systemd;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.systemd.SystemdGuest.Result;

/**
 * A user who is not root, with plain {@code ContainerApi.open()} and the README's dependencies, in
 * a system service running as that user, in a login session ({@code runuser -l}) and in a service
 * of the user's own manager ({@code systemd-run --user}): containers in {@code lmctfy.service} of
 * the user's own manager ({@code user@64990.service}, started as a login or lingering would), with
 * the controllers a stock manager delegates, and no unit left once the API is closed; cpuset
 * refused naming the drop-in; reads that make nothing; and, with no manager, a clear error naming
 * the remedy.
 */
@Tag("kernel")
@Tag("needs-systemd")
class KernelSystemdRootlessTest {
  static final String MANAGER = "/user.slice/user-64990.slice/user@64990.service";
  static final String UNIT = MANAGER + "/app.slice/lmctfy.service";
  static String classPath;

  @BeforeAll
  static void aUserWithAManager() throws Exception {
    classPath =
        SystemdGuest.classPathForUser(
            Path.of("/tmp/lmctfy-user-classpath"), SystemdGuest.classPath());
    Result started =
        SystemdGuest.run("systemctl", "start", "user@" + SystemdGuest.UID + ".service");
    assertThat(started.status()).as(started.output()).isZero();
  }

  @AfterAll
  static void stopTheManager() throws Exception {
    SystemdGuest.run("systemctl", "stop", "user@" + SystemdGuest.UID + ".service");
  }

  @BeforeEach
  void withAManagerAndNoUnit() throws Exception {
    Result started =
        SystemdGuest.run("systemctl", "start", "user@" + SystemdGuest.UID + ".service");
    assertThat(started.status()).as(started.output()).isZero();
    asUser("cleanup");
  }

  private static Result asUser(String... args) throws Exception {
    return SystemdGuest.asUser("lmctfy-test-user.service", SystemdGuest.scenario(classPath, args));
  }

  /** What the lifecycle scenario shows of a user's containers, wherever the user's JVM runs. */
  private static Map<String, String> userContainersWithLimits(Result r) {
    assertThat(r.status()).as(r.output()).isZero();
    Map<String, String> v = r.values();
    assertThat(v)
        .containsEntry("root", UNIT)
        .containsEntry("cgroup", UNIT + "/job")
        .containsEntry("memory.max", "67108864")
        .containsEntry("cpu.max", "50000 100000")
        .containsEntry("pids.max", "64")
        .containsEntry("root.procs", "")
        .containsEntry("run.status", "3")
        .containsEntry("paused.freeze", "1")
        .containsEntry("resumed.freeze", "0")
        .containsEntry("destroyed.exists", "false")
        .containsEntry("sleeper.alive", "false")
        // while /job lived, the user's manager showed the unit
        .containsEntry("unit.ActiveState", "active")
        .containsEntry("unit.Delegate", "yes")
        .containsEntry("unit.ControlGroup", UNIT)
        .containsEntry("root.controllers", "cpu memory pids") // what a stock manager delegates
        .containsEntry("root.owner", Integer.toString(SystemdGuest.UID));
    assertThat(v.get("run.output")).isEqualTo("0::" + UNIT + "/job");
    assertThat(v.get("lmctfy-keeper.procs")).isNotBlank();
    return v;
  }

  /**
   * The user's JVM has ended: neither the user's manager nor PID 1 lists an lmctfy unit (a scope
   * that stops with its JVM is waited for, 10 s), and the unit's cgroup is gone; no cleanup()
   * asked.
   */
  private static void noUnitLeft() throws Exception {
    List<String> units = SystemdGuest.userUnits();
    for (int i = 0; i < 100 && !units.isEmpty(); i++) {
      Thread.sleep(100);
      units = SystemdGuest.userUnits();
    }
    assertThat(units).as("systemctl --user list-units --all 'lmctfy*'").isEmpty();
    assertThat(SystemdGuest.systemUnits()).as("systemctl list-units --all 'lmctfy*'").isEmpty();
    assertThat(SystemdGuest.exists(UNIT)).isFalse();
  }

  @Test
  void aUserGetsRealContainersWithCpuMemoryAndPidsLimitsUnderItsOwnManager() throws Exception {
    Map<String, String> v = userContainersWithLimits(asUser("lifecycle"));
    assertThat(v).containsEntry("self.cgroup", "/system.slice/lmctfy-test-user.service");
    // the API closed: the user's manager lists only the scope around this JVM (made for its runs:
    // a system service is outside the manager's tree), which goes with the JVM
    assertThat(v.get("closed.user.units")).isEqualTo("lmctfy-" + v.get("self.pid") + ".scope");
    noUnitLeft();
  }

  /**
   * Issue 40's "done when" for a user, and issue 41's user in a login session: the README's
   * dependencies in a real logind session ({@code runuser -l}, through PAM and pam_systemd).
   */
  @Test
  void aUserInALoginSessionGetsContainersWithLimitsAndClosingTheApiLeavesNoUnit() throws Exception {
    try {
      Result r = SystemdGuest.inLoginSession(SystemdGuest.scenario(classPath, "lifecycle"));
      System.out.println("aUserInALoginSession:\n" + r.output());
      Map<String, String> v = userContainersWithLimits(r);
      String session = v.get("session.id");
      assertThat(session).as("pam_systemd registered a logind session").isNotBlank();
      assertThat(v.get("session.list"))
          .contains(session + " " + SystemdGuest.UID + " " + SystemdGuest.USER);
      assertThat(v)
          .containsEntry("session.Name", SystemdGuest.USER)
          .containsEntry("session.runtime", "/run/user/" + SystemdGuest.UID)
          .containsEntry(
              "self.cgroup",
              "/user.slice/user-" + SystemdGuest.UID + ".slice/session-" + session + ".scope");
      // closed: the user's manager lists only the scope around the JVM, which goes with it
      assertThat(v.get("closed.user.units")).isEqualTo("lmctfy-" + v.get("self.pid") + ".scope");
      // the JVM ended, still in the session: nothing, as the user and PID 1 list it
      assertThat(v.get("after.user.units")).isBlank();
      assertThat(SystemdGuest.words(v.get("after.system.units")))
          .containsExactlyInAnyOrderElementsOf(SystemdGuest.JOB_UNITS);
      assertThat(SystemdGuest.exists(UNIT)).isFalse();
    } finally {
      endTheUsersSessions();
    }
  }

  /** Issue 41's user service: the JVM in a service of the user's own manager. */
  @Test
  void aUserServiceOfTheUsersOwnManagerGetsContainersWithLimitsAndClosingTheApiLeavesNoUnit()
      throws Exception {
    String own = "lmctfy-test-user-service.service";
    Result r = SystemdGuest.inUserService(own, SystemdGuest.scenario(classPath, "lifecycle"));
    System.out.println("aUserService:\n" + r.output());
    Map<String, String> v = userContainersWithLimits(r);
    assertThat(v).containsEntry("self.cgroup", MANAGER + "/app.slice/" + own);
    // closed: the user's manager lists only this JVM's own service (in its tree: no scope needed)
    assertThat(v.get("closed.user.units")).isEqualTo(own);
    noUnitLeft();
  }

  /**
   * After a login session: logind stops a user's manager 10 s after their last session ends, which
   * would reach into the next test; end it now and wait for it.
   */
  private static void endTheUsersSessions() throws Exception {
    SystemdGuest.run("loginctl", "terminate-user", SystemdGuest.USER);
    // logind stops the manager, then user-runtime-dir@ (a start of the manager before that one
    // has stopped fails, Debian 13), then forgets the user
    List<String> units =
        List.of(
            "user@" + SystemdGuest.UID + ".service",
            "user-runtime-dir@" + SystemdGuest.UID + ".service");
    for (int i = 0; i < 300; i++) {
      boolean stopped = true;
      for (String unit : units) {
        String state = SystemdGuest.show(unit, "ActiveState").get("ActiveState");
        stopped &= !"active".equals(state) && !"deactivating".equals(state);
      }
      if (stopped
          && SystemdGuest.run("loginctl", "show-user", Integer.toString(SystemdGuest.UID)).status()
              != 0) {
        break;
      }
      Thread.sleep(100);
    }
    List<String> reset = new ArrayList<>(List.of("systemctl", "reset-failed"));
    reset.addAll(units);
    SystemdGuest.run(reset);
  }

  @Test
  void aCpusetSpecIsRefusedNamingTheControllerAndTheDropInThatDelegatesIt() throws Exception {
    Result r = asUser("cpuset");
    assertThat(r.status()).as(r.output()).isZero();
    assertThat(r.value("cpuset"))
        .startsWith("FAILED_PRECONDITION")
        .contains(
            "cpuset",
            "/etc/systemd/system/user@.service.d/delegate.conf",
            "Delegate=cpu cpuset io memory pids",
            "systemctl daemon-reload",
            "log in again");
    assertThat(SystemdGuest.exists(UNIT))
        .as("the refused create stopped the unit it started")
        .isFalse();
  }

  @Test
  void readsMakeNoUnitNoLockDirectoryAndNoLockFile() throws Exception {
    Path locks = Path.of("/run/user/" + SystemdGuest.UID + "/lmctfy");
    SystemdGuest.run("rm", "-rf", locks.toString()); // as if no create had ever run
    Result first = asUser("reads");
    assertThat(first.status()).as(first.output()).isZero();
    assertThat(first.values())
        .containsEntry("list", "[]")
        .containsEntry("exists", "false")
        .containsEntry("detect", "NOT_FOUND");
    assertThat(SystemdGuest.exists(UNIT)).isFalse();
    assertThat(locks).doesNotExist();
    assertThat(asUser("create", "/job").status()).isZero();
    List<Path> lockFiles = listing(locks.resolve("locks"));
    Result second = asUser("reads");
    assertThat(second.status()).as(second.output()).isZero();
    assertThat(second.values()).containsEntry("list", "[/job]").containsEntry("stats /job", "true");
    assertThat(second.value("spec /job")).contains("67108864");
    assertThat(listing(locks.resolve("locks"))).isEqualTo(lockFiles);
    assertThat(asUser("destroy", "/job").status()).isZero();
    noUnitLeft(); // the destroy of the last container, then the close
  }

  @Test
  void withoutAUserManagerACreateIsAFailedPreconditionNamingTheRemedyAndReadsFindNothing()
      throws Exception {
    assertThat(
            SystemdGuest.run("systemctl", "stop", "user@" + SystemdGuest.UID + ".service").status())
        .isZero();
    Result reads = asUser("reads");
    assertThat(reads.status()).as(reads.output()).isZero();
    assertThat(reads.value("list")).isEqualTo("[]");
    Result create = asUser("create", "/job");
    assertThat(create.status()).isEqualTo(1);
    assertThat(create.output())
        .contains(
            "FAILED FAILED_PRECONDITION",
            "no systemd user manager answers for uid 64990",
            "loginctl enable-linger",
            "systemctl start user@64990.service");
  }

  @Test
  void sigkillsOfAUsersJvmAtRandomInstantsThenTheUsersCleanupLeaveNoUnitAndNoCgroup()
      throws Exception {
    int kills = Math.max(2, 20 / KernelSystemdDriverTest.scale());
    Path ready = Files.createTempDirectory("lmctfy-user-kill");
    Files.setPosixFilePermissions(
        ready, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
    for (int i = 0; i < kills; i++) {
      String unit = "lmctfy-test-user-kill-" + i + ".service";
      Path file = ready.resolve("ready-" + i);
      List<String> start =
          new java.util.ArrayList<>(
              List.of(
                  "systemd-run",
                  "--unit=" + unit,
                  "--collect",
                  "--quiet",
                  "-p",
                  "Type=exec",
                  "--uid=" + SystemdGuest.UID,
                  "--gid=" + SystemdGuest.UID,
                  "-E",
                  "XDG_RUNTIME_DIR=/run/user/" + SystemdGuest.UID,
                  "-E",
                  "HOME=/run/lmctfy-user"));
      start.addAll(SystemdGuest.scenario(classPath, "loop", file.toString(), "/a", "/a/b", "/c"));
      SystemdGuest.killAtRandomInstant(unit, start, file);
    }
    Result destroy = asUser("destroy-all");
    assertThat(destroy.status()).as(destroy.output()).isZero();
    Result cleanup = asUser("cleanup");
    assertThat(cleanup.status()).as(cleanup.output()).isZero();
    assertThat(cleanup.output()).doesNotContain("failure=");
    noUnitLeft();
    Result reads = asUser("reads");
    assertThat(reads.status()).as(reads.output()).isZero();
    assertThat(reads.value("list")).isEqualTo("[]");
  }

  private static List<Path> listing(Path dir) throws Exception {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (var s = Files.list(dir)) {
      return s.sorted().toList();
    }
  }
}
