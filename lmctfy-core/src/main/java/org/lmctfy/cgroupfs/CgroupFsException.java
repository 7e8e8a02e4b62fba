package org.lmctfy.cgroupfs;

import java.io.IOException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A refused cgroup filesystem operation, with everything a user needs to act on it: the operation,
 * the file or directory, the value written (if any) and the errno.
 *
 * <p>Message form: {@code write "-1" to /sys/fs/cgroup/memory/a/memory.memsw.limit_in_bytes: EINVAL
 * (Invalid argument)}.
 *
 * @since 0.1
 */
public class CgroupFsException extends IOException {
  private static final long serialVersionUID = 1L;

  /** What was being done. */
  public enum Operation {
    /** Making a cgroup. */
    MKDIR("mkdir"),
    /** Removing a cgroup. */
    RMDIR("rmdir"),
    /** Reading an interface file. */
    READ("read"),
    /** Writing an interface file. */
    WRITE("write"),
    /** Listing child cgroups. */
    LIST("list"),
    /** Looking a cgroup or file up. */
    STAT("stat"),
    /** Reading a marker (an extended attribute). */
    GET_MARKER("getxattr"),
    /** Setting a marker. */
    SET_MARKER("setxattr"),
    /** Removing a marker. */
    REMOVE_MARKER("removexattr"),
    /** Changing an owner. */
    CHOWN("chown"),
    /** Mounting a hierarchy. */
    MOUNT("mount"),
    /** Unmounting a hierarchy. */
    UNMOUNT("umount"),
    /** Sending a signal. */
    KILL("kill"),
    /**
     * Opening a {@link CgroupWatch}: an inotify watch, an eventfd registration or a PSI trigger.
     */
    WATCH("watch"),
    /** Loading, attaching, querying or detaching a cgroup v2 device filter (an eBPF program). */
    BPF("bpf");

    private final String verb;

    Operation(String verb) {
      this.verb = verb;
    }

    /**
     * The system call's name, for messages: {@code "mkdir"}.
     *
     * @return the verb
     */
    public String verb() {
      return verb;
    }
  }

  /** What was being done. */
  private final Operation operation;

  /** The file or cgroup, as a display path. */
  private final String file;

  /** The value written, or null. */
  private final @Nullable String value;

  /** The errno the kernel (or the fake) gave. */
  private final Errno errno;

  /**
   * @param file the display path of the file or cgroup directory
   * @param value the value written or the marker set, or null
   * @param operation what was attempted
   * @param errno the errno
   * @param detail what the errno alone does not say
   */
  public CgroupFsException(
      Operation operation,
      String file,
      @Nullable String value,
      Errno errno,
      @Nullable String detail) {
    super(format(operation, file, value, errno, detail));
    this.operation = Objects.requireNonNull(operation, "operation");
    this.file = Objects.requireNonNull(file, "file");
    this.value = value;
    this.errno = Objects.requireNonNull(errno, "errno");
  }

  /**
   * A failure with no detail beyond the errno.
   *
   * @param operation what was attempted
   * @param file the file or cgroup, as a display path
   * @param value the value written, or null
   * @param errno the errno
   */
  public CgroupFsException(Operation operation, String file, @Nullable String value, Errno errno) {
    this(operation, file, value, errno, null);
  }

  private static String format(
      Operation op, String file, @Nullable String value, Errno errno, @Nullable String detail) {
    StringBuilder sb = new StringBuilder(op.verb());
    if (value != null) {
      sb.append(" \"").append(value.strip()).append("\" to");
    }
    sb.append(' ')
        .append(file)
        .append(": ")
        .append(errno.name())
        .append(" (")
        .append(errno.description())
        .append(')');
    if (detail != null && !detail.isEmpty()) {
      sb.append(": ").append(detail);
    }
    return sb.toString();
  }

  /**
   * What was being done.
   *
   * @return the operation
   */
  public Operation operation() {
    return operation;
  }

  /**
   * The display path of the file or cgroup directory.
   *
   * @return the display path of the file or cgroup directory
   */
  public String file() {
    return file;
  }

  /**
   * The value written, or null for operations that write none.
   *
   * @return the value written, or null for operations that write none
   */
  public @Nullable String value() {
    return value;
  }

  /**
   * The errno the kernel (or the fake) gave.
   *
   * @return the errno
   */
  public Errno errno() {
    return errno;
  }
}
