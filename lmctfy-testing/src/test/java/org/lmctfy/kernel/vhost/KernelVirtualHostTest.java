package org.lmctfy.kernel.vhost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ContainerProcess;
import org.lmctfy.ErrorCode;
import org.lmctfy.ListPolicy;
import org.lmctfy.LmctfyException;
import org.lmctfy.StatsType;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.RunSpec;
import org.lmctfy.support.Teardown;
import org.lmctfy.support.TestScale;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * Virtual hosts on this machine's kernel (hybrid v1 here, pure v2 in the kernel harness's guests),
 * made by the library with the distribution's bubblewrap and nsenter, in a root made from
 * busybox-static: what a process inside sees (its own pid space, host name, loopback-only network,
 * mounts), that every run joins the init's namespaces and cgroups from its first instruction, and
 * that killAll and destroy leave no process, zombie, mount or namespace holder. Every process a
 * case starts is killed afterwards; the scratch parent and the root go.
 */
@Tag("kernel")
class KernelVirtualHostTest {
  private static final Duration SETTLE = Duration.ofSeconds(30);

  CgroupFs fs;
  ScratchCgroups scratch;
  ContainerApi api;
  Path rootfs;
  Path ro;
  final List<Long> started = new ArrayList<>();

  @BeforeEach
  void open() throws IOException {
    fs = ScratchCgroups.requireHost();
    BusyboxRoot.assumeBusybox();
    rootfs = BusyboxRoot.make(Path.of("/tmp"));
    ro = Files.createTempDirectory(Path.of("/tmp"), "lmctfy-ro");
    Files.writeString(ro.resolve("file"), "from the host\n");
    scratch = ScratchCgroups.on(fs);
    api = ContainerApi.open(fs, scratch.path());
  }

  @AfterEach
  void close() throws Exception {
    try {
      if (api != null) {
        api.get("/").killAll();
      }
      for (long pid : started) {
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
      }
    } finally {
      Teardown.close(api, scratch);
      BusyboxRoot.delete(rootfs);
      BusyboxRoot.delete(ro);
    }
    if (rootfs != null) {
      assertThat(HostView.processesMentioning(rootfs.toString()))
          .as("processes of the virtual hosts left")
          .isEmpty();
    }
  }

  private ContainerSpec machine(String more) {
    return ContainerSpec.parse(
        "virtual_host { virtual_hostname: 'vh' network {} } filesystem { rootfs: '"
            + rootfs
            + "' "
            + more
            + " }");
  }

  private record Output(int code, String out, String err) {}

  private Output sh(Container c, String script) throws Exception {
    ContainerProcess p = c.run(List.of("/bin/sh", "-c", script), RunSpec.inherit());
    started.add(p.pid());
    String out = new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(p.stderr().readAllBytes(), StandardCharsets.UTF_8);
    return new Output(p.waitFor(), out, err);
  }

  private ContainerProcess background(Container c, String... argv) {
    ContainerProcess p = c.run(List.of(argv), RunSpec.detached());
    started.add(p.pid());
    return p;
  }

  private List<Hierarchy> managed() {
    return fs.hierarchies().stream()
        .filter(h -> h.version() == CgroupVersion.V2 || !h.controllers().isEmpty())
        .toList();
  }

  @Test
  void theHostsProcessesAreInvisibleInsideAndTheProgramsNspidHasTwoLevels() throws Exception {
    Container vh = api.create("/vh", machine(""));

    Output o = sh(vh, "echo pid=$$; cat /proc/[0-9]*/comm");
    ContainerProcess sleeper = background(vh, "/bin/sleep", "600");

    assertThat(o.code()).as(o.err()).isZero();
    List<String> lines = o.out().lines().toList();
    assertThat(lines.get(0)).as("the first process after the init").isEqualTo("pid=2");
    assertThat(new TreeSet<>(lines.subList(1, lines.size())))
        .as("every process it sees")
        .isSubsetOf(Set.of("catatonit", "sh", "cat"));
    List<Long> nsPids = HostView.nsPids(sleeper.pid());
    assertThat(nsPids).as("host pid, then the pid inside").hasSize(2);
    assertThat(nsPids.get(0)).isEqualTo(sleeper.pid());
    assertThat(HostView.nsPids(vh.initPid())).containsExactly(vh.initPid(), 1L);
    assertThat(vh.spec()).isEqualTo(api.normalise(machine("")));
  }

  @Test
  void theVirtualHostnameIsTheHostNameInsideAndTheHostsIsUnchanged() throws Exception {
    String host = Files.readString(Path.of("/proc/sys/kernel/hostname"));
    Container vh = api.create("/vh", machine(""));

    Output o = sh(vh, "hostname; cat /proc/sys/kernel/hostname");

    assertThat(o.out()).isEqualTo("vh\nvh\n");
    assertThat(Files.readString(Path.of("/proc/sys/kernel/hostname"))).isEqualTo(host);
    assertThat(HostView.namespace(vh.initPid(), "uts"))
        .isNotEqualTo(HostView.namespace(ProcessHandle.current().pid(), "uts"));
  }

  @Test
  void anEmptyNetworkHasOnlyLoopbackAndItIsUp() throws Exception {
    Container vh = api.create("/vh", machine(""));

    Output o = sh(vh, "cat /proc/net/dev; ip -o link");

    List<String> interfaces =
        o.out()
            .lines()
            .filter(l -> l.contains(":") && !l.contains("|") && !l.contains("<"))
            .map(l -> l.substring(0, l.indexOf(':')).strip())
            .toList();
    assertThat(interfaces).as(o.out()).containsExactly("lo");
    assertThat(o.out().lines().filter(l -> l.contains("<")).toList())
        .as(o.out())
        .singleElement()
        .satisfies(l -> assertThat(l).contains(": lo:", "UP"));
  }

  @Test
  void aVirtualHostOnTheHostsRootHasItsOwnPidIpcAndMountNamespacesAndProcAndNothingMore()
      throws Exception {
    Container vh = api.create("/vh", ContainerSpec.parse("virtual_host {}"));
    long self = ProcessHandle.current().pid();

    ContainerProcess p = background(vh, "/bin/sleep", "600");
    Output o = sh(vh, "ls /proc");

    for (String ns : List.of("pid", "mnt", "ipc")) {
      assertThat(HostView.namespace(p.pid(), ns))
          .as(ns)
          .isNotEqualTo(HostView.namespace(self, ns))
          .isEqualTo(HostView.namespace(vh.initPid(), ns));
    }
    for (String ns : List.of("uts", "net", "user")) {
      assertThat(HostView.namespace(p.pid(), ns)).as(ns).isEqualTo(HostView.namespace(self, ns));
    }
    List<Long> inside =
        o.out()
            .lines()
            .filter(l -> l.chars().allMatch(Character::isDigit))
            .map(Long::parseLong)
            .toList();
    assertThat(inside)
        .as("pids in its /proc")
        .isNotEmpty()
        .allSatisfy(pid -> assertThat(pid).isLessThan(20));
    assertThat(inside).doesNotContain(self);
  }

  @Test
  void aMountMadeInsideIsInvisibleOnTheHostAndTheRootAndAReadOnlyBindHold() throws Exception {
    List<String> before = HostView.mounts();
    Container vh =
        api.create(
            "/vh",
            machine("mounts { mount { source: '" + ro + "' target: '/data' read_only: true } }"));

    Output o =
        sh(
            vh,
            "mount -t tmpfs lmctfy-test-inside /srv && grep -c lmctfy-test-inside"
                + " /proc/self/mountinfo; echo x > /data/f; echo write=$?; cat /data/file; ls /");

    assertThat(o.out()).contains("1\nwrite=1\nfrom the host\n");
    assertThat(o.err()).contains("Read-only file system");
    assertThat(o.out().lines().skip(3).toList())
        .as("the root is the rootfs")
        .containsExactly("bin", "data", "dev", "etc", "proc", "srv", "tmp");
    assertThat(Files.exists(ro.resolve("f"))).isFalse();
    List<String> now = HostView.mounts();
    assertThat(now)
        .noneMatch(l -> l.contains("lmctfy-test-inside") || l.contains(rootfs.toString()));
    assertThat(now).isEqualTo(before);
  }

  @Test
  void aSecondRunJoinsTheSameNamespacesAndRootAsTheInitAndTheFirstRun() throws Exception {
    Container vh = api.create("/vh", machine(""));
    long self = ProcessHandle.current().pid();

    ContainerProcess first = background(vh, "/bin/sleep", "600");
    ContainerProcess second = background(vh, "/bin/sleep", "600");

    long init = vh.initPid();
    for (String ns : List.of("pid", "mnt", "ipc", "uts", "net")) {
      long theirs = HostView.namespace(init, ns);
      assertThat(theirs).as(ns).isNotEqualTo(HostView.namespace(self, ns));
      assertThat(HostView.namespace(first.pid(), ns)).as(ns).isEqualTo(theirs);
      assertThat(HostView.namespace(second.pid(), ns)).as(ns).isEqualTo(theirs);
    }
    assertThat(
            Files.isSameFile(
                Path.of("/proc/" + second.pid() + "/root"), Path.of("/proc/" + init + "/root")))
        .isTrue();
    assertThat(vh.listProcesses(ListPolicy.SELF)).contains(init, first.pid(), second.pid());
  }

  /**
   * As the launcher's own test: 1,000 runs ({@code 1000 / LMCTFY_TEST_SCALE} in a guest), no miss.
   */
  @Test
  void everyRunIsInTheContainersCgroupsInEveryHierarchyFromItsFirstInstruction() throws Exception {
    Container vh = api.create("/vh", machine(""));
    String path = scratch.path().resolve("vh").value();
    int runs = TestScale.scaled(1000);
    List<String> misses = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      ContainerProcess p = vh.run(List.of("/bin/cat", "/proc/self/cgroup"), RunSpec.inherit());
      String out = new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8);
      if (p.waitFor() != 0) {
        misses.add(
            "run "
                + i
                + " exited "
                + p.exitCode()
                + ": "
                + new String(p.stderr().readAllBytes(), StandardCharsets.UTF_8));
        continue;
      }
      for (Hierarchy h : managed()) {
        boolean placed =
            out.lines()
                .anyMatch(
                    l ->
                        (h.version() == CgroupVersion.V2
                                ? l.startsWith("0::")
                                : l.contains(":" + h.name() + ":"))
                            && l.endsWith(":" + h.mountRoot().replaceAll("/$", "") + path));
        if (!placed) {
          misses.add("run " + i + " not in " + h.label() + ":\n" + out);
        }
      }
    }
    assertThat(misses).as("of " + runs + " runs").isEmpty();
  }

  @Test
  void exitCodesSignalsAndStreamsPassThroughAndThePidIsTheProgramsInside() throws Exception {
    Container vh = api.create("/vh", machine(""));

    assertThat(sh(vh, "exit 7").code()).isEqualTo(7);
    assertThat(sh(vh, "kill -TERM $$").code()).isEqualTo(143);
    ContainerProcess sleeper = background(vh, "/bin/sleep", "600");
    assertThat(HostView.nsPids(sleeper.pid())).hasSize(2);
    sleeper.stdin().close();
    var exit = sleeper.onExit();
    assertThat(sleeper.isAlive()).isTrue();
    assertThat(sleeper.toHandle().pid()).isEqualTo(sleeper.pid());
    sleeper.destroy(); // SIGTERM to the program itself, through a pidfd where there are pidfds
    assertThat(exit.get(30, TimeUnit.SECONDS)).isSameAs(sleeper);
    assertThat(sleeper.exitCode()).hasValue(143);
    ContainerProcess stubborn =
        vh.run(
            List.of("/bin/sh", "-c", "trap '' TERM; echo ready; while :; do sleep 1; done"),
            RunSpec.inherit());
    started.add(stubborn.pid());
    assertThat(
            new java.io.BufferedReader(
                    new java.io.InputStreamReader(stubborn.stdout(), StandardCharsets.UTF_8))
                .readLine())
        .isEqualTo("ready");
    stubborn.destroy();
    assertThat(stubborn.waitFor(Duration.ofMillis(300))).as("SIGTERM ignored").isEmpty();
    assertThat(stubborn.destroyForcibly().waitFor()).isEqualTo(137);
    assertThat(stubborn.isAlive()).isFalse();
    sleeper.destroyForcibly(); // after the end: reaches nothing
    assertThat(sleeper.exitCode()).hasValue(143);
    ContainerProcess cat =
        vh.run(
            List.of("cat"),
            RunSpec.builder().environment(Map.of("PATH", "/bin")).workingDirectory("/srv").build());
    cat.stdin().write("through the pipes\n".getBytes(StandardCharsets.UTF_8));
    cat.stdin().close();
    assertThat(new String(cat.stdout().readAllBytes(), StandardCharsets.UTF_8))
        .isEqualTo("through the pipes\n");
    assertThat(cat.waitFor()).isZero();
    assertThat(sh(vh, "pwd").out()).isEqualTo("/\n");
    assertThat(
            vh.run(List.of("/bin/pwd"), RunSpec.builder().workingDirectory("/srv").build())
                .stdout()
                .readAllBytes())
        .asString(StandardCharsets.UTF_8)
        .isEqualTo("/srv\n");
  }

  @Test
  void aProgramOrADirectoryThatIsNotInsideIsRefusedBeforeAnythingStarts() throws Exception {
    Container vh = api.create("/vh", machine(""));
    List<Long> before = vh.listProcesses(ListPolicy.SELF);

    assertThatThrownBy(() -> vh.run(List.of("/usr/bin/java"), RunSpec.inherit()))
        .hasMessageContaining(
            "argv[0] /usr/bin/java is not an executable file inside the virtual host")
        .extracting(e -> ((LmctfyException) e).code())
        .isEqualTo(ErrorCode.INVALID_ARGUMENT);
    assertThatThrownBy(
            () -> vh.run(List.of("/bin/true"), RunSpec.builder().workingDirectory("/usr").build()))
        .hasMessageContaining("working_directory /usr is not a directory inside the virtual host");
    assertThat(vh.listProcesses(ListPolicy.SELF)).isEqualTo(before);
  }

  @Test
  void detectListProcessesStatsAndPauseCoverTheVirtualHost() throws Exception {
    Container vh = api.create("/vh", machine(""));
    ContainerProcess busy = background(vh, "/bin/sh", "-c", "while :; do :; done");

    assertThat(api.detect(busy.pid())).isEqualTo("/vh");
    assertThat(api.detect(vh.initPid())).isEqualTo("/vh");
    assertThat(vh.listProcesses(ListPolicy.SELF)).contains(vh.initPid(), busy.pid());
    HostView.eventually(
        "cpu time counted", SETTLE, () -> vh.stats(StatsType.SUMMARY).cpu().totalNs() > 0);
    vh.pause();
    long frozen = cpuTicks(busy.pid());
    Thread.sleep(200);
    assertThat(cpuTicks(busy.pid())).as("no cpu time while paused").isEqualTo(frozen);
    vh.resume();
    HostView.eventually("cpu time again after resume", SETTLE, () -> cpuTicks(busy.pid()) > frozen);
  }

  private static long cpuTicks(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(f[14 - 3]) + Long.parseLong(f[15 - 3]);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void enterMovesTheVirtualHostsOwnProcessesAndRefusesOneOutside() throws Exception {
    Container vh = api.create("/vh", machine(""));
    Container sub = api.create("/vh/sub", ContainerSpec.empty());
    ContainerProcess inside = background(vh, "/bin/sleep", "600");
    Process outside = new ProcessBuilder("sleep", "600").start();
    started.add(outside.pid());
    String outsideCgroups = Files.readString(Path.of("/proc/" + outside.pid() + "/cgroup"));

    sub.enter(List.of(inside.pid()));
    assertThatThrownBy(() -> vh.enter(List.of(outside.pid())))
        .hasMessageContaining("is not inside the virtual host /vh")
        .extracting(e -> ((LmctfyException) e).code())
        .isEqualTo(ErrorCode.FAILED_PRECONDITION);

    assertThat(sub.listProcesses(ListPolicy.SELF)).containsExactly(inside.pid());
    assertThat(Files.readString(Path.of("/proc/" + outside.pid() + "/cgroup")))
        .isEqualTo(outsideCgroups);
    ContainerProcess below = background(sub, "/bin/sleep", "600");
    assertThat(HostView.namespace(below.pid(), "pid"))
        .isEqualTo(HostView.namespace(vh.initPid(), "pid"));
  }

  @Test
  void killAllAndDestroyLeaveNoProcessZombieMountOrNamespaceAndARunAfterKillAllBootsANewInit()
      throws Exception {
    List<String> mounts = HostView.mounts();
    Container vh =
        api.create(
            "/vh",
            machine("mounts { mount { source: '" + ro + "' target: '/data' read_only: true } }"));
    // orphans that the init inherits, and a mount of the virtual host's own
    sh(
        vh,
        "mount -t tmpfs lmctfy-test-inside /srv; (sleep 600 >/dev/null 2>&1 &); (sleep 600"
            + " >/dev/null 2>&1 &); true");
    background(vh, "/bin/sleep", "600");
    long firstInit = vh.initPid();
    gone(vh, () -> vh.killAll(), mounts);

    ContainerProcess again = background(vh, "/bin/sleep", "600");
    assertThat(vh.initPid()).isNotEqualTo(firstInit);
    assertThat(HostView.namespace(again.pid(), "pid"))
        .isEqualTo(HostView.namespace(vh.initPid(), "pid"));
    sh(vh, "(sleep 600 >/dev/null 2>&1 &); true");
    gone(vh, () -> vh.destroy(), mounts);
    assertThat(api.exists("/vh")).isFalse();
  }

  /**
   * Runs {@code end}; then nothing of the virtual host is left: process, zombie, mount, namespace
   * holder.
   */
  private void gone(Container vh, Runnable end, List<String> mountsBefore) throws Exception {
    long init = vh.initPid();
    List<Long> inodes = new ArrayList<>();
    for (String ns : List.of("pid", "mnt", "ipc", "uts", "net")) {
      inodes.add(HostView.namespace(init, ns));
    }
    List<Long> pids = vh.listProcesses(ListPolicy.RECURSIVE);
    assertThat(pids)
        .as("the init, bwrap, the joined processes and the orphans")
        .hasSizeGreaterThanOrEqualTo(5);

    end.run();

    HostView.eventually(
        "every process gone, none left a zombie: " + pids,
        SETTLE,
        () -> pids.stream().allMatch(HostView::gone));
    HostView.awaitNone(
        "holders of the namespaces " + inodes, SETTLE, () -> HostView.holders(inodes));
    assertThat(HostView.mounts()).isEqualTo(mountsBefore);
  }

  @Test
  void whatTheMachineLacksOrTheSpecGetsWrongIsRefusedBeforeAnythingIsMade() throws Exception {
    assertThatThrownBy(
            () ->
                api.create(
                    "/vh",
                    ContainerSpec.parse(
                        "virtual_host {} filesystem { rootfs: '/nonexistent/root' }")))
        .hasMessageContaining("filesystem.rootfs /nonexistent/root: not a directory")
        .extracting(e -> ((LmctfyException) e).code())
        .isEqualTo(ErrorCode.INVALID_ARGUMENT);
    assertThatThrownBy(
            () ->
                api.create(
                    "/vh", machine("mounts { mount { source: '/nonexistent' target: '/data' } }")))
        .hasMessageContaining("filesystem.mounts.mount[0].source /nonexistent");
    assertThatThrownBy(
            () ->
                api.create(
                    "/vh", machine("mounts { mount { source: '" + ro + "' target: '/opt' } }")))
        .hasMessageContaining(
            "filesystem.mounts.mount[0].target /opt: no such file or directory inside");
    assertThatThrownBy(
            () ->
                api.create(
                    "/vh",
                    ContainerSpec.parse(
                        "virtual_host { init { init_argv: '/sbin/init' } }"
                            + " filesystem { rootfs: '"
                            + rootfs
                            + "' }")))
        .hasMessageContaining(
            "virtual_host.init.init_argv[0] /sbin/init: not an executable file inside");
    for (Hierarchy h : fs.hierarchies()) {
      assertThat(fs.children(h, scratch.path())).as(h.label()).isEmpty();
    }
    assertThat(Files.list(rootfs.resolve("data")))
        .as("no mount point made in the rootfs")
        .isEmpty();
  }

  @Test
  void aCustomInitIsPid1AndItsStandardErrorGoesToItsFile() throws Exception {
    Path log = ro.resolve("init.err");
    Container vh =
        api.create(
            "/vh",
            ContainerSpec.parse(
                "virtual_host { init { init_argv: '/bin/sh' init_argv: '-c'"
                    + " init_argv: 'echo init here >&2; trap \"\" TERM; while :; do sleep 1; done'"
                    + " run_spec { stderr: '"
                    + log
                    + "' environment { PATH: '/bin' } } } } filesystem { rootfs: '"
                    + rootfs
                    + "' }"));

    Output o = sh(vh, "cat /proc/1/cmdline; echo");

    assertThat(o.out()).startsWith("/bin/sh\0-c\0echo init here");
    HostView.eventually(
        "the init's line in its file",
        SETTLE,
        () -> {
          try {
            return Files.readString(log).equals("init here\n");
          } catch (IOException e) {
            return false;
          }
        });
    assertThat(vh.spec().virtualHost().init().initArgv()).startsWith("/bin/sh", "-c");
  }
}
