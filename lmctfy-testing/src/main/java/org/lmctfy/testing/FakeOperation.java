package org.lmctfy.testing;

import java.util.Objects;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;

/**
 * One mutating operation a {@link FakeCgroupFs} was asked to do, as {@link FakeCgroupFs#mutations()}
 * records it and as {@link FakeCgroupFs#failWhen} matchers see it.
 *
 * @param hierarchy the hierarchy's {@link org.lmctfy.cgroupfs.Hierarchy#label()}
 * @param path the cgroup ({@code "/"} for mount and unmount)
 * @param file the interface file, or null when the operation is on the cgroup itself
 * @param value the value written, the marker's value (SET_MARKER), "uid:gid" (CHOWN), the marker
 *     key (REMOVE_MARKER) or the mount point (MOUNT); null otherwise
 * @param failedWith the errno the operation failed with, or null if it succeeded
 * @since 0.1
 */
public record FakeOperation(Kind kind, String hierarchy, CgroupPath path, String file, String value, Errno failedWith) {

  /** What the operation was. */
  public enum Kind {
    MKDIR, RMDIR, WRITE, SET_MARKER, REMOVE_MARKER, CHOWN, MOUNT, UNMOUNT, KILL
  }

  public FakeOperation {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(hierarchy, "hierarchy");
    Objects.requireNonNull(path, "path");
  }

  /** Whether it succeeded. */
  public boolean succeeded() {
    return failedWith == null;
  }
}
