package org.lmctfy.testing.internal.fake;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.testing.FakeLayout;

/** What each {@link FakeLayout} mounts, and the controllers' models for a hierarchy. */
public final class Layouts {
  /**
   * One mount: its /proc/self/cgroup name, version, controllers in kernel order and mount point.
   */
  record Mount(String name, CgroupVersion version, List<String> controllers, String mountPoint) {}

  /** The v1 hierarchies of this machine, in its mount order (checked in /proc/self/mountinfo). */
  private static final List<String> MACHINE_V1 =
      List.of("cpu", "cpuacct", "cpuset", "memory", "devices", "freezer", "blkio", "pids");

  /** Controllers this machine's kernel lacks (in /proc/cgroups) and pure v2 layouts' have. */
  private static final List<String> NEWER = List.of("rdma", "misc");

  static final List<String> V2_CONTROLLERS =
      List.of("cpuset", "cpu", "io", "memory", "hugetlb", "pids", "rdma", "misc");

  private Layouts() {}

  /** The machine of a layout: this VM's two cpus, one node and disk; 2MB pages (V2 adds 1GB). */
  public static Machine defaultMachine(FakeLayout layout) {
    List<String> pages = pureV2(layout) ? List.of("2MB", "1GB") : List.of("2MB");
    return new Machine(
        "0-1", "0", List.of("254:0"), pages, List.of(), java.util.Map.of(), Set.of());
  }

  /** The controllers systemd enables in the root's and its slices' cgroup.subtree_control. */
  public static final Set<String> SYSTEMD_ENABLES = Set.of("cpuset", "cpu", "io", "memory", "pids");

  /** Whether the layout mounts only cgroup2, at /sys/fs/cgroup. */
  public static boolean pureV2(FakeLayout layout) {
    return layout == FakeLayout.V2
        || layout == FakeLayout.V2_BARE
        || layout == FakeLayout.SYSTEMD_V2
        || layout == FakeLayout.KUBERNETES_POD;
  }

  /** The root's cgroup.subtree_control: everything in V2, systemd's in SYSTEMD_V2, else nothing. */
  public static Set<String> defaultRootSubtreeControl(FakeLayout layout) {
    return switch (layout) {
      case V2 -> Set.copyOf(V2_CONTROLLERS);
      case SYSTEMD_V2 -> SYSTEMD_ENABLES;
      default -> Set.of();
    };
  }

  static List<Mount> mounts(FakeLayout layout) {
    List<Mount> out = new ArrayList<>();
    if (!pureV2(layout)) {
      for (String c : MACHINE_V1) {
        out.add(new Mount(c, CgroupVersion.V1, List.of(c), "/sys/fs/cgroup/" + c));
      }
      out.add(new Mount("name=systemd", CgroupVersion.V1, List.of(), "/sys/fs/cgroup/systemd"));
    }
    switch (layout) {
      case HYBRID_HUGETLB_V2 ->
          out.add(new Mount("", CgroupVersion.V2, List.of("hugetlb"), "/sys/fs/cgroup/unified"));
      case HYBRID -> out.add(new Mount("", CgroupVersion.V2, List.of(), "/sys/fs/cgroup/unified"));
      case V2, V2_BARE, SYSTEMD_V2, KUBERNETES_POD ->
          out.add(new Mount("", CgroupVersion.V2, V2_CONTROLLERS, "/sys/fs/cgroup"));
      case V1 -> {}
    }
    return out;
  }

  /** Every controller the layout's kernel has, whether mounted or not. */
  static List<String> known(FakeLayout layout) {
    return Subsystems.KERNEL_ORDER.stream()
        .filter(c -> !c.equals("io")) // /proc/cgroups names it blkio on every version
        .filter(c -> pureV2(layout) || !NEWER.contains(c))
        .toList();
  }

  /**
   * The path, in the whole hierarchy, of the cgroup namespace root the layout's v2 hierarchy is
   * seen from, or null where it is seen whole.
   */
  static CgroupPath namespaceRoot(FakeLayout layout) {
    return layout == FakeLayout.KUBERNETES_POD ? Pod.CONTAINER : null;
  }

  static List<Controller> models(CgroupVersion version, List<String> controllers, Machine machine) {
    List<Controller> out = new ArrayList<>();
    out.add(version == CgroupVersion.V1 ? CoreV1.INSTANCE : CoreV2.INSTANCE);
    List<String> sorted = new ArrayList<>(controllers);
    sorted.sort(Subsystems.ORDER);
    for (String c : sorted) {
      out.add(version == CgroupVersion.V1 ? v1(c, machine) : v2(c, machine));
    }
    return out;
  }

  private static Controller v1(String name, Machine machine) {
    return switch (name) {
      case "cpu" -> CpuV1.INSTANCE;
      case "cpuacct" -> new CpuacctV1(machine);
      case "cpuset" -> new CpusetV1(machine);
      case "memory" -> MemoryV1.INSTANCE;
      case "devices" -> DevicesV1.INSTANCE;
      case "freezer" -> FreezerV1.INSTANCE;
      case "blkio" -> new BlkioV1(machine);
      case "pids" -> Pids.INSTANCE;
      default -> OtherV1.of(name, machine);
    };
  }

  private static Controller v2(String name, Machine machine) {
    return switch (name) {
      case "cpuset" -> new CpusetV2(machine);
      case "cpu" -> CpuV2.INSTANCE;
      case "io" -> new IoV2(machine);
      case "memory" -> MemoryV2.INSTANCE;
      case "hugetlb" -> new HugetlbV2(machine);
      case "pids" -> Pids.INSTANCE;
      case "rdma" -> new RdmaV2(machine);
      case "misc" -> new MiscV2(machine);
      default -> throw new IllegalArgumentException("no model of the v2 controller " + name);
    };
  }
}
