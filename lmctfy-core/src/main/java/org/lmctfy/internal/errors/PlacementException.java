package org.lmctfy.internal.errors;

import java.io.IOException;
import org.lmctfy.cgroupfs.CgroupFsException;

/**
 * Thrown by the kernel backend's launcher, read by {@link Errors#ofRun}: a launcher that could not
 * be placed in its cgroups and was killed before it ran anything: the kernel's refusal of a {@code
 * cgroup.procs} write (the cause, with file, value and errno), or a launcher that ended on its own
 * before it was told to go (someone else killed it).
 */
public final class PlacementException extends IOException {
  private static final long serialVersionUID = 1L;

  private final long pid;

  /**
   * A refused {@code cgroup.procs} write.
   *
   * @param pid the launcher's pid
   * @param placed in how many hierarchies it was placed before
   * @param of in how many it was to be placed
   * @param refused the kernel's refusal
   */
  public PlacementException(long pid, int placed, int of, CgroupFsException refused) {
    super(
        "placing the launcher (pid "
            + pid
            + ") in its cgroups: "
            + refused.getMessage()
            + (refused.errno() == org.lmctfy.cgroupfs.Errno.ESRCH
                ? " (it was killed by someone else)"
                : "")
            + "; placed in "
            + placed
            + " of "
            + of
            + " hierarchies, then killed before it ran anything",
        refused);
    this.pid = pid;
  }

  /**
   * A launcher that ended before it was told to go.
   *
   * @param pid the launcher's pid
   * @param why what happened
   */
  public PlacementException(long pid, String why) {
    super("the launcher (pid " + pid + ") " + why);
    this.pid = pid;
  }

  /** The launcher's pid (gone now). */
  public long pid() {
    return pid;
  }

  /** The kernel's refusal, if it was one. */
  public java.util.Optional<CgroupFsException> refusal() {
    return java.util.Optional.ofNullable((CgroupFsException) getCause());
  }
}
