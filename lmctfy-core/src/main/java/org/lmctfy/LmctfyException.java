package org.lmctfy;

import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.Errno;

/**
 * The one exception of this library: a canonical {@link ErrorCode} and a message that names what
 * failed (the container, the field, the file, the value and the errno).
 *
 * <p>When the failure came from the cgroup filesystem, {@link #getCause()} is the {@link
 * CgroupFsException} and {@link #errno()} and {@link #file()} expose its details. Failures of a
 * rollback that ran after the first failure are attached as {@linkplain #getSuppressed()
 * suppressed} exceptions, never dropped.
 *
 * <pre>{@code
 * try {
 *   api.create("/batch/job", spec);
 * } catch (LmctfyException e) {
 *   if (e.code() == ErrorCode.ALREADY_EXISTS) { ... }
 * }
 * }</pre>
 *
 * @since 0.1
 */
public final class LmctfyException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The status. */
  private final ErrorCode code;

  /**
   * A failure.
   *
   * @param code the status
   * @param message what failed, naming the field, file, value or errno
   */
  public LmctfyException(ErrorCode code, String message) {
    this(code, message, null);
  }

  /**
   * A failure with its cause.
   *
   * @param code the status
   * @param message what failed, naming the field, file, value or errno
   * @param cause the underlying failure (a {@link org.lmctfy.cgroupfs.CgroupFsException} carries
   *     the errno)
   */
  public LmctfyException(ErrorCode code, String message, @Nullable Throwable cause) {
    super(message, cause);
    if (code == null || code == ErrorCode.OK) {
      throw new IllegalArgumentException("an LmctfyException needs a failure code, got " + code);
    }
    this.code = code;
  }

  /** The canonical status code. */
  public ErrorCode code() {
    return code;
  }

  /** The errno of the cgroup filesystem failure behind this exception, if there was one. */
  public Optional<Errno> errno() {
    return fsCause().map(CgroupFsException::errno);
  }

  /** The file or directory of the cgroup filesystem failure behind this exception, if any. */
  public Optional<String> file() {
    return fsCause().map(CgroupFsException::file);
  }

  private Optional<CgroupFsException> fsCause() {
    for (Throwable t = getCause(); t != null; t = t.getCause()) {
      if (t instanceof CgroupFsException) {
        return Optional.of((CgroupFsException) t);
      }
    }
    return Optional.empty();
  }

  /** Formats as lmctfy printed errors: {@code "<number>: <message>"}. */
  @Override
  public String toString() {
    return code.number() + ": " + getMessage();
  }
}
