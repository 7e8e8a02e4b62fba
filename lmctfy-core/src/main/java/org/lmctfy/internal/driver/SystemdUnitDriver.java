package org.lmctfy.internal.driver;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.errors.Errors;
import org.lmctfy.internal.lifecycle.Containers;
import org.lmctfy.internal.lock.ContainerLocks;
import org.lmctfy.internal.naming.ContainerName;
import org.lmctfy.systemdbus.SystemdConnector;
import org.lmctfy.systemdbus.SystemdException;
import org.lmctfy.systemdbus.SystemdManager;
import org.lmctfy.systemdbus.SystemdManager.Scope;
import org.lmctfy.systemdbus.SystemdManager.UnitState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The systemd driver's own unit: one transient service ({@code lmctfy.service} unless the options
 * name another) with {@code Delegate=yes}, asked of the system manager by root and of the user's
 * own manager by anyone else, holds every container of the API; below it everything is cgroupfs, so
 * no D-Bus call is made per container.
 *
 * <ul>
 *   <li>Its cgroup is known without asking: {@code /system.slice/<unit>}, or {@code <the user
 *       manager's cgroup>/app.slice/<unit>}; reads look there and find nothing while it is absent,
 *       making nothing.
 *   <li>The first top-level create (under the root's lock, which cleanup takes to stop it) starts
 *       it with {@code StartTransientUnit} in mode {@code fail} and waits for its job; a unit of
 *       that name that is running (another process started it) is adopted, a failed one reset and
 *       started again, once. Its keeper ({@code sleep infinity}: a service without processes stops)
 *       is moved into the processes leaf {@value #KEEPER_LEAF}, so that the unit's cgroup can
 *       enable controllers for the containers; systemd never writes into a delegated unit's
 *       subtree, so a {@code daemon-reload} changes none of their limits.
 *   <li>{@code cleanup()} stops it when it holds no container, and systemd removes its cgroups.
 * </ul>
 */
final class SystemdUnitDriver extends Driver implements SystemdCalls.Where {
  private static final Logger LOG = LoggerFactory.getLogger(SystemdUnitDriver.class);

  /** The processes leaf of the unit's keeper. */
  static final String KEEPER_LEAF = "lmctfy-keeper";

  /** How often a unit that is changing state is looked at again. */
  private static final long POLL_NANOS = 20_000_000L;

  private final CgroupFs fs;
  private final Hierarchy unified;
  private final SystemdConnector connector;
  private final Scope scope;
  private final int uid;
  private final String unit;
  private final Duration timeout;
  private final CgroupPath root;
  private SystemdManager manager; // guarded by this; connected at the first need
  private boolean placeable; // guarded by this: this process runs in the user manager's tree

  private SystemdUnitDriver(
      CgroupFs fs,
      Hierarchy unified,
      SystemdConnector connector,
      Scope scope,
      int uid,
      String unit,
      Duration timeout,
      CgroupPath root,
      SystemdManager manager) {
    this.fs = fs;
    this.unified = unified;
    this.connector = connector;
    this.scope = scope;
    this.uid = uid;
    this.unit = unit;
    this.timeout = timeout;
    this.root = root;
    this.manager = manager;
  }

  /**
   * The driver of {@code unit}: root's on PID 1, another user's on that user's manager. Connects
   * only where the user manager's cgroup is not where systemd puts it, and not at all for root.
   */
  static SystemdUnitDriver open(
      CgroupFs fs, Hierarchy unified, SystemdConnector connector, String unit, Duration timeout) {
    int uid = fs.effectiveUid();
    Scope scope = uid == 0 ? Scope.SYSTEM : Scope.USER;
    CgroupPath root = CgroupPath.of("/system.slice/" + unit);
    SystemdManager connected = null;
    if (scope == Scope.USER) {
      CgroupPath usual =
          CgroupPath.of("/user.slice/user-" + uid + ".slice/user@" + uid + ".service");
      CgroupPath managerCgroup = usual;
      try {
        if (!fs.exists(unified, usual)) {
          connected =
              connector.connect(scope, timeout); // an administrator placed it elsewhere: ask it
          managerCgroup = connected.controlGroup();
        }
      } catch (IOException e) {
        // no user manager answers: reads find nothing, and the first create says why and what to do
        LOG.debug(
            "uid {}: no user manager's cgroup at {} and none answers: {}",
            uid,
            usual,
            e.toString());
      }
      root = managerCgroup.resolve("app.slice").resolve(unit);
    }
    return new SystemdUnitDriver(
        fs, unified, connector, scope, uid, unit, timeout, root, connected);
  }

  @Override
  public CgroupPath root() {
    return root;
  }

  @Override
  public String describe() {
    return "systemd (the transient service " + unit + " of " + managerName() + ")";
  }

  private String managerName() {
    return scope == Scope.SYSTEM
        ? "the system manager (PID 1)"
        : "the user manager of uid " + uid + " (user@" + uid + ".service)";
  }

  @Override
  public String toString() {
    SystemdManager m;
    synchronized (this) {
      m = manager;
    }
    return managerName() + (m == null ? "" : " at " + m.address());
  }

  @Override
  public boolean lockRootForTopLevel() {
    return true; // cleanup() stops the unit: never between a top-level create's check and its mkdir
  }

  /** Where the unit is not running, a manager must answer: asked before any lock is taken. */
  @Override
  public void precheck() {
    try {
      if (!fs.exists(unified, root)) {
        manager();
      }
    } catch (IOException e) {
      throw Errors.of("look for " + unit + "'s cgroup " + unified.display(root, null), e);
    }
  }

  @Override
  public boolean ensureRoot(Containers containers) {
    try {
      return !fs.exists(unified, root) && start();
    } catch (IOException e) {
      throw Errors.of("start " + unit + " for its cgroup " + unified.display(root, null), e);
    }
  }

  @Override
  public boolean prepare(Containers containers) {
    boolean started = ensureRoot(containers);
    try {
      String procs = fs.read(unified, root, "cgroup.procs").strip();
      // the keeper, right after the start or after a process died before moving it
      if (!procs.isEmpty()) {
        CgroupfsDriver.moveIntoLeaf(containers, fs, unified, root, KEEPER_LEAF, procs);
      }
      return started;
    } catch (IOException e) {
      throw Errors.of(
          "make " + unit + "'s cgroup " + unified.display(root, null) + " ready for containers", e);
    }
  }

  /**
   * Starts the unit, or adopts the one of that name that runs; waits until its cgroup is there.
   *
   * @return true where this call started it, false where it adopted one
   */
  private boolean start() throws IOException {
    SystemdManager m = manager();
    SystemdManager.TransientService service =
        new SystemdManager.TransientService(
            "lmctfy: the containers of "
                + (scope == Scope.SYSTEM ? "root" : "uid " + uid)
                + " (lmctfy for Java)",
            scope == Scope.SYSTEM ? "system.slice" : "app.slice",
            List.of(keeper(), "infinity"));
    long deadline = System.nanoTime() + timeout.toNanos();
    for (int attempt = 0; ; attempt++) {
      String result;
      try (SystemdCalls.JobWait jobs = new SystemdCalls.JobWait(m)) {
        String job;
        try {
          LOG.debug("StartTransientUnit({}, fail) on {}", unit, this);
          job = m.startTransientService(unit, "fail", service);
        } catch (SystemdException e) {
          if (!SystemdException.UNIT_EXISTS.equals(e.errorName())) {
            throw failed("start the unit " + unit, e);
          }
          if (adopted(m, deadline)) {
            return false;
          }
          if (attempt > 0) {
            throw failed(
                "start the unit "
                    + unit
                    + " (a unit of that name is loaded and neither runs"
                    + " nor goes away)",
                e);
          }
          continue; // it was reset or went away: once more
        }
        result = jobs.await(job, deadline);
      }
      if ("done".equals(result)) {
        requireCgroup(m);
        LOG.info(
            "started {} on {}: the containers of this API live in {}",
            unit,
            this,
            unified.display(root, null));
        return true;
      }
      LmctfyException failure =
          result == null
              ? new LmctfyException(
                  ErrorCode.DEADLINE_EXCEEDED,
                  "start the unit "
                      + unit
                      + " through "
                      + this
                      + ": its job"
                      + " did not end within "
                      + timeout
                      + " (ApiOptions.systemdTimeout); "
                      + journalctl()
                      + " says what"
                      + " systemd did")
              : new LmctfyException(
                  ErrorCode.UNAVAILABLE,
                  "start the unit "
                      + unit
                      + " through "
                      + this
                      + ": its job"
                      + " ended '"
                      + result
                      + "', not 'done'; "
                      + journalctl()
                      + " says why");
      resetFailed(m, failure);
      throw failure;
    }
  }

  /**
   * After UnitExists: adopts a unit that runs (or starts, waited for), resets a failed one and
   * waits for one that stops to go, then says false so that the start is tried again.
   */
  private boolean adopted(SystemdManager m, long deadline) throws IOException {
    while (true) {
      Optional<UnitState> state = call("look at the unit " + unit, () -> m.unit(unit));
      if (state.isEmpty()) {
        return false; // gone meanwhile
      }
      String active = state.get().activeState();
      switch (active) {
        case "active", "reloading" -> {
          requireCgroup(m);
          LOG.info(
              "adopted {} of {}, which runs: its cgroup {} holds this API's containers",
              unit,
              this,
              unified.display(root, null));
          return true;
        }
        case "failed" -> {
          call(
              "reset the failed unit " + unit,
              () -> {
                m.resetFailedUnit(unit);
                return null;
              });
          return false;
        }
        default -> {} // activating, deactivating, inactive (unloaded soon: CollectMode)
      }
      if (System.nanoTime() - deadline > 0) {
        throw new LmctfyException(
            ErrorCode.DEADLINE_EXCEEDED,
            "start the unit "
                + unit
                + " through "
                + this
                + ": a"
                + " unit of that name stayed '"
                + active
                + "' for "
                + timeout
                + " (ApiOptions.systemdTimeout); "
                + journalctl()
                + " says why");
      }
      pause();
    }
  }

  /** The unit runs: its cgroup must be the root this API reads, and be there. */
  private void requireCgroup(SystemdManager m) throws IOException {
    Optional<UnitState> state = call("look at the unit " + unit, () -> m.unit(unit));
    CgroupPath cgroup = state.map(UnitState::controlGroup).orElse(null);
    if (cgroup == null || !cgroup.equals(root)) {
      throw unitProblem(
          "runs in the cgroup "
              + cgroup
              + ", not in "
              + root
              + " where lmctfy keeps its containers (a unit of that name that lmctfy did not"
              + " start?); stop it, or choose another name with ApiOptions.systemdUnit");
    }
    if (!fs.exists(unified, root)) {
      throw unitProblem("runs, but its cgroup " + unified.display(root, null) + " is not there");
    }
  }

  private LmctfyException unitProblem(String problem) {
    return new LmctfyException(
        ErrorCode.FAILED_PRECONDITION, "the unit " + unit + " of " + this + " " + problem);
  }

  /**
   * A user's process may move a process only between cgroups whose common ancestor it owns, and
   * this JVM runs outside the user manager's tree (a login session, a system service with {@code
   * User=}): once, it asks the manager for the scope {@code lmctfy-<pid>.scope} around itself, as
   * podman does, and runs from there. Root may move any process: nothing to do.
   */
  @Override
  public synchronized void beforePlacing() {
    if (scope == Scope.SYSTEM || placeable) {
      return;
    }
    CgroupPath manager = root.parent().parent(); // <manager>/app.slice/<unit>
    long pid = fs.selfPid();
    try {
      CgroupPath self = fs.cgroupsOf(pid).get(unified);
      if (self != null && manager.isAncestorOrSelf(self)) {
        placeable = true;
        return;
      }
      SystemdManager m = manager();
      String name = "lmctfy-" + pid + ".scope";
      long deadline = System.nanoTime() + timeout.toNanos();
      String result;
      try (SystemdCalls.JobWait jobs = new SystemdCalls.JobWait(m)) {
        String job;
        try {
          LOG.debug("StartTransientUnit({}, fail) with PIDs=[{}] on {}", name, pid, this);
          job =
              m.startTransientScope(
                  name,
                  "fail",
                  new SystemdManager.TransientScope(
                      "lmctfy: the process "
                          + pid
                          + " that runs programs in the containers of "
                          + unit
                          + " (lmctfy for Java)",
                      "app.slice",
                      pid));
        } catch (SystemdException e) {
          throw failed(
              "move this process ("
                  + pid
                  + ") into the scope "
                  + name
                  + " of "
                  + managerName()
                  + ", from where it may place the processes it runs in containers",
              e);
        }
        result = jobs.await(job, deadline);
      }
      CgroupPath now = fs.cgroupsOf(pid).get(unified);
      if (!"done".equals(result) || now == null || !manager.isAncestorOrSelf(now)) {
        throw new LmctfyException(
            result == null ? ErrorCode.DEADLINE_EXCEEDED : ErrorCode.UNAVAILABLE,
            "move this"
                + " process ("
                + pid
                + ") into the scope "
                + name
                + " of "
                + this
                + ": its job "
                + (result == null
                    ? "did not end within " + timeout + " (ApiOptions.systemdTimeout)"
                    : "ended '" + result + "'")
                + " and the process is in "
                + now
                + "; cgroup v2 lets a user place a process only from a cgroup"
                + " of its own; "
                + journalctl().replace(unit, name)
                + " says why");
      }
      LOG.info(
          "moved this process ({}) from {} into {} of {}, from where it may place the processes it runs in"
              + " containers (cgroup v2 lets a user move a process only below a cgroup it owns)",
          pid,
          self,
          now,
          this);
      placeable = true;
    } catch (IOException e) {
      throw Errors.of("find the cgroup of this process (" + pid + ")", e);
    }
  }

  @Override
  public void afterCleanup(Containers containers, List<String> removed, List<String> failures) {
    try {
      if (!fs.exists(unified, root)) {
        // not running (systemd unloads a failed unit: CollectMode=inactive-or-failed); no lock
        return;
      }
    } catch (IOException e) {
      failures.add("the unit " + unit + ": " + Errors.of("look for its cgroup", e).getMessage());
      return;
    }
    try (ContainerLocks.Held held = containers.lock(ContainerName.root())) {
      if (!stopIfEmpty(containers)) {
        return;
      }
      removed.add(
          "the unit "
              + unit
              + " of "
              + managerName()
              + " (it held no container; systemd stopped it and"
              + " removed its cgroup "
              + unified.display(root, null)
              + ")");
    } catch (IOException e) {
      failures.add("the unit " + unit + ": " + Errors.of("stop it", e).getMessage());
    } catch (LmctfyException e) {
      failures.add("the unit " + unit + ": " + e.getMessage());
    }
  }

  /**
   * An API that changed something closes: the unit is stopped where it runs and holds no container
   * (the last container destroyed, or a create refused), so that a program that ran leaves no
   * service behind. Under the root's lock, as cleanup: a top-level create in another process holds
   * it from its check that the cgroup is there to its mkdir.
   */
  @Override
  public void release(Containers containers) {
    try {
      if (!fs.exists(unified, root)) {
        return; // not running: nothing to stop, no lock taken
      }
      try (ContainerLocks.Held held = containers.lock(ContainerName.root())) {
        if (stopIfEmpty(containers)) {
          LOG.debug("stopped {} as the API closed: it held no container", unit);
        }
      }
    } catch (IOException e) {
      throw Errors.of("stop " + unit + " (it holds no container) as the API closes", e);
    }
  }

  /**
   * The unit this create started is stopped again when the create fails and the unit holds nothing
   * (the create's own lock of the root is held): a refused spec leaves no unit behind.
   */
  @Override
  public void removeUnused(Containers containers, Exception failure) {
    try {
      if (stopIfEmpty(containers)) {
        LOG.debug(
            "stopped {} again: the create that started it failed: {}", unit, failure.getMessage());
      }
    } catch (IOException | RuntimeException e) {
      failure.addSuppressed(e); // the next cleanup() stops it
    }
  }

  /** Under the root's lock: stops the unit where it runs and holds nothing; whether it did. */
  private boolean stopIfEmpty(Containers containers) throws IOException {
    if (!fs.exists(unified, root)) {
      return false; // stopped meanwhile
    }
    if (!containers.holdsNothing(ContainerName.root())) {
      return false; // containers (or cgroups another tool made) live in it: it stays
    }
    stop();
    return true;
  }

  /**
   * StopUnit and its job; systemd kills what is inside (only the keeper: cleanup checked) and
   * removes the cgroups.
   */
  private void stop() throws IOException {
    SystemdManager m = manager();
    long deadline = System.nanoTime() + timeout.toNanos();
    String result;
    try (SystemdCalls.JobWait jobs = new SystemdCalls.JobWait(m)) {
      String job;
      try {
        LOG.debug("StopUnit({}, replace) on {}", unit, this);
        job = m.stopUnit(unit, "replace");
      } catch (SystemdException e) {
        if (SystemdException.NO_SUCH_UNIT.equals(e.errorName())) {
          return; // it stopped meanwhile
        }
        throw failed("stop the unit " + unit, e);
      }
      result = jobs.await(job, deadline);
    }
    if (!"done".equals(result)) {
      LmctfyException failure =
          new LmctfyException(
              result == null ? ErrorCode.DEADLINE_EXCEEDED : ErrorCode.UNAVAILABLE,
              "stop the unit "
                  + unit
                  + " through "
                  + this
                  + ": its job "
                  + (result == null
                      ? "did not end within " + timeout + " (ApiOptions.systemdTimeout)"
                      : "ended '" + result + "', not 'done'")
                  + "; "
                  + journalctl()
                  + " says why");
      resetFailed(m, failure);
      throw failure;
    }
    LOG.info("stopped {} of {}: it held no container", unit, this);
  }

  /**
   * ResetFailedUnit after a job that did not end well, so that the name is free; a failure of it is
   * attached.
   */
  private void resetFailed(SystemdManager m, LmctfyException failure) {
    try {
      Optional<UnitState> state = m.unit(unit);
      if (state.isPresent() && state.get().activeState().equals("failed")) {
        m.resetFailedUnit(unit);
      }
    } catch (IOException e) {
      failure.addSuppressed(e);
    }
  }

  @Override
  public String controllerRemedy(String controller, String offered) {
    return Remedies.systemdController(controller, root);
  }

  /**
   * The connection, made at the first need; FAILED_PRECONDITION with the remedy when no manager
   * answers.
   */
  private synchronized SystemdManager manager() {
    if (manager == null) {
      try {
        manager = connector.connect(scope, timeout);
      } catch (SystemdException e) {
        throw failed("connect to " + managerName() + " for the unit " + unit, e);
      } catch (IOException e) {
        throw new LmctfyException(
            ErrorCode.UNAVAILABLE,
            "connect to "
                + managerName()
                + " for the unit "
                + unit
                + ": "
                + e.getMessage()
                + "; "
                + noManagerRemedy(),
            e);
      }
    }
    return manager;
  }

  /**
   * A manager's refusal as lmctfy's status; a connection that went away is dropped, so the next
   * call reconnects.
   */
  private LmctfyException failed(String what, SystemdException e) {
    if (SystemdException.DISCONNECTED.equals(e.errorName())) {
      close();
    }
    return SystemdCalls.failure(what, this, e, timeout);
  }

  private interface Call<T> {
    T run() throws IOException;
  }

  private <T> T call(String what, Call<T> call) {
    try {
      return call.run();
    } catch (SystemdException e) {
      throw failed(what, e);
    } catch (IOException e) {
      throw Errors.of(what, e);
    }
  }

  private static void pause() {
    try {
      Thread.sleep(POLL_NANOS / 1_000_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LmctfyException(ErrorCode.ABORTED, "interrupted while waiting for systemd", e);
    }
  }

  /** coreutils' sleep, which sleeps for ever with {@code infinity}: the unit's keeper. */
  private static String keeper() {
    for (String p : new String[] {"/usr/bin/sleep", "/bin/sleep"}) {
      if (Files.isExecutable(Path.of(p))) {
        return p;
      }
    }
    throw new LmctfyException(
        ErrorCode.FAILED_PRECONDITION,
        "the systemd driver's unit needs a keeper process, "
            + "coreutils' sleep, and neither /usr/bin/sleep nor /bin/sleep is executable");
  }

  @Override
  public String noManagerRemedy() {
    if (scope == Scope.SYSTEM) {
      return "PID 1 answers at /run/systemd/private (root only) and on the system bus; is this machine run by"
          + " systemd (/run/systemd/system)?";
    }
    return "no systemd user manager answers for uid "
        + uid
        + ": it runs while the user is logged in, or always"
        + " once lingering is on (loginctl enable-linger <user>); as root, systemctl start user@"
        + uid
        + ".service starts it now. lmctfy finds it through $XDG_RUNTIME_DIR (/run/user/"
        + uid
        + "), which su and"
        + " sudo do not set";
  }

  @Override
  public String version() {
    SystemdManager m;
    synchronized (this) {
      m = manager;
    }
    try {
      return m == null ? "unknown version" : "version " + m.version();
    } catch (IOException e) {
      return "version unknown: " + e.getMessage();
    }
  }

  @Override
  public String journalctl() {
    return "journalctl " + (scope == Scope.USER ? "--user " : "") + "-u " + unit;
  }

  @Override
  public synchronized void close() {
    if (manager != null) {
      manager.close();
      manager = null;
    }
  }
}
