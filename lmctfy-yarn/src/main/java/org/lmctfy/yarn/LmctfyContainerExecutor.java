package org.lmctfy.yarn;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.Shell;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.exceptions.ConfigurationException;
import org.apache.hadoop.yarn.server.nodemanager.Context;
import org.apache.hadoop.yarn.server.nodemanager.DefaultContainerExecutor;
import org.apache.hadoop.yarn.server.nodemanager.executor.ContainerLivenessContext;
import org.apache.hadoop.yarn.server.nodemanager.executor.ContainerReacquisitionContext;
import org.apache.hadoop.yarn.server.nodemanager.executor.ContainerReapContext;
import org.apache.hadoop.yarn.server.nodemanager.executor.ContainerSignalContext;
import org.apache.hadoop.yarn.server.nodemanager.executor.ContainerStartContext;
import org.apache.hadoop.yarn.server.nodemanager.util.NodeManagerHardwareUtils;
import org.apache.hadoop.yarn.server.nodemanager.util.ProcessIdFileReader;
import org.jspecify.annotations.Nullable;
import org.lmctfy.ApiOptions;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.ListPolicy;
import org.lmctfy.LmctfyException;
import org.lmctfy.spec.RunSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A YARN NodeManager executor whose containers are lmctfy containers: each YARN container is the
 * lmctfy container {@code /hadoop-yarn/<container id>} (the root is {@code
 * lmctfy.yarn.container-root}), made with the container's allocation as its limits before its
 * launch script runs, the script placed in it before its first instruction, and destroyed with
 * every process in it when YARN is done with it. Set it in {@code yarn-site.xml}:
 *
 * <pre>{@code
 * <property>
 *   <name>yarn.nodemanager.container-executor.class</name>
 *   <value>org.lmctfy.yarn.LmctfyContainerExecutor</value>
 * </property>
 * }</pre>
 *
 * <p>It is {@code DefaultContainerExecutor} (the same directories, scripts, pid file and exit code
 * file, the container's environment alone, containers running as the NodeManager's user) with
 * lmctfy where that one forks, signals and forgets:
 *
 * <ul>
 *   <li>the launch ({@link #buildCommandExecutor}): the memory limit is the allocation (a soft
 *       limit below it with {@code lmctfy.yarn.memory.soft-limit-percent}), the CPU weight 1024
 *       shares a vcore as YARN's own cgroups give, capped at the container's share of the node in
 *       strict mode, a pids limit with {@code lmctfy.yarn.pids.limit};
 *   <li>{@link #signalContainer}: TERM (and QUIT) to every process in the container, KILL as {@code
 *       killAll}, so what daemonized or left the session goes too;
 *   <li>{@link #isContainerAlive}: whether the launched process is still in the container (a pid
 *       reused by another process is not the container);
 *   <li>{@link #postComplete} and {@link #reapContainer} destroy the container: no cgroup, no
 *       process is left behind;
 *   <li>an OOM kill ends the container with YARN's {@code KILLED_EXCEEDED_PMEM} status and
 *       diagnostics naming the OOM, the limit and the peak usage;
 *   <li>{@link #init} finishes what a crash left and destroys every container this NodeManager will
 *       not reacquire; {@link #reacquireContainer} follows a container across a restart.
 * </ul>
 *
 * <p>lmctfy is opened with {@code ContainerApi.open} and the driver {@code lmctfy.yarn.driver}:
 * cgroupfs as root, the systemd driver (a NodeManager in an ordinary service or run by a user), or
 * a delegated subtree ({@code lmctfy.yarn.cgroup-root}). Thread-safe, as the NodeManager needs.
 */
public class LmctfyContainerExecutor extends DefaultContainerExecutor {
  private static final Logger LOG = LoggerFactory.getLogger(LmctfyContainerExecutor.class);

  private final Function<ApiOptions, ContainerApi> opener;
  private final Signaller signaller;

  /** The NodeManager's containers being launched, by id, for the OOM kill event. */
  private final Map<
          String, org.apache.hadoop.yarn.server.nodemanager.containermanager.container.Container>
      launching = new ConcurrentHashMap<>();

  /** Containers killed through {@link #signalContainer}, whose wrapper wrote no exit code. */
  private final Set<String> killed = ConcurrentHashMap.newKeySet();

  private volatile @Nullable Settings settings;
  private volatile @Nullable ContainerApi api;
  private volatile float containersCpus;
  private volatile int nodeVcores;

  /** The executor the NodeManager makes from {@code yarn.nodemanager.container-executor.class}. */
  public LmctfyContainerExecutor() {
    this(ContainerApi::open, Signaller.KILL_COMMAND);
  }

  /** An executor over the lmctfy {@code opener} gives, signalling through {@code signaller}. */
  LmctfyContainerExecutor(Function<ApiOptions, ContainerApi> opener, Signaller signaller) {
    this.opener = opener;
    this.signaller = signaller;
  }

  /**
   * Reads the {@code lmctfy.yarn.*} settings, opens lmctfy, finishes what crashes left and destroys
   * every container below the container root that this NodeManager will not reacquire (all of them
   * unless recovery is on), and makes the root if it is not there.
   *
   * @throws IOException if a setting is wrong or lmctfy refuses, saying which and why
   */
  @Override
  public void init(Context nmContext) throws IOException {
    super.init(nmContext);
    Settings s;
    try {
      s = Settings.from(getConf());
    } catch (LmctfyException e) {
      throw new IOException(e.getMessage(), e);
    }
    containersCpus = NodeManagerHardwareUtils.getContainersCPUs(getConf());
    nodeVcores = NodeManagerHardwareUtils.getVCores(getConf());
    ContainerApi opened = lmctfy(() -> opener.apply(s.apiOptions()), "open lmctfy");
    try {
      Set<String> keep = NodeCleanup.reacquired(nmContext.getNMStateStore());
      lmctfy(
          () -> NodeCleanup.run(opened, s.containerRoot(), keep), "clean up " + s.containerRoot());
    } catch (IOException | RuntimeException e) {
      opened.close();
      throw e;
    }
    settings = s;
    api = opened;
    LOG.info(
        "YARN containers are lmctfy containers below {} (lmctfy root {}, {} vcores on {} CPUs)",
        s.containerRoot(),
        opened.root(),
        nodeVcores,
        containersCpus);
  }

  /**
   * Destroys the container root if it holds no container (and lets lmctfy clean up, which stops the
   * systemd driver's unit when it is empty); containers left running, for a restart with recovery
   * to reacquire, keep it.
   */
  @Override
  public void stop() {
    ContainerApi a = api;
    Settings s = settings;
    if (a == null || s == null) {
      return;
    }
    try {
      if (a.exists(s.containerRoot())
          && a.get(s.containerRoot()).listSubcontainers(ListPolicy.SELF).isEmpty()) {
        a.destroy(s.containerRoot());
        a.cleanup();
      }
    } catch (LmctfyException e) {
      LOG.warn("leaving {} as it is: {}", s.containerRoot(), e.getMessage(), e);
    } finally {
      a.close();
      api = null;
      super.stop();
    }
  }

  /** Remembers the NodeManager's container while it runs, for an OOM kill's exit status. */
  @Override
  public int launchContainer(ContainerStartContext ctx) throws IOException, ConfigurationException {
    String id = ctx.getContainer().getContainerId().toString();
    launching.put(id, ctx.getContainer());
    try {
      return super.launchContainer(ctx);
    } finally {
      launching.remove(id);
    }
  }

  /**
   * The launch of one container: where {@code DefaultContainerExecutor} forks its wrapper script,
   * this makes the container's lmctfy container and runs the same wrapper (which writes the pid
   * file and the exit code file YARN reads) inside it; see the class comment for the limits.
   */
  @Override
  protected Shell.CommandExecutor buildCommandExecutor(
      String wrapperScriptPath,
      String containerIdStr,
      String user,
      Path pidFile,
      Resource resource,
      File workDir,
      Map<String, String> environment,
      String[] numaCommands) {
    Settings s = settings();
    List<String> argv = new ArrayList<>();
    if (numaCommands != null) {
      argv.addAll(List.of(numaCommands));
    }
    argv.addAll(
        List.of(
            getRunCommand(wrapperScriptPath, containerIdStr, user, pidFile, getConf(), resource)));
    // as DefaultContainerExecutor's ShellCommandExecutor (inheritParentEnv false): the
    // container's environment alone, none of the NodeManager's
    RunSpec run =
        RunSpec.builder()
            .environment(environment == null ? Map.of() : environment)
            .workingDirectory(workDir.getPath())
            .stdin("/dev/null")
            .stdout(pidFile + ".lmctfy-out")
            .stderr(pidFile + ".lmctfy-err")
            .build();
    LmctfyLaunch.Target target =
        new LmctfyLaunch.Target(
            containerIdStr,
            s.nameOf(containerIdStr),
            s.specFor(resource, containersCpus, nodeVcores),
            resource.getMemorySize());
    LOG.info("launchContainer: {} in {}", argv, target.name());
    return new LmctfyLaunch(
        api(), target, argv, run, diagnostics -> oomKilled(containerIdStr, diagnostics));
  }

  /** Ends the container with YARN's status for memory beyond the allocation, saying why. */
  private void oomKilled(String containerId, String diagnostics) {
    var container = launching.get(containerId);
    if (container != null) {
      container.sendKillEvent(ContainerExitStatus.KILLED_EXCEEDED_PMEM, diagnostics);
    }
  }

  /**
   * NULL: whether the container has processes. TERM and QUIT: to every process in the container.
   * KILL: {@code killAll}. False if the container had no process (or no lmctfy container: one
   * launched before this executor is signalled by pid, as {@code DefaultContainerExecutor} does).
   */
  @Override
  public boolean signalContainer(ContainerSignalContext ctx) throws IOException {
    ContainerId id = ctx.getContainer().getContainerId();
    Optional<Container> found = find(id.toString());
    if (found.isEmpty()) {
      return super.signalContainer(ctx);
    }
    Container c = found.get();
    return lmctfy(
        () -> {
          try {
            return signal(id, c, ctx.getSignal());
          } catch (LmctfyException e) {
            if (e.code() == ErrorCode.NOT_FOUND) {
              return false; // destroyed since the look-up (postComplete): no process is left
            }
            throw e;
          }
        },
        "signal " + c.name() + " with " + ctx.getSignal());
  }

  private boolean signal(ContainerId id, Container c, Signal signal) throws IOException {
    List<Long> pids = c.listProcesses(ListPolicy.RECURSIVE);
    if (pids.isEmpty()) {
      return false;
    }
    switch (signal) {
      case NULL:
        break;
      case KILL:
        killed.add(id.toString());
        c.killAll();
        break;
      default:
        signaller.signal(signal, pids);
    }
    return true;
  }

  /** Whether the process of the pid file is still in the container (not a reused pid). */
  @Override
  public boolean isContainerAlive(ContainerLivenessContext ctx) throws IOException {
    Optional<Container> found = find(ctx.getContainer().getContainerId().toString());
    if (found.isEmpty()) {
      return super.isContainerAlive(ctx);
    }
    List<Long> pids =
        lmctfy(() -> found.get().listProcesses(ListPolicy.RECURSIVE), "list " + found.get().name());
    String pid = ctx.getPid() == null ? "" : ctx.getPid().strip();
    return pid.matches("[0-9]{1,18}") ? pids.contains(Long.parseLong(pid)) : !pids.isEmpty();
  }

  /**
   * Follows a container the NodeManager recovered after a restart: waits while its process is in
   * it, reads the container's memory stats for an OOM kill while it still exists, then reads the
   * exit code its wrapper wrote, as {@code DefaultContainerExecutor} does (which then calls {@link
   * #postComplete}: the container is destroyed); one killed through {@link #signalContainer} wrote
   * none: 137.
   */
  @Override
  public int reacquireContainer(ContainerReacquisitionContext ctx)
      throws IOException, InterruptedException {
    ContainerId id = ctx.getContainerId();
    LOG.info("reacquiring {} in {}", id, settings().nameOf(id.toString()));
    Optional<String> oom = Optional.empty();
    Optional<Container> found = find(id.toString());
    Path pidFile = getPidFilePath(id);
    if (found.isPresent() && pidFile != null && ctx.getContainer() != null) {
      ContainerLivenessContext alive =
          new ContainerLivenessContext.Builder()
              .setContainer(ctx.getContainer())
              .setUser(ctx.getUser())
              .setPid(ProcessIdFileReader.getProcessId(pidFile))
              .build();
      while (isContainerActive(id) && isContainerAlive(alive)) {
        Thread.sleep(1000);
      }
      long mb = ctx.getContainer().getResource().getMemorySize();
      oom =
          lmctfy(
              () -> OomReport.of(found.get(), id.toString(), mb, null),
              "read " + found.get().name());
    }
    int exitCode;
    try {
      exitCode = super.reacquireContainer(ctx);
    } catch (IOException e) {
      if (!killed.remove(id.toString())) {
        throw e;
      }
      exitCode = ExitCode.FORCE_KILLED.getExitCode();
    }
    LOG.info("reacquired {}: exit code {}", id, exitCode);
    if (exitCode != 0 && oom.isPresent()) {
      ctx.getContainer().sendKillEvent(ContainerExitStatus.KILLED_EXCEEDED_PMEM, oom.get());
    }
    return exitCode;
  }

  /** Destroys the container and every process in it. */
  @Override
  public boolean reapContainer(ContainerReapContext ctx) {
    super.reapContainer(ctx);
    return destroy(ctx.getContainer().getContainerId());
  }

  /** Destroys the container once its launch is over: what it left running goes with it. */
  @Override
  public void postComplete(ContainerId containerId) {
    super.postComplete(containerId);
    destroy(containerId);
  }

  private boolean destroy(ContainerId id) {
    String name = settings().nameOf(id.toString());
    killed.remove(id.toString());
    try {
      api().destroy(name);
      LOG.info("destroyed {}", name);
      return true;
    } catch (LmctfyException e) {
      if (e.code() == ErrorCode.NOT_FOUND) {
        return true;
      }
      LOG.warn("cannot destroy {}: {}", name, e.getMessage(), e);
      return false;
    }
  }

  /** The container's lmctfy container, if there is one. */
  private Optional<Container> find(String containerId) throws IOException {
    String name = settings().nameOf(containerId);
    try {
      return Optional.of(api().get(name));
    } catch (LmctfyException e) {
      if (e.code() == ErrorCode.NOT_FOUND) {
        return Optional.empty();
      }
      throw new IOException("cannot look up " + name + ": " + e.getMessage(), e);
    }
  }

  private Settings settings() {
    Settings s = settings;
    if (s == null) {
      throw new IllegalStateException("LmctfyContainerExecutor used before init");
    }
    return s;
  }

  private ContainerApi api() {
    ContainerApi a = api;
    if (a == null) {
      throw new IllegalStateException("LmctfyContainerExecutor used before init or after stop");
    }
    return a;
  }

  /** A call of lmctfy whose failure is an IOException for YARN, saying what was done. */
  private static <T> T lmctfy(Call<T> call, String what) throws IOException {
    try {
      return call.call();
    } catch (LmctfyException e) {
      throw new IOException("cannot " + what + ": " + e.getMessage(), e);
    }
  }

  @FunctionalInterface
  private interface Call<T> {
    T call() throws IOException;
  }
}
