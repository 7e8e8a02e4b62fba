package org.lmctfy.systemdbus;

import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.lmctfy.cgroupfs.CgroupPath;

/**
 * A connection to one systemd manager (PID 1, or a user's {@code systemd --user}): the few calls of
 * {@code org.freedesktop.systemd1.Manager} that lmctfy's systemd driver makes. {@code
 * lmctfy-systemd} implements it over D-Bus; {@code lmctfy-testing}'s {@code FakeSystemd} keeps its
 * units in memory and their cgroups in a {@code FakeCgroupFs}. The driver asks for one unit, a
 * transient service that holds an API's containers, and otherwise works on cgroupfs: no call is
 * made per container.
 *
 * <p>Every call answers within the deadline its {@link SystemdConnector} was given, or throws
 * {@link SystemdException} naming the D-Bus error ({@code org.freedesktop.DBus.Error.NoReply} when
 * the deadline passed). Calls may come from several threads.
 *
 * <pre>{@code
 * try (SystemdManager m = connector.connect(SystemdManager.Scope.USER, Duration.ofSeconds(30));
 *     AutoCloseable jobs = m.onJobRemoved(seen::add)) {        // before the call: no signal is lost
 *   String job = m.startTransientService("lmctfy.service", "fail", service);
 *   ...                                                       // wait for the JobRemoved of job
 * }
 * }</pre>
 *
 * @since 0.1 (in {@code org.lmctfy.cgroupfs} until 0.2)
 */
public interface SystemdManager extends AutoCloseable {
  /** Which manager: PID 1 (root's), or the calling user's own. */
  enum Scope {
    /** PID 1, the system manager: units in {@code system.slice}; only root may start one. */
    SYSTEM,
    /** The user's manager, {@code user@UID.service}: units in its {@code app.slice}. */
    USER
  }

  /**
   * Which manager this is.
   *
   * @return the scope
   */
  Scope scope();

  /**
   * Where the manager was reached, for messages ({@code unix:path=/run/systemd/private}).
   *
   * @return the D-Bus address
   */
  String address();

  /**
   * The manager's {@code Version} property.
   *
   * @return the version, such as {@code 252.38-1~deb12u1}
   * @throws IOException a {@link SystemdException} naming the D-Bus error
   */
  String version() throws IOException;

  /**
   * The manager's own cgroup, its {@code ControlGroup} property: {@code /} for PID 1, {@code
   * /user.slice/user-1000.slice/user@1000.service} for a user's.
   *
   * @return the manager's cgroup
   * @throws IOException a {@link SystemdException} naming the D-Bus error
   */
  CgroupPath controlGroup() throws IOException;

  /**
   * The state of the unit {@code name}, or empty when the manager has not loaded it ({@code
   * GetUnit} answered {@code org.freedesktop.systemd1.NoSuchUnit}).
   *
   * @param name the unit's name, such as {@code lmctfy.service}
   * @return its state, or empty
   * @throws IOException a {@link SystemdException} naming the D-Bus error
   */
  Optional<UnitState> unit(String name) throws IOException;

  /**
   * {@code StartTransientUnit(name, mode, properties, [])} for a service of this shape: {@code
   * Description}, {@code Slice} and {@code ExecStart} from {@code service}, and always {@code
   * Type=exec}, {@code Delegate=yes}, {@code CollectMode=inactive-or-failed} (a unit that stops or
   * fails is unloaded, so its name is free again) and {@code OOMPolicy=continue} (an OOM kill in
   * one container does not stop the unit and every container with it). Returns as soon as the job
   * is queued: its end is a {@link JobRemoved} with the job's path.
   *
   * @param name the unit's name
   * @param mode the job mode, {@code fail} or {@code replace}
   * @param service the service's description, slice and command
   * @return the job's object path
   * @throws IOException a {@link SystemdException}: {@code org.freedesktop.systemd1.UnitExists}
   *     when a unit of that name is loaded, and what else the manager answered
   */
  String startTransientService(String name, String mode, TransientService service)
      throws IOException;

  /**
   * {@code StartTransientUnit(name, mode, properties, [])} for a scope around the running process
   * {@code scope.pid()}: {@code Description}, {@code Slice}, {@code PIDs=[pid]} and {@code
   * CollectMode=inactive-or-failed}; the manager moves the process into the scope's cgroup (a
   * user's manager asks PID 1 to where the user may not), and the scope ends when its last process
   * does. The driver moves a user's own process into one so that it may place the processes it runs
   * in containers: cgroup v2 lets a user move a process only between cgroups whose common ancestor
   * it owns.
   *
   * @param name the unit's name, such as {@code lmctfy-4242.scope}
   * @param mode the job mode, {@code fail}
   * @param scope the scope's description, slice and process
   * @return the job's object path
   * @throws IOException a {@link SystemdException} naming the D-Bus error
   */
  String startTransientScope(String name, String mode, TransientScope scope) throws IOException;

  /**
   * {@code StopUnit(name, mode)}: systemd kills every process of the unit's cgroup and of the
   * cgroups below it, and removes them.
   *
   * @param name the unit's name
   * @param mode the job mode, {@code replace} or {@code fail}
   * @return the job's object path
   * @throws IOException a {@link SystemdException}: {@code org.freedesktop.systemd1.NoSuchUnit}
   *     when it is not loaded
   */
  String stopUnit(String name, String mode) throws IOException;

  /**
   * {@code ResetFailedUnit(name)}: forgets that the unit failed, so that its name can be used
   * again.
   *
   * @param name the unit's name
   * @throws IOException a {@link SystemdException}: {@code org.freedesktop.systemd1.NoSuchUnit}
   *     when it is not loaded
   */
  void resetFailedUnit(String name) throws IOException;

  /**
   * Delivers every {@code JobRemoved} signal of this manager to {@code listener}, on any thread,
   * until the returned handle is closed. Subscribe before the call whose job is awaited: the signal
   * may come before the call's answer.
   *
   * @param listener called with each job that ended
   * @return closes the subscription
   * @throws IOException a {@link SystemdException} naming the D-Bus error
   */
  AutoCloseable onJobRemoved(Consumer<JobRemoved> listener) throws IOException;

  /** Closes the connection and ends its threads; idempotent. */
  @Override
  void close();

  /**
   * What the manager says of a loaded unit.
   *
   * @param name the unit's name
   * @param loadState {@code loaded}, {@code not-found}, {@code error}...
   * @param activeState {@code active}, {@code activating}, {@code deactivating}, {@code inactive},
   *     {@code failed}, {@code reloading}
   * @param subState the type's own state, such as {@code running}
   * @param controlGroup the unit's cgroup, or null while it has none
   */
  record UnitState(
      String name,
      String loadState,
      String activeState,
      String subState,
      @Nullable CgroupPath controlGroup) {
    /**
     * Checks that the states are given.
     *
     * @param name the unit's name
     * @param loadState the load state
     * @param activeState the active state
     * @param subState the sub state
     * @param controlGroup the cgroup, or null
     */
    public UnitState {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(loadState, "loadState");
      Objects.requireNonNull(activeState, "activeState");
      Objects.requireNonNull(subState, "subState");
    }
  }

  /**
   * The parts of a transient service that vary (see {@link #startTransientService}).
   *
   * @param description its {@code Description}
   * @param slice its {@code Slice}, such as {@code system.slice} or {@code app.slice}
   * @param command its {@code ExecStart}: an absolute path, then the arguments
   */
  record TransientService(String description, String slice, List<String> command) {
    /**
     * Copies the command, which must start with an absolute path.
     *
     * @param description the description
     * @param slice the slice
     * @param command the command
     * @throws IllegalArgumentException for an empty command or a relative path
     */
    public TransientService {
      Objects.requireNonNull(description, "description");
      Objects.requireNonNull(slice, "slice");
      command = List.copyOf(command);
      if (command.isEmpty() || !command.get(0).startsWith("/")) {
        throw new IllegalArgumentException(
            "ExecStart needs an absolute path first, got " + command);
      }
    }
  }

  /**
   * The parts of a transient scope that vary (see {@link #startTransientScope}).
   *
   * @param description its {@code Description}
   * @param slice its {@code Slice}
   * @param pid the process it is made around
   */
  record TransientScope(String description, String slice, long pid) {
    /**
     * Checks the parts.
     *
     * @param description the description
     * @param slice the slice
     * @param pid the process
     * @throws IllegalArgumentException for a pid that is not positive
     */
    public TransientScope {
      Objects.requireNonNull(description, "description");
      Objects.requireNonNull(slice, "slice");
      if (pid <= 0) {
        throw new IllegalArgumentException("a scope needs a process, not pid " + pid);
      }
    }
  }

  /**
   * The signal {@code JobRemoved(u id, o job, s unit, s result)}: a job ended.
   *
   * @param id the job's number
   * @param job the job's object path, as the call that queued it answered
   * @param unit the unit's name
   * @param result {@code done}, or {@code canceled}, {@code timeout}, {@code failed}, {@code
   *     dependency}, {@code skipped}
   */
  record JobRemoved(long id, String job, String unit, String result) {}
}
