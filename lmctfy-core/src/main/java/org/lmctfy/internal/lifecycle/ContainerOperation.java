package org.lmctfy.internal.lifecycle;

/**
 * The operations on a container and the lock each holds: the one place that says which operation
 * locks. {@link Containers}, the one internal entry, takes the lock an operation's entry names for
 * every operation. Locks are taken parent before child; a lock not free within the lock timeout is
 * DEADLINE_EXCEEDED.
 */
public enum ContainerOperation {
  /**
   * The parent's lock first, which keeps the parent from being destroyed meanwhile (for a top-level
   * create the root's only where the driver's cleanup may remove it, else top-level creates run
   * side by side), then the container's.
   */
  CREATE("create", Lock.ACROSS_PROCESSES, true),
  DESTROY("destroy", Lock.ACROSS_PROCESSES, false),
  /** Every value changed is put back if a write fails: no other write may come between. */
  UPDATE("update", Lock.ACROSS_PROCESSES, false),
  /**
   * A read that must not see a write of this JVM half-done, and need not exclude other processes:
   * within the process only, so that a read makes no lock directory or lock file.
   */
  SPEC("spec", Lock.WITHIN_PROCESS, false),
  /** pause, resume and killAll run the freezer and the kill loop: one at a time per container. */
  PAUSE("pause", Lock.ACROSS_PROCESSES, false),
  RESUME("resume", Lock.ACROSS_PROCESSES, false),
  KILL_ALL("killAll", Lock.ACROSS_PROCESSES, false),
  /**
   * run and enter take no lock: placing a process is one {@code cgroup.procs} write per hierarchy,
   * which the kernel orders against a concurrent destroy (the destroy kills until its cgroups are
   * empty and retries their removal on EBUSY; a write into a removed cgroup is refused, NOT_FOUND),
   * so runs and enters of one container go side by side and a run pays no lock. A virtual host's
   * init that is gone is started again under the container's lock ({@link
   * VirtualHostKeeper#running}).
   */
  RUN("run", Lock.NONE, false),
  ENTER("enter", Lock.NONE, false),
  /**
   * The API's cleanup: the lock of each container it looks at, held while it sweeps that
   * container's children (parent before child), and of a delegated child whose record it removes,
   * so that it never finishes what a live create or destroy is doing.
   */
  CLEANUP("cleanup", Lock.ACROSS_PROCESSES, false);

  /** What an operation holds on its container. */
  public enum Lock {
    /** Nothing: no lock, no file. */
    NONE,
    /** The container's lock among the threads of this JVM only. */
    WITHIN_PROCESS,
    /** The container's lock across threads and processes (a byte of the lock file). */
    ACROSS_PROCESSES
  }

  private final String verb;
  private final Lock lock;
  private final boolean parentFirst;

  ContainerOperation(String verb, Lock lock, boolean parentFirst) {
    this.verb = verb;
    this.lock = lock;
    this.parentFirst = parentFirst;
  }

  /** The operation's name as the API and its messages spell it ({@code killAll}). */
  public String verb() {
    return verb;
  }

  /** What it holds on the container. */
  public Lock lock() {
    return lock;
  }

  /** Whether it holds its parent's lock first, across processes. */
  public boolean parentFirst() {
    return parentFirst;
  }
}
