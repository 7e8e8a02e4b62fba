package org.lmctfy.yarn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyList;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.spy;
import static org.mockito.Mockito.verify;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.server.nodemanager.ContainerExecutor.Signal;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.container.Container;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.ListPolicy;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.RunSpec;
import org.lmctfy.testing.CgroupAssertions;
import org.lmctfy.testing.FakeCgroupFs;
import org.lmctfy.testing.FakeLayout;
import org.lmctfy.testing.FakeRun;
import org.lmctfy.testing.FakeSnapshot;

/**
 * The executor's logic on the fake, through the calls a NodeManager makes: the launch (the
 * container made with the allocation's limits before the wrapper runs, the wrapper inside it, the
 * exit code, the container destroyed after), signals, liveness, reaping, and an OOM kill's exit
 * status and diagnostics. The kernel side: {@link KernelYarnClusterTest}.
 */
class LmctfyContainerExecutorTest {
  private final FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.HYBRID);

  /** The processes before the test: pid 1 and the test's own. */
  private final java.util.Set<Long> before = fs.processes().living();

  private FakeNode node;

  private FakeNode node() throws IOException {
    node = new FakeNode(fs).init();
    return node;
  }

  @AfterEach
  void stop() throws IOException {
    if (node != null) {
      node.close();
    }
  }

  /** The pid of the wrapper the launch started in {@code name}, once it is there. */
  private long wrapperIn(ContainerApi api, String name) throws InterruptedException {
    for (int i = 0; i < 500; i++) {
      if (api.exists(name)) {
        List<Long> pids = api.get(name).listProcesses(ListPolicy.SELF);
        if (!pids.isEmpty()) {
          return pids.get(0);
        }
      }
      Thread.sleep(10);
    }
    throw new AssertionError("no process in " + name);
  }

  private static String name(ContainerId id) {
    return "/hadoop-yarn/" + id;
  }

  @Test
  void eachYarnContainerIsAnLmctfyContainerBelowHadoopYarnWithItsAllocationAsLimits()
      throws Exception {
    FakeNode n = node();
    Container c = FakeNode.yarnContainer(FakeNode.id(1, 2), 256, 2);
    CompletableFuture<Integer> launch = n.launch(c);
    ContainerApi api = n.api();
    long pid = wrapperIn(api, name(c.getContainerId()));

    CgroupAssertions.assertThat(fs)
        .hasContainer(name(c.getContainerId()))
        .hasValue(name(c.getContainerId()), "memory.limit_in_bytes", "268435456")
        .hasValue(name(c.getContainerId()), "cpu.shares", "2048") // 1024 a vcore, as YARN's
        .hasValue(name(c.getContainerId()), "cpu.cfs_quota_us", "-1"); // no cap: not strict
    assertThat(fs.processes().commandOf(pid).orElseThrow())
        .containsExactly(
            "bash", n.dir + "/work/" + c.getContainerId() + "/default_container_executor.sh");

    fs.processes().exit(pid, 0);
    assertThat(launch.get(10, TimeUnit.SECONDS)).isZero();
    CgroupAssertions.assertThat(fs).hasNoContainer(name(c.getContainerId()));
  }

  @Test
  void strictModeCapsTheCpuAtTheContainersShareOfTheNodesCpus() throws Exception {
    FakeNode n = new FakeNode(fs);
    node = n;
    n.conf.setBoolean(Settings.YARN_STRICT, true);
    n.conf.setInt("yarn.nodemanager.resource.cpu-vcores", 8);
    n.init();
    Container c = FakeNode.yarnContainer(FakeNode.id(1, 2), 128, 2);
    CompletableFuture<Integer> launch = n.launch(c);
    long pid = wrapperIn(n.api(), name(c.getContainerId()));
    float cpus =
        org.apache.hadoop.yarn.server.nodemanager.util.NodeManagerHardwareUtils.getContainersCPUs(
            n.conf);
    long quota = Math.max(10L, Math.round(2 * 1000.0 * cpus / 8)) * 100; // µs of 100 ms
    CgroupAssertions.assertThat(fs)
        .hasValue(name(c.getContainerId()), "cpu.cfs_quota_us", Long.toString(quota))
        .hasValue(name(c.getContainerId()), "cpu.shares", "2048");
    fs.processes().exit(pid, 0);
    assertThat(launch.get(10, TimeUnit.SECONDS)).isZero();
  }

  @Test
  void aNonZeroExitIsTheLaunchsExitCodeAndWhatTheWrapperLeftRunningIsDestroyedWithIt()
      throws Exception {
    FakeNode n = node();
    fs.processes().onRun(command -> FakeRun.exits(3).after(Duration.ofMillis(50)).forking(2));
    Container c = FakeNode.yarnContainer(FakeNode.id(1, 3), 64, 1);
    assertThat(n.launch(c).get(10, TimeUnit.SECONDS)).isEqualTo(3);
    CgroupAssertions.assertThat(fs).hasNoContainer(name(c.getContainerId()));
    assertThat(fs.processes().living()).isEqualTo(before);
  }

  @Test
  void anOomKillEndsTheContainerWithKilledExceededPmemAndDiagnosticsNamingTheOom()
      throws Exception {
    FakeNode n = node();
    Container c = FakeNode.yarnContainer(FakeNode.id(1, 4), 64, 1);
    CompletableFuture<Integer> launch = n.launch(c);
    long pid = wrapperIn(n.api(), name(c.getContainerId()));
    fs.kernel()
        .raiseOom(fs.hierarchy("memory").orElseThrow(), CgroupPath.of(name(c.getContainerId())));
    fs.processes().exit(pid, 137);

    assertThat(launch.get(10, TimeUnit.SECONDS)).isEqualTo(137);
    org.mockito.ArgumentCaptor<String> diagnostics =
        org.mockito.ArgumentCaptor.forClass(String.class);
    verify(c).sendKillEvent(eq(ContainerExitStatus.KILLED_EXCEEDED_PMEM), diagnostics.capture());
    assertThat(diagnostics.getValue())
        .contains(
            "killed by the kernel's OOM killer",
            "lmctfy container " + name(c.getContainerId()),
            "1 process OOM-killed",
            "memory limit of 67108864 bytes",
            "the allocation of 64 MB");
  }

  @Test
  void theWrapperGetsTheContainersEnvironmentAloneAsDefaultContainerExecutorGivesIt()
      throws Exception {
    List<RunSpec> runs = new java.util.concurrent.CopyOnWriteArrayList<>();
    node =
        new FakeNode(
                fs,
                options -> {
                  ContainerApi api = spy(ContainerApi.open(fs, options));
                  doAnswer(
                          create -> {
                            org.lmctfy.Container c =
                                spy((org.lmctfy.Container) create.callRealMethod());
                            doAnswer(
                                    run -> {
                                      runs.add(run.getArgument(1));
                                      return run.callRealMethod();
                                    })
                                .when(c)
                                .run(anyList(), any());
                            return c;
                          })
                      .when(api)
                      .create(anyString(), any());
                  return api;
                })
            .init();
    fs.processes().onRun(command -> FakeRun.exits(0));
    Container c = FakeNode.yarnContainer(FakeNode.id(1, 5), 64, 1);
    assertThat(node.launch(c).get(10, TimeUnit.SECONDS)).isZero();

    // the launch context's, none of the NodeManager's (its PATH, HOME...)
    assertThat(runs)
        .singleElement()
        .extracting(RunSpec::environment)
        .isEqualTo(java.util.Map.of("GREETING", "hello"));
  }

  @Test
  void aContainerThatExitsWellAfterNoOomGetsNoKillEvent() throws Exception {
    FakeNode n = node();
    fs.processes().onRun(command -> FakeRun.exits(0));
    Container c = FakeNode.yarnContainer(FakeNode.id(1, 5), 64, 1);
    assertThat(n.launch(c).get(10, TimeUnit.SECONDS)).isZero();
    verify(c, never()).sendKillEvent(anyInt(), anyString());
  }

  @Test
  void termGoesToEveryProcessOfTheContainerAndKillIsKillAll() throws Exception {
    FakeNode n = node();
    fs.processes().onRun(command -> FakeRun.runsUntilEnded().forking(2).ignoringSigterm());
    Container c = FakeNode.yarnContainer(FakeNode.id(1, 6), 64, 1);
    CompletableFuture<Integer> launch = n.launch(c);
    ContainerApi api = n.api();
    long pid = wrapperIn(api, name(c.getContainerId()));
    List<Long> all = api.get(name(c.getContainerId())).listProcesses(ListPolicy.RECURSIVE);
    assertThat(all).hasSize(3);

    assertThat(n.signal(c, Signal.NULL, Long.toString(pid))).isTrue();
    assertThat(n.signal(c, Signal.TERM, Long.toString(pid))).isTrue();
    assertThat(n.signalled).containsExactlyElementsOf(all.stream().map(p -> "TERM " + p).toList());
    assertThat(launch.get(10, TimeUnit.SECONDS)).isEqualTo(143);
  }

  @Test
  void killEndsEveryProcessIncludingThoseThatLeftTheSession() throws Exception {
    FakeNode n = node();
    fs.processes().onRun(command -> FakeRun.runsUntilEnded().forking(2));
    Container c = FakeNode.yarnContainer(FakeNode.id(1, 7), 64, 1);
    CompletableFuture<Integer> launch = n.launch(c);
    ContainerApi api = n.api();
    long pid = wrapperIn(api, name(c.getContainerId()));

    assertThat(n.signal(c, Signal.KILL, Long.toString(pid))).isTrue();
    assertThat(launch.get(10, TimeUnit.SECONDS)).isEqualTo(137);
    assertThat(fs.processes().living()).isEqualTo(before);
    assertThat(n.signal(c, Signal.KILL, Long.toString(pid))).isFalse();
    assertThat(n.signal(c, Signal.TERM, Long.toString(pid))).isFalse();
  }

  @Test
  void aContainerIsAliveWhileItsLaunchedProcessIsInItNotWhileItsPidIsAnotherProcesss()
      throws Exception {
    FakeNode n = node();
    Container c = FakeNode.yarnContainer(FakeNode.id(1, 8), 64, 1);
    CompletableFuture<Integer> launch = n.launch(c);
    long pid = wrapperIn(n.api(), name(c.getContainerId()));
    long stranger = fs.processes().spawn(); // alive, but not in the container

    assertThat(n.alive(c, Long.toString(pid))).isTrue();
    assertThat(n.alive(c, Long.toString(stranger))).isFalse();
    fs.processes().exit(pid, 0);
    launch.get(10, TimeUnit.SECONDS);
    assertThat(n.alive(c, Long.toString(pid))).isFalse();
  }

  @Test
  void reapDestroysTheContainerAndItsProcessesAndReapingNothingIsFine() throws Exception {
    FakeNode n = node();
    ContainerId id = FakeNode.id(1, 9);
    ContainerApi api = n.api();
    api.create(name(id), ContainerSpec.parse("memory { limit: 64M }"));
    api.get(name(id)).run(List.of("sleep", "1000"), org.lmctfy.spec.RunSpec.detached());
    Container c = FakeNode.yarnContainer(id, 64, 1);

    assertThat(n.reap(c)).isTrue();
    CgroupAssertions.assertThat(fs).hasNoContainer(name(id));
    assertThat(fs.processes().living()).isEqualTo(before);
    assertThat(n.reap(c)).isTrue();
  }

  @Test
  void aWrongSettingFailsInitNamingItAndChangesNothing() throws Exception {
    FakeNode n = new FakeNode(fs);
    node = n;
    n.conf.set(Settings.SOFT_LIMIT_PERCENT, "120");
    FakeSnapshot before = fs.snapshot();
    assertThatThrownBy(n::init)
        .isInstanceOf(IOException.class)
        .hasMessageContaining("lmctfy.yarn.memory.soft-limit-percent")
        .hasMessageContaining("120");
    CgroupAssertions.assertThat(fs).matches(before);
  }

  @Test
  void stopRemovesAnEmptyRootAndKeepsOneWithContainers() throws Exception {
    FakeNode n = node();
    ContainerApi api = n.api();
    api.create("/hadoop-yarn/" + FakeNode.id(1, 10), ContainerSpec.empty());
    n.executor.stop();
    assertThat(api.exists("/hadoop-yarn/" + FakeNode.id(1, 10))).isTrue();

    FakeNode again = new FakeNode(fs).init(); // recovers nothing: destroys it
    again.executor.stop();
    again.close();
    CgroupAssertions.assertThat(fs).hasNoContainer("/hadoop-yarn");
  }
}
