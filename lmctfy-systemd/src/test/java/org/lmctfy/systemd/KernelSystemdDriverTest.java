package org.lmctfy.systemd;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.systemd.SystemdGuest.Result;

/**
 * The systemd driver under a real systemd (252 and 257, PID 1 of the {@code systemd} guests): a
 * program in an ordinary service, with plain {@code ContainerApi.open()} and no initMachine, gets
 * containers with limits in {@code lmctfy.service}; systemd shows the unit and its daemon-reload
 * leaves the limits; once a program has destroyed its last container and closed its API, the unit
 * is gone (no cleanup asked); SIGKILLs at random instants followed by cleanup leave no unit and no
 * cgroup; two JVMs at once both work; an OOM kill in one container stops nothing else; a program in
 * a unit with {@code Delegate=yes} keeps its containers in its own unit, as before; and without
 * lmctfy-systemd a program's first create is refused naming it. Each program runs with the class
 * path of one that follows the README ({@link SystemdGuest#classPath}).
 */
@Tag("kernel")
@Tag("needs-systemd")
class KernelSystemdDriverTest {
  static final String UNIT = "/system.slice/lmctfy.service";

  @BeforeEach
  void onSystemd() throws Exception {
    stopTheUnit();
  }

  @AfterEach
  void stopTheUnit() throws Exception {
    SystemdGuest.run("systemctl", "stop", "lmctfy.service");
    SystemdGuest.run("systemctl", "reset-failed", "lmctfy.service");
  }

  private static Result plain(String unit, String... args) throws Exception {
    return SystemdGuest.inUnit(
        unit, List.of(), SystemdGuest.scenario(SystemdGuest.classPath(), args));
  }

  /**
   * Nothing of lmctfy's is left on the machine: no unit of that name (loaded or failed), no cgroup,
   * and {@code systemctl list-units --all 'lmctfy*'} lists nothing but the guest's job.
   */
  private static void noUnitAndNoCgroup() throws Exception {
    assertThat(SystemdGuest.show("lmctfy.service", "LoadState").get("LoadState"))
        .isEqualTo("not-found");
    assertThat(SystemdGuest.exists(UNIT)).isFalse();
    assertThat(SystemdGuest.systemUnits()).isEmpty();
  }

  /**
   * A program destroys every container left and closes its API: the unit goes with the close, no
   * cleanup() asked.
   */
  private static void destroyingTheLastContainerAndClosingLeavesNoUnit() throws Exception {
    Result destroy = plain("lmctfy-test-destroy-all.service", "destroy-all");
    assertThat(destroy.status()).as(destroy.output()).isZero();
    noUnitAndNoCgroup();
  }

  // the proof of issue 40's "done when" for root: the README's dependencies, a plain service
  @Test
  void rootInAPlainServiceGetsContainersWithLimitsInLmctfyServiceWithoutInitMachine()
      throws Exception {
    Result r = plain("lmctfy-test-plain.service", "lifecycle");
    System.out.println("rootInAPlainService:\n" + r.output());
    assertThat(r.status()).as(r.output()).isZero();
    Map<String, String> v = r.values();
    assertThat(v)
        .containsEntry("self.cgroup", "/system.slice/lmctfy-test-plain.service")
        .containsEntry("root", UNIT)
        .containsEntry("cgroup", UNIT + "/job")
        .containsEntry("memory.max", "67108864")
        .containsEntry("cpu.max", "50000 100000")
        .containsEntry("pids.max", "64")
        .containsEntry("root.procs", "") // the keeper moved into lmctfy-keeper
        .containsEntry("run.status", "3")
        .containsEntry("paused.freeze", "1")
        .containsEntry("resumed.freeze", "0")
        .containsEntry("destroyed.exists", "false")
        .containsEntry("sleeper.alive", "false")
        // while /job lived, PID 1 showed the unit
        .containsEntry("unit.ActiveState", "active")
        .containsEntry("unit.Delegate", "yes")
        .containsEntry("unit.ControlGroup", UNIT)
        .containsEntry("unit.Type", "exec");
    assertThat(v.get("lmctfy-keeper.procs")).isNotBlank();
    assertThat(v.get("run.output")).isEqualTo("0::" + UNIT + "/job");
    assertThat(v.get("paused.events")).contains("frozen 1");
    assertThat(v.get("root.subtree_control")).contains("cpu", "memory", "pids");
    assertThat(Long.parseLong(v.get("stats.memory"))).isPositive();
    // the API closed: its unit is gone before the JVM ends (only its own unit and the job's left)
    assertThat(SystemdGuest.words(v.get("closed.system.units")))
        .containsExactlyInAnyOrderElementsOf(
            concat(SystemdGuest.JOB_UNITS, List.of("lmctfy-test-plain.service")));
    noUnitAndNoCgroup(); // no cleanup() asked
  }

  /**
   * Issue 40, item 8: a program with lmctfy-core alone (no lmctfy-systemd) in a plain service
   * reads, and has its first create, and initMachine, refused naming the artifact; nothing is made.
   */
  @Test
  void withoutLmctfySystemdTheFirstCreateIsRefusedNamingTheArtifactAndNothingIsMade()
      throws Exception {
    SystemdGuest.run("rm", "-rf", "/run/lmctfy"); // the root's lock directory: made by no read
    Result r =
        SystemdGuest.inUnit(
            "lmctfy-test-core-only.service",
            List.of(),
            SystemdGuest.scenario(SystemdGuest.coreOnlyClassPath(), "without-module"));
    System.out.println("withoutLmctfySystemd:\n" + r.output());
    assertThat(r.status()).as(r.output()).isZero();
    Map<String, String> v = r.values();
    assertThat(v)
        .containsEntry("self.cgroup", "/system.slice/lmctfy-test-core-only.service")
        .containsEntry("root", "/system.slice/lmctfy-test-core-only.service")
        .containsEntry("list", "[]")
        .containsEntry("exists", "false")
        .containsEntry("detect", "/")
        .containsEntry("initMachine", "FAILED_PRECONDITION")
        .containsEntry("own.children", "[]")
        .containsEntry("own.subtree_control", "")
        .containsEntry("own.procs.self", "true");
    assertThat(v.get("create"))
        .startsWith("FAILED_PRECONDITION: ")
        .contains("org.lmctfy:lmctfy-systemd", "Delegate=yes", "nothing was changed")
        .doesNotContain("initMachine");
    assertThat(Path.of("/run/lmctfy")).doesNotExist();
    noUnitAndNoCgroup();
  }

  @Test
  void aRefusedFirstCreateLeavesNoUnitAndNoCgroup() throws Exception {
    Result r = plain("lmctfy-test-refused.service", "refused");
    assertThat(r.status()).as(r.output()).isZero();
    assertThat(r.value("refused")).isEqualTo("INVALID_ARGUMENT");
    noUnitAndNoCgroup();
  }

  @Test
  void theUnitShowsInSystemctlStatusAndADaemonReloadLeavesTheLimitsOfItsContainers()
      throws Exception {
    Result created = plain("lmctfy-test-create.service", "create", "/kept");
    assertThat(created.status()).as(created.output()).isZero();
    Result status = SystemdGuest.run("systemctl", "status", "--no-pager", "lmctfy.service");
    assertThat(status.output())
        .contains(
            "lmctfy.service",
            "active (running)",
            "CGroup: " + UNIT,
            "lmctfy-keeper",
            "sleep infinity");
    String subtree = SystemdGuest.read(UNIT, "cgroup.subtree_control");
    List<String> before =
        List.of(
            SystemdGuest.read(UNIT + "/kept", "memory.max"),
            SystemdGuest.read(UNIT + "/kept", "cpu.max"),
            SystemdGuest.read(UNIT + "/kept", "pids.max"));
    assertThat(before).containsExactly("67108864", "50000 100000", "64");
    assertThat(SystemdGuest.run("systemctl", "daemon-reload").status()).isZero();
    assertThat(SystemdGuest.read(UNIT, "cgroup.subtree_control")).isEqualTo(subtree);
    assertThat(
            List.of(
                SystemdGuest.read(UNIT + "/kept", "memory.max"),
                SystemdGuest.read(UNIT + "/kept", "cpu.max"),
                SystemdGuest.read(UNIT + "/kept", "pids.max")))
        .isEqualTo(before);
    destroyingTheLastContainerAndClosingLeavesNoUnit();
  }

  // systemd 252 takes the controllers back at the daemon-reload already, 257 at the set-property
  // (it keeps an unchanged unit's cgroup across a reload): either way they are gone at the end
  @Test
  void
      theCgroupfsDriverInAUnitWithoutDelegateLosesItsControllersWhenSystemdReappliesTheUnit_whichIsWhyTheDriverExists()
          throws Exception {
    Result r = plain("lmctfy-test-cgroupfs.service", "cgroupfs-reload");
    assertThat(r.status()).as(r.output()).isZero();
    assertThat(r.values())
        .containsEntry("before.memory.max", "true")
        .containsEntry("reload.status", "0")
        .containsEntry("set-property.status", "0")
        .containsEntry("after.subtree_control", "")
        .containsEntry("after.memory.max", "false");
  }

  @Test
  void sigkillsAtRandomInstantsThenCleanupLeaveNoUnitAndNoCgroup() throws Exception {
    int kills = Math.max(2, 200 / scale());
    Path ready = Files.createTempDirectory("lmctfy-kill");
    for (int i = 0; i < kills; i++) {
      String unit = "lmctfy-test-kill-" + i + ".service";
      Path file = ready.resolve("ready-" + i);
      List<String> start =
          new ArrayList<>(
              List.of("systemd-run", "--unit=" + unit, "--collect", "--quiet", "-p", "Type=exec"));
      start.addAll(
          SystemdGuest.scenario(
              SystemdGuest.classPath(), "loop", file.toString(), "/a", "/a/b", "/c"));
      SystemdGuest.killAtRandomInstant(unit, start, file);
    }
    Result cleanup = plain("lmctfy-test-cleanup.service", "cleanup");
    assertThat(cleanup.status()).as(cleanup.output()).isZero();
    assertThat(cleanup.output()).doesNotContain("failure=");
    Result reads = plain("lmctfy-test-reads.service", "reads");
    assertThat(reads.status()).as(reads.output()).isZero(); // what is left is whole containers only
    destroyingTheLastContainerAndClosingLeavesNoUnit();
  }

  @Test
  void twoJvmsCreatingDestroyingAndCleaningUpAtOnceBothWork() throws Exception {
    int rounds = Math.max(3, 30 / scale());
    CompletableFuture<Result> one =
        CompletableFuture.supplyAsync(
            () ->
                unchecked(
                    () ->
                        plain(
                            "lmctfy-test-jvm1.service",
                            "rounds",
                            Integer.toString(rounds),
                            "/x1",
                            "/x1/y",
                            "/x2")));
    CompletableFuture<Result> two =
        CompletableFuture.supplyAsync(
            () ->
                unchecked(
                    () ->
                        plain(
                            "lmctfy-test-jvm2.service",
                            "rounds",
                            Integer.toString(rounds),
                            "/z1",
                            "/z2",
                            "/z2/y")));
    for (Result r : List.of(one.get(), two.get())) {
      assertThat(r.status()).as(r.output()).isZero();
      assertThat(r.output()).doesNotContain("failure=").contains("rounds=" + rounds);
    }
    noUnitAndNoCgroup(); // the last JVM to close found the unit empty and stopped it
  }

  @Test
  void anOomKillInOneContainerStopsNeitherTheUnitNorTheOtherContainers() throws Exception {
    Result r = plain("lmctfy-test-oom.service", "oom");
    assertThat(r.status()).as(r.output()).isZero();
    assertThat(r.value("hog.status")).isEqualTo("137");
    assertThat(Long.parseLong(r.value("small.oom_kill"))).isPositive();
    assertThat(SystemdGuest.show("lmctfy.service", "ActiveState").get("ActiveState"))
        .isEqualTo("active");
    assertThat(SystemdGuest.exists(UNIT + "/other")).isTrue(); // it holds /other: it stays
    destroyingTheLastContainerAndClosingLeavesNoUnit();
  }

  @Test
  void aProgramInAUnitWithDelegateYesKeepsItsContainersInItsOwnUnit_withOrWithoutInitMachine()
      throws Exception {
    String own = "/system.slice/lmctfy-test-delegated.service";
    Result r =
        SystemdGuest.inUnit(
            "lmctfy-test-delegated.service",
            List.of("Delegate=yes"),
            SystemdGuest.scenario(SystemdGuest.classPath(), "lifecycle"));
    assertThat(r.status()).as(r.output()).isZero();
    assertThat(r.values())
        .containsEntry("root", own)
        .containsEntry("cgroup", own + "/job")
        .containsEntry("memory.max", "67108864")
        .containsEntry("root.procs", "")
        .containsEntry("run.status", "3")
        .containsEntry("destroyed.exists", "false");
    Result init =
        SystemdGuest.inUnit(
            "lmctfy-test-delegated.service",
            List.of("Delegate=yes"),
            SystemdGuest.scenario(SystemdGuest.classPath(), "init-lifecycle"));
    assertThat(init.status()).as(init.output()).isZero();
    assertThat(init.values())
        .containsEntry("root", own)
        .containsEntry("memory.max", "67108864")
        .containsEntry("run.status", "3")
        .containsEntry("destroyed.exists", "false");
    noUnitAndNoCgroup();
  }

  static <T> List<T> concat(List<T> a, List<T> b) {
    List<T> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  static int scale() {
    String s = System.getenv("LMCTFY_TEST_SCALE");
    return s == null || s.isBlank() ? 1 : Math.max(1, Integer.parseInt(s.strip()));
  }

  interface Step<T> {
    T run() throws Exception;
  }

  static <T> T unchecked(Step<T> step) {
    try {
      return step.run();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
