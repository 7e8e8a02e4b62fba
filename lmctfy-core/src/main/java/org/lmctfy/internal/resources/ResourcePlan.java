package org.lmctfy.internal.resources;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.PidsSpec;

/**
 * What creating a container with a spec writes, worked out and checked against the host before
 * anything is written: every section's controller is mounted, values are in range, the parent
 * allows them. Writes are listed in an order the kernel accepts.
 *
 * @param writes the new container's interface-file writes, in order
 * @param v2Controllers the controllers the parent must enable in its {@code cgroup.subtree_control}
 * @param unified the unified hierarchy if {@code v2Controllers} is not empty, else null
 */
public record ResourcePlan(List<FileWrite> writes, Set<String> v2Controllers, Hierarchy unified) {

  /** Plans {@code spec} for a child of {@code parent}. */
  public static ResourcePlan of(ContainerSpec spec, CgroupFs fs, CgroupPath parent) {
    refuseUnsupported(spec);
    Host host = new Host(fs, parent);
    List<FileWrite> writes = new ArrayList<>();
    if (spec.cpu() != null) {
      writes.addAll(CpuHandler.plan(spec.cpu(), host));
    }
    if (spec.memory() != null) {
      writes.addAll(MemoryHandler.plan(spec.memory(), host));
    }
    if (spec.pids() != null) {
      writes.addAll(pids(spec.pids(), host));
    }
    Set<String> v2 = new LinkedHashSet<>();
    Hierarchy unified = null;
    for (FileWrite w : writes) {
      if (Host.isV2(w.hierarchy())) {
        unified = w.hierarchy();
        v2.add(w.file().substring(0, w.file().indexOf('.')));
      }
    }
    if (unified != null) {
      checkParentOffers(host, unified, v2);
    }
    return new ResourcePlan(List.copyOf(writes), Set.copyOf(v2), unified);
  }

  private static List<FileWrite> pids(PidsSpec pids, Host host) {
    if (pids.limit() == null) {
      return List.of();
    }
    Hierarchy h = host.require("pids", "pids");
    return List.of(new FileWrite(h, "pids.max", pids.limit() == -1 ? "max" : pids.limit().toString(), "pids.limit"));
  }

  /** On v2 a child gets a controller only if its parent has it (the parent's cgroup.controllers). */
  private static void checkParentOffers(Host host, Hierarchy unified, Set<String> controllers) {
    Set<String> offered = Set.of(host.readParent(unified, "cgroup.controllers").split("\\s+"));
    for (String c : controllers) {
      if (!offered.contains(c)) {
        throw new LmctfyException(ErrorCode.FAILED_PRECONDITION, "the " + c + " controller is not enabled for "
            + "the parent container on the unified hierarchy (its cgroup.controllers is \""
            + String.join(" ", offered).strip() + "\"); run initMachine with enable_controllers, or give the "
            + "parent that section");
      }
    }
  }

  /** Sections and fields that a later milestone builds: refused, never ignored. */
  private static void refuseUnsupported(ContainerSpec spec) {
    Object[][] sections = {{"owner", spec.owner()}, {"owner_group", spec.ownerGroup()},
        {"children_limit", spec.childrenLimit()}, {"blockio", spec.blockio()}, {"device", spec.device()},
        {"hugetlb", spec.hugetlb()}, {"network", spec.network()}, {"monitoring", spec.monitoring()}};
    for (Object[] s : sections) {
      if (s[1] != null) {
        throw new LmctfyException(ErrorCode.UNIMPLEMENTED, s[0] + " is not supported yet");
      }
    }
  }
}
