package org.lmctfy.cgroupfs;

import java.io.IOException;
import java.util.Objects;

/**
 * A refused cgroup filesystem operation, with everything a user needs to act on it: the
 * operation, the file or directory, the value written (if any) and the errno.
 *
 * <p>Message form: {@code write "-1" to /sys/fs/cgroup/memory/a/memory.memsw.limit_in_bytes:
 * EINVAL (Invalid argument)}.
 *
 * @since 0.1
 */
public class CgroupFsException extends IOException {
  private static final long serialVersionUID = 1L;

  /** What was being done. */
  public enum Operation {
    MKDIR("mkdir"),
    RMDIR("rmdir"),
    READ("read"),
    WRITE("write"),
    LIST("list"),
    STAT("stat"),
    GET_MARKER("getxattr"),
    SET_MARKER("setxattr"),
    REMOVE_MARKER("removexattr"),
    CHOWN("chown"),
    MOUNT("mount"),
    UNMOUNT("umount"),
    KILL("kill"),
    /** Opening a {@link CgroupWatch}: an inotify watch, an eventfd registration or a PSI trigger. */
    WATCH("watch");

    private final String verb;

    Operation(String verb) {
      this.verb = verb;
    }

    public String verb() {
      return verb;
    }
  }

  private final Operation operation;
  private final String file;
  private final String value;
  private final Errno errno;

  /**
   * @param file the display path of the file or cgroup directory
   * @param value the value written or the marker set, or null
   */
  public CgroupFsException(Operation operation, String file, String value, Errno errno, String detail) {
    super(format(operation, file, value, errno, detail));
    this.operation = Objects.requireNonNull(operation, "operation");
    this.file = Objects.requireNonNull(file, "file");
    this.value = value;
    this.errno = Objects.requireNonNull(errno, "errno");
  }

  public CgroupFsException(Operation operation, String file, String value, Errno errno) {
    this(operation, file, value, errno, null);
  }

  private static String format(Operation op, String file, String value, Errno errno, String detail) {
    StringBuilder sb = new StringBuilder(op.verb());
    if (value != null) {
      sb.append(" \"").append(value.strip()).append("\" to");
    }
    sb.append(' ').append(file).append(": ").append(errno.name()).append(" (")
        .append(errno.description()).append(')');
    if (detail != null && !detail.isEmpty()) {
      sb.append(": ").append(detail);
    }
    return sb.toString();
  }

  public Operation operation() {
    return operation;
  }

  /** The display path of the file or cgroup directory. */
  public String file() {
    return file;
  }

  /** The value written, or null for operations that write none. */
  public String value() {
    return value;
  }

  public Errno errno() {
    return errno;
  }
}
