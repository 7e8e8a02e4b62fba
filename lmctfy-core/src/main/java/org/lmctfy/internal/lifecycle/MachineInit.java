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
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.errors.Errors;
import org.lmctfy.spec.InitSpec;
import org.lmctfy.spec.InitSpec.CgroupMount;

/**
 * {@link org.lmctfy.ContainerApi#initMachine}: checks the whole request first, then mounts the
 * missing v1 hierarchies, moves the container root's processes into the leaf asked for, and enables
 * v2 controllers in the container root, each step undone if a later one fails. Nothing above the
 * container root is written: what its parent does not give is FAILED_PRECONDITION. Idempotent: what
 * is already there is left alone.
 */
public final class MachineInit {
  private final CgroupFs fs;
  private final CgroupPath root;
  private final SubtreeControl subtree;

  MachineInit(CgroupFs fs, CgroupPath root, SubtreeControl subtree) {
    this.fs = fs;
    this.root = root;
    this.subtree = subtree;
  }

  public void run(InitSpec spec) {
    List<CgroupMount> toMount = mountsNeeded(spec.cgroupMounts());
    boolean v2 = !spec.enableControllers().isEmpty() || spec.processesLeaf() != null;
    Hierarchy unified = v2 ? unifiedFor(spec.enableControllers()) : null;
    try (Transaction tx = new Transaction()) {
      if (unified != null) {
        requireGivenToRoot(unified, spec.enableControllers());
      }
      for (CgroupMount m : toMount) {
        Hierarchy h = fs.mount(m.hierarchy(), m.mountPath());
        tx.add(
            ResourceHandle.of(
                h, "mount of " + m.hierarchy() + " at " + m.mountPath(), () -> fs.unmount(h)));
      }
      if (unified != null && spec.processesLeaf() != null) {
        moveProcessesToLeaf(tx, unified, spec.processesLeaf());
      }
      if (unified != null) {
        subtree.enable(tx, unified, root, root, null, spec.enableControllers());
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
          throw invalid(
              "cgroup_mount: "
                  + m.mountPath()
                  + " already carries "
                  + new TreeSet<>(there.controllers())
                  + ", not "
                  + new TreeSet<>(m.hierarchy()));
        }
        continue;
      }
      for (String c : m.hierarchy()) {
        fs.hierarchy(c)
            .ifPresent(
                h -> {
                  throw invalid(
                      "cgroup_mount: hierarchy "
                          + c
                          + " is already mounted at "
                          + h.mountPoint()
                          + ", not "
                          + m.mountPath());
                });
        if (!unmounted.contains(c)) {
          throw invalid(
              "cgroup_mount: this kernel has no unmounted v1 controller \""
                  + c
                  + "\" (available: "
                  + new TreeSet<>(unmounted)
                  + ")");
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
    Hierarchy unified =
        fs.hierarchies().stream()
            .filter(h -> h.version() == CgroupVersion.V2)
            .findFirst()
            .orElseThrow(
                () ->
                    new LmctfyException(
                        ErrorCode.FAILED_PRECONDITION,
                        "enable_controllers "
                            + new TreeSet<>(controllers)
                            + ": no cgroup2 hierarchy is mounted"));
    for (String c : controllers) {
      if (!unified.has(c)) {
        throw new LmctfyException(
            ErrorCode.FAILED_PRECONDITION,
            "enable_controllers: the unified hierarchy at "
                + unified.mountPoint()
                + " has no controller \""
                + c
                + "\" (it has "
                + new TreeSet<>(unified.controllers())
                + "; a controller mounted on a v1 hierarchy is not available to v2)");
      }
    }
    return unified;
  }

  /**
   * The controllers asked for must reach the container root: its parent gives them, or it is the
   * root.
   */
  private void requireGivenToRoot(Hierarchy unified, Set<String> controllers) throws IOException {
    if (root.isRoot() || controllers.isEmpty()) {
      return;
    }
    Set<String> given = Set.of(fs.read(unified, root, "cgroup.controllers").strip().split("\\s+"));
    TreeSet<String> missing = new TreeSet<>(controllers);
    missing.removeAll(given);
    if (!missing.isEmpty()) {
      throw new LmctfyException(
          ErrorCode.FAILED_PRECONDITION,
          "enable_controllers: "
              + missing
              + " do not reach "
              + Layout.describe(unified, root)
              + " (its cgroup.controllers: "
              + new TreeSet<>(given)
              + "): enable them in "
              + Layout.describe(unified, root.parent())
              + "/cgroup.subtree_control and above (systemd: Delegate= of the"
              + " unit); initMachine touches nothing above its root");
    }
  }

  /**
   * Moves every process of the container root into {@code leaf} (made if missing), until none is
   * left: a process forked meanwhile is moved in the next round. Each step is undone on failure.
   */
  private void moveProcessesToLeaf(Transaction tx, Hierarchy unified, String name)
      throws IOException {
    CgroupPath leaf = root.resolve(name);
    Hierarchy anchor = new Layout(fs, root).anchor();
    String key = Layout.leafKey(name);
    if (fs.addMarker(anchor, root, key, "processes")) { // marked first: never taken for a container
      tx.add(
          ResourceHandle.of(
              key,
              () -> "marker " + key + " on " + Layout.describe(anchor, root),
              () -> fs.removeMarker(anchor, root, key)));
    }
    if (!fs.exists(unified, leaf)) {
      try {
        fs.makeCgroup(unified, leaf);
      } catch (CgroupFsException e) {
        if (e.errno() == Errno.EAGAIN) {
          throw HierarchyLimits.refused("initMachine", fs, unified, leaf, e);
        }
        throw e;
      }
      tx.add(
          ResourceHandle.of(
              leaf,
              () -> "processes_leaf " + Layout.describe(unified, leaf),
              () -> fs.removeCgroup(unified, leaf)));
    }
    for (int round = 0; round < 100; round++) {
      String procs = fs.read(unified, root, "cgroup.procs").strip();
      if (procs.isEmpty()) {
        return;
      }
      for (String pid : procs.split("\\s+")) {
        try {
          fs.write(unified, leaf, "cgroup.procs", pid);
        } catch (CgroupFsException e) {
          if (e.errno() == Errno.ESRCH) {
            continue; // it exited
          }
          throw e;
        }
        tx.add(
            ResourceHandle.of(
                pid,
                () -> "move of process " + pid + " into " + Layout.describe(unified, leaf),
                () -> moveBack(unified, pid)));
      }
    }
    throw new LmctfyException(
        ErrorCode.UNAVAILABLE,
        "processes_leaf: processes keep appearing in "
            + Layout.describe(unified, root)
            + " after 100 rounds of moving them into "
            + Layout.describe(unified, leaf));
  }

  private void moveBack(Hierarchy unified, String pid) throws IOException {
    try {
      fs.write(unified, root, "cgroup.procs", pid);
    } catch (CgroupFsException e) {
      if (e.errno() != Errno.ESRCH) {
        throw e;
      }
    }
  }

  private static LmctfyException invalid(String message) {
    return new LmctfyException(ErrorCode.INVALID_ARGUMENT, "initMachine: " + message);
  }
}
