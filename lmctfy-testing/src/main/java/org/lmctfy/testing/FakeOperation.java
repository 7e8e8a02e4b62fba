package org.lmctfy.testing;

import java.util.Objects;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;

/**
 * One mutating operation a {@link FakeCgroupFs} was asked to do, as {@link FakeRecord#mutations()}
 * records it and as {@link FakeFaults#failWhen} matchers see it.
 *
 * @param hierarchy the hierarchy's {@link org.lmctfy.cgroupfs.Hierarchy#label()}
 * @param path the cgroup ({@code "/"} for mount and unmount)
 * @param file the interface file, or null when the operation is on the cgroup itself
 * @param value the value written, the marker's value (SET_MARKER), "uid:gid" (CHOWN), the marker
 *     key (REMOVE_MARKER) or the mount point (MOUNT); null otherwise
 * @param failedWith the errno the operation failed with, or null if it succeeded
 * @since 0.1
 */
public record FakeOperation(
    Kind kind, String hierarchy, CgroupPath path, String file, String value, Errno failedWith) {

  /** What the operation was. */
  public enum Kind {
    /** Making a cgroup. */
    MKDIR,
    /** Removing a cgroup. */
    RMDIR,
    /** Writing an interface file. */
    WRITE,
    /** Setting a marker. */
    SET_MARKER,
    /** Removing a marker. */
    REMOVE_MARKER,
    /** Changing an owner. */
    CHOWN,
    /** Mounting a hierarchy. */
    MOUNT,
    /** Unmounting a hierarchy. */
    UNMOUNT,
    /** Killing a process. */
    KILL,
    /** Setting or removing a v2 cgroup's device filter (an eBPF program on the kernel). */
    DEVICE_FILTER
  }

  /**
   * Checks that kind, hierarchy and path are given.
   *
   * @param kind the kind
   * @param hierarchy the hierarchy
   * @param path the cgroup's path in the hierarchy
   * @param file the interface file's name ({@code null} for the cgroup's directory where allowed)
   * @param value the value
   * @param failedWith the failed with
   */
  public FakeOperation {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(hierarchy, "hierarchy");
    Objects.requireNonNull(path, "path");
  }

  /**
   * Whether it succeeded.
   *
   * @return whether it succeeded
   */
  public boolean succeeded() {
    return failedWith == null;
  }
}
