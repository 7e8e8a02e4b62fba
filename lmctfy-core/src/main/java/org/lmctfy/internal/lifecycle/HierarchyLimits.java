package org.lmctfy.internal.lifecycle;

import java.io.IOException;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.codec.FlatKeyed;
import org.lmctfy.internal.errors.Errors;

/**
 * Which cap a mkdir refused with EAGAIN met: cgroup v2's hierarchy limits, read as the kernel
 * checks them ({@code cgroup_check_hierarchy_limits} in kernel/cgroup/cgroup.c). From the new
 * cgroup's parent up, the first ancestor whose live descendants ({@code cgroup.stat}'s {@code
 * nr_descendants}; a removed cgroup that is still dying no longer counts) reached its {@code
 * cgroup.max.descendants}, or below which the new cgroup would be more levels down than its {@code
 * cgroup.max.depth} (one level below its parent), refuses it. Where no cap up to the visible root
 * is reached and that root has ancestors (the root of a cgroup namespace, as in a Kubernetes pod
 * whose kubelet caps the pod's cgroup, or of a mount of a subtree), the cap is on one of them,
 * which cannot be read from here. The status is {@link Errors#codeOfMkdir}'s.
 */
final class HierarchyLimits {
  private HierarchyLimits() {}

  /** The failure of {@code what}, whose mkdir of {@code path} the kernel refused with EAGAIN. */
  static LmctfyException refused(
      String what, CgroupFs fs, Hierarchy h, CgroupPath path, CgroupFsException refusal) {
    return Errors.of(what, refusal, capOf(fs, h, path));
  }

  /** The cap that refuses a new cgroup at {@code path}, as a sentence naming its file and value. */
  static String capOf(CgroupFs fs, Hierarchy h, CgroupPath path) {
    if (h.version() != CgroupVersion.V2) {
      return "a v1 hierarchy has no cgroup.max.descendants or cgroup.max.depth";
    }
    try {
      CgroupPath a = path.parent();
      long descendantsOfRoot = 0;
      for (int levels = 1; ; levels++) {
        long descendants =
            FlatKeyed.parse(fs.read(h, a, "cgroup.stat"), h.display(a, "cgroup.stat"))
                .getOrDefault("nr_descendants", 0L);
        String most = fs.read(h, a, "cgroup.max.descendants").strip();
        if (!most.equals("max")
            && descendants >= FlatKeyed.number(most, "cgroup.max.descendants")) {
          return "cgroup.max.descendants of "
              + h.display(a, null)
              + " is "
              + most
              + " and it has "
              + descendants
              + " descendants (cgroup.stat nr_descendants): no cgroup can be made below it until"
              + " one is removed or the cap is raised";
        }
        String deepest = fs.read(h, a, "cgroup.max.depth").strip();
        if (!deepest.equals("max") && levels > FlatKeyed.number(deepest, "cgroup.max.depth")) {
          return "cgroup.max.depth of "
              + h.display(a, null)
              + " is "
              + deepest
              + " and the new cgroup would be at depth "
              + levels
              + " below it";
        }
        if (a.isRoot()) {
          descendantsOfRoot = descendants;
          break;
        }
        a = a.parent();
      }
      CgroupPath root = CgroupPath.root();
      if (fs.hasFile(h, root, "cgroup.type") || !h.mountRoot().equals("/")) {
        return "no cgroup.max.descendants or cgroup.max.depth of "
            + h.display(root, null)
            + " or below is reached ("
            + h.display(root, null)
            + " has "
            + descendantsOfRoot
            + " descendants, the new cgroup would be at depth "
            + path.depth()
            + " below it): the cap is on an ancestor of "
            + h.display(root, null)
            + ", the root of this cgroup namespace, which cannot be read from here (in a"
            + " Kubernetes pod with writable cgroups, the kubelet's cgroup.max.descendants 250"
            + " and cgroup.max.depth 50 on the pod's cgroup, which count the cgroups of the"
            + " pod's sandbox and containers too); no cgroup can be made below it until one is"
            + " removed";
      }
      return "no cgroup.max.descendants or cgroup.max.depth from "
          + h.display(path.parent(), null)
          + " up is reached now: a cgroup below the one that refused was removed since";
    } catch (IOException | RuntimeException e) {
      return "the caps of its ancestors could not be read (" + e.getMessage() + ")";
    }
  }
}
