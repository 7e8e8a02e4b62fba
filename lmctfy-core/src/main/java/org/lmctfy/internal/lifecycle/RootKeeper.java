package org.lmctfy.internal.lifecycle;

import java.util.List;

/**
 * What the driver that chose an API's root does for its containers: makes the root usable before a
 * top-level create (a systemd unit started, the root's processes moved into a leaf), makes sure
 * this process may place processes before a run or an enter, says whether cleanup may remove the
 * root (then top-level creates hold the root's lock, so that it is never removed under them),
 * removes what cleanup finds unused, and names the remedy when a controller does not reach the
 * root. {@link #CGROUPS_AS_THEY_ARE} does none of it.
 */
public interface RootKeeper {
  /** The root as it is: nothing to prepare or remove; the remedy is initMachine. */
  RootKeeper CGROUPS_AS_THEY_ARE = new RootKeeper() {};

  /**
   * Whether a top-level create holds the root's lock across processes (cleanup may remove the
   * root).
   */
  default boolean lockRootForTopLevel() {
    return false;
  }

  /**
   * Before a top-level create takes any lock: says early what would keep the root from being made
   * (no systemd manager answers), so that the error is the remedy and a create that cannot succeed
   * makes no lock file either. Cheap when the root is there.
   */
  default void precheck() {}

  /**
   * Before a top-level create and initMachine: makes the root usable, or throws a {@code
   * LmctfyException} saying why not and what to do. Holds the root's lock when {@link
   * #lockRootForTopLevel} (it may take it itself otherwise); cheap when the root is ready.
   *
   * @return whether this call made the root (started a systemd unit), so that a create that then
   *     fails can take it away again ({@link #removeUnused})
   */
  default boolean prepare(Containers containers) {
    return false;
  }

  /**
   * {@link #prepare} without moving the root's processes: for initMachine with a processes leaf of
   * its own, which moves them itself.
   *
   * @return whether this call made the root
   */
  default boolean ensureRoot(Containers containers) {
    return false;
  }

  /**
   * After a top-level create failed, still under the root's lock, when its {@link #prepare} made
   * the root: removes the root again if it holds nothing, so that a refused create leaves the
   * machine as it was. A failure to remove it is added to {@code failure}, suppressed (cleanup()
   * removes it later).
   */
  default void removeUnused(Containers containers, Exception failure) {}

  /**
   * At the end of cleanup(), holding nothing: removes what the driver made and no container uses;
   * adds what it removed and what it could not to the lists.
   */
  default void afterCleanup(Containers containers, List<String> removed, List<String> failures) {}

  /**
   * Before this process places a process in a container ({@code run}, {@code enter}): makes sure it
   * may (a user's systemd driver moves this process into a scope of the user's manager once).
   */
  default void beforePlacing() {}

  /**
   * When the API closes, if it created, destroyed or prepared anything: removes what the driver
   * keeps for the API where it holds no container (a systemd unit is stopped: one D-Bus call per
   * API, never per destroy), under the root's lock, so that a create in another process is never
   * undercut. A crash skips it: the next create or cleanup() does it.
   *
   * @throws org.lmctfy.LmctfyException where the removal failed
   */
  default void release(Containers containers) {}

  /**
   * How to give the root the v2 controller it lacks (the end of a FAILED_PRECONDITION message).
   *
   * @param controller the controller
   * @param offered the root's {@code cgroup.controllers}
   */
  default String controllerRemedy(String controller, String offered) {
    return "run initMachine with enable_controllers";
  }
}
