package org.lmctfy;

/**
 * lmctfy's canonical status codes, with the numbers lmctfy (and its CLI's exit code) used.
 *
 * <p>Every {@link LmctfyException} carries one. The numbers are stable: tools compare them.
 *
 * @since 0.1
 */
public enum ErrorCode {
  /** Success. */
  OK(0),
  /** The operation was cancelled (a notification ended by {@code close()}). */
  CANCELLED(1),
  /** A failure that fits no other code (an I/O error without an errno). */
  UNKNOWN(2),
  /** The caller gave a bad name, spec or argument; nothing on the machine changed. */
  INVALID_ARGUMENT(3),
  /** The kernel did not reach the state in time (a freeze, a kill). */
  DEADLINE_EXCEEDED(4),
  /** The container (or the thing named) does not exist. */
  NOT_FOUND(5),
  /** The container (or a cgroup at its path) already exists. */
  ALREADY_EXISTS(6),
  /** The kernel refused for lack of privilege (EACCES, EPERM). */
  PERMISSION_DENIED(7),
  /**
   * A limit is reached (ENOSPC, ENOMEM: markers on a cgroup, an empty cpuset, memory); may succeed
   * once something is released.
   */
  RESOURCE_EXHAUSTED(8),
  /** The machine is not in a state the operation needs (missing controller, partial container). */
  FAILED_PRECONDITION(9),
  /**
   * The operation was cut short by something outside it: a wait for a lock interrupted, a launcher
   * killed by someone else while it was being placed. Safe to try again.
   */
  ABORTED(10),
  /** Not used by lmctfy for Java; kept for lmctfy's numbers. */
  OUT_OF_RANGE(11),
  /** Not built (yet), or not possible on this kernel. */
  UNIMPLEMENTED(12),
  /** A bug or an invariant broken. */
  INTERNAL(13),
  /** The kernel refused an operation that was valid (a write, an rmdir). */
  UNAVAILABLE(14),
  /** Not used by lmctfy for Java; kept for lmctfy's numbers. */
  DATA_LOSS(15);

  private final int number;

  ErrorCode(int number) {
    this.number = number;
  }

  /** The canonical number, also the {@code lmctfy} CLI's exit code. */
  public int number() {
    return number;
  }
}
