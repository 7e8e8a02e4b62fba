package org.lmctfy.internal.lifecycle;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.EnumMap;
import java.util.Map;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.Errno;

/**
 * Turns the cgroup filesystem's {@link IOException}s into {@link LmctfyException}s: the one
 * errno-to-status table of the library (the README's "Error codes" table says the same, and a
 * test holds them together).
 *
 * <p>The rule: only what may succeed if simply tried again is UNAVAILABLE (EAGAIN, EINTR); the
 * caller's bad value is INVALID_ARGUMENT; a state of the machine the caller must change first is
 * FAILED_PRECONDITION (EBUSY reaches the caller only after the library's own retries, where the
 * kernel was only settling); a limit reached is RESOURCE_EXHAUSTED.
 */
public final class Errors {
  private Errors() {}

  private static final Map<Errno, ErrorCode> TABLE = new EnumMap<>(Errno.class);

  static {
    put(ErrorCode.PERMISSION_DENIED, Errno.EPERM, Errno.EACCES);
    put(ErrorCode.NOT_FOUND, Errno.ENOENT, Errno.ESRCH, Errno.ENODATA);
    put(ErrorCode.ALREADY_EXISTS, Errno.EEXIST);
    put(ErrorCode.INVALID_ARGUMENT, Errno.EINVAL, Errno.ERANGE, Errno.E2BIG, Errno.ENAMETOOLONG, Errno.EFBIG,
        Errno.ENOTDIR, Errno.EISDIR, Errno.ELOOP, Errno.ENODEV, Errno.EXDEV);
    put(ErrorCode.FAILED_PRECONDITION, Errno.EBUSY, Errno.ENOTEMPTY, Errno.EROFS, Errno.EDEADLK);
    put(ErrorCode.RESOURCE_EXHAUSTED, Errno.ENOSPC, Errno.ENOMEM, Errno.EMFILE, Errno.EDQUOT);
    put(ErrorCode.UNAVAILABLE, Errno.EAGAIN, Errno.EINTR);
    put(ErrorCode.UNIMPLEMENTED, Errno.EOPNOTSUPP, Errno.ENOSYS);
    put(ErrorCode.INTERNAL, Errno.EBADF, Errno.EFAULT);
    put(ErrorCode.UNKNOWN, Errno.EIO, Errno.UNKNOWN);
  }

  private static void put(ErrorCode code, Errno... errnos) {
    for (Errno e : errnos) {
      if (TABLE.put(e, code) != null) {
        throw new AssertionError(e + " is in the errno table twice");
      }
    }
  }

  /** The status for an errno; every {@link Errno} has one. */
  public static ErrorCode codeOf(Errno errno) {
    ErrorCode code = TABLE.get(errno);
    if (code == null) {
      throw new AssertionError(errno + " is missing from the errno table");
    }
    return code;
  }

  /**
   * The status for a refused operation: by its errno, or, for an exception of Java's own without
   * one, by its kind ({@link AccessDeniedException}, {@link NoSuchFileException}...); UNKNOWN
   * otherwise.
   */
  public static ErrorCode codeOf(IOException e) {
    if (e instanceof CgroupFsException fs) {
      return codeOf(fs.errno());
    }
    if (e instanceof AccessDeniedException) {
      return ErrorCode.PERMISSION_DENIED;
    }
    if (e instanceof NoSuchFileException) {
      return ErrorCode.NOT_FOUND;
    }
    if (e instanceof FileAlreadyExistsException) {
      return ErrorCode.ALREADY_EXISTS;
    }
    if (e instanceof DirectoryNotEmptyException) {
      return ErrorCode.FAILED_PRECONDITION;
    }
    if (e instanceof NotDirectoryException) {
      return ErrorCode.INVALID_ARGUMENT;
    }
    return ErrorCode.UNKNOWN;
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
