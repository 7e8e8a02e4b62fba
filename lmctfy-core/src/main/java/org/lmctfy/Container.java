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

  /** The container's absolute name, {@code "/a/b"}. */
  String name();

  /** Changes the container's resources (see {@link UpdatePolicy}); transactional. */
  void update(ContainerSpec spec, UpdatePolicy policy);

  /** The container's resources as the kernel has them now. */
  ContainerSpec spec();

  /** What the container uses. */
  ContainerStats stats(StatsType type);

  /** Moves the threads or processes {@code tids} into the container, in every hierarchy. */
  void enter(List<Long> tids);

  /** Starts {@code argv} inside the container; it runs no instruction outside it. */
  ContainerProcess run(List<String> argv, RunSpec spec);

  /** Freezes every process in the container and its subcontainers. */
  void pause();

  /** Thaws what {@link #pause()} froze. */
  void resume();

  /** Kills every process in the container and its subcontainers. */
  void killAll();

  /** The subcontainers' names, sorted. */
  List<String> listSubcontainers(ListPolicy policy);

  /** The ids of the processes in the container, sorted. */
  List<Long> listProcesses(ListPolicy policy);

  /** The ids of the threads in the container, sorted. */
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
   * @throws LmctfyException NOT_FOUND if {@code id} is not a registration of this container
   */
  void unregisterNotification(long id);

  /** Destroys the container, its subcontainers and its processes. */
  void destroy();
}
