package org.lmctfy.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.systemdbus.SystemdConnector;
import org.lmctfy.systemdbus.SystemdException;
import org.lmctfy.systemdbus.SystemdManager;
import org.lmctfy.systemdbus.SystemdManager.JobRemoved;
import org.lmctfy.systemdbus.SystemdManager.Scope;
import org.lmctfy.systemdbus.SystemdManager.TransientService;
import org.lmctfy.systemdbus.SystemdManager.UnitState;
import org.lmctfy.testing.internal.fake.Kernel;

/**
 * An in-memory systemd for a {@link FakeCgroupFs} on pure cgroup v2: PID 1's manager and, once
 * started, users' managers, with their transient services in memory and their cgroups in the fake,
 * so that code that runs under the systemd driver is tested without systemd. It behaves as systemd
 * 252 was seen to in a guest: a transient service's cgroup is made in its slice (the slice's
 * parents enable the controllers systemd delegates: {@code cpuset cpu io memory pids} for PID 1,
 * {@code cpu memory pids} for a stock user manager), marked delegated ({@code user.delegate}),
 * owned by the user for a user manager's, with its keeper process in it; {@code StopUnit} kills
 * every process of the unit's cgroups and removes them; a unit that stops or fails is unloaded
 * ({@code CollectMode=inactive-or-failed}); a user calling PID 1 to change anything is refused as
 * polkit refuses it; and each job's {@code JobRemoved} reaches every subscriber, before the call's
 * answer unless told otherwise.
 *
 * <pre>{@code
 * FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.V2);
 * FakeSystemd systemd = FakeSystemd.on(fs);
 * systemd.failNext("StartTransientUnit", SystemdException.ACCESS_DENIED);
 * try (ContainerApi api = ContainerApi.open(fs, systemd, ApiOptions.DEFAULTS)) {
 *   assertThatThrownBy(() -> api.create("/job", spec)).hasMessageContaining("AccessDenied");
 * }
 * }</pre>
 *
 * <p>Test controls are grouped: users' managers ({@link #startUserManager}, {@link
 * #stopUserManager}), what an administrator does ({@link #stop}, {@link #daemonReload}, {@link
 * #leaveFailedUnit}), faults ({@link #failNext}, {@link #endNextJob}, {@link #loseNextJobRemoved},
 * {@link #crashAt}, {@link #unreachable}, {@link #answerAfterReply}, {@link #onNext}), and the
 * record ({@link #calls()}, {@link #unit}, {@link #openConnections()}). Thread-safe.
 *
 * @since 0.1
 */
public final class FakeSystemd implements SystemdConnector {
  /** What systemd 252 delegates to a unit with {@code Delegate=yes}, where the kernel has it. */
  static final Set<String> SYSTEM_DELEGATES = Set.of("cpuset", "cpu", "io", "memory", "pids");

  /** What a stock {@code user@.service} delegates ({@code Delegate=pids memory cpu}). */
  static final Set<String> USER_DELEGATES = Set.of("cpu", "memory", "pids");

  /** The uid standing for PID 1's manager in the tables. */
  private static final int SYSTEM = -1;

  /** The exit status of a process systemd killed. */
  private static final int KILLED = 137;

  private final FakeCgroupFs fs;
  private final Hierarchy unified;
  private final Object lock = new Object();
  private final Map<Integer, Map<String, Unit>> units = new HashMap<>();
  private final Map<Integer, Set<String>> userManagers = new HashMap<>();
  private final List<Listener> listeners = new CopyOnWriteArrayList<>();
  private final List<String> calls = new ArrayList<>();
  private final Map<String, String> failures = new LinkedHashMap<>();
  private final Map<String, String> jobEnds = new LinkedHashMap<>();
  private final Set<String> lostSignals = new TreeSet<>();
  private final Map<String, Boolean> crashes = new LinkedHashMap<>();
  private final Map<String, Runnable> interleaved = new LinkedHashMap<>();
  private boolean unreachable;
  private boolean afterReply;
  private long jobs;
  private int openConnections;

  private static final class Unit {
    final String name;
    final CgroupPath cgroup;
    String activeState = "active";
    long keeper;

    Unit(String name, CgroupPath cgroup) {
      this.name = name;
      this.cgroup = cgroup;
    }
  }

  private record Listener(int manager, Consumer<JobRemoved> consumer) {}

  private FakeSystemd(FakeCgroupFs fs) {
    this.fs = fs;
    this.unified = fs.unifiedHierarchy();
  }

  /**
   * systemd over {@code fs}, which must have its controllers on cgroup v2 ({@link FakeLayout#V2},
   * {@link FakeLayout#SYSTEMD_V2}): lays out what PID 1 has at boot where it is missing ({@code
   * /init.scope} with pid 1, {@code /system.slice} enabling the controllers it delegates) and, when
   * the test's own process is still in the root cgroup, starts it in the plain service {@code
   * /system.slice/app.service} (no {@code Delegate=}), as systemd starts a program. None of it is
   * in the fake's record.
   *
   * @param fs the fake
   * @return the manager
   * @throws IllegalStateException if the fake's controllers are not on cgroup v2
   */
  public static FakeSystemd on(FakeCgroupFs fs) {
    for (Hierarchy h : fs.hierarchies()) {
      if (h.version() == org.lmctfy.cgroupfs.CgroupVersion.V1 && !h.controllers().isEmpty()) {
        throw new IllegalStateException(
            "systemd runs lmctfy's driver on cgroup v2 only; this fake has v1 " + h);
      }
    }
    FakeSystemd systemd = new FakeSystemd(fs);
    systemd.boot();
    return systemd;
  }

  private void boot() {
    systemdDoes(
        k -> {
          CgroupPath init = CgroupPath.of("/init.scope");
          if (!k.exists(unified, init)) {
            k.makeCgroup(unified, init);
            k.write(unified, init, "cgroup.procs", "1");
          }
          CgroupPath slice = CgroupPath.of("/system.slice");
          ensureCgroup(k, slice);
          enable(k, CgroupPath.root(), SYSTEM_DELEGATES);
          enable(k, slice, SYSTEM_DELEGATES);
          long self = fs.selfPid();
          if (k.cgroupsOf(self).get(unified).isRoot()) {
            CgroupPath app = slice.resolve("app.service");
            ensureCgroup(k, app);
            k.write(unified, app, "cgroup.procs", Long.toString(self));
          }
          return null;
        });
    fs.startingTreeIsNow();
  }

  /**
   * The calling user's view: {@code connect(USER)} reaches the manager of {@code uid} (started with
   * {@link #startUserManager}), {@code connect(SYSTEM)} reaches PID 1 as that user. Pass it with
   * {@code fs.asUser(uid, gid)} to {@code ContainerApi.open}.
   *
   * @param uid the user's uid (0: this fake, root's view)
   * @return a connector for that user
   */
  public SystemdConnector asUser(int uid) {
    return uid == 0 ? this : (scope, timeout) -> connect(scope, uid);
  }

  /**
   * Root's connection (the connector's contract): PID 1 for {@code SYSTEM}; {@code USER} has no
   * manager for root ({@code NoServer}), as {@code systemd --user} does not run for uid 0 here.
   */
  @Override
  public SystemdManager connect(Scope scope, Duration timeout) throws SystemdException {
    return connect(scope, 0);
  }

  private SystemdManager connect(Scope scope, int uid) throws SystemdException {
    synchronized (lock) {
      String address = address(scope, uid);
      calls.add("connect " + scope + " uid " + uid);
      maybeCrash("connect", false);
      String fault = failures.remove("connect");
      if (fault != null) {
        throw new SystemdException(fault, "injected at connect (" + address + ")", null);
      }
      if (unreachable || scope == Scope.USER && !userManagers.containsKey(uid)) {
        throw new SystemdException(
            SystemdException.NO_SERVER, "no manager answers at " + address, null);
      }
      openConnections++;
      return new Connection(scope, uid);
    }
  }

  /** Where the manager of {@code uid} in {@code scope} listens. */
  private static String address(Scope scope, int uid) {
    return scope == Scope.SYSTEM
        ? "unix:path=/run/systemd/private"
        : "unix:path=/run/user/" + uid + "/systemd/private";
  }

  // ---- Users' managers.

  /**
   * Starts the manager of {@code uid} as {@code systemctl start user@UID.service} does (or a login,
   * or lingering): {@code /user.slice/user-UID.slice/user@UID.service} delegated {@code cpu memory
   * pids} and owned by the user, with its {@code init.scope} and {@code app.slice}.
   *
   * @param uid the user
   * @return this
   */
  public FakeSystemd startUserManager(int uid) {
    return startUserManager(uid, USER_DELEGATES);
  }

  /**
   * {@link #startUserManager(int)} with the controllers an administrator's drop-in delegates
   * ({@code Delegate=cpu cpuset io memory pids} in {@code user@.service.d/delegate.conf}).
   *
   * @param uid the user
   * @param delegates the controllers {@code user@UID.service} is given
   * @return this
   */
  public FakeSystemd startUserManager(int uid, Set<String> delegates) {
    systemdDoes(
        k -> {
          CgroupPath userSlice = CgroupPath.of("/user.slice");
          CgroupPath slice = userSlice.resolve("user-" + uid + ".slice");
          CgroupPath manager = managerCgroup(uid);
          ensureCgroup(k, userSlice);
          enable(k, CgroupPath.root(), delegates);
          enable(k, userSlice, delegates);
          ensureCgroup(k, slice);
          enable(k, slice, delegates);
          ensureCgroup(k, manager);
          k.setDelegated(unified, manager);
          for (String file :
              new String[] {null, "cgroup.procs", "cgroup.subtree_control", "cgroup.threads"}) {
            k.chown(unified, manager, file, uid, uid);
          }
          CgroupPath init = manager.resolve("init.scope");
          ensureCgroup(k, init);
          k.setCreator(unified, init, uid, uid);
          long pid = k.spawnProcess();
          k.write(unified, init, "cgroup.procs", Long.toString(pid));
          enable(k, manager, delegates);
          CgroupPath app = manager.resolve("app.slice");
          ensureCgroup(k, app);
          k.setCreator(unified, app, uid, uid);
          enable(
              k,
              app,
              Set.of(
                  "memory", "pids")); // a stock user manager's app.slice, until a unit asks for cpu
          userManagers.put(uid, Set.copyOf(delegates));
          units.computeIfAbsent(uid, u -> new LinkedHashMap<>());
          return null;
        });
    return this;
  }

  /**
   * Stops the manager of {@code uid} (a logout without lingering): every unit of it stops, its
   * processes are killed and its cgroups removed.
   *
   * @param uid the user
   * @return this
   */
  public FakeSystemd stopUserManager(int uid) {
    systemdDoes(
        k -> {
          Map<String, Unit> of = units.remove(uid);
          if (of != null) {
            of.clear();
          }
          userManagers.remove(uid);
          CgroupPath manager = managerCgroup(uid);
          if (k.exists(unified, manager)) {
            removeTree(k, manager);
          }
          return null;
        });
    return this;
  }

  private static CgroupPath managerCgroup(int uid) {
    return CgroupPath.of("/user.slice/user-" + uid + ".slice/user@" + uid + ".service");
  }

  // ---- What an administrator does.

  /**
   * {@code systemctl stop NAME} of PID 1's unit, behind the API's back: its processes are killed
   * and its cgroups removed.
   *
   * @param name the unit
   * @return whether it was loaded
   */
  public boolean stop(String name) {
    return systemdDoes(
        k -> {
          Unit u = units(SYSTEM).remove(name);
          if (u != null) {
            removeTree(k, u.cgroup);
          }
          return u != null;
        });
  }

  /**
   * {@code systemctl daemon-reload} as systemd 252 does it: every unit's cgroup is realized again;
   * one without {@code Delegate=} gets the {@code cgroup.subtree_control} systemd computes for it,
   * nothing, so the controllers of cgroups a program made below it are gone; a delegated one (every
   * unit of this fake, and the user managers) is left alone.
   */
  public void daemonReload() {
    systemdDoes(
        k -> {
          for (CgroupPath slice :
              List.of(CgroupPath.of("/system.slice"), CgroupPath.of("/user.slice"))) {
            if (!k.exists(unified, slice)) {
              continue;
            }
            for (String child : k.children(unified, slice)) {
              CgroupPath unitCgroup = slice.resolve(child);
              if ((child.endsWith(".service") || child.endsWith(".scope"))
                  && !k.delegated(unified, unitCgroup)) {
                disableAll(k, unitCgroup);
              }
            }
          }
          return null;
        });
  }

  /**
   * Loads a failed unit {@code name} on PID 1, as a unit started without {@code
   * CollectMode=inactive-or-failed} that failed stays loaded, keeping its name.
   *
   * @param name the unit
   * @return this
   */
  public FakeSystemd leaveFailedUnit(String name) {
    synchronized (lock) {
      Unit u = new Unit(name, CgroupPath.of("/system.slice/" + name));
      u.activeState = "failed";
      units(SYSTEM).put(name, u);
    }
    return this;
  }

  // ---- Faults.

  /**
   * Makes the next call of {@code method} ({@code connect}, {@code GetUnit}, {@code
   * StartTransientUnit}, {@code StopUnit}, {@code ResetFailedUnit}) answer the D-Bus error {@code
   * errorName} and change nothing.
   *
   * @param method the call
   * @param errorName such as {@link SystemdException#ACCESS_DENIED}
   * @return this
   */
  public FakeSystemd failNext(String method, String errorName) {
    return configured(() -> failures.put(method, Objects.requireNonNull(errorName, "errorName")));
  }

  /**
   * Makes the next job of {@code method} ({@code StartTransientUnit}, {@code StopUnit}) end with
   * {@code result} ({@code failed}, {@code timeout}, {@code canceled}...) instead of {@code done}:
   * a start that fails leaves no unit (its process exited, it was unloaded); a stop that fails
   * leaves the unit as it was.
   *
   * @param method the call
   * @param result the job's result
   * @return this
   */
  public FakeSystemd endNextJob(String method, String result) {
    return configured(() -> jobEnds.put(method, Objects.requireNonNull(result, "result")));
  }

  /**
   * The next job of {@code method} does its work, but its {@code JobRemoved} never comes: the
   * caller's wait ends at its deadline.
   *
   * @param method the call
   * @return this
   */
  public FakeSystemd loseNextJobRemoved(String method) {
    return configured(() -> lostSignals.add(method));
  }

  /**
   * The process using this manager dies at the next call of {@code method}: {@link FakeCrash} is
   * thrown before the manager acts, or after it acted ({@code afterActing}: the unit started, the
   * job's signal sent) and before the answer reaches the caller. The test catches it, calls {@link
   * FakeFaults#recover()} and opens a new API over the same fake.
   *
   * @param method the call
   * @param afterActing whether the manager acted first
   * @return this
   */
  public FakeSystemd crashAt(String method, boolean afterActing) {
    return configured(() -> crashes.put(method, afterActing));
  }

  /**
   * Runs {@code action} as the next call of {@code method} begins, before the manager looks at
   * anything: what another process does at that instant (starts the same unit, stops it).
   *
   * @param method the call
   * @param action what happens first
   * @return this
   */
  public FakeSystemd onNext(String method, Runnable action) {
    return configured(() -> interleaved.put(method, Objects.requireNonNull(action, "action")));
  }

  /**
   * Whether any manager answers at all: {@code false} makes every {@code connect} fail with {@code
   * NoServer}, as where no manager runs.
   *
   * @param unreachable whether connections fail
   * @return this
   */
  public FakeSystemd unreachable(boolean unreachable) {
    return configured(() -> this.unreachable = unreachable);
  }

  /**
   * Whether each {@code JobRemoved} is sent after the call's answer, from another thread (as a real
   * bus may deliver it), rather than before it (the default: the case a client that subscribes late
   * loses).
   *
   * @param afterReply whether signals follow the answer
   * @return this
   */
  public FakeSystemd answerAfterReply(boolean afterReply) {
    return configured(() -> this.afterReply = afterReply);
  }

  /** Changes a setting under the manager's lock; returns this, for chaining. */
  private FakeSystemd configured(Runnable change) {
    synchronized (lock) {
      change.run();
    }
    return this;
  }

  // ---- The record.

  /**
   * The calls made so far, in order: {@code "StartTransientUnit lmctfy.service fail"}, {@code
   * "connect USER uid 1000"}...
   *
   * @return the calls
   */
  public List<String> calls() {
    synchronized (lock) {
      return List.copyOf(calls);
    }
  }

  /**
   * The unit {@code name} of PID 1, as {@code GetUnit} would see it.
   *
   * @param name the unit
   * @return its state, or empty when it is not loaded
   */
  public Optional<UnitState> unit(String name) {
    return unit(SYSTEM, name);
  }

  /**
   * The unit {@code name} of the manager of {@code uid}.
   *
   * @param uid the user
   * @param name the unit
   * @return its state, or empty when it is not loaded
   */
  public Optional<UnitState> userUnit(int uid, String name) {
    return unit(uid, name);
  }

  private Optional<UnitState> unit(int manager, String name) {
    synchronized (lock) {
      Unit u = units(manager).get(name);
      return u == null ? Optional.empty() : Optional.of(state(u));
    }
  }

  /**
   * How many connections are open: an API closes its own.
   *
   * @return the number of connections not closed
   */
  public int openConnections() {
    synchronized (lock) {
      return openConnections;
    }
  }

  // ---- The manager's side.

  private Map<String, Unit> units(int manager) {
    return units.computeIfAbsent(manager, m -> new LinkedHashMap<>());
  }

  private static UnitState state(Unit u) {
    return new UnitState(
        u.name,
        "loaded",
        u.activeState,
        u.activeState.equals("active") ? "running" : "failed",
        u.activeState.equals("active") ? u.cgroup : null);
  }

  private <T> T systemdDoes(FakeCgroupFs.SystemdStep<T> step) {
    synchronized (lock) {
      try {
        return fs.asSystemd(step);
      } catch (CgroupFsException e) {
        throw new IllegalStateException(
            "the fake systemd could not lay out its cgroups: " + e.getMessage(), e);
      }
    }
  }

  private void ensureCgroup(Kernel k, CgroupPath path) throws CgroupFsException {
    if (!path.isRoot() && !k.exists(unified, path)) {
      ensureCgroup(k, path.parent());
      k.makeCgroup(unified, path);
    }
  }

  /**
   * Enables in {@code path} what it is offered of {@code controllers}, as systemd realizes a slice.
   */
  private void enable(Kernel k, CgroupPath path, Set<String> controllers) throws CgroupFsException {
    String offered =
        path.isRoot()
            ? String.join(" ", unified.controllers())
            : k.read(unified, path, "cgroup.controllers");
    List<String> words = List.of(offered.strip().split("\\s+"));
    StringBuilder enable = new StringBuilder();
    for (String c : new TreeSet<>(controllers)) {
      if (words.contains(c)) {
        enable.append(enable.length() == 0 ? "" : " ").append('+').append(c);
      }
    }
    if (enable.length() > 0) {
      k.write(unified, path, "cgroup.subtree_control", enable.toString());
    }
  }

  private void disableAll(Kernel k, CgroupPath path) {
    try {
      String enabled = k.read(unified, path, "cgroup.subtree_control").strip();
      if (!enabled.isEmpty()) {
        k.write(unified, path, "cgroup.subtree_control", "-" + enabled.replace(" ", " -"));
      }
    } catch (CgroupFsException e) {
      // systemd ignores a refusal here too (a child that enables them keeps them: EBUSY)
    }
  }

  /**
   * Kills every process of the subtree and removes its cgroups, deepest first, as a unit's stop
   * does.
   */
  private void removeTree(Kernel k, CgroupPath path) throws CgroupFsException {
    for (String child : k.children(unified, path)) {
      removeTree(k, path.resolve(child));
    }
    String procs = k.read(unified, path, "cgroup.procs").strip();
    if (!procs.isEmpty()) {
      for (String pid : procs.split("\\s+")) {
        k.exitProcess(Long.parseLong(pid), KILLED);
      }
    }
    k.removeCgroup(unified, path);
  }

  private void maybeCrash(String method, boolean afterActing) {
    Boolean when = crashes.get(method);
    if (when != null && when == afterActing) {
      crashes.remove(method);
      throw new FakeCrash(
          "the process died at " + method + (afterActing ? ", after systemd acted" : ""));
    }
  }

  private void signal(int manager, String method, long id, String job, String unit, String result) {
    if (lostSignals.remove(method)) {
      return;
    }
    JobRemoved removed = new JobRemoved(id, job, unit, result);
    List<Listener> to = List.copyOf(listeners);
    Runnable send =
        () ->
            to.stream()
                .filter(l -> l.manager() == manager)
                .forEach(l -> l.consumer().accept(removed));
    if (afterReply) {
      Thread t = new Thread(send, "fake-systemd-signals");
      t.setDaemon(true);
      t.start();
    } else {
      send.run();
    }
  }

  /** One client's connection to one manager. */
  private final class Connection implements SystemdManager {
    private final Scope scope;
    private final int uid;
    private boolean closed;

    Connection(Scope scope, int uid) {
      this.scope = scope;
      this.uid = uid;
    }

    @Override
    public Scope scope() {
      return scope;
    }

    @Override
    public String address() {
      return FakeSystemd.address(scope, uid);
    }

    private int manager() {
      return scope == Scope.SYSTEM ? SYSTEM : uid;
    }

    /** Records the call and applies what was injected for it. */
    private void enter(String method, String detail) throws SystemdException {
      Runnable first = interleaved.remove(method);
      if (first != null) {
        first.run();
      }
      calls.add(method + (detail.isEmpty() ? "" : " " + detail));
      if (closed) {
        throw new SystemdException(
            SystemdException.DISCONNECTED, "the connection to " + address() + " is closed", null);
      }
      maybeCrash(method, false);
      String fault = failures.remove(method);
      if (fault != null) {
        throw new SystemdException(fault, "injected at " + method + " " + detail, null);
      }
      if (scope == Scope.USER && !userManagers.containsKey(uid)) {
        throw new SystemdException(
            SystemdException.DISCONNECTED, "the user manager of uid " + uid + " went away", null);
      }
    }

    private void changes(String method) throws SystemdException {
      if (scope == Scope.SYSTEM && uid != 0) {
        throw new SystemdException(
            SystemdException.INTERACTIVE_AUTHORIZATION_REQUIRED,
            "Interactive authentication required.",
            null);
      }
    }

    @Override
    public String version() throws SystemdException {
      synchronized (lock) {
        enter("Version", "");
        return "252 (FakeSystemd)";
      }
    }

    @Override
    public CgroupPath controlGroup() throws SystemdException {
      synchronized (lock) {
        enter("ControlGroup", "");
        return scope == Scope.SYSTEM ? CgroupPath.root() : managerCgroup(uid);
      }
    }

    @Override
    public Optional<UnitState> unit(String name) throws SystemdException {
      synchronized (lock) {
        enter("GetUnit", name);
        Unit u = units(manager()).get(name);
        maybeCrash("GetUnit", true);
        return u == null ? Optional.empty() : Optional.of(state(u));
      }
    }

    /** Fails as systemd does where a unit {@code name} is loaded. */
    private void requireNew(String name) throws SystemdException {
      if (units(manager()).containsKey(name)) {
        throw new SystemdException(
            SystemdException.UNIT_EXISTS,
            "Unit " + name + " was already loaded or has a fragment file.",
            null);
      }
    }

    /** The cgroup of the slice {@code name} of this connection's manager. */
    private CgroupPath slice(String name) {
      return (scope == Scope.SYSTEM ? CgroupPath.root() : managerCgroup(uid)).resolve(name);
    }

    @Override
    public String startTransientService(String name, String mode, TransientService service)
        throws SystemdException {
      long id;
      String job;
      String result;
      synchronized (lock) {
        enter("StartTransientUnit", name + " " + mode);
        changes("StartTransientUnit");
        requireNew(name);
        CgroupPath slice = slice(service.slice());
        CgroupPath cgroup = slice.resolve(name);
        Set<String> delegates = scope == Scope.SYSTEM ? SYSTEM_DELEGATES : userManagers.get(uid);
        result = jobEnds.getOrDefault("StartTransientUnit", "done");
        jobEnds.remove("StartTransientUnit");
        Unit u = new Unit(name, cgroup);
        systemdDoes(
            k -> {
              ensureCgroup(k, slice);
              if (scope == Scope.USER) {
                k.setCreator(unified, slice, uid, uid);
              }
              enable(k, slice, delegates);
              k.makeCgroup(unified, cgroup);
              if (scope == Scope.USER) {
                k.setCreator(unified, cgroup, uid, uid);
              }
              k.setDelegated(unified, cgroup);
              u.keeper = k.spawnProcess();
              k.write(unified, cgroup, "cgroup.procs", Long.toString(u.keeper));
              if (!result.equals("done")) { // its process failed: stopped and unloaded
                removeTree(k, cgroup);
              }
              return null;
            });
        if (result.equals("done")) {
          units(manager()).put(name, u);
        }
        id = ++jobs;
        job = "/org/freedesktop/systemd1/job/" + id;
        signal(manager(), "StartTransientUnit", id, job, name, result);
        maybeCrash("StartTransientUnit", true);
      }
      return job;
    }

    @Override
    public String startTransientScope(String name, String mode, TransientScope scopeUnit)
        throws SystemdException {
      synchronized (lock) {
        enter("StartTransientUnit", name + " " + mode);
        requireNew(name);
        CgroupPath slice = slice(scopeUnit.slice());
        CgroupPath cgroup = slice.resolve(name);
        Unit u = new Unit(name, cgroup);
        systemdDoes(
            k -> {
              ensureCgroup(k, slice);
              k.makeCgroup(unified, cgroup);
              if (scope
                  == Scope.USER) { // a user manager's scope; PID 1 moves the process in for it
                k.setCreator(unified, cgroup, uid, uid);
              }
              k.write(unified, cgroup, "cgroup.procs", Long.toString(scopeUnit.pid()));
              return null;
            });
        units(manager()).put(name, u);
        long id = ++jobs;
        String job = "/org/freedesktop/systemd1/job/" + id;
        signal(manager(), "StartTransientUnit", id, job, name, "done");
        maybeCrash("StartTransientUnit", true);
        return job;
      }
    }

    @Override
    public String stopUnit(String name, String mode) throws SystemdException {
      synchronized (lock) {
        enter("StopUnit", name + " " + mode);
        changes("StopUnit");
        Unit u = units(manager()).get(name);
        if (u == null) {
          throw new SystemdException(
              SystemdException.NO_SUCH_UNIT, "Unit " + name + " not loaded.", null);
        }
        String result = jobEnds.getOrDefault("StopUnit", "done");
        jobEnds.remove("StopUnit");
        if (result.equals("done")) {
          units(manager()).remove(name);
          if (u.activeState.equals("active")) {
            systemdDoes(
                k -> {
                  removeTree(k, u.cgroup);
                  return null;
                });
          }
        }
        long id = ++jobs;
        String job = "/org/freedesktop/systemd1/job/" + id;
        signal(manager(), "StopUnit", id, job, name, result);
        maybeCrash("StopUnit", true);
        return job;
      }
    }

    @Override
    public void resetFailedUnit(String name) throws SystemdException {
      synchronized (lock) {
        enter("ResetFailedUnit", name);
        changes("ResetFailedUnit");
        Unit u = units(manager()).get(name);
        if (u == null) {
          throw new SystemdException(
              SystemdException.NO_SUCH_UNIT, "Unit " + name + " not loaded.", null);
        }
        if (u.activeState.equals("failed")) {
          units(manager()).remove(name);
        }
        maybeCrash("ResetFailedUnit", true);
      }
    }

    @Override
    public AutoCloseable onJobRemoved(Consumer<JobRemoved> listener) throws SystemdException {
      Listener l = new Listener(manager(), listener);
      synchronized (lock) {
        if (closed) {
          throw new SystemdException(
              SystemdException.DISCONNECTED, "the connection to " + address() + " is closed", null);
        }
        listeners.add(l);
      }
      return () -> listeners.remove(l);
    }

    @Override
    public void close() {
      synchronized (lock) {
        if (!closed) {
          closed = true;
          openConnections--;
        }
      }
    }

    @Override
    public String toString() {
      return "FakeSystemd connection to " + address();
    }
  }

  @Override
  public String toString() {
    synchronized (lock) {
      Map<Integer, List<String>> names = new HashMap<>();
      units.forEach((m, us) -> names.put(m, new ArrayList<>(us.keySet())));
      return "FakeSystemd" + names;
    }
  }
}
