package org.lmctfy.internal.process;

import java.io.IOException;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.internal.lifecycle.Errors;

/**
 * The statuses of the process operations (run, enter, killAll, pause, resume), chosen so that a
 * retry policy can trust them: UNAVAILABLE only where trying again can succeed.
 *
 * <ul>
 *   <li>a vanished process (ESRCH) is NOT_FOUND naming it; a launcher killed by someone else
 *       while it was being placed is ABORTED (the run can be tried again);
 *   <li>a cgroup that refuses processes is FAILED_PRECONDITION: ENOSPC (a v1 cpuset without cpus
 *       or memory nodes), EBUSY (v2: the cgroup has controllers enabled for its children, the
 *       no-internal-processes rule), EOPNOTSUPP (v2: a cgroup of type "domain invalid");
 *   <li>EINVAL for a moved id is INVALID_ARGUMENT (a kernel thread cannot be moved);
 *   <li>privilege is PERMISSION_DENIED, a vanished cgroup NOT_FOUND; anything else is the
 *       library's usual mapping.
 * </ul>
 * Every message names the file and the errno (the {@link CgroupFsException}'s text).
 */
public final class ProcessErrors {
  private ProcessErrors() {}

  /** The code for a refused write of an id into a membership file. */
  static ErrorCode membership(Errno errno) {
    switch (errno) {
      case ESRCH:
      case ENOENT:
        return ErrorCode.NOT_FOUND;
      case ENOSPC:
      case EBUSY:
      case EOPNOTSUPP:
        return ErrorCode.FAILED_PRECONDITION;
      case EINVAL:
        return ErrorCode.INVALID_ARGUMENT;
      case EACCES:
      case EPERM:
        return ErrorCode.PERMISSION_DENIED;
      default:
        return Errors.codeOf(errno);
    }
  }

  /** A failed {@code run}. */
  public static LmctfyException ofRun(String what, IOException e) {
    if (e instanceof PlacementException) {
      PlacementException p = (PlacementException) e;
      ErrorCode code = p.refusal().map(r -> r.errno() == Errno.ESRCH ? ErrorCode.ABORTED
          : r.errno() == Errno.EINVAL ? ErrorCode.UNAVAILABLE : membership(r.errno())).orElse(ErrorCode.ABORTED);
      return new LmctfyException(code, what + ": " + e.getMessage(), e);
    }
    if (e instanceof CgroupFsException) { // a backend that places its processes itself (the fake)
      Errno errno = ((CgroupFsException) e).errno();
      ErrorCode code = errno == Errno.ESRCH ? ErrorCode.ABORTED : errno == Errno.EINVAL ? ErrorCode.UNAVAILABLE
          : membership(errno);
      return new LmctfyException(code, what + ": " + e.getMessage(), e);
    }
    return Errors.of(what, e);
  }

  /** A failed move of ids ({@code enter}). */
  static LmctfyException ofMove(String what, IOException e) {
    if (e instanceof CgroupFsException) {
      return new LmctfyException(membership(((CgroupFsException) e).errno()), what + ": " + e.getMessage(), e);
    }
    return Errors.of(what, e);
  }
}
