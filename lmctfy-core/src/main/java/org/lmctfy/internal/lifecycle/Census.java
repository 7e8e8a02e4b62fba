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
    CgroupPath parent = layout.path(name.parent());
    String intent = marker(anchor, parent, Layout.intentKey(name)).orElse(null);
    String ignored = null;
    if (intent != null && !layout.trusted(parent)) {
      ignored = forged(parent, Layout.intentKey(name), intent);
      intent = null;
    }
    boolean owned = present.contains(anchor) && owned(name);
    return new State(
        name, path, List.copyOf(present), List.copyOf(missing), intent, owned, ignored);
  }

  private String forged(CgroupPath dir, String key, String value) throws IOException {
    return "marker "
        + key
        + "="
        + value
        + " on "
        + Layout.describe(layout.anchor(), dir)
        + " (a directory of uid "
        + layout.ownerOf(dir)
        + ") is not trusted, not obeyed";
  }

  /**
   * Whether the anchor cgroup of {@code name} exists and carries our ownership marker, where we
   * trust it.
   */
  boolean owned(ContainerName name) throws IOException {
    return ownerValue(name).isPresent();
  }

  /**
   * The ownership marker of {@code name} where a tenant cannot have written it: on its own
   * directory when that is root's or ours, else (a delegated container) the record on its parent,
   * when that is root's or ours; empty if absent or not trusted.
   */
  Optional<String> ownerValue(ContainerName name) throws IOException {
    CgroupPath path = layout.path(name);
    if (layout.trusted(path)) {
      return marker(layout.anchor(), path, Layout.OWNER_KEY).filter(Layout::isOwnerValue);
    }
    CgroupPath parent = layout.path(name.parent());
    if (!layout.trusted(parent)) {
      return Optional.empty();
    }
    return marker(layout.anchor(), parent, Layout.recordKey(name)).filter(Layout::isOwnerValue);
  }

  /**
   * Whether {@code name}'s own directory, which the caller found trusted ({@link #delegated}
   * false), carries our ownership marker: {@link #owned} without a second look at the directory's
   * owner.
   */
  boolean ownedHere(ContainerName name) throws IOException {
    return marker(layout.anchor(), layout.path(name), Layout.OWNER_KEY)
        .filter(Layout::isOwnerValue)
        .isPresent();
  }

  /** Whether {@code name}'s directory is delegated: it belongs to neither root nor us. */
  boolean delegated(ContainerName name) throws IOException {
    return !layout.trusted(layout.path(name));
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
    return children(name, foreign, new ArrayList<>(0));
  }

  /**
   * {@link #children(ContainerName, List)}, leaving out (and describing in {@code forged}) the
   * intents on a directory whose markers are not trusted.
   */
  public List<ContainerName> children(ContainerName name, List<String> foreign, List<String> forged)
      throws IOException {
    CgroupPath path = layout.path(name);
    Boolean trusted = null;
    TreeSet<String> names = new TreeSet<>();
    List<String> leaves = new ArrayList<>(0);
    for (Hierarchy h : layout.managed()) {
      try {
        names.addAll(fs.children(h, path));
        if (h.equals(layout.anchor())) {
          for (String k : fs.markerKeys(h, path)) {
            if (k.startsWith(Layout.INTENT_PREFIX)) {
              if (trusted == null) {
                trusted = layout.trusted(path);
              }
              if (trusted) {
                names.add(k.substring(Layout.INTENT_PREFIX.length()));
              } else {
                forged.add(forged(path, k, fs.marker(h, path, k).orElse("")));
              }
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
