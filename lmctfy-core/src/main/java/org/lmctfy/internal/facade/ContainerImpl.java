package org.lmctfy.internal.facade;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.lmctfy.Container;
import org.lmctfy.ContainerProcess;
import org.lmctfy.ErrorCode;
import org.lmctfy.ListPolicy;
import org.lmctfy.LmctfyException;
import org.lmctfy.NotificationListener;
import org.lmctfy.StatsType;
import org.lmctfy.UpdatePolicy;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.errors.Errors;
import org.lmctfy.internal.lifecycle.ContainerOperation;
import org.lmctfy.internal.lifecycle.Layout;
import org.lmctfy.internal.lifecycle.VirtualHostKeeper;
import org.lmctfy.internal.lock.ContainerLocks;
import org.lmctfy.internal.naming.ContainerName;
import org.lmctfy.internal.process.Freezer;
import org.lmctfy.internal.process.LaunchedProcess;
import org.lmctfy.internal.process.Members;
import org.lmctfy.internal.process.Mover;
import org.lmctfy.internal.process.ProcessKiller;
import org.lmctfy.internal.process.RunCommand;
import org.lmctfy.internal.resources.Mode;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.ContainerStats;
import org.lmctfy.spec.EventSpec;
import org.lmctfy.spec.RunSpec;
import org.lmctfy.vhost.ProcessId;
import org.lmctfy.vhost.VirtualHosts;

/** A handle on one container: its name and the API; no cached state (the kernel is the truth). */
final class ContainerImpl implements Container {
  private final ContainerApiImpl api;
  private final ContainerName name;

  ContainerImpl(ContainerApiImpl api, ContainerName name) {
    this.api = api;
    this.name = name;
  }

  @Override
  public String name() {
    return name.value();
  }

  @Override
  public void update(ContainerSpec spec, UpdatePolicy policy) {
    api.lifecycle()
        .update(
            name,
            Objects.requireNonNull(spec, "spec"),
            Objects.requireNonNull(policy, "policy") == UpdatePolicy.REPLACE
                ? Mode.REPLACE
                : Mode.DIFF);
  }

  @Override
  public ContainerSpec spec() {
    return api.lifecycle().spec(name);
  }

  @Override
  public ContainerStats stats(StatsType type) {
    return api.lifecycle().stats(name, Objects.requireNonNull(type, "type"));
  }

  @Override
  public void reclaim(long bytes) {
    api.lifecycle().reclaim(name, bytes);
  }

  @Override
  public void enter(List<Long> tids) {
    Objects.requireNonNull(tids, "tids");
    try (ContainerLocks.Held held = api.lifecycle().hold(ContainerOperation.ENTER, name)) {
      api.lifecycle().requireExists(name);
      api.beforePlacing();
      Layout layout = api.lifecycle().layout();
      layout.requireDomain(name, "enter " + tids + " into");
      String what = "enter " + tids + " into " + name;
      try {
        Optional<VirtualHostKeeper.Record> host = api.lifecycle().virtualHosts().of(name);
        if (host.isPresent()) {
          requireInside(host.get(), tids, what);
        }
      } catch (IOException e) {
        throw Errors.of(what, e);
      }
      new Mover(layout.fs()).move(tids, layout.managed(), layout.path(name), what);
    }
  }

  /** Refuses ids outside the virtual host: they cannot join its namespaces. */
  private void requireInside(VirtualHostKeeper.Record host, List<Long> tids, String what)
      throws IOException {
    VirtualHosts vhosts = api.lifecycle().virtualHosts().vhosts();
    if (host.init() == null || !vhosts.isRunning(host.init())) {
      throw new LmctfyException(
          ErrorCode.FAILED_PRECONDITION,
          what
              + ": "
              + name
              + " is in the virtual host "
              + host.name()
              + ", whose init is not running, so no process is inside it; run starts a new one");
    }
    for (Long tid : tids) {
      if (tid != null && tid > 0 && !vhosts.holds(host.init(), tid)) {
        throw new LmctfyException(
            ErrorCode.FAILED_PRECONDITION,
            what
                + ": "
                + tid
                + " is not inside the virtual host "
                + host.name()
                + " (init "
                + host.init().pid()
                + "), and a process joins namespaces only as it starts: "
                + "run the program in "
                + name
                + " instead (as in lmctfy, enter moves only the virtual host's own "
                + "processes); nothing was moved");
      }
    }
  }

  @Override
  public ContainerProcess run(List<String> argv, RunSpec spec) {
    Objects.requireNonNull(spec, "spec");
    String what = "run " + argv + " in " + name;
    try (ContainerLocks.Held held = api.lifecycle().hold(ContainerOperation.RUN, name)) {
      api.lifecycle().requireExists(name);
      api.beforePlacing();
      Layout layout = api.lifecycle().layout();
      layout.requireDomain(name, "run " + argv + " in");
      Map<Hierarchy, CgroupPath> cgroups = api.lifecycle().virtualHosts().cgroups(name);
      Optional<VirtualHostKeeper.Record> host = api.lifecycle().virtualHosts().of(name);
      if (host.isPresent()) {
        ProcessBuilder command = RunCommand.forVirtualHost(argv, spec);
        new Mover(layout.fs()).checkPlacement(layout.managed(), layout.path(name), what);
        return new LaunchedProcess(
            join(host.get(), command, spec.fdPolicy() == RunSpec.FdPolicy.DETACHED, cgroups));
      }
      ProcessBuilder command = RunCommand.of(argv, spec);
      new Mover(layout.fs()).checkPlacement(layout.managed(), layout.path(name), what);
      return new LaunchedProcess(layout.fs().start(command, cgroups));
    } catch (IOException e) {
      throw Errors.ofRun(what, e);
    }
  }

  /**
   * Joins the virtual host, starting its init again first if it no longer runs (once more if it
   * ends meanwhile).
   */
  private Process join(
      VirtualHostKeeper.Record host,
      ProcessBuilder command,
      boolean newSession,
      Map<Hierarchy, CgroupPath> cgroups)
      throws IOException {
    VirtualHostKeeper keeper = api.lifecycle().virtualHosts();
    try {
      return keeper.vhosts().join(keeper.running(host), command, newSession, cgroups);
    } catch (CgroupFsException e) {
      if (e.errno() != Errno.ESRCH) {
        throw e;
      }
      return keeper
          .vhosts()
          .join(keeper.running(host), command, newSession, cgroups); // the init ended just then
    }
  }

  @Override
  public long initPid() {
    api.lifecycle().requireExists(name);
    try {
      Optional<VirtualHostKeeper.Record> host = api.lifecycle().virtualHosts().of(name);
      if (host.isEmpty()) {
        return 1;
      }
      ProcessId init = host.get().init();
      if (init == null || !api.lifecycle().virtualHosts().vhosts().isRunning(init)) {
        throw new LmctfyException(
            ErrorCode.NOT_FOUND,
            "the init of virtual host "
                + host.get().name()
                + " is not "
                + "running (a killAll, or it ended); the next run starts a new one");
      }
      return init.pid();
    } catch (IOException e) {
      throw Errors.of("find the init of " + name, e);
    }
  }

  @Override
  public void pause() {
    administer(
        ContainerOperation.PAUSE,
        (layout, path) ->
            new Freezer(layout.fs(), layout.managed(), api.killTimeout()).freeze(path));
  }

  @Override
  public void resume() {
    administer(
        ContainerOperation.RESUME,
        (layout, path) -> new Freezer(layout.fs(), layout.managed(), api.killTimeout()).thaw(path));
  }

  @Override
  public void killAll() {
    administer(
        ContainerOperation.KILL_ALL,
        (layout, path) -> {
          layout.requireDomain(
              name, "killAll"); // a threaded cgroup's cgroup.kill is EOPNOTSUPP: it holds threads
          new ProcessKiller(layout.fs(), api.killTimeout()).killAllAndThaw(layout.managed(), path);
        });
  }

  private interface Step {
    void run(Layout layout, CgroupPath path) throws IOException;
  }

  /**
   * Runs an administrative step under the lock {@code op} holds, never on a container holding the
   * caller.
   */
  private void administer(ContainerOperation op, Step step) {
    String what = op.verb();
    try (ContainerLocks.Held held = api.lifecycle().hold(op, name)) {
      api.lifecycle().requireExists(name);
      Layout layout = api.lifecycle().layout();
      CgroupPath path = layout.path(name);
      CgroupPath self = layout.fs().cgroupsOf(layout.fs().selfPid()).get(layout.anchor());
      if (self != null && path.isAncestorOrSelf(self)) {
        throw new LmctfyException(
            ErrorCode.FAILED_PRECONDITION,
            what
                + " "
                + name
                + ": the calling process ("
                + layout.fs().selfPid()
                + ") is inside it");
      }
      step.run(layout, path);
    } catch (IOException e) {
      throw Errors.of(what + " " + name, e);
    }
  }

  @Override
  public List<String> listSubcontainers(ListPolicy policy) {
    List<String> out = new ArrayList<>();
    api.lifecycle().list(name, policy == ListPolicy.RECURSIVE).forEach(n -> out.add(n.value()));
    return out;
  }

  @Override
  public List<Long> listProcesses(ListPolicy policy) {
    return members("cgroup.procs", policy);
  }

  @Override
  public List<Long> listThreads(ListPolicy policy) {
    return members("tasks", policy);
  }

  /** The ids in {@code file} of the anchor cgroup (and of every cgroup below it, recursively). */
  private List<Long> members(String file, ListPolicy policy) {
    api.lifecycle().requireExists(name);
    Layout layout = api.lifecycle().layout();
    if (file.equals("cgroup.procs")) {
      layout.requireDomain(
          name, "listProcesses of"); // a threaded cgroup's cgroup.procs is EOPNOTSUPP
    }
    Hierarchy anchor = layout.anchor();
    String actual =
        file.equals("tasks") && anchor.version() == CgroupVersion.V2 ? "cgroup.threads" : file;
    try {
      return List.copyOf(
          Members.of(
              layout.fs(), anchor, layout.path(name), actual, policy == ListPolicy.RECURSIVE));
    } catch (IOException e) {
      throw Errors.of(
          "list the " + (file.equals("tasks") ? "threads" : "processes") + " of " + name, e);
    }
  }

  @Override
  public long registerNotification(EventSpec event, NotificationListener listener) {
    Objects.requireNonNull(event, "event");
    Objects.requireNonNull(listener, "listener");
    api.lifecycle().requireExists(name);
    return api.notifier().register(api.lifecycle().layout(), name, event, listener);
  }

  @Override
  public void unregisterNotification(long id) {
    api.notifier().unregister(name, id);
  }

  @Override
  public void destroy() {
    api.lifecycle().destroy(name);
  }

  @Override
  public String toString() {
    return "Container" + name;
  }
}
