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

  /** Calls {@code listener} on a library thread whenever {@code event} happens; returns an id. */
  long registerNotification(EventSpec event, NotificationListener listener);

  /** Stops the registration {@code id}; the listener is not called after this returns. */
  void unregisterNotification(long id);

  /** Destroys the container, its subcontainers and its processes. */
  void destroy();
}
