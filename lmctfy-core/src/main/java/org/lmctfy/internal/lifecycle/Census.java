package org.lmctfy.internal.lifecycle;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.naming.ContainerName;

/** Reads the {@link State} of names, and the names below a container, over every hierarchy. */
public final class Census {
  private final Layout layout;
  private final CgroupFs fs;

  public Census(Layout layout) {
    this.layout = layout;
    this.fs = layout.fs();
  }

  /** The state of {@code name} (not the root). */
  public State of(ContainerName name) throws IOException {
    CgroupPath path = layout.path(name);
    List<Hierarchy> present = new ArrayList<>();
    List<Hierarchy> missing = new ArrayList<>();
    for (Hierarchy h : layout.managed()) {
      (fs.exists(h, path) ? present : missing).add(h);
    }
    Hierarchy anchor = layout.anchor();
    String intent = marker(anchor, layout.path(name.parent()), Layout.intentKey(name)).orElse(null);
    boolean owned = present.contains(anchor) && owned(path);
    return new State(name, path, List.copyOf(present), List.copyOf(missing), intent, owned);
  }

  /** Whether the anchor cgroup at {@code path} exists and carries our ownership marker. */
  boolean owned(CgroupPath path) throws IOException {
    return marker(layout.anchor(), path, Layout.OWNER_KEY).filter(Layout::isOwnerValue).isPresent();
  }

  /** A marker, or empty if it or its cgroup is absent (a cgroup may go while we look). */
  private Optional<String> marker(Hierarchy h, CgroupPath p, String key) throws IOException {
    try {
      return fs.marker(h, p, key);
    } catch (CgroupFsException e) {
      if (e.errno() == Errno.ENOENT) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /**
   * The names below {@code name}, sorted: its cgroup directories in any managed hierarchy, and the
   * children its intent markers name (an intent can outlive its cgroups when a process dies); a
   * directory whose name is not a valid container name is in {@code foreign}; a processes leaf of
   * initMachine (named by a {@code leaf.} marker) is neither.
   */
  public List<ContainerName> children(ContainerName name, List<String> foreign) throws IOException {
    CgroupPath path = layout.path(name);
    TreeSet<String> names = new TreeSet<>();
    List<String> leaves = new ArrayList<>(0);
    for (Hierarchy h : layout.managed()) {
      try {
        names.addAll(fs.children(h, path));
        if (h.equals(layout.anchor())) {
          for (String k : fs.markerKeys(h, path)) {
            if (k.startsWith(Layout.INTENT_PREFIX)) {
              names.add(k.substring(Layout.INTENT_PREFIX.length()));
            } else if (k.startsWith(Layout.LEAF_PREFIX)) {
              leaves.add(k.substring(Layout.LEAF_PREFIX.length()));
            }
          }
        }
      } catch (CgroupFsException e) {
        if (e.errno() != Errno.ENOENT) {
          throw e;
        }
      }
    }
    names.removeAll(leaves);
    List<ContainerName> out = new ArrayList<>();
    for (String n : names) {
      if (ContainerName.isValidComponent(n)) {
        out.add(name.child(n));
      } else {
        foreign.add(path.resolve(n).value());
      }
    }
    return out;
  }
}
