package org.lmctfy.cgroupfs;

/**
 * The Linux errno values a cgroup filesystem operation can fail with, by name and number.
 *
 * <p>Java's NIO reports most of these only as a message string; the kernel backend reads the real
 * errno and the fake chooses the one the kernel would, so callers can rely on the name.
 *
 * @since 0.1
 */
public enum Errno {
  EPERM(1, "Operation not permitted"),
  ENOENT(2, "No such file or directory"),
  ESRCH(3, "No such process"),
  EINTR(4, "Interrupted system call"),
  EIO(5, "Input/output error"),
  E2BIG(7, "Argument list too long"),
  EBADF(9, "Bad file descriptor"),
  EAGAIN(11, "Resource temporarily unavailable"),
  ENOMEM(12, "Cannot allocate memory"),
  EACCES(13, "Permission denied"),
  EFAULT(14, "Bad address"),
  EBUSY(16, "Device or resource busy"),
  EEXIST(17, "File exists"),
  EXDEV(18, "Invalid cross-device link"),
  ENODEV(19, "No such device"),
  ENOTDIR(20, "Not a directory"),
  EISDIR(21, "Is a directory"),
  EINVAL(22, "Invalid argument"),
  EMFILE(24, "Too many open files"),
  EFBIG(27, "File too large"),
  ENOSPC(28, "No space left on device"),
  EROFS(30, "Read-only file system"),
  ERANGE(34, "Numerical result out of range"),
  EDEADLK(35, "Resource deadlock avoided"),
  ENAMETOOLONG(36, "File name too long"),
  ENOTEMPTY(39, "Directory not empty"),
  ELOOP(40, "Too many levels of symbolic links"),
  ENODATA(61, "No data available"),
  EOPNOTSUPP(95, "Operation not supported"),
  EDQUOT(122, "Disk quota exceeded"),
  /** An errno this enum does not name; the number is in the exception's message. */
  UNKNOWN(-1, "Unknown error");

  private final int number;
  private final String description;

  Errno(int number, String description) {
    this.number = number;
    this.description = description;
  }

  /** The errno number on Linux. */
  public int number() {
    return number;
  }

  /** The C library's text for it ({@code strerror}). */
  public String description() {
    return description;
  }

  /** The constant for a Linux errno number, or {@link #UNKNOWN}. */
  public static Errno of(int number) {
    for (Errno e : values()) {
      if (e.number == number) {
        return e;
      }
    }
    return UNKNOWN;
  }
}
