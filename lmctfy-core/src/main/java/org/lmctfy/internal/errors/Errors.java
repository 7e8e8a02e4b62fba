package org.lmctfy.internal.errors;

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
 * errno-to-status table of the library (the README's "Error codes" table says the same, and a test
 * holds them together).
 *
 * <p>The rule: only what may succeed if simply tried again is UNAVAILABLE (EAGAIN, EINTR); the
 * caller's bad value is INVALID_ARGUMENT; a state of the machine the caller must change first is
 * FAILED_PRECONDITION (EBUSY reaches the caller only after the library's own retries, where the
 * kernel was only settling); a limit reached is RESOURCE_EXHAUSTED.
 *
 * <p>Three operations read a few errnos their own way, chosen so that a retry policy can trust them
 * (UNAVAILABLE only where trying again can succeed), and otherwise follow the table:
 *
 * <ul>
 *   <li>making a cgroup: EAGAIN is RESOURCE_EXHAUSTED, the kernel's only EAGAIN of a cgroup mkdir
 *       (kernel/cgroup/cgroup.c: {@code cgroup_mkdir} when {@code cgroup_check_hierarchy_limits}
 *       fails): an ancestor's {@code cgroup.max.descendants} or {@code cgroup.max.depth} is
 *       reached, and trying again fails until a cgroup below it is removed or the cap is raised;
 *   <li>a write of an id into a membership file ({@code enter}, the placement of a {@code run}): a
 *       cgroup that refuses processes is FAILED_PRECONDITION: ENOSPC (a v1 cpuset without cpus or
 *       memory nodes), EBUSY (v2: the cgroup has controllers enabled for its children, the
 *       no-internal-processes rule), EOPNOTSUPP (v2: a cgroup of type "domain invalid"); a vanished
 *       process (ESRCH) is NOT_FOUND naming it, EINVAL INVALID_ARGUMENT (a kernel thread cannot be
 *       moved);
 *   <li>the placement of a {@code run}'s launcher: as a membership write, except that a launcher
 *       killed by someone else while it was being placed (ESRCH) is ABORTED and EINVAL is
 *       UNAVAILABLE (the run can be tried again).
 * </ul>
 */
public final class Errors {
  private Errors() {}

  /**
   * Of failures met one after the other where each step must still be tried (undo steps, thaws,
   * releases): the first is the one thrown, the later ones ride on it, suppressed.
   *
   * @return {@code first}, or {@code next} where there was none yet
   */
  public static <T extends Throwable> T keepFirst(T first, T next) {
    if (first == null) {
      return next;
    }
    first.addSuppressed(next);
    return first;
  }

  private static final Map<Errno, ErrorCode> TABLE = new EnumMap<>(Errno.class);

  static {
    put(ErrorCode.PERMISSION_DENIED, Errno.EPERM, Errno.EACCES);
    put(ErrorCode.NOT_FOUND, Errno.ENOENT, Errno.ESRCH, Errno.ENODATA);
    put(ErrorCode.ALREADY_EXISTS, Errno.EEXIST);
    put(
        ErrorCode.INVALID_ARGUMENT,
        Errno.EINVAL,
        Errno.ERANGE,
        Errno.E2BIG,
        Errno.ENAMETOOLONG,
        Errno.EFBIG,
        Errno.ENOTDIR,
        Errno.EISDIR,
        Errno.ELOOP,
        Errno.ENODEV,
        Errno.EXDEV);
    put(ErrorCode.FAILED_PRECONDITION, Errno.EBUSY, Errno.ENOTEMPTY, Errno.EROFS, Errno.EDEADLK);
    put(ErrorCode.RESOURCE_EXHAUSTED, Errno.ENOSPC, Errno.ENOMEM, Errno.EMFILE, Errno.EDQUOT);
    put(ErrorCode.UNAVAILABLE, Errno.EAGAIN, Errno.EINTR);
    put(ErrorCode.UNIMPLEMENTED, Errno.EOPNOTSUPP, Errno.ENOSYS);
    put(ErrorCode.INTERNAL, Errno.EBADF, Errno.EFAULT);
    put(ErrorCode.UNKNOWN, Errno.EIO, Errno.UNKNOWN);
  }

  /** Where a membership write reads an errno otherwise than {@link #TABLE}. */
  private static final Map<Errno, ErrorCode> MEMBERSHIP =
      new EnumMap<>(
          Map.of(
              Errno.ENOSPC, ErrorCode.FAILED_PRECONDITION,
              Errno.EBUSY, ErrorCode.FAILED_PRECONDITION,
              Errno.EOPNOTSUPP, ErrorCode.FAILED_PRECONDITION));

  /** Where making a cgroup reads an errno otherwise than {@link #TABLE}. */
  private static final Map<Errno, ErrorCode> MKDIR =
      new EnumMap<>(Map.of(Errno.EAGAIN, ErrorCode.RESOURCE_EXHAUSTED));

  /** Where the placement of a run's launcher reads an errno otherwise than {@link #MEMBERSHIP}. */
  private static final Map<Errno, ErrorCode> LAUNCH =
      new EnumMap<>(
          Map.of(
              Errno.ESRCH, ErrorCode.ABORTED,
              Errno.EINVAL, ErrorCode.UNAVAILABLE));

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

  /** The status for a refused write of an id into a membership file ({@code enter}). */
  public static ErrorCode codeOfMembership(Errno errno) {
    return MEMBERSHIP.getOrDefault(errno, codeOf(errno));
  }

  /** The status for a refused mkdir of a cgroup. */
  public static ErrorCode codeOfMkdir(Errno errno) {
    return MKDIR.getOrDefault(errno, codeOf(errno));
  }

  /** The status for a refused placement of a run's launcher in its cgroups. */
  public static ErrorCode codeOfLaunch(Errno errno) {
    return LAUNCH.getOrDefault(errno, codeOfMembership(errno));
  }

  /**
   * The status for a refused operation: by its errno (a mkdir's by {@link #codeOfMkdir}), or, for
   * an exception of Java's own without one, by its kind ({@link AccessDeniedException}, {@link
   * NoSuchFileException}...); UNKNOWN otherwise.
   */
  public static ErrorCode codeOf(IOException e) {
    if (e instanceof CgroupFsException fs) {
      return fs.operation() == CgroupFsException.Operation.MKDIR
          ? codeOfMkdir(fs.errno())
          : codeOf(fs.errno());
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

  /**
   * {@code "<what>: <the failure, with file, value and errno>: <why>"}: a failure with what the
   * caller found out about its cause on the machine (the cap a refused mkdir met).
   */
  public static LmctfyException of(String what, IOException e, String why) {
    return new LmctfyException(codeOf(e), what + ": " + e.getMessage() + ": " + why, e);
  }

  /**
   * A failed move of ids ({@code enter}): a refused membership write by {@link #codeOfMembership}.
   */
  public static LmctfyException ofMove(String what, IOException e) {
    if (e instanceof CgroupFsException fs) {
      return new LmctfyException(codeOfMembership(fs.errno()), what + ": " + e.getMessage(), e);
    }
    return of(what, e);
  }

  /**
   * A failed {@code run} as the caller gets it: a refused placement of the launcher (a {@link
   * PlacementException} of the kernel backend, or a backend's own refusal where it places its
   * processes itself, as the fake does) by {@link #codeOfLaunch}, a launcher that ended on its own
   * ABORTED, anything else by {@link #of(String, IOException)}.
   */
  public static LmctfyException ofRun(String what, IOException e) {
    if (e instanceof PlacementException p) {
      ErrorCode code = p.refusal().map(r -> codeOfLaunch(r.errno())).orElse(ErrorCode.ABORTED);
      return new LmctfyException(code, what + ": " + e.getMessage(), e);
    }
    if (e instanceof CgroupFsException fs) {
      return new LmctfyException(codeOfLaunch(fs.errno()), what + ": " + e.getMessage(), e);
    }
    return of(what, e);
  }
}
