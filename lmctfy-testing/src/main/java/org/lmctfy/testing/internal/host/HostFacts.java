package org.lmctfy.testing.internal.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.lmctfy.ContainerApi;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;

/**
 * What {@link KernelTestRule} decides from: whether a test may make cgroups on this machine at all,
 * the controllers its v1 hierarchies carry, and the controllers the root of its cgroup2 hierarchy
 * enables for its children (where the tests make their scratch cgroups), and whether systemd is PID
 * 1 on a cgroup2-only {@code /sys/fs/cgroup} (the systemd driver's machine).
 *
 * @param unusable why no kernel test can run here (not root, nothing mounted, read-only,
 *     unreadable), or null if kernel tests can make cgroups here
 * @param v1Controllers the controllers carried by the v1 hierarchies (named hierarchies carry none)
 * @param v2Enabled the controllers in the cgroup2 root's {@code cgroup.subtree_control}, or null if
 *     no cgroup2 hierarchy is mounted
 * @param systemdOnV2 whether systemd is PID 1 ({@code /run/systemd/system} exists) and no v1
 *     hierarchy carries a controller, cgroup2 being mounted
 */
public record HostFacts(
    String unusable, Set<String> v1Controllers, Set<String> v2Enabled, boolean systemdOnV2) {

  /** Facts of a machine without systemd as PID 1. */
  public HostFacts(String unusable, Set<String> v1Controllers, Set<String> v2Enabled) {
    this(unusable, v1Controllers, v2Enabled, false);
  }

  /** Copies the sets. */
  public HostFacts {
    v1Controllers = Set.copyOf(v1Controllers);
    v2Enabled = v2Enabled == null ? null : Set.copyOf(v2Enabled);
  }

  /**
   * Reads this machine: the effective uid from {@code /proc/self/status}, the hierarchies from
   * {@code /proc/self/mountinfo}. Never throws: what cannot be read is the reason kernel tests
   * cannot run.
   *
   * @return this machine's facts
   */
  public static HostFacts read() {
    String uid;
    try {
      uid =
          Files.readString(Path.of("/proc/self/status"))
              .lines()
              .filter(l -> l.startsWith("Uid:"))
              .map(l -> l.split("\\s+")[2])
              .findFirst()
              .orElse("?");
    } catch (IOException e) {
      return new HostFacts(
          "cannot read /proc/self/status (not Linux?): " + e.getMessage(), Set.of(), null);
    }
    String notRoot =
        uid.equals("0")
            ? null
            : "not running as root (uid "
                + uid
                + "; creating cgroups needs root, or a delegated subtree)";
    try {
      CgroupFs fs = ContainerApi.hostCgroupFs();
      List<Hierarchy> hierarchies = fs.hierarchies();
      Set<String> v1 = new TreeSet<>();
      Set<String> v2 = null;
      String readOnly = null;
      for (Hierarchy h : hierarchies) {
        if (h.version() == CgroupVersion.V1) {
          v1.addAll(h.controllers());
        } else if (v2 == null) {
          v2 = new TreeSet<>(words(fs.read(h, CgroupPath.root(), "cgroup.subtree_control")));
        }
        if (readOnly == null && !Files.isWritable(Path.of(h.mountPoint()))) {
          readOnly = h.mountPoint();
        }
      }
      String unusable =
          notRoot != null
              ? notRoot
              : hierarchies.isEmpty()
                  ? "no cgroup hierarchy is mounted"
                  : readOnly != null
                      ? "the cgroup hierarchy at "
                          + readOnly
                          + " is read-only (a container without its own cgroups?)"
                      : null;
      boolean systemd =
          v1.isEmpty() && v2 != null && Files.isDirectory(Path.of("/run/systemd/system"));
      return new HostFacts(unusable, v1, v2, systemd);
    } catch (IOException | RuntimeException e) {
      return new HostFacts(
          notRoot != null ? notRoot : "cannot read this machine's cgroups: " + e, Set.of(), null);
    }
  }

  private static List<String> words(String text) {
    return Arrays.stream(text.strip().split("\\s+")).filter(w -> !w.isEmpty()).toList();
  }
}
