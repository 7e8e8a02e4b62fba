package org.lmctfy.internal.lifecycle;

import java.io.IOException;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFsException;

/** Turns the cgroup filesystem's {@link IOException}s into {@link LmctfyException}s. */
public final class Errors {
  private Errors() {}

  /** The canonical code for a refused operation: privilege, existence, busy, or a kernel refusal. */
  public static ErrorCode codeOf(IOException e) {
    if (!(e instanceof CgroupFsException)) {
      return ErrorCode.UNAVAILABLE;
    }
    switch (((CgroupFsException) e).errno()) {
      case EACCES:
      case EPERM:
        return ErrorCode.PERMISSION_DENIED;
      case EEXIST:
        return ErrorCode.ALREADY_EXISTS;
      case ENOENT:
      case ESRCH:
        return ErrorCode.NOT_FOUND;
      case EBUSY:
        return ErrorCode.FAILED_PRECONDITION;
      default:
        return ErrorCode.UNAVAILABLE;
    }
  }

  /** {@code "<what>: <the failure, with file, value and errno>"}. */
  public static LmctfyException of(String what, IOException e) {
    return new LmctfyException(codeOf(e), what + ": " + e.getMessage(), e);
  }
}
