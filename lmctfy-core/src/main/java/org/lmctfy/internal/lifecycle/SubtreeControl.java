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

/** Enabling v2 controllers in {@code cgroup.subtree_control} along a path, undone on rollback. */
final class SubtreeControl {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SubtreeControl.class);
  private static final String SUBTREE = "cgroup.subtree_control";

  private SubtreeControl() {}

  /**
   * Enables {@code controllers} where they are missing in every cgroup from {@code top} down to
   * {@code bottom} (both included), top down (a cgroup can enable only what its parent gives it);
   * each write is a step of {@code tx} that disables them again, unless another child than the
   * one on the way down (below {@code bottom}: {@code ourChild}) is there by then.
   *
   * @throws LmctfyException FAILED_PRECONDITION when a cgroup on the way holds processes, which
   *     cgroup v2's no-internal-processes rule forbids for a cgroup that enables controllers for
   *     its children (the kernel's EBUSY), naming the cgroup and its processes
   */
  static void enable(CgroupFs fs, Transaction tx, Hierarchy unified, CgroupPath top, CgroupPath bottom,
      String ourChild, Set<String> controllers) throws IOException {
    List<CgroupPath> chain = new ArrayList<>();
    for (CgroupPath p = bottom; ; p = p.parent()) {
      chain.add(0, p);
      if (p.equals(top) || p.isRoot()) {
        break;
      }
    }
    for (int i = 0; i < chain.size(); i++) {
      CgroupPath p = chain.get(i);
      String ours = i + 1 < chain.size() ? chain.get(i + 1).name() : ourChild; // the child on our way down
      String current = fs.read(unified, p, SUBTREE);
      TreeSet<String> missing = new TreeSet<>();
      for (String c : controllers) {
        if (!FlatKeyed.hasWord(current, c)) {
          missing.add(c);
        }
      }
      if (missing.isEmpty()) {
        continue;
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
      tx.add(ResourceHandle.of(p, SUBTREE + " of " + Layout.describe(unified, p),
          () -> disableUnlessShared(fs, unified, p, ours, missing)));
    }
  }

  /**
   * Undoes an enable: disables {@code controllers} in {@code p} again, unless {@code p} has a child
   * other than {@code ours}, the one on this operation's way down (null: the operation makes none,
   * and the enable is undone whatever is below): a sibling, perhaps made by another process since
   * this enable, may rely on them, and taking them away would make its files vanish under it. They
   * then stay enabled, which changes no value a container holds.
   */
  private static void disableUnlessShared(CgroupFs fs, Hierarchy unified, CgroupPath p, String ours,
      Set<String> controllers) throws IOException {
    for (String child : ours == null ? List.<String>of() : fs.children(unified, p)) {
      if (!child.equals(ours)) {
        LOG.debug("{}: leaves {} enabled: {} may use them", Layout.describe(unified, p), controllers, child);
        return;
      }
    }
    fs.write(unified, p, SUBTREE, "-" + String.join(" -", controllers));
  }

  /** The no-internal-processes refusal, said so, with the processes in the way. */
  private static LmctfyException internalProcesses(Hierarchy unified, CgroupPath p, Set<String> controllers,
      String procs, CgroupFsException cause) {
    return new LmctfyException(ErrorCode.FAILED_PRECONDITION, "cannot enable " + controllers + " for the children of "
        + Layout.describe(unified, p) + ": it holds processes [" + procs.replace('\n', ' ') + "], and cgroup v2's no-internal-processes"
        + " rule lets only a cgroup without processes enable controllers for its children; move them into a leaf"
        + " cgroup first (initMachine with processes_leaf does it for the API's root, as systemd advises a"
        + " delegated manager): " + cause.getMessage(), cause);
  }
}
