package org.lmctfy.spec;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * How {@link org.lmctfy.ContainerApi#initMachine} prepares a machine.
 *
 * @param cgroupMounts v1 hierarchies to mount when not mounted: each a mount point and the
 *     controllers to co-mount there (lmctfy's {@code cgroup_mount})
 * @param enableControllers v2 controllers to enable in {@code cgroup.subtree_control} from the
 *     unified root down to the container root
 * @since 0.1
 */
public record InitSpec(List<CgroupMount> cgroupMounts, Set<String> enableControllers) {

  /** One v1 mount: lmctfy's {@code cgroup_mount { mount_path: ... hierarchy: ... }}. */
  public record CgroupMount(String mountPath, Set<String> hierarchy) {
    public CgroupMount {
      Objects.requireNonNull(mountPath, "mount_path");
      hierarchy = Set.copyOf(hierarchy);
    }
  }

  public InitSpec {
    cgroupMounts = cgroupMounts == null ? List.of() : List.copyOf(cgroupMounts);
    enableControllers = enableControllers == null ? Set.of() : Set.copyOf(enableControllers);
  }

  /** Changes nothing: only checks that the host's cgroups can be opened. */
  public static InitSpec empty() {
    return new InitSpec(List.of(), Set.of());
  }
}
