package org.lmctfy.process;

import org.junit.jupiter.api.Tag;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ContainerProcess;
import org.lmctfy.ErrorCode;
import org.lmctfy.ListPolicy;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.RunSpec;
import org.lmctfy.testing.ScratchCgroups;

/**
 * run, enter, detect, list, killAll, pause and resume with real processes on this machine's
 * kernel, below a scratch parent (skipped without root, failed under CI=true). Every process a
 * test starts is killed in {@link #close()}, which then checks that none is left.
 */
@Tag("kernel")
class KernelProcessTest {
  private static final RunSpec QUIET = RunSpec.parse("stdout: '/dev/null' stderr: '/dev/null'");

  CgroupFs fs;
  ScratchCgroups scratch;
  ContainerApi api;
  final List<ProcessHandle> started = new ArrayList<>();

  @BeforeEach
  void open() throws IOException {
    fs = ScratchCgroups.requireHost();
    scratch = ScratchCgroups.on(fs);
    api = ContainerApi.open(fs, scratch.path());
  }

  /** Kills what is left below the scratch parent, then what was started outside it. */
  @AfterEach
  void close() throws Exception {
    try {
      api.get("/").killAll();
      started.forEach(ProcessHandle::destroyForcibly); // handles check the start time: never a reused pid
      started.forEach(h -> h.onExit().join());
      assertThat(started.stream().filter(ProcessHandle::isAlive).toList()).as("processes left running").isEmpty();
    } finally {
      api.close();
      scratch.close();
    }
  }

  private ContainerProcess run(Container c, List<String> argv, RunSpec spec) {
    ContainerProcess p = c.run(argv, spec);
    ProcessHandle.of(p.pid()).ifPresent(started::add);
    return p;
  }

  private List<Hierarchy> managed() {
    return fs.hierarchies().stream().filter(h -> h.version() == CgroupVersion.V2 || !h.controllers().isEmpty())
        .toList();
  }

  private CgroupPath path(String name) {
    return CgroupPath.of(name).under(scratch.path());
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waiting for " + what).isLessThan(end);
      Thread.sleep(10);
    }
  }

  private long cpuUsage(String name) {
    try {
      return Long.parseLong(fs.read(fs.hierarchy("cpuacct").orElseThrow(), path(name), "cpuacct.usage").strip());
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aStartedShellAndItsChildAreInTheContainerInEveryHierarchyFromTheirFirstOutput() throws Exception {
    Container job = api.create("/job", ContainerSpec.empty());
    ContainerProcess p = run(job, List.of("/bin/sh", "-c", "cat /proc/$$/cgroup; cat /proc/self/cgroup"),
        RunSpec.inherit());
    String out = new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).isZero();
    for (Hierarchy h : managed()) {
      List<String> lines = out.lines().filter(l -> h.version() == CgroupVersion.V2 ? l.startsWith("0::")
          : l.contains(":" + h.name() + ":")).toList();
      assertThat(lines).as(h.label() + " in\n" + out).hasSize(2)
          .allSatisfy(l -> assertThat(l).endsWith(":" + path("/job").value()));
    }
  }

  @Test
  void runHonoursTheEnvironmentTheWorkingDirectoryAndRedirections() throws Exception {
    Container job = api.create("/job", ContainerSpec.empty());
    Path dir = Files.createTempDirectory("lmctfy-run");
    try {
      Path in = Files.writeString(dir.resolve("in"), "from stdin\n");
      RunSpec spec = new RunSpec(RunSpec.FdPolicy.INHERIT, Map.of("GREETING", "hi there"), dir.toString(),
          "in", "out", null, null);
      ContainerProcess p = run(job, List.of("/bin/sh", "-c", "echo \"$GREETING\" \"$(pwd)\"; cat"),
          spec);
      assertThat(p.waitFor()).isZero();
      assertThat(Files.readString(dir.resolve("out")))
          .isEqualTo("hi there " + dir.toRealPath() + "\nfrom stdin\n");
    } finally {
      for (String f : new String[] {"in", "out"}) {
        Files.deleteIfExists(dir.resolve(f));
      }
      Files.delete(dir);
    }
  }

  @Test
  void argvIsNotPassedThroughAShell() throws Exception {
    Container job = api.create("/job", ContainerSpec.empty());
    ContainerProcess p = run(job, List.of("/bin/echo", "$HOME", "a;b", "*"), RunSpec.inherit());
    assertThat(new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("$HOME a;b *\n");
    assertThat(p.waitFor()).isZero();
  }

  @Test
  void aDetachedProcessLeadsANewSessionInsideTheContainer() throws Exception {
    Container job = api.create("/job", ContainerSpec.empty());
    ContainerProcess p = run(job, List.of("/bin/sleep", "1000"), RunSpec.detached());
    await("setsid to make the session", () -> session(p.pid()).equals(Long.toString(p.pid())));
    assertThat(Files.readSymbolicLink(Path.of("/proc/" + p.pid() + "/fd/1")).toString()).isEqualTo("/dev/null");
    assertThat(job.listProcesses(ListPolicy.SELF)).containsExactly(p.pid());
  }

  @Test
  void aMissingProgramIsInvalidAndStartsNothing() throws Exception {
    Container job = api.create("/job", ContainerSpec.empty());
    LmctfyException e = catchThrowableOfType(LmctfyException.class,
        () -> job.run(List.of("/no/such/program"), RunSpec.inherit()));
    assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    assertThat(e.getMessage()).contains("/no/such/program");
    assertThat(job.listProcesses(ListPolicy.RECURSIVE)).isEmpty();
  }

  @Test
  void aRefusedPlacementNamesTheFileAndLeavesNoProcess() throws Exception {
    Container job = api.create("/job", ContainerSpec.empty());
    Hierarchy cpuset = fs.hierarchy("cpuset").orElseThrow();
    fs.write(cpuset, path("/job"), "cpuset.cpus", "\n"); // no cpus: the kernel refuses tasks (ENOSPC)
    LmctfyException e = catchThrowableOfType(LmctfyException.class,
        () -> job.run(List.of("/bin/sleep", "1000"), QUIET));
    assertThat(e.code()).isEqualTo(ErrorCode.UNKNOWN); // the launcher shell sees no errno ("I/O error")
    assertThat(e.getMessage()).contains(cpuset.display(path("/job"), "cgroup.procs"));
    for (Hierarchy h : managed()) {
      assertThat(fs.read(h, path("/job"), "cgroup.procs")).as(h.label()).isEmpty();
    }
  }

  @Test
  void killAllEmptiesAForkLoopAtItsPidsLimitAndDestroyRemovesIt() throws Exception {
    Container loop = api.create("/loop", ContainerSpec.parse("pids { limit: 64 }"));
    ContainerProcess p = run(loop, List.of("/bin/sh", "-c", "while :; do sleep 100 & done"), QUIET);
    await("the loop to fork", () -> loop.listProcesses(ListPolicy.SELF).size() > 10);
    loop.killAll();
    assertThat(loop.listProcesses(ListPolicy.RECURSIVE)).isEmpty();
    assertThat(p.waitFor(Duration.ofSeconds(10))).hasValue(137);
    loop.destroy();
    for (Hierarchy h : fs.hierarchies()) {
      assertThat(fs.children(h, scratch.path())).as(h.label()).isEmpty();
    }
  }

  @Test
  void killAllReachesSubcontainersAndFrozenProcesses() throws Exception {
    Container job = api.create("/job", ContainerSpec.empty());
    Container sub = api.create("/job/sub", ContainerSpec.empty());
    run(job, List.of("/bin/sleep", "1000"), QUIET);
    run(sub, List.of("/bin/sleep", "1000"), QUIET);
    sub.pause();
    assertThat(job.listProcesses(ListPolicy.RECURSIVE)).hasSize(2);
    job.killAll();
    assertThat(job.listProcesses(ListPolicy.RECURSIVE)).isEmpty();
  }

  @Test
  void pauseStopsABusyLoopsCpuTimeAndResumeLetsItGrowAgain() throws Exception {
    Container busy = api.create("/busy", ContainerSpec.empty());
    run(busy, List.of("/bin/sh", "-c", "while :; do :; done"), QUIET);
    await("the loop to use cpu", () -> cpuUsage("/busy") > 0);
    busy.pause();
    assertThat(fs.read(fs.hierarchy("freezer").orElseThrow(), path("/busy"), "freezer.state")).isEqualTo("FROZEN\n");
    long frozen = cpuUsage("/busy");
    Thread.sleep(300);
    assertThat(cpuUsage("/busy")).as("cpu time while paused").isEqualTo(frozen);
    busy.resume();
    await("cpu time to grow after resume", () -> cpuUsage("/busy") > frozen);
  }

  @Test
  void enterAndDetectRoundTripForAProcessStartedOutside() throws Exception {
    Container job = api.create("/job", ContainerSpec.empty());
    api.create("/job/sub", ContainerSpec.empty());
    Process outside = new ProcessBuilder("/bin/sleep", "1000").start();
    started.add(outside.toHandle());
    LmctfyException e = catchThrowableOfType(LmctfyException.class, () -> api.detect(outside.pid()));
    assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND);
    assertThat(e.getMessage()).contains("outside this API's root");
    job.enter(List.of(outside.pid()));
    assertThat(api.detect(outside.pid())).isEqualTo("/job");
    assertThat(job.listProcesses(ListPolicy.SELF)).containsExactly(outside.pid());
    for (Hierarchy h : managed()) {
      assertThat(fs.cgroupsOf(outside.pid())).as(h.label()).containsEntry(h, path("/job"));
    }
    api.get("/job/sub").enter(List.of(outside.pid()));
    assertThat(api.detect(outside.pid())).isEqualTo("/job/sub");
    assertThat(job.listProcesses(ListPolicy.SELF)).isEmpty();
    assertThat(job.listProcesses(ListPolicy.RECURSIVE)).containsExactly(outside.pid());
  }

  @Test
  void anEnterRefusedHalfWayMovesTheThreadBackAndNamesThePidAndHierarchy() throws Exception {
    Container a = api.create("/a", ContainerSpec.empty());
    Container b = api.create("/b", ContainerSpec.empty());
    ContainerProcess p = run(a, List.of("/bin/sleep", "1000"), QUIET);
    Hierarchy cpuset = fs.hierarchy("cpuset").orElseThrow();
    fs.write(cpuset, path("/b"), "cpuset.cpus", "\n");
    LmctfyException e = catchThrowableOfType(LmctfyException.class, () -> b.enter(List.of(p.pid())));
    assertThat(e.getMessage()).contains(Long.toString(p.pid()), cpuset.display(path("/b"), null));
    assertThat(e.errno()).contains(Errno.ENOSPC);
    for (Hierarchy h : managed()) {
      assertThat(fs.cgroupsOf(p.pid())).as(h.label()).containsEntry(h, path("/a"));
    }
    assertThat(api.detect(p.pid())).isEqualTo("/a");
  }

  @Test
  void enterRefusesIdZeroWhichTheKernelReadsAsTheCaller() {
    Container job = api.create("/job", ContainerSpec.empty());
    assertThat(catchThrowableOfType(LmctfyException.class, () -> job.enter(List.of(0L))).code())
        .isEqualTo(ErrorCode.INVALID_ARGUMENT);
  }

  /** The session id of {@code pid}, from /proc/<pid>/stat. */
  private static String session(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      return stat.substring(stat.lastIndexOf(')') + 2).split(" ")[3];
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
