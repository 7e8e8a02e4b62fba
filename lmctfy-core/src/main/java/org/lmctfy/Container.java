package org.lmctfy;

import java.util.List;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.ContainerStats;
import org.lmctfy.spec.EventSpec;
import org.lmctfy.spec.RunSpec;

/**
 * A handle on one container. Several handles may name the same container; every method checks that
 * the container still exists and fails with NOT_FOUND if it was destroyed under it.
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

  /** The container's absolute name, {@code "/a/b"}. */
  String name();

  /**
   * Changes the container's resources (see {@link UpdatePolicy}); transactional. A lower {@code
   * memory.limit} than the container uses is reclaimed down to first, and refused where it cannot
   * be (see {@link #update(ContainerSpec, UpdatePolicy, UpdateOption...)}).
   *
   * @param policy DIFF (only the fields given change) or REPLACE (every other field of the
   *     container's controllers goes back to its default)
   */
  void update(ContainerSpec spec, UpdatePolicy policy);

  /**
   * {@link #update(ContainerSpec, UpdatePolicy)}, going further where {@code options} say so.
   *
   * <p>An update that lowers {@code memory.limit} below what the container uses now first asks the
   * kernel to reclaim the difference (v2 {@code memory.reclaim}: page cache, anonymous memory where
   * there is swap); where the usage stays above the new limit it is refused, and nothing changes,
   * rather than letting the kernel OOM-kill the container (on v1 the kernel refuses such a limit
   * itself). {@link UpdateOption#FORCE_MEMORY_LIMIT} writes the limit anyway.
   *
   * <pre>{@code
   * job.update(ContainerSpec.parse("memory { limit: 67108864 }"), UpdatePolicy.DIFF,
   *     UpdateOption.FORCE_MEMORY_LIMIT); // a resize that must happen, OOM kill or not
   * }</pre>
   *
   * @param options none behaves as {@link #update(ContainerSpec, UpdatePolicy)}
   * @throws LmctfyException FAILED_PRECONDITION naming the usage, the new limit and the file when
   *     the usage stays above a lower {@code memory.limit} (unforced), and whatever {@link
   *     #update(ContainerSpec, UpdatePolicy)} throws
   * @throws UnsupportedOperationException if this implementation takes no options
   * @since 0.2
   */
  default void update(ContainerSpec spec, UpdatePolicy policy, UpdateOption... options) {
    if (options.length != 0) {
      throw new UnsupportedOperationException(getClass().getName() + " takes no update options");
    }
    update(spec, policy);
  }

  /** The container's resources as the kernel has them now. */
  ContainerSpec spec();

  /**
   * What the container uses.
   *
   * @param type SUMMARY or FULL
   */
  ContainerStats stats(StatsType type);

  /**
   * Asks the kernel to reclaim {@code bytes} of memory from the container and its subcontainers now
   * (proactive reclaim: page cache first, anonymous memory where there is swap), as a memory
   * manager does before the limit forces it; returns once that much was reclaimed. An operation,
   * not a setting: the spec and limits are unchanged. v2 {@code memory.reclaim} (Linux 5.19+). Not
   * serialised with the administrative operations: it only takes memory back.
   *
   * <pre>{@code
   * job.reclaim(64L << 20); // 64 MiB of cold page cache back to the machine
   * }</pre>
   *
   * @param bytes how much, at least 1
   * @throws LmctfyException INVALID_ARGUMENT for {@code bytes < 1}; UNAVAILABLE when the kernel
   *     reclaimed less after its retries (EAGAIN: what is left may be unreclaimable, as anonymous
   *     memory without swap), naming the usage left; FAILED_PRECONDITION on cgroup v1, for a
   *     container that does not isolate memory, or on a kernel without {@code memory.reclaim};
   *     NOT_FOUND if the container does not exist
   */
  void reclaim(long bytes);

  /**
   * Moves the threads {@code tids} into the container in every hierarchy it occupies: on v1 each id
   * moves alone (written to {@code tasks}); on the unified hierarchy its whole process moves
   * (written to {@code cgroup.procs}), as v2 keeps a process's threads together. All or nothing: if
   * one move fails, those already made are moved back, and the error names the id and the
   * hierarchy, the file and the errno, and how many moves were undone.
   *
   * <p>In a virtual host (the container is one, or is below one) only its own processes can be
   * entered, to move them between its containers: a process joins namespaces only as it starts, so
   * a process outside is refused (as lmctfy did); {@link #run} starts one inside.
   *
   * @param tids the thread ids
   * @throws LmctfyException INVALID_ARGUMENT for an id that is not a thread's (0, negative) or
   *     cannot be moved (a kernel thread: EINVAL); NOT_FOUND naming an id that has ended (ESRCH);
   *     FAILED_PRECONDITION when the container's cgroup refuses it (ENOSPC, EBUSY, EOPNOTSUPP), or
   *     for an id outside the virtual host the container is in; PERMISSION_DENIED
   */
  void enter(List<Long> tids);

  /**
   * Starts {@code argv} inside the container: a launcher that sees nothing of the program's
   * environment is placed by the library in the container's {@code cgroup.procs} in every hierarchy
   * and then execs {@code argv} with exactly the environment it was given, so the program, and any
   * code its environment names ({@code LD_PRELOAD}, shell hooks), runs no instruction outside the
   * container. {@code argv} is not passed through a shell unless {@code spec.use_shell} is set.
   * Returns once the process is inside; a program that exits at once is an ordinary start. Into a
   * paused container the process is placed frozen and runs on {@link #resume()}. A failed start
   * leaves no process behind and throws.
   *
   * <p>In a virtual host (the container is one, or is below one) the process joins its namespaces
   * and its root as well, from its first instruction (util-linux {@code nsenter}, exec'd by the
   * placed launcher): {@code argv[0]} and {@code spec.working_directory} (default {@code /}) are
   * paths inside it, the redirected files are the host's and absolute. The process's pid is the
   * program's, in this JVM's pid namespace; waiting and the exit code are as for any run (nsenter,
   * the JVM's child, passes the program's status or signal on). If the virtual host's init no
   * longer runs (a {@link #killAll}, or it ended), a new one is started first: the virtual host
   * boots again, with new namespaces.
   *
   * @param argv the program and its arguments
   * @return the started process
   * @throws LmctfyException INVALID_ARGUMENT for a bad argv or run spec (nothing started);
   *     FAILED_PRECONDITION when the container's cgroup refuses processes (v1: ENOSPC, a cpuset
   *     without cpus or memory nodes; v2: EBUSY, controllers enabled for its children), naming the
   *     file and the errno; NOT_FOUND if the container is gone; ABORTED if the launcher was killed
   *     by someone else before it was inside (try again); PERMISSION_DENIED
   */
  ContainerProcess run(List<String> argv, RunSpec spec);

  /**
   * Freezes every process in the container and its subcontainers (the v1 freezer where it is
   * mounted, else {@code cgroup.freeze}); returns once the kernel reports the container frozen
   * ({@code FROZEN} in {@code freezer.state}, {@code frozen 1} in {@code cgroup.events}). Pausing a
   * paused container does nothing.
   *
   * @throws LmctfyException DEADLINE_EXCEEDED if it is not frozen in time (it is thawed again),
   *     FAILED_PRECONDITION if the calling process is inside
   */
  void pause();

  /**
   * Thaws what {@link #pause()} froze; returns once the kernel reports it thawed. Resuming a
   * container that is not paused does nothing; subcontainers paused on their own stay paused.
   *
   * @throws LmctfyException FAILED_PRECONDITION naming the ancestor if a paused ancestor keeps it
   *     frozen (its own pause is lifted: it runs when the ancestor is resumed)
   */
  void resume();

  /**
   * Kills every process in the container and its subcontainers, including ones that fork while
   * being killed and frozen ones; the container and every subcontainer are left thawed (also ones
   * that were paused), so the next {@link #run} starts at once.
   *
   * <p>In a virtual host this includes its init: its namespaces and mounts go with it, and the next
   * {@link #run} starts a new init.
   *
   * @throws LmctfyException DEADLINE_EXCEEDED naming the processes that survived (everything is
   *     thawed all the same), FAILED_PRECONDITION if the calling process is inside
   */
  void killAll();

  /**
   * The pid, in this JVM's pid namespace, of the init of the virtual host the container is (or is
   * below): lmctfy's {@code GetInitPid()}. For a container in no virtual host, 1, the machine's
   * init, as lmctfy answered.
   *
   * @return the init's pid
   * @throws LmctfyException NOT_FOUND if the container does not exist, or if its virtual host's
   *     init no longer runs (a {@link #killAll}, or it ended; the next {@link #run} starts one)
   */
  long initPid();

  /**
   * The subcontainers' names, sorted.
   *
   * @param policy SELF or RECURSIVE
   */
  List<String> listSubcontainers(ListPolicy policy);

  /**
   * The ids of the processes in the container (its {@code cgroup.procs} in the first hierarchy),
   * sorted; RECURSIVE adds those in every cgroup below it.
   *
   * @param policy SELF or RECURSIVE
   */
  List<Long> listProcesses(ListPolicy policy);

  /**
   * The ids of the threads in the container ({@code tasks}, or v2 {@code cgroup.threads}), sorted.
   *
   * @param policy SELF or RECURSIVE
   */
  List<Long> listThreads(ListPolicy policy);

  /**
   * Calls {@code listener} on a library thread whenever {@code event} happens to this container,
   * until it is destroyed (the last notification is then {@link Notification.Kind#DESTROYED}), the
   * registration is unregistered, or the API is closed; returns the registration's id.
   *
   * <ul>
   *   <li>{@code oom}: an out-of-memory in the container (v1: eventfd on {@code
   *       memory.oom_control}; v2: the {@code oom} or {@code oom_kill} counters of {@code
   *       memory.events} grew).
   *   <li>{@code memory_threshold}: memory usage crossed the threshold, up or down (v1: eventfd on
   *       {@code memory.usage_in_bytes}; v2: {@code memory.current} polled every 100 ms).
   *   <li>{@code container_empty}: the container and its subcontainers went from having processes
   *       to having none (v2 {@code cgroup.events} {@code populated 0}; without a unified
   *       hierarchy, {@code cgroup.procs} polled every 100 ms). Not sent for a container that is
   *       already empty when registering.
   *   <li>{@code container_destroyed}: only the DESTROYED notification.
   *   <li>{@code pressure}: a PSI trigger fired (v2 only).
   * </ul>
   *
   * @param listener called with each notification
   * @return the registration's id, for {@link #unregisterNotification}
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

  /**
   * Destroys the container, its subcontainers and its processes, as {@link
   * ContainerApi#destroy(String)} does.
   *
   * @throws LmctfyException as {@link ContainerApi#destroy(String)}
   */
  void destroy();
}
