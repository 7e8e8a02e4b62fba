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

  /**
   * The failure of an operation as the caller gets it: an LmctfyException as it is, a refused
   * filesystem operation with its code, anything else (a bug) as INTERNAL.
   */
  public static LmctfyException of(String what, Exception e) {
    if (e instanceof LmctfyException) {
      return (LmctfyException) e;
    }
    if (e instanceof IOException) {
      return of(what, (IOException) e);
    }
    return new LmctfyException(ErrorCode.INTERNAL, what + ": " + e, e);
  }

  /** {@code "<what>: <the failure, with file, value and errno>"}. */
  public static LmctfyException of(String what, IOException e) {
    return new LmctfyException(codeOf(e), what + ": " + e.getMessage(), e);
  }
}
