package org.lmctfy.internal.lifecycle;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.naming.ContainerName;
import org.lmctfy.internal.process.Freezer;
import org.lmctfy.internal.process.JvmSizing;
import org.lmctfy.internal.process.Members;
import org.lmctfy.internal.process.Mover;
import org.lmctfy.internal.process.ProcessKiller;
import org.lmctfy.internal.process.RunCommand;
import org.lmctfy.internal.stats.StatsReader;
import org.lmctfy.spec.RunSpec;
import org.lmctfy.vhost.ProcessId;
import org.lmctfy.vhost.VirtualHosts;

/**
 * What {@link Containers} does with a container's processes once the operation's lock is held and
 * the container's existence checked: run, enter, pause, resume, killAll, the process and thread
 * lists, the virtual host's init. One per entry, with the one {@link Mover}, {@link Freezer} and
 * {@link ProcessKiller} of the API.
 */
final class Processes {
  private final Layout layout;
  private final VirtualHostKeeper virtualHosts;
  private final Mover mover;
  private final Freezer freezer;
  private final ProcessKiller killer;
  private final StatsReader stats;

  Processes(
      Layout layout,
      VirtualHostKeeper virtualHosts,
      ProcessKiller killer,
      Duration killDeadline,
      StatsReader stats) {
    this.layout = layout;
    this.stats = stats;
    this.virtualHosts = virtualHosts;
    this.killer = killer;
    this.mover = new Mover(layout.fs());
    this.freezer = new Freezer(layout.fs(), layout.managed(), killDeadline);
  }

  /** Moves {@code tids} into {@code name}; in a virtual host only its own processes. */
  void enter(ContainerName name, List<Long> tids) throws IOException {
    layout.requireDomain(name, "enter " + tids + " into");
    String what = "enter " + tids + " into " + name;
    Optional<VirtualHostKeeper.Record> host = virtualHosts.of(name);
    if (host.isPresent()) {
      requireInside(name, host.get(), tids, what);
    }
    mover.move(tids, layout.managed(), layout.path(name), what);
  }

  /** Refuses ids outside the virtual host: they cannot join its namespaces. */
  private void requireInside(
      ContainerName name, VirtualHostKeeper.Record host, List<Long> tids, String what)
      throws IOException {
    VirtualHosts vhosts = virtualHosts.vhosts();
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

  /** Starts {@code argv} in {@code name}: through its virtual host's init if it is in one. */
  Process run(ContainerName name, List<String> argv, RunSpec spec, String what) throws IOException {
    layout.requireDomain(name, "run " + argv + " in");
    List<String> program =
        Boolean.TRUE.equals(spec.sizeJvm())
            ? JvmSizing.argv(argv, stats.effectiveLimits(name.toString(), layout.path(name)))
            : argv;
    Map<Hierarchy, CgroupPath> cgroups = virtualHosts.cgroups(name);
    Optional<VirtualHostKeeper.Record> host = virtualHosts.of(name);
    if (host.isPresent()) {
      ProcessBuilder command = RunCommand.forVirtualHost(program, spec);
      mover.checkPlacement(layout.managed(), layout.path(name), what);
      return join(host.get(), command, spec.fdPolicy() == RunSpec.FdPolicy.DETACHED, cgroups);
    }
    ProcessBuilder command = RunCommand.of(program, spec);
    mover.checkPlacement(layout.managed(), layout.path(name), what);
    return layout.fs().start(command, cgroups);
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
    try {
      return virtualHosts.vhosts().join(virtualHosts.running(host), command, newSession, cgroups);
    } catch (CgroupFsException e) {
      if (e.errno() != Errno.ESRCH) {
        throw e;
      }
      // the init ended just then
      return virtualHosts.vhosts().join(virtualHosts.running(host), command, newSession, cgroups);
    }
  }

  /** The pid of {@code name}'s init: its virtual host's, or 1 for a container in none. */
  long initPid(ContainerName name) throws IOException {
    Optional<VirtualHostKeeper.Record> host = virtualHosts.of(name);
    if (host.isEmpty()) {
      return 1;
    }
    ProcessId init = host.get().init();
    if (init == null || !virtualHosts.vhosts().isRunning(init)) {
      throw new LmctfyException(
          ErrorCode.NOT_FOUND,
          "the init of virtual host "
              + host.get().name()
              + " is not "
              + "running (a killAll, or it ended); the next run starts a new one");
    }
    return init.pid();
  }

  void pause(CgroupPath path) throws IOException {
    freezer.freeze(path);
  }

  void resume(CgroupPath path) throws IOException {
    freezer.thaw(path);
  }

  void killAll(ContainerName name, CgroupPath path) throws IOException {
    // a threaded cgroup's cgroup.kill is EOPNOTSUPP: it holds threads
    layout.requireDomain(name, "killAll");
    killer.killAllAndThaw(layout.managed(), path);
  }

  /**
   * The processes of {@code name}'s cgroup, and of every cgroup below it where {@code recursive}.
   */
  List<Long> processes(ContainerName name, boolean recursive) throws IOException {
    // a threaded cgroup's cgroup.procs is EOPNOTSUPP
    layout.requireDomain(name, "listProcesses of");
    return members(name, "cgroup.procs", recursive);
  }

  /** The threads of {@code name}'s cgroup, and of every cgroup below it where {@code recursive}. */
  List<Long> threads(ContainerName name, boolean recursive) throws IOException {
    boolean v2 = layout.anchor().version() == CgroupVersion.V2;
    return members(name, v2 ? "cgroup.threads" : "tasks", recursive);
  }

  /** The ids in {@code file} of the anchor cgroup of {@code name} (and below it, recursively). */
  private List<Long> members(ContainerName name, String file, boolean recursive)
      throws IOException {
    return List.copyOf(
        Members.of(layout.fs(), layout.anchor(), layout.path(name), file, recursive));
  }
}
