package org.lmctfy.cgroupfs;

import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One mounted cgroup hierarchy.
 *
 * <ul>
 *   <li>{@code name}: how {@code /proc/<pid>/cgroup} names it: a v1 mount's controllers joined with
 *       commas ({@code "cpu,cpuacct"}, {@code "memory"}, {@code "name=systemd"}), or {@code ""} for
 *       the v2 unified hierarchy.
 *   <li>{@code controllers}: the resource controllers it carries (for v2, those listed in the mount
 *       root's {@code cgroup.controllers}); empty for a named v1 hierarchy.
 *   <li>{@code mountPoint}: where it is mounted ({@code /sys/fs/cgroup/memory}); for a fake, a
 *       display path.
 *   <li>{@code mountRoot}: the hierarchy path that is the mount's root, {@code "/"} on a host and
 *       something like {@code "/docker/abc"} inside a container.
 * </ul>
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1
 */
public record Hierarchy(
    String name,
    CgroupVersion version,
    Set<String> controllers,
    String mountPoint,
    String mountRoot) {

  /**
   * Validates and copies the controllers.
   *
   * @param name how {@code /proc/<pid>/cgroup} names it (see above)
   * @param version the version
   * @param controllers the controllers
   * @param mountPoint where to mount it
   * @param mountRoot the mount root
   */
  public Hierarchy {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(version, "version");
    controllers = Set.copyOf(controllers);
    Objects.requireNonNull(mountPoint, "mountPoint");
    Objects.requireNonNull(mountRoot, "mountRoot");
  }

  /** Equal components; the same instance (the common case) answers at once. */
  @Override
  public boolean equals(Object o) {
    return this == o
        || o instanceof Hierarchy h
            && name.equals(h.name)
            && version == h.version
            && mountPoint.equals(h.mountPoint)
            && mountRoot.equals(h.mountRoot)
            && controllers.equals(h.controllers);
  }

  /**
   * Of the name and the mount point, which tell hierarchies apart without hashing the controllers.
   */
  @Override
  public int hashCode() {
    return 31 * name.hashCode() + mountPoint.hashCode();
  }

  /**
   * Whether this hierarchy carries {@code controller} ({@code "memory"}, {@code "cpu"}...).
   *
   * @param controller the controller's name ({@code "memory"}) or the named hierarchy's name
   * @return whether this hierarchy carries {@code controller} ({@code "memory"}, {@code "cpu"}...)
   */
  public boolean has(String controller) {
    return controllers.contains(controller);
  }

  /**
   * A short label for messages: {@code "memory"}, {@code "cpu,cpuacct"} or {@code "unified"}.
   *
   * @return a short label for messages: {@code "memory"}, {@code "cpu,cpuacct"} or {@code
   *     "unified"}
   */
  public String label() {
    return version == CgroupVersion.V2 ? "unified" : name;
  }

  /**
   * The display path of a cgroup or of a file in it: {@code /sys/fs/cgroup/memory/a/memory.max}.
   *
   * @param path the cgroup's path in the hierarchy
   * @param file the interface file's name ({@code null} for the cgroup's directory where allowed)
   * @return the display path of a cgroup or of a file in it: {@code
   *     /sys/fs/cgroup/memory/a/memory.max}
   */
  public String display(CgroupPath path, @Nullable String file) {
    StringBuilder sb = new StringBuilder(mountPoint);
    if (!path.isRoot()) {
      sb.append(path.value());
    }
    if (file != null) {
      sb.append('/').append(file);
    }
    return sb.toString();
  }
}
