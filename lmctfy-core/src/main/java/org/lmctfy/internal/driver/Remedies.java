package org.lmctfy.internal.driver;

import java.util.Set;
import org.lmctfy.cgroupfs.CgroupPath;

/**
 * What to tell a user whose root lacks a controller, or who has no systemd manager: said once,
 * here.
 */
final class Remedies {
  /** What systemd (252) may delegate to a unit; hugetlb, misc and rdma it never does. */
  static final Set<String> SYSTEMD_DELEGATES = Set.of("cpu", "cpuset", "io", "memory", "pids");

  /** The drop-in that makes user managers delegate every controller systemd can delegate. */
  static final String USER_DROP_IN =
      "as root, write /etc/systemd/system/user@.service.d/delegate.conf with the"
          + " two lines [Service] and Delegate=cpu cpuset io memory pids, run systemctl daemon-reload, then log in"
          + " again (a new user manager)";

  private Remedies() {}

  /**
   * Why the systemd driver is missing and what to add: the module that talks to systemd over D-Bus
   * is not on the class or module path.
   */
  static String systemdModuleMissing() {
    return "the systemd driver talks to systemd over D-Bus through the module lmctfy-systemd"
        + " (org.lmctfy:lmctfy-systemd), which is not on the class or module path: add it beside"
        + " lmctfy-core (Maven: the dependency org.lmctfy:lmctfy-systemd; Gradle:"
        + " implementation(\"org.lmctfy:lmctfy-systemd\")), or run this process in a unit with"
        + " Delegate=yes";
  }

  /** Whether {@code root} lies in a user manager's tree ({@code .../user@UID.service/...}). */
  static boolean underUserManager(CgroupPath root) {
    for (String c : root.components()) {
      if (c.startsWith("user@") && c.endsWith(".service")) {
        return true;
      }
    }
    return false;
  }

  /** For a root systemd delegated (a unit's cgroup): how to get {@code controller}. */
  static String systemdController(String controller, CgroupPath root) {
    if (!SYSTEMD_DELEGATES.contains(controller)) {
      return "systemd does not delegate "
          + controller
          + " to a unit (it delegates only "
          + String.join(" ", new java.util.TreeSet<>(SYSTEMD_DELEGATES))
          + "); a spec that needs it runs under the"
          + " cgroupfs driver with a root outside systemd's units (ApiOptions.root, --root)";
    }
    if (underUserManager(root)) {
      return "your user manager does not delegate "
          + controller
          + " (a stock user@.service delegates cpu memory"
          + " pids); "
          + USER_DROP_IN;
    }
    return "the unit's Delegate= does not give "
        + controller
        + "; give the unit Delegate=yes (or list "
        + controller
        + " in Delegate=)";
  }

  /** For the root of a cgroup namespace: how to get {@code controller}. */
  static String namespaceController(String controller) {
    return "the cgroup namespace's root was not given "
        + controller
        + ": it must be enabled in its parent's"
        + " cgroup.subtree_control, outside the namespace (by whoever made the container)";
  }
}
