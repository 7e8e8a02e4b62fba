package org.lmctfy.internal.lifecycle;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.lmctfy.CleanupReport;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.NotificationListener;
import org.lmctfy.StatsType;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.internal.errors.Errors;
import org.lmctfy.internal.jfr.Flight;
import org.lmctfy.internal.lock.ContainerLocks;
import org.lmctfy.internal.naming.ContainerName;
import org.lmctfy.internal.notify.ContainerCgroups;
import org.lmctfy.internal.notify.Notifier;
import org.lmctfy.internal.process.ProcessKiller;
import org.lmctfy.internal.resources.ContainerView;
import org.lmctfy.internal.resources.Mode;
import org.lmctfy.internal.resources.ResourcePlan;
import org.lmctfy.internal.stats.StatsReader;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.ContainerStats;
import org.lmctfy.spec.EventSpec;
import org.lmctfy.spec.InitSpec;
import org.lmctfy.spec.RunSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The containers of one API: the one internal entry, which serves every operation the facade offers
 * (create, update, spec, stats, destroy, list, detect, cleanup, initMachine; run, enter, pause,
 * resume, killAll, the process and thread lists, notifications, the init's pid) over one {@link
 * Layout}. Each operation takes the lock its {@link ContainerOperation} names (parent before child,
 * across threads and processes), checks the container, and hands the work to its part: {@link
 * Creator}, {@link Updater}, {@link Destroyer}, {@link Processes}, {@link VirtualHostKeeper}, the
 * stats reader, the notifier. The facade only checks arguments and translates.
 */
public final class Containers {
  private static final Logger LOG = LoggerFactory.getLogger(Containers.class);

  private final Layout layout;
  private final Census census;
  private final ContainerLocks locks;
  private final SubtreeControl subtree;
  private final Destroyer destroyer;
  private final Creator creator;
  private final Updater updater;
  private final StatsReader stats;
  private final VirtualHostKeeper virtualHosts;
  private final Processes processes;
  private final Notifier notifier;
  private final Flight flight;
  private final RootKeeper keeper;
  // whether these containers' API made, destroyed or prepared anything: then close() lets the
  // driver
  // release what it keeps for the API (a systemd unit that holds no container is stopped)
  private volatile boolean changed;

  /**
   * @param killDeadline how long processes are killed, and the freezer waited for, before
   *     DEADLINE_EXCEEDED
   * @param lockDeadline how long an operation waits for a container's lock
   * @param notifier the API's notifications, which outlive this entry (initMachine makes a new
   *     one); told of each container destroyed (children before their parent), after its cgroups
   *     are gone
   * @param flight what the API tells JDK Flight Recorder, which outlives this entry too: each
   *     destroy, and each container destroyed, as the notifier is told
   * @param keeper what the driver that chose the root does for it
   */
  public Containers(
      CgroupFs fs,
      CgroupPath root,
      Duration killDeadline,
      Duration lockDeadline,
      Notifier notifier,
      Flight flight,
      RootKeeper keeper) {
    this.keeper = keeper;
    this.notifier = notifier;
    this.flight = flight;
    this.layout = new Layout(fs, root);
    this.census = new Census(layout);
    this.locks = new ContainerLocks(fs.lockDirectory().orElse(null), lockDeadline);
    ProcessKiller killer = new ProcessKiller(fs, killDeadline);
    this.destroyer =
        new Destroyer(
            layout,
            census,
            locks,
            killer,
            name -> {
              notifier.destroyed(name);
              flight.destroyed(name.value());
            });
    this.virtualHosts = new VirtualHostKeeper(layout, killer, this::lock);
    this.stats = new StatsReader(fs, layout.managed());
    this.processes = new Processes(layout, virtualHosts, killer, killDeadline, stats);
    this.subtree = new SubtreeControl(fs, locks);
    this.creator = new Creator(layout, census, destroyer, virtualHosts, subtree);
    this.updater = new Updater(layout, census, this::view, subtree);
  }

  /**
   * Lets the driver release what it keeps for this API where it changed anything ({@link
   * RootKeeper#release}), then lets go of the lock file (every lock is let go by then), even when
   * the release fails.
   */
  public void close() {
    try {
      if (changed) {
        keeper.release(this);
      }
    } finally {
      locks.close();
    }
  }

  /** Holds the lock of {@code name} (across threads and processes) until closed. */
  public ContainerLocks.Held lock(ContainerName name) {
    return locks.lock(layout.path(name).value(), name.value());
  }

  /**
   * Holds what {@code op} holds on {@code name} (its {@link ContainerOperation#lock}) until closed;
   * null where it holds nothing (a try-with-resources closes no null).
   */
  private ContainerLocks.Held hold(ContainerOperation op, ContainerName name) {
    return switch (op.lock()) {
      case NONE -> null;
      case WITHIN_PROCESS -> locks.lockWithinProcess(layout.path(name).value(), name.value());
      case ACROSS_PROCESSES -> lock(name);
    };
  }

  /**
   * Holds {@code name}'s parent's lock where {@code op} takes it first: for a top-level container
   * the root's only where the driver's cleanup may remove it ({@link
   * RootKeeper#lockRootForTopLevel}).
   */
  private ContainerLocks.Held holdParent(ContainerOperation op, ContainerName name) {
    if (!op.parentFirst()) {
      return null;
    }
    return !name.parent().isRoot()
        ? lock(name.parent())
        : keeper.lockRootForTopLevel() ? lock(ContainerName.root()) : null;
  }

  /** Resolves a name given by a caller: relative names against the caller's own container. */
  public ContainerName resolve(String name) {
    if (name != null && !name.startsWith("/") && !name.isEmpty()) {
      return ContainerName.resolve(name, callerContainer());
    }
    return ContainerName.resolve(name, ContainerName.root());
  }

  private ContainerName callerContainer() {
    try {
      return detect(layout.fs().selfPid());
    } catch (LmctfyException e) {
      return ContainerName.root(); // this process runs outside the API's root
    }
  }

  public void create(ContainerName name, ContainerSpec spec) {
    if (name.isRoot()) {
      throw new LmctfyException(ErrorCode.ALREADY_EXISTS, "the root container / always exists");
    }
    boolean topLevel = name.parent().isRoot();
    if (topLevel) {
      keeper.precheck();
    }
    changed = true;
    try (ContainerLocks.Held p = holdParent(ContainerOperation.CREATE, name)) {
      boolean madeRoot = topLevel && keeper.prepare(this);
      try (ContainerLocks.Held n = hold(ContainerOperation.CREATE, name)) {
        requireParent(name.parent());
        requireDomainParent(name);
        ResourcePlan plan = ResourcePlan.of(spec, Mode.CREATE, view(name));
        virtualHosts.check(name, spec);
        creator.create(name, plan, spec);
      } catch (IOException | RuntimeException e) {
        if (madeRoot) {
          // a refused create changes nothing, not even the driver's unit
          keeper.removeUnused(this, e);
        }
        throw e;
      }
    } catch (IOException e) {
      throw Errors.of("create " + name, e);
    }
  }

  /**
   * initMachine: the driver makes the root usable first, under its lock where it can be removed
   * (moving its processes, unless the spec names a processes leaf that takes them); then the
   * mounts, the processes leaf and the controllers of the root ({@link MachineInit}).
   */
  public void initMachine(InitSpec spec) {
    keeper.precheck();
    changed = true;
    try (ContainerLocks.Held p = keeper.lockRootForTopLevel() ? lock(ContainerName.root()) : null) {
      if (spec.processesLeaf() == null) {
        keeper.prepare(this);
      } else {
        keeper.ensureRoot(this);
      }
    }
    moveRootProcesses(spec);
  }

  /**
   * {@link MachineInit}'s part of initMachine alone, {@code cgroup.subtree_control} changed under
   * the lock the creates take for it: for a driver that moves the root's processes into a leaf.
   */
  public void moveRootProcesses(InitSpec spec) {
    new MachineInit(layout.fs(), layout.root(), subtree).run(spec);
  }

  /** What the resource handlers see of {@code name} and its parent. */
  ContainerView view(ContainerName name) {
    return new ContainerView(
        layout.fs(),
        layout.managed(),
        layout.root(),
        layout.path(name.parent()),
        layout.path(name),
        keeper::controllerRemedy);
  }

  /**
   * Whether {@code name} holds nothing: no subcontainer, no intent of one, no cgroup another tool
   * made (a processes leaf does not count).
   */
  public boolean holdsNothing(ContainerName name) throws IOException {
    List<String> foreign = new ArrayList<>();
    List<String> forged = new ArrayList<>();
    return census.children(name, foreign, forged).isEmpty()
        && foreign.isEmpty()
        && forged.isEmpty();
  }

  /** The container's spec as the kernel has it, for the fields its creator and updates gave. */
  public ContainerSpec spec(ContainerName name) {
    try (ContainerLocks.Held n = hold(ContainerOperation.SPEC, name)) {
      requireExists(name);
      return virtualHosts.withSections(name, ResourcePlan.read(view(name), updater.fields(name)));
    } catch (IOException e) {
      throw Errors.of("read the spec of " + name, e);
    }
  }

  /**
   * The stats of {@code name}, read without a lock and without the existence census (a monitoring
   * agent reads thousands): a container that is gone is NOT_FOUND from its missing files.
   */
  public ContainerStats stats(ContainerName name, StatsType type) {
    return stats.read(name.value(), layout.path(name), type);
  }

  /**
   * A reader of one container's stats at a time by its name, all with one set of buffers (not
   * thread-safe): a container that is gone is NOT_FOUND alone.
   */
  public Function<String, ContainerStats> statsReader(StatsType type) {
    StatsReader.Batch batch = stats.batch();
    return name -> {
      ContainerName n = resolve(name);
      return batch.read(n.value(), layout.path(n), type);
    };
  }

  /** The stats of each of {@code names}, in their order, read with one set of buffers. */
  public Map<String, ContainerStats> stats(List<ContainerName> names, StatsType type) {
    StatsReader.Batch batch = stats.batch();
    Map<String, ContainerStats> out = new LinkedHashMap<>(names.size() * 4 / 3 + 1);
    for (ContainerName name : names) {
      out.put(name.value(), batch.read(name.value(), layout.path(name), type));
    }
    return out;
  }

  /** {@code spec} as spec() reports it on this host. */
  public ContainerSpec normalise(ContainerSpec spec) {
    return ResourcePlan.normalise(spec, view(ContainerName.root()));
  }

  /** Proactive reclaim from {@code name}: see {@link org.lmctfy.Container#reclaim}. */
  public void reclaim(ContainerName name, long bytes) {
    requireExists(name);
    org.lmctfy.internal.resources.MemoryReclaim.reclaim(view(name), name.value(), bytes);
  }

  /**
   * Changes {@code name}'s resources; every value changed is put back if a write fails. {@code
   * forceMemoryLimit}: a lower memory limit than the container uses is written anyway.
   */
  public void update(ContainerName name, ContainerSpec spec, Mode mode, boolean forceMemoryLimit) {
    try (ContainerLocks.Held n = hold(ContainerOperation.UPDATE, name)) {
      requireExists(name);
      layout.requireDomain(name, "update");
      virtualHosts.checkUpdate(name, spec);
      updater.update(name, spec, mode, forceMemoryLimit);
    } catch (IOException e) {
      throw Errors.of("update " + name, e);
    }
  }

  /**
   * A new cgroup below a thread root or a threaded cgroup (which only another tool makes) would be
   * "domain invalid" or threaded: no process could join it. Said before anything is made.
   */
  private void requireDomainParent(ContainerName name) throws IOException {
    CgroupPath parent = layout.path(name.parent());
    String type = layout.cgroupType(parent);
    if (!type.equals("domain")) {
      throw new LmctfyException(
          ErrorCode.FAILED_PRECONDITION,
          "create "
              + name
              + ": its parent's cgroup "
              + Layout.describe(layout.anchor(), parent)
              + " is of type \""
              + type
              + "\" (another tool made threaded "
              + "cgroups "
              + (type.equals("domain threaded") ? "in it" : "there")
              + "), where a new cgroup would be \"domain invalid\" and could hold no process;"
              + " lmctfy makes domain containers only");
    }
  }

  private void requireParent(ContainerName parent) throws IOException {
    if (parent.isRoot()) {
      return;
    }
    State state = census.of(parent);
    if (!state.isContainer()) {
      throw existenceError(state, "parent ");
    }
  }

  /** Moves {@code tids} into {@code name} (see {@link org.lmctfy.Container#enter}). */
  public void enter(ContainerName name, List<Long> tids) {
    try (ContainerLocks.Held held = hold(ContainerOperation.ENTER, name)) {
      requireExists(name);
      keeper.beforePlacing();
      processes.enter(name, tids);
    } catch (IOException e) {
      throw Errors.of("enter " + tids + " into " + name, e);
    }
  }

  /** Starts {@code argv} in {@code name}, placed before it runs (see {@link Processes#run}). */
  public Process run(ContainerName name, List<String> argv, RunSpec spec) {
    String what = "run " + argv + " in " + name;
    try (ContainerLocks.Held held = hold(ContainerOperation.RUN, name)) {
      requireExists(name);
      keeper.beforePlacing();
      return processes.run(name, argv, spec, what);
    } catch (IOException e) {
      throw Errors.ofRun(what, e);
    }
  }

  /** The pid of the init of {@code name}'s virtual host, or 1. */
  public long initPid(ContainerName name) {
    requireExists(name);
    try {
      return processes.initPid(name);
    } catch (IOException e) {
      throw Errors.of("find the init of " + name, e);
    }
  }

  public void pause(ContainerName name) {
    administer(ContainerOperation.PAUSE, name, processes::pause);
  }

  public void resume(ContainerName name) {
    administer(ContainerOperation.RESUME, name, processes::resume);
  }

  public void killAll(ContainerName name) {
    administer(ContainerOperation.KILL_ALL, name, path -> processes.killAll(name, path));
  }

  private interface Step {
    void run(CgroupPath path) throws IOException;
  }

  /**
   * Runs an administrative step under the lock {@code op} holds, never on a container holding the
   * caller.
   */
  private void administer(ContainerOperation op, ContainerName name, Step step) {
    String what = op.verb();
    try (ContainerLocks.Held held = hold(op, name)) {
      requireExists(name);
      CgroupFs fs = layout.fs();
      CgroupPath path = layout.path(name);
      CgroupPath self = fs.cgroupsOf(fs.selfPid()).get(layout.anchor());
      if (self != null && path.isAncestorOrSelf(self)) {
        throw new LmctfyException(
            ErrorCode.FAILED_PRECONDITION,
            what + " " + name + ": the calling process (" + fs.selfPid() + ") is inside it");
      }
      step.run(path);
    } catch (IOException e) {
      throw Errors.of(what + " " + name, e);
    }
  }

  /** The processes in {@code name}, and in every container below it where {@code recursive}. */
  public List<Long> listProcesses(ContainerName name, boolean recursive) {
    requireExists(name);
    try {
      return processes.processes(name, recursive);
    } catch (IOException e) {
      throw Errors.of("list the processes of " + name, e);
    }
  }

  /** The threads in {@code name}, and in every container below it where {@code recursive}. */
  public List<Long> listThreads(ContainerName name, boolean recursive) {
    requireExists(name);
    try {
      return processes.threads(name, recursive);
    } catch (IOException e) {
      throw Errors.of("list the threads of " + name, e);
    }
  }

  /** Starts delivering {@code event} on {@code name} to {@code listener}; its id. */
  public long registerNotification(
      ContainerName name, EventSpec event, NotificationListener listener) {
    requireExists(name);
    return notifier.register(
        new ContainerCgroups(layout.fs(), layout.managed(), layout.anchor(), layout.path(name)),
        name,
        event,
        listener);
  }

  /** Ends the registration {@code id} of {@code name}. */
  public void unregisterNotification(ContainerName name, long id) {
    notifier.unregister(name, id);
  }

  public void destroy(ContainerName name) {
    if (name.isRoot()) {
      throw new LmctfyException(
          ErrorCode.FAILED_PRECONDITION, "the root container / cannot be destroyed");
    }
    changed = true;
    Flight.Destroying recording = flight.destroying(name.value(), () -> statsBeforeDestroy(name));
    try (ContainerLocks.Held n = hold(ContainerOperation.DESTROY, name)) {
      destroyer.destroy(name);
    } catch (IOException e) {
      throw Errors.of("destroy " + name, e);
    }
    recording.done();
  }

  /**
   * What a container about to be destroyed used, for the flight recorder; null where it cannot be
   * read (absent, partial): the destroy says why, the event then has no figures.
   */
  private @Nullable ContainerStats statsBeforeDestroy(ContainerName name) {
    try {
      return stats(name, StatsType.SUMMARY);
    } catch (LmctfyException e) {
      LOG.debug("destroy {}: its stats for the flight recorder: {}", name, e.getMessage());
      return null;
    }
  }

  /** Whether {@code name} exists; FAILED_PRECONDITION for a partial one, saying where. */
  public boolean exists(ContainerName name) {
    if (name.isRoot()) {
      return true;
    }
    State state = state(name);
    if (state.kind() == State.Kind.PARTIAL) {
      throw existenceError(state, "");
    }
    return state.isContainer();
  }

  /** Fails unless {@code name} exists: NOT_FOUND, or FAILED_PRECONDITION for a partial one. */
  public void requireExists(ContainerName name) {
    if (!name.isRoot()) {
      State state = state(name);
      if (!state.isContainer()) {
        throw existenceError(state, "");
      }
    }
  }

  private State state(ContainerName name) {
    try {
      return census.of(name);
    } catch (IOException e) {
      throw Errors.of("look up " + name, e);
    }
  }

  private static LmctfyException existenceError(State state, String role) {
    switch (state.kind()) {
      case PARTIAL:
        return new LmctfyException(
            ErrorCode.FAILED_PRECONDITION,
            role
                + "container "
                + state.name()
                + " is partial: "
                + state.describe()
                + (state.isOurs()
                    ? "; destroy it to remove what is left"
                    : "; these cgroups were not made by lmctfy"));
      case UNFINISHED:
        return new LmctfyException(
            ErrorCode.NOT_FOUND,
            role
                + "container "
                + state.name()
                + " does not exist: its "
                + state.intent().replace("ing", "e")
                + " is in progress or was interrupted ("
                + state.describe()
                + "); destroy, create or cleanup() finishes it");
      default:
        return new LmctfyException(
            ErrorCode.NOT_FOUND, role + "container " + state.name() + " does not exist");
    }
  }

  /** The subcontainers of {@code name}, sorted; foreign or partial directories are left out. */
  public List<ContainerName> list(ContainerName name, boolean recursive) {
    requireExists(name);
    List<ContainerName> out = new ArrayList<>();
    try {
      collect(name, recursive, out);
    } catch (IOException e) {
      throw Errors.of("list the subcontainers of " + name, e);
    }
    return out;
  }

  private void collect(ContainerName name, boolean recursive, List<ContainerName> out)
      throws IOException {
    for (ContainerName child : census.children(name, new ArrayList<>())) {
      if (census.of(child).isContainer()) {
        out.add(child);
        if (recursive) {
          collect(child, true, out);
        }
      }
    }
  }

  /** The container process {@code pid} is in: the deepest container holding its cgroup. */
  public ContainerName detect(long pid) {
    Map<org.lmctfy.cgroupfs.Hierarchy, CgroupPath> cgroups;
    try {
      cgroups = layout.fs().cgroupsOf(pid);
    } catch (IOException e) {
      throw Errors.of("detect the container of process " + pid, e);
    }
    CgroupPath path = cgroups.get(layout.anchor());
    if (path == null || !layout.root().isAncestorOrSelf(path)) {
      throw new LmctfyException(
          ErrorCode.NOT_FOUND,
          "process "
              + pid
              + " is in cgroup "
              + (path == null ? "(none visible)" : Layout.describe(layout.anchor(), path))
              + ", outside this API's root "
              + layout.root());
    }
    ContainerName name = ContainerName.root();
    for (String c : path.relativeTo(layout.root()).components()) {
      ContainerName next = ContainerName.isValidComponent(c) ? name.child(c) : null;
      if (next == null || !state(next).isContainer()) {
        break;
      }
      name = next;
    }
    return name;
  }

  /** Finishes or undoes every unfinished or partial container of ours below the root. */
  public CleanupReport cleanup() {
    List<String> removed = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    new Sweeper(layout, census, destroyer, n -> hold(ContainerOperation.CLEANUP, n))
        .sweep(ContainerName.root(), removed, failures);
    keeper.afterCleanup(this, removed, failures);
    return new CleanupReport(removed, failures);
  }
}
