package org.lmctfy.internal.process;

import java.io.IOException;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.internal.errors.Errors;

/**
 * A launcher that could not be placed in its cgroups and was killed before it ran anything: the
 * kernel's refusal of a {@code cgroup.procs} write (the cause, with file, value and errno), or a
 * launcher that ended on its own before it was told to go (someone else killed it).
 */
public final class PlacementException extends IOException {
  private static final long serialVersionUID = 1L;

  private final long pid;

  PlacementException(long pid, int placed, int of, CgroupFsException refused) {
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

  PlacementException(long pid, String why) {
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

  /**
   * A failed {@code run} as the caller gets it: a refused placement of the launcher (this
   * exception, or a backend's own refusal where it places its processes itself, as the fake does)
   * by {@link Errors#codeOfLaunch}, a launcher that ended on its own ABORTED, anything else by
   * {@link Errors#of(String, IOException)}.
   */
  public static LmctfyException ofRun(String what, IOException e) {
    if (e instanceof PlacementException p) {
      ErrorCode code =
          p.refusal().map(r -> Errors.codeOfLaunch(r.errno())).orElse(ErrorCode.ABORTED);
      return new LmctfyException(code, what + ": " + e.getMessage(), e);
    }
    if (e instanceof CgroupFsException fs) {
      return new LmctfyException(Errors.codeOfLaunch(fs.errno()), what + ": " + e.getMessage(), e);
    }
    return Errors.of(what, e);
  }
}
