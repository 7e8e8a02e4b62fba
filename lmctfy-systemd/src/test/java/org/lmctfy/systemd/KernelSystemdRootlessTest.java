package org.lmctfy.systemd;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.systemd.SystemdGuest.Result;

/**
 * A user who is not root, in a service running as that user (not in a delegated unit), with plain
 * {@code ContainerApi.open()}: containers in {@code lmctfy.service} of the user's own manager
 * ({@code user@64990.service}, started as a login or lingering would), with the controllers a stock
 * manager delegates; cpuset refused naming the drop-in; reads that make nothing; and, with no
 * manager, a clear error naming the remedy.
 */
@Tag("kernel")
@Tag("needs-systemd")
class KernelSystemdRootlessTest {
  static final String MANAGER = "/user.slice/user-64990.slice/user@64990.service";
  static final String UNIT = MANAGER + "/app.slice/lmctfy.service";
  static String classPath;

  @BeforeAll
  static void aUserWithAManager() throws Exception {
    classPath = SystemdGuest.classPathForUser(Path.of("/tmp/lmctfy-user-classpath"));
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
    assertThat(
            SystemdGuest.run("systemctl", "start", "user@" + SystemdGuest.UID + ".service")
                .status())
        .isZero();
    asUser("cleanup");
  }

  private static Result asUser(String... args) throws Exception {
    return SystemdGuest.asUser("lmctfy-test-user.service", SystemdGuest.scenario(classPath, args));
  }

  @Test
  void aUserGetsRealContainersWithCpuMemoryAndPidsLimitsUnderItsOwnManager() throws Exception {
    Result r = asUser("lifecycle");
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
        .containsEntry("sleeper.alive", "false");
    assertThat(v.get("run.output")).isEqualTo("0::" + UNIT + "/job");
    assertThat(SystemdGuest.read(UNIT, "cgroup.controllers")).isEqualTo("cpu memory pids");
    assertThat(Files.getOwner(SystemdGuest.CGROUP.resolve(UNIT.substring(1))).getName())
        .isEqualTo(SystemdGuest.USER);
    Result cleanup = asUser("cleanup");
    assertThat(cleanup.output()).contains("removed=").doesNotContain("failure=");
    assertThat(SystemdGuest.exists(UNIT)).isFalse();
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
    assertThat(SystemdGuest.exists(UNIT)).isFalse();
    // (not systemctl --user -M: its session's end makes logind stop the user's manager 10 s later)
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
