package org.lmctfy.internal.lifecycle;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.ResourceHandle;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.codec.FlatKeyed;
import org.lmctfy.internal.lock.ContainerLocks;

/**
 * Enabling v2 controllers in {@code cgroup.subtree_control} along a path, undone on rollback.
 *
 * <p>Siblings share their parent's {@code cgroup.subtree_control}, and their creates and updates
 * run side by side (a top-level create holds no lock of the root). So each look-then-write on a
 * cgroup's {@code cgroup.subtree_control} (an enable: is the controller there? add it; an undo: is
 * a sibling there? take it away) holds that file's own lock, across processes where the API has a
 * lock directory, and nothing else is locked while it is held. A create makes its cgroup before it
 * enables: so an undo that ran first is seen (the controller is missing and is enabled again), and
 * one that runs after sees the new sibling and leaves the controller alone. Without that lock an
 * undo could take a controller away between a create's look and its limit's write, whose file would
 * then be missing (ENOENT), or after the create, whose limit would silently be gone.
 */
final class SubtreeControl {
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(SubtreeControl.class);
  private static final String SUBTREE = "cgroup.subtree_control";

  private final CgroupFs fs;
  private final ContainerLocks locks;

  SubtreeControl(CgroupFs fs, ContainerLocks locks) {
    this.fs = fs;
    this.locks = locks;
  }

  /**
   * The lock of {@code p}'s {@code cgroup.subtree_control}: a key no cgroup has (no cgroup has that
   * name).
   */
  private ContainerLocks.Held lock(Hierarchy unified, CgroupPath p) {
    return locks.lock(
        p.value() + (p.isRoot() ? "" : "/") + SUBTREE,
        SUBTREE + " of " + Layout.describe(unified, p));
  }

  /**
   * Enables {@code controllers} where they are missing in every cgroup from {@code top} down to
   * {@code bottom} (both included), top down (a cgroup can enable only what its parent gives it);
   * each write is a step of {@code tx} that disables them again, unless another child than the one
   * on the way down (below {@code bottom}: {@code ourChild}) is there by then.
   *
   * @throws LmctfyException FAILED_PRECONDITION when a cgroup on the way holds processes, which
   *     cgroup v2's no-internal-processes rule forbids for a cgroup that enables controllers for
   *     its children (the kernel's EBUSY), naming the cgroup and its processes
   */
  void enable(
      Transaction tx,
      Hierarchy unified,
      CgroupPath top,
      CgroupPath bottom,
      String ourChild,
      Set<String> controllers)
      throws IOException {
    List<CgroupPath> chain = new ArrayList<>();
    for (CgroupPath p = bottom; ; p = p.parent()) {
      chain.add(0, p);
      if (p.equals(top) || p.isRoot()) {
        break;
      }
    }
    for (int i = 0; i < chain.size(); i++) {
      CgroupPath p = chain.get(i);
      String ours =
          i + 1 < chain.size() ? chain.get(i + 1).name() : ourChild; // the child on our way down
      try (ContainerLocks.Held held = lock(unified, p)) {
        enableIn(tx, unified, p, ours, controllers);
      }
    }
  }

  private void enableIn(
      Transaction tx, Hierarchy unified, CgroupPath p, String ours, Set<String> controllers)
      throws IOException {
    String current = fs.read(unified, p, SUBTREE);
    TreeSet<String> missing = new TreeSet<>();
    for (String c : controllers) {
      if (!FlatKeyed.hasWord(current, c)) {
        missing.add(c);
      }
    }
    if (missing.isEmpty()) {
      return;
    }
    try {
      fs.write(unified, p, SUBTREE, "+" + String.join(" +", missing));
    } catch (CgroupFsException e) {
      if (e.errno() == Errno.EBUSY && !p.isRoot()) {
        String procs = fs.read(unified, p, "cgroup.procs").strip();
        if (!procs.isEmpty()) {
          throw internalProcesses(unified, p, missing, procs, e);
        }
      }
      throw e;
    }
    tx.add(
        ResourceHandle.of(
            p,
            SUBTREE + " of " + Layout.describe(unified, p),
            () -> disableUnlessShared(unified, p, ours, missing)));
  }

  /**
   * Undoes an enable: disables {@code controllers} in {@code p} again, unless {@code p} has a child
   * other than {@code ours}, the one on this operation's way down (null: the operation makes none,
   * and the enable is undone whatever is below): a sibling, perhaps made by another process since
   * this enable, may rely on them, and taking them away would make its files vanish under it. They
   * then stay enabled, which changes no value a container holds.
   */
  private void disableUnlessShared(
      Hierarchy unified, CgroupPath p, String ours, Set<String> controllers) throws IOException {
    try (ContainerLocks.Held held = lock(unified, p)) {
      for (String child : ours == null ? List.<String>of() : fs.children(unified, p)) {
        if (!child.equals(ours)) {
          LOG.debug(
              "{}: leaves {} enabled: {} may use them",
              Layout.describe(unified, p),
              controllers,
              child);
          return;
        }
      }
      fs.write(unified, p, SUBTREE, "-" + String.join(" -", controllers));
    }
  }

  /** The no-internal-processes refusal, said so, with the processes in the way. */
  private static LmctfyException internalProcesses(
      Hierarchy unified,
      CgroupPath p,
      Set<String> controllers,
      String procs,
      CgroupFsException cause) {
    return new LmctfyException(
        ErrorCode.FAILED_PRECONDITION,
        "cannot enable "
            + controllers
            + " for the children of "
            + Layout.describe(unified, p)
            + ": it holds processes ["
            + procs.replace('\n', ' ')
            + "], and cgroup v2's no-internal-processes"
            + " rule lets only a cgroup without processes enable controllers for its children; move them into a leaf"
            + " cgroup first (initMachine with processes_leaf does it for the API's root, as systemd advises a"
            + " delegated manager): "
            + cause.getMessage(),
        cause);
  }
}
