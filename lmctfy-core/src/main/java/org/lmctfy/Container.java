package org.lmctfy;

import java.util.List;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.ContainerStats;
import org.lmctfy.spec.EventSpec;
import org.lmctfy.spec.RunSpec;

/**
 * A handle on one container. Several handles may name the same container; every method checks
 * that the container still exists and fails with NOT_FOUND if it was destroyed under it.
 *
 * <p>Thread-safe: administrative operations on one container (update, destroy, killAll, pause,
 * resume) are serialised by the library.
 *
 * <pre>{@code
 * Container job = api.get("/job");
 * job.update(ContainerSpec.parse("memory { limit: 209715200 }"), UpdatePolicy.DIFF);
 * ContainerStats stats = job.stats(StatsType.SUMMARY);
 * }</pre>
 *
 * @since 0.1
 */
public interface Container {

  /**
   * The container's absolute name, {@code "/a/b"}.
   *
   * @return the container's absolute name, {@code "/a/b"}
   */
  String name();

  /**
   * Changes the container's resources (see {@link UpdatePolicy}); transactional.
   *
   * @param spec the spec
   * @param policy SELF or RECURSIVE
   */
  void update(ContainerSpec spec, UpdatePolicy policy);

  /**
   * The container's resources as the kernel has them now.
   *
   * @return the container's resources as the kernel has them now
   */
  ContainerSpec spec();

  /**
   * What the container uses.
   *
   * @param type SUMMARY or FULL
   * @return what the container uses
   */
  ContainerStats stats(StatsType type);

  /**
   * Moves the threads {@code tids} into the container in every hierarchy it occupies: on v1 each
   * id moves alone (written to {@code tasks}); on the unified hierarchy its whole process moves
   * (written to {@code cgroup.procs}), as v2 keeps a process's threads together. All or nothing:
   * if one move fails, those already made are moved back, and the error names the id and the
   * hierarchy.
   *
   * @param tids the thread ids
   */
  void enter(List<Long> tids);

  /**
   * Starts {@code argv} inside the container: a launcher shell writes its own pid into the
   * container's {@code cgroup.procs} in every hierarchy, then execs {@code argv}, so the program
   * runs no instruction outside the container. {@code argv} is not passed through a shell unless
   * {@code spec.use_shell} is set. A failed start (an {@code argv[0]} that is not an executable
   * file, a refused placement) leaves no process behind and throws.
   *
   * @param argv the program and its arguments
   * @param spec the spec
   * @return the ContainerProcess
   * @throws LmctfyException INVALID_ARGUMENT for a bad argv or run spec, UNAVAILABLE naming the
   *     file the launcher could not write
   */
  ContainerProcess run(List<String> argv, RunSpec spec);

  /**
   * Freezes every process in the container and its subcontainers (the v1 freezer where it is
   * mounted, else {@code cgroup.freeze}); returns once the kernel reports the container frozen.
   *
   * @throws LmctfyException DEADLINE_EXCEEDED if it is not frozen in time (it is thawed again),
   *     FAILED_PRECONDITION if the calling process is inside
   */
  void pause();

  /** Thaws what {@link #pause()} froze; returns once the kernel reports it thawed. */
  void resume();

  /**
   * Kills every process in the container and its subcontainers, including ones that fork while
   * being killed and frozen ones; the container is left thawed.
   *
   * @throws LmctfyException DEADLINE_EXCEEDED naming the processes that survived, FAILED_PRECONDITION
   *     if the calling process is inside
   */
  void killAll();

  /**
   * The subcontainers' names, sorted.
   *
   * @param policy SELF or RECURSIVE
   * @return the subcontainers' names, sorted
   */
  List<String> listSubcontainers(ListPolicy policy);

  /**
   * The ids of the processes in the container (its {@code cgroup.procs} in the first hierarchy),
   * sorted; RECURSIVE adds those in every cgroup below it.
   *
   * @param policy SELF or RECURSIVE
   * @return the ids of the processes in the container (its {@code cgroup.procs} in the first hierarchy), sorted; RECURSIVE adds those in every cgroup below it
   */
  List<Long> listProcesses(ListPolicy policy);

  /**
   * The ids of the threads in the container ({@code tasks}, or v2 {@code cgroup.threads}), sorted.
   *
   * @param policy SELF or RECURSIVE
   * @return the ids of the threads in the container ({@code tasks}, or v2 {@code cgroup.threads}), sorted
   */
  List<Long> listThreads(ListPolicy policy);

  /**
   * Calls {@code listener} on a library thread whenever {@code event} happens to this container,
   * until it is destroyed (the last notification is then {@link Notification.Kind#DESTROYED}), the
   * registration is unregistered, or the API is closed; returns the registration's id.
   *
   * <ul>
   *   <li>{@code oom}: an out-of-memory in the container (v1: eventfd on {@code memory.oom_control};
   *       v2: the {@code oom} or {@code oom_kill} counters of {@code memory.events} grew).
   *   <li>{@code memory_threshold}: memory usage crossed the threshold, up or down (v1: eventfd on
   *       {@code memory.usage_in_bytes}; v2: {@code memory.current} polled every 100 ms).
   *   <li>{@code container_empty}: the container and its subcontainers went from having
   *       processes to having none (v2 {@code cgroup.events} {@code populated 0}; without a
   *       unified hierarchy, {@code cgroup.procs} polled every 100 ms). Not sent for a container
   *       that is already empty when registering.
   *   <li>{@code container_destroyed}: only the DESTROYED notification.
   *   <li>{@code pressure}: a PSI trigger fired (v2 only).
   * </ul>
   *
   * @param event the event
   * @param listener called with each notification
   * @return the number
   * @throws LmctfyException NOT_FOUND if the container does not exist; FAILED_PRECONDITION if the
   *     event needs a controller or hierarchy this machine does not give the container;
   *     INVALID_ARGUMENT if the kernel refuses the trigger
   */
  long registerNotification(EventSpec event, NotificationListener listener);

  /**
   * Stops the registration {@code id}: when this returns, its listener is not running and will not
   * be called again (called from the listener itself, it returns at once, and the listener is not
   * called again). No last notification is sent. Unregistering an ended registration does nothing.
   *
   * @param id the registration's id
   * @throws LmctfyException NOT_FOUND if {@code id} is not a registration of this container
   */
  void unregisterNotification(long id);

  /** Destroys the container, its subcontainers and its processes. */
  void destroy();
}
