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
  /** Operation not permitted (1). */
  EPERM(1, "Operation not permitted"),
  /** No such file or directory (2). */
  ENOENT(2, "No such file or directory"),
  /** No such process (3). */
  ESRCH(3, "No such process"),
  /** Interrupted system call (4). */
  EINTR(4, "Interrupted system call"),
  /** Input/output error (5). */
  EIO(5, "Input/output error"),
  /** Argument list too long (7). */
  E2BIG(7, "Argument list too long"),
  /** Bad file descriptor (9). */
  EBADF(9, "Bad file descriptor"),
  /** Resource temporarily unavailable (11). */
  EAGAIN(11, "Resource temporarily unavailable"),
  /** Cannot allocate memory (12). */
  ENOMEM(12, "Cannot allocate memory"),
  /** Permission denied (13). */
  EACCES(13, "Permission denied"),
  /** Bad address (14). */
  EFAULT(14, "Bad address"),
  /** Device or resource busy (16). */
  EBUSY(16, "Device or resource busy"),
  /** File exists (17). */
  EEXIST(17, "File exists"),
  /** Invalid cross-device link (18). */
  EXDEV(18, "Invalid cross-device link"),
  /** No such device (19). */
  ENODEV(19, "No such device"),
  /** Not a directory (20). */
  ENOTDIR(20, "Not a directory"),
  /** Is a directory (21). */
  EISDIR(21, "Is a directory"),
  /** Invalid argument (22). */
  EINVAL(22, "Invalid argument"),
  /** Too many open files (24). */
  EMFILE(24, "Too many open files"),
  /** File too large (27). */
  EFBIG(27, "File too large"),
  /** No space left on device (28). */
  ENOSPC(28, "No space left on device"),
  /** Read-only file system (30). */
  EROFS(30, "Read-only file system"),
  /** Numerical result out of range (34). */
  ERANGE(34, "Numerical result out of range"),
  /** Resource deadlock avoided (35). */
  EDEADLK(35, "Resource deadlock avoided"),
  /** File name too long (36). */
  ENAMETOOLONG(36, "File name too long"),
  /** Function not implemented (38): a system call this kernel lacks. */
  ENOSYS(38, "Function not implemented"),
  /** Directory not empty (39). */
  ENOTEMPTY(39, "Directory not empty"),
  /** Too many levels of symbolic links (40). */
  ELOOP(40, "Too many levels of symbolic links"),
  /** No data available (61). */
  ENODATA(61, "No data available"),
  /** Operation not supported (95). */
  EOPNOTSUPP(95, "Operation not supported"),
  /** Disk quota exceeded (122). */
  EDQUOT(122, "Disk quota exceeded"),
  /** An errno this enum does not name; the number is in the exception's message. */
  UNKNOWN(-1, "Unknown error");

  private final int number;
  private final String description;

  Errno(int number, String description) {
    this.number = number;
    this.description = description;
  }

  /**
   * The errno number on Linux.
   *
   * @return the errno number on Linux
   */
  public int number() {
    return number;
  }

  /**
   * The C library's text for it ({@code strerror}).
   *
   * @return the C library's text for it ({@code strerror})
   */
  public String description() {
    return description;
  }

  /**
   * The constant for a Linux errno number, or {@link #UNKNOWN}.
   *
   * @param number the number
   * @return the constant for a Linux errno number, or {@link #UNKNOWN}
   */
  public static Errno of(int number) {
    for (Errno e : values()) {
      if (e.number == number) {
        return e;
      }
    }
    return UNKNOWN;
  }
}
