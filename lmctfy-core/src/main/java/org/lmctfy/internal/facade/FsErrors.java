package org.lmctfy.internal.facade;

import java.io.IOException;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFsException;

/** Turns the cgroup filesystem's {@link IOException}s into {@link LmctfyException}s. */
final class FsErrors {
  private FsErrors() {}

  /** The canonical code for a refused operation: privilege, existence, busy, or a kernel refusal. */
  static ErrorCode codeOf(IOException e) {
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
  static LmctfyException wrap(String what, IOException e) {
    return new LmctfyException(codeOf(e), what + ": " + e.getMessage(), e);
  }
}
