package org.lmctfy.internal.lifecycle;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.lmctfy.ResourceHandle;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;

/** Enabling v2 controllers in {@code cgroup.subtree_control} along a path, undone on rollback. */
final class SubtreeControl {
  private static final String SUBTREE = "cgroup.subtree_control";

  private SubtreeControl() {}

  /**
   * Enables {@code controllers} where they are missing in every cgroup from {@code top} down to
   * {@code bottom} (both included), top down (a cgroup can enable only what its parent gives it);
   * each write is a step of {@code tx} that disables them again.
   */
  static void enable(CgroupFs fs, Transaction tx, Hierarchy unified, CgroupPath top, CgroupPath bottom,
      Set<String> controllers) throws IOException {
    List<CgroupPath> chain = new ArrayList<>();
    for (CgroupPath p = bottom; ; p = p.parent()) {
      chain.add(0, p);
      if (p.equals(top) || p.isRoot()) {
        break;
      }
    }
    for (CgroupPath p : chain) {
      Set<String> current = Set.of(fs.read(unified, p, SUBTREE).strip().split("\\s+"));
      TreeSet<String> missing = new TreeSet<>(controllers);
      missing.removeAll(current);
      if (missing.isEmpty()) {
        continue;
      }
      fs.write(unified, p, SUBTREE, "+" + String.join(" +", missing));
      tx.add(ResourceHandle.of(p, SUBTREE + " of " + Layout.describe(unified, p),
          () -> fs.write(unified, p, SUBTREE, "-" + String.join(" -", missing))));
    }
  }
}
