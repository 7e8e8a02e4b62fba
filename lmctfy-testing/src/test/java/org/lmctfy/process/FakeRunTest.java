package org.lmctfy.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ContainerProcess;
import org.lmctfy.ListPolicy;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.RunSpec;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.FakeRun;

/** Scripted processes on the fake: what a started process does, and that waitFor returns. */
class FakeRunTest {
  final FakeCgroupFs fs = FakeCgroupFs.create();
  final ContainerApi api = ContainerApi.open(fs);

  @Test
  void aScriptedProcessExitsWithItsCodeAfterItsDelayAndWaitForReturnsIt() throws Exception {
    fs.processes().onRun(FakeRun.exits(3).after(Duration.ofMillis(50)));
    Container job = api.create("/job", ContainerSpec.empty());

    ContainerProcess p = job.run(List.of("/bin/make", "all"), RunSpec.inherit());

    assertThat(p.exitCode()).as("still running at first").isEmpty();
    assertThat(job.listProcesses(ListPolicy.SELF)).containsExactly(p.pid());
    assertThat(p.waitFor()).isEqualTo(3);
    assertThat(job.listProcesses(ListPolicy.SELF)).as("gone from its cgroups").isEmpty();
  }

  @Test
  void anExitWithoutADelayHasHappenedWhenRunReturns() throws Exception {
    fs.processes().onRun(FakeRun.exits(0));
    ContainerProcess p =
        api.create("/job", ContainerSpec.empty()).run(List.of("/bin/true"), RunSpec.inherit());
    assertThat(p.exitCode()).hasValue(0);
  }

  @Test
  void theScriptDecidesFromTheCommandAndUnscriptedCommandsRunUntilEnded() throws Exception {
    fs.processes().onRun(command -> command.contains("fail") ? FakeRun.exits(1) : null);
    Container job = api.create("/job", ContainerSpec.empty());

    ContainerProcess failing = job.run(List.of("/bin/sh", "-c", "fail"), RunSpec.inherit());
    ContainerProcess running = job.run(List.of("/bin/sleep", "60"), RunSpec.inherit());

    assertThat(failing.waitFor()).isEqualTo(1);
    assertThat(running.waitFor(Duration.ofMillis(50))).isEmpty();
    fs.processes().exit(running.pid(), 7);
    assertThat(running.waitFor()).isEqualTo(7);
  }

  @Test
  void outputGoesToThePipeTheCallerReadsOrToTheFileTheRunSpecNames(@TempDir Path dir)
      throws Exception {
    fs.processes().onRun(FakeRun.exits(0).writes("hello\n").writesToStderr("warning\n"));
    Container job = api.create("/job", ContainerSpec.empty());

    ContainerProcess piped = job.run(List.of("/bin/echo", "hello"), RunSpec.inherit());
    assertThat(new String(piped.stdout().readAllBytes(), StandardCharsets.UTF_8))
        .isEqualTo("hello\n");
    assertThat(new String(piped.stderr().readAllBytes(), StandardCharsets.UTF_8))
        .isEqualTo("warning\n");

    Path log = dir.resolve("job.out");
    job.run(
            List.of("/bin/echo", "hello"),
            RunSpec.builder().fdPolicy(RunSpec.FdPolicy.DETACHED).stdout(log.toString()).build())
        .waitFor();
    assertThat(Files.readString(log)).isEqualTo("hello\n");
  }

  @Test
  void aProcessThatIgnoresSigtermOutlivesDestroyButNotKillAll() throws Exception {
    fs.processes().onRun(FakeRun.runsUntilEnded().ignoringSigterm());
    Container job = api.create("/job", ContainerSpec.empty());
    Hierarchy unified = fs.hierarchies().get(0);
    Process p =
        fs.start(
            new ProcessBuilder("/usr/sbin/stubborn"), Map.of(unified, api.root().resolve("job")));

    p.destroy(); // SIGTERM
    assertThat(p.waitFor(50, TimeUnit.MILLISECONDS)).as("SIGTERM ignored").isFalse();
    job.killAll();
    assertThat(p.waitFor()).isEqualTo(137);
  }

  @Test
  void forkedChildrenStayInTheContainerAfterTheParentExitsUntilKillAll() throws Exception {
    fs.processes().onRun(FakeRun.exits(0).forking(2));
    Container job = api.create("/job", ContainerSpec.empty());

    ContainerProcess p = job.run(List.of("/usr/sbin/daemonize"), RunSpec.inherit());

    assertThat(p.waitFor()).isZero();
    assertThat(job.listProcesses(ListPolicy.SELF)).hasSize(2).doesNotContain(p.pid());
    job.killAll();
    assertThat(job.listProcesses(ListPolicy.SELF)).isEmpty();
  }

  @Test
  void aPausedContainerHoldsAScriptedExitUntilResumed() throws Exception {
    fs.processes().onRun(FakeRun.exits(0).after(Duration.ofMillis(20)));
    Container job = api.create("/job", ContainerSpec.empty());
    job.pause();
    ContainerProcess p = job.run(List.of("/bin/sleep", "0.02"), RunSpec.inherit()); // placed frozen

    assertThat(p.waitFor(Duration.ofMillis(200))).as("frozen: no exit").isEmpty();
    job.resume();
    assertThat(p.waitFor()).isZero();
  }

  @Test
  void aScriptedExitOnAV1LayoutToo() throws Exception {
    FakeCgroupFs v1 = FakeCgroupFs.create(FakeLayout.V1);
    v1.processes()
        .onRun(
            command -> FakeRun.exits(Map.of("/bin/true", 0, "/bin/false", 1).get(command.get(0))));
    Container job =
        ContainerApi.open(v1).create("/job", ContainerSpec.parse("memory { limit: 64M }"));
    assertThat(job.run(List.of("/bin/false"), RunSpec.inherit()).waitFor()).isEqualTo(1);
    assertThat(job.run(List.of("/bin/true"), RunSpec.inherit()).waitFor()).isZero();
  }

  @Test
  void destroyEndsWith143AndDestroyForciblyWith137AsProcessDoesAndOnExitCompletes()
      throws Exception {
    fs.processes()
        .onRun(
            command ->
                command.contains("stubborn") ? FakeRun.runsUntilEnded().ignoringSigterm() : null);
    Container job = api.create("/job", ContainerSpec.empty());
    ContainerProcess p = job.run(List.of("/bin/sleep", "60"), RunSpec.inherit());
    CompletableFuture<ContainerProcess> exit = p.onExit();
    ProcessHandle handle = p.toHandle();

    assertThat(p.isAlive()).isTrue();
    assertThat(handle.pid()).isEqualTo(p.pid());
    assertThat(exit).isNotDone();
    p.destroy();
    assertThat(exit.get(10, TimeUnit.SECONDS)).isSameAs(p);
    assertThat(p.exitCode()).hasValue(143);
    assertThat(p.isAlive()).isFalse();
    assertThat(handle.isAlive()).isFalse();

    ContainerProcess stubborn = job.run(List.of("stubborn"), RunSpec.inherit());
    stubborn.destroy();
    assertThat(stubborn.waitFor(Duration.ofMillis(50))).as("SIGTERM ignored").isEmpty();
    assertThat(stubborn.destroyForcibly()).isSameAs(stubborn);
    assertThat(stubborn.onExit().get(10, TimeUnit.SECONDS).exitCode()).hasValue(137);
    assertThat(job.listProcesses(ListPolicy.SELF)).as("nothing left in its cgroups").isEmpty();
  }

  @Test
  void aSignalAfterTheEndReachesNoOtherProcess() throws Exception {
    Container job = api.create("/job", ContainerSpec.empty());
    ContainerProcess ended = job.run(List.of("/bin/true"), RunSpec.inherit());
    fs.processes().exit(ended.pid(), 0);
    ContainerProcess other = job.run(List.of("/bin/sleep", "60"), RunSpec.inherit());

    ended.destroy();
    ended.destroyForcibly();
    assertThat(ended.exitCode()).hasValue(0);
    assertThat(other.isAlive()).isTrue();
    assertThat(job.listProcesses(ListPolicy.SELF)).containsExactly(other.pid());
  }
}
