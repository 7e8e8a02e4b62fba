package org.lmctfy.internal.lifecycle;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.ResourceHandle;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.InitSpec;
import org.lmctfy.spec.InitSpec.CgroupMount;

/**
 * {@link org.lmctfy.ContainerApi#initMachine}: checks the whole request first, then mounts the
 * missing v1 hierarchies and enables v2 controllers from the unified root down to the container
 * root, each step undone if a later one fails. Idempotent: what is already there is left alone.
 */
public final class MachineInit {
  private final CgroupFs fs;
  private final CgroupPath root;

  public MachineInit(CgroupFs fs, CgroupPath root) {
    this.fs = fs;
    this.root = root;
  }

  public void run(InitSpec spec) {
    List<CgroupMount> toMount = mountsNeeded(spec.cgroupMounts());
    Hierarchy unified = spec.enableControllers().isEmpty() ? null : unifiedFor(spec.enableControllers());
    try (Transaction tx = new Transaction()) {
      for (CgroupMount m : toMount) {
        Hierarchy h = fs.mount(m.hierarchy(), m.mountPath());
        tx.add(ResourceHandle.of(h, "mount of " + m.hierarchy() + " at " + m.mountPath(), () -> fs.unmount(h)));
      }
      if (unified != null) {
        SubtreeControl.enable(fs, tx, unified, CgroupPath.root(), root, spec.enableControllers());
      }
      tx.commit();
    } catch (IOException e) {
      throw Errors.of("initMachine", e);
    }
  }

  /** The mounts to make; INVALID_ARGUMENT, before anything changes, for one that cannot be. */
  private List<CgroupMount> mountsNeeded(List<CgroupMount> requested) {
    Set<String> unmounted;
    try {
      unmounted = fs.unmountedControllers();
    } catch (IOException e) {
      throw Errors.of("initMachine: cannot list the controllers", e);
    }
    List<CgroupMount> out = new ArrayList<>();
    Set<String> claimed = new LinkedHashSet<>();
    for (CgroupMount m : requested) {
      if (m.hierarchy().isEmpty()) {
        throw invalid("cgroup_mount at " + m.mountPath() + " names no hierarchy");
      }
      Hierarchy there = mountedAt(m.mountPath());
      if (there != null) {
        if (!there.controllers().equals(m.hierarchy())) {
          throw invalid("cgroup_mount: " + m.mountPath() + " already carries " + new TreeSet<>(there.controllers())
              + ", not " + new TreeSet<>(m.hierarchy()));
        }
        continue;
      }
      for (String c : m.hierarchy()) {
        fs.hierarchy(c).ifPresent(h -> {
          throw invalid("cgroup_mount: hierarchy " + c + " is already mounted at " + h.mountPoint()
              + ", not " + m.mountPath());
        });
        if (!unmounted.contains(c)) {
          throw invalid("cgroup_mount: this kernel has no unmounted v1 controller \"" + c + "\" (available: "
              + new TreeSet<>(unmounted) + ")");
        }
        if (!claimed.add(c)) {
          throw invalid("cgroup_mount: hierarchy " + c + " is asked for twice");
        }
      }
      out.add(m);
    }
    return out;
  }

  private Hierarchy mountedAt(String mountPath) {
    for (Hierarchy h : fs.hierarchies()) {
      if (h.mountPoint().equals(mountPath)) {
        return h;
      }
    }
    return null;
  }

  /** The unified hierarchy, checked to offer every controller asked for. */
  private Hierarchy unifiedFor(Set<String> controllers) {
    Hierarchy unified = fs.hierarchies().stream().filter(h -> h.version() == CgroupVersion.V2).findFirst()
        .orElseThrow(() -> new LmctfyException(ErrorCode.FAILED_PRECONDITION,
            "enable_controllers " + new TreeSet<>(controllers) + ": no cgroup2 hierarchy is mounted"));
    for (String c : controllers) {
      if (!unified.has(c)) {
        throw new LmctfyException(ErrorCode.FAILED_PRECONDITION, "enable_controllers: the unified hierarchy at "
            + unified.mountPoint() + " has no controller \"" + c + "\" (it has " + new TreeSet<>(unified.controllers())
            + "; a controller mounted on a v1 hierarchy is not available to v2)");
      }
    }
    return unified;
  }

  private static LmctfyException invalid(String message) {
    return new LmctfyException(ErrorCode.INVALID_ARGUMENT, "initMachine: " + message);
  }
}
