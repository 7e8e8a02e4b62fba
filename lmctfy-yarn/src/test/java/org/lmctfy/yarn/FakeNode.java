package org.lmctfy.yarn;

import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.nodemanager.ContainerExecutor.Signal;
import org.apache.hadoop.yarn.server.nodemanager.Context;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.container.Container;
import org.apache.hadoop.yarn.server.nodemanager.executor.ContainerLivenessContext;
import org.apache.hadoop.yarn.server.nodemanager.executor.ContainerReapContext;
import org.apache.hadoop.yarn.server.nodemanager.executor.ContainerSignalContext;
import org.apache.hadoop.yarn.server.nodemanager.executor.ContainerStartContext;
import org.apache.hadoop.yarn.server.nodemanager.recovery.NMStateStoreService;
import org.lmctfy.ApiOptions;
import org.lmctfy.ContainerApi;
import org.lmctfy.testing.FakeCgroupFs;

/**
 * A NodeManager's side of {@link LmctfyContainerExecutor} without a NodeManager: the executor over
 * a {@link FakeCgroupFs}, a state store that recovers nothing unless told, YARN containers (mocks
 * of the NodeManager's interface with an id, an allocation and an environment) and the contexts the
 * NodeManager passes, in a scratch directory for the launch's files. The signals the executor sends
 * by pid are recorded in {@link #signalled}.
 */
final class FakeNode implements AutoCloseable {
  static final long CLUSTER = 1_700_000_000_000L;

  final FakeCgroupFs fs;
  final Function<ApiOptions, ContainerApi> opener;
  final YarnConfiguration conf = new YarnConfiguration();
  final NMStateStoreService store = mock(NMStateStoreService.class);
  final Context context = mock(Context.class);
  final List<String> signalled = new ArrayList<>();
  final java.nio.file.Path dir;
  final LmctfyContainerExecutor executor;

  FakeNode(FakeCgroupFs fs, Function<ApiOptions, ContainerApi> opener) throws IOException {
    this.fs = fs;
    this.opener = opener;
    this.dir = Files.createTempDirectory("lmctfy-yarn-fake");
    when(context.getNMStateStore()).thenReturn(store);
    this.executor =
        new LmctfyContainerExecutor(
            opener,
            (signal, pids) -> {
              synchronized (signalled) {
                pids.forEach(pid -> signalled.add(signal.name() + " " + pid));
              }
              for (long pid : pids) {
                try {
                  fs.processes().exit(pid, 128 + signal.getValue());
                } catch (IllegalArgumentException ended) {
                  // it ended between the listing and the signal: no failure (Signaller's contract,
                  // as kill's "No such process" on the host)
                }
              }
            });
    executor.setConf(conf);
  }

  FakeNode(FakeCgroupFs fs) throws IOException {
    this(fs, options -> ContainerApi.open(fs, options));
  }

  FakeNode init() throws IOException {
    executor.init(context);
    return this;
  }

  /** An lmctfy API over the same fake, as a test looks at it. */
  ContainerApi api() {
    return opener.apply(Settings.from(conf).apiOptions());
  }

  static ContainerId id(int application, int container) {
    return ContainerId.newContainerId(
        ApplicationAttemptId.newInstance(ApplicationId.newInstance(CLUSTER, application), 1),
        container);
  }

  /** The NodeManager's container {@code id} allocated {@code mb} and {@code vcores}. */
  static Container yarnContainer(ContainerId id, long mb, int vcores) {
    Container c = mock(Container.class);
    when(c.getContainerId()).thenReturn(id);
    when(c.getResource()).thenReturn(Resource.newInstance(mb, vcores));
    when(c.getUser()).thenReturn(System.getProperty("user.name"));
    when(c.getLaunchContext())
        .thenReturn(
            ContainerLaunchContext.newInstance(
                Map.of(), Map.of("GREETING", "hello"), List.of("true"), null, null, null));
    return c;
  }

  /**
   * The launch of {@code c} as the NodeManager calls it, with its directories and scripts, in the
   * background: {@code DefaultContainerExecutor}'s launchContainer, which writes the wrapper and
   * runs it through the executor.
   */
  CompletableFuture<Integer> launch(Container c) throws IOException {
    String id = c.getContainerId().toString();
    java.nio.file.Path work = Files.createDirectories(dir.resolve("work").resolve(id));
    java.nio.file.Path priv = Files.createDirectories(dir.resolve("nmPrivate").resolve(id));
    java.nio.file.Path script = Files.writeString(priv.resolve("launch_container.sh"), "exit 0\n");
    java.nio.file.Path tokens = Files.writeString(priv.resolve(id + ".tokens"), "");
    executor.activateContainer(c.getContainerId(), new Path(priv.resolve(id + ".pid").toString()));
    ContainerStartContext ctx =
        new ContainerStartContext.Builder()
            .setContainer(c)
            .setNmPrivateContainerScriptPath(new Path(script.toString()))
            .setNmPrivateTokensPath(new Path(tokens.toString()))
            .setUser(c.getUser())
            .setAppId(c.getContainerId().getApplicationAttemptId().getApplicationId().toString())
            .setContainerWorkDir(new Path(work.toString()))
            .setLocalDirs(List.of(dir.resolve("local").toString()))
            .setLogDirs(List.of(dir.resolve("logs").toString()))
            .build();
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return executor.launchContainer(ctx);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
  }

  boolean signal(Container c, Signal signal, String pid) throws IOException {
    return executor.signalContainer(
        new ContainerSignalContext.Builder()
            .setContainer(c)
            .setUser(c.getUser())
            .setPid(pid)
            .setSignal(signal)
            .build());
  }

  boolean alive(Container c, String pid) throws IOException {
    return executor.isContainerAlive(
        new ContainerLivenessContext.Builder()
            .setContainer(c)
            .setUser(c.getUser())
            .setPid(pid)
            .build());
  }

  boolean reap(Container c) {
    return executor.reapContainer(
        new ContainerReapContext.Builder().setContainer(c).setUser(c.getUser()).build());
  }

  @Override
  public void close() throws IOException {
    executor.stop();
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
