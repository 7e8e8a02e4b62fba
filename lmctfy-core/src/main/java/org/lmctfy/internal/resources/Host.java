package org.lmctfy.internal.resources;

import java.io.IOException;
import java.util.Optional;
import java.util.Set;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;

/** Where a controller lives on this host, and reads of the new container's parent. */
final class Host {
  private final CgroupFs fs;
  private final CgroupPath parent;

  Host(CgroupFs fs, CgroupPath parent) {
    this.fs = fs;
    this.parent = parent;
  }

  /** The hierarchy of {@code controller} (v1, or the unified one offering it), or empty. */
  Optional<Hierarchy> find(String controller) {
    for (Hierarchy h : fs.hierarchies()) {
      if (h.has(controller)) {
        return Optional.of(h);
      }
    }
    return Optional.empty();
  }

  /** The hierarchy of {@code controller}; FAILED_PRECONDITION naming {@code field} if none. */
  Hierarchy require(String controller, String field) {
    return find(controller).orElseThrow(() -> new LmctfyException(ErrorCode.FAILED_PRECONDITION,
        field + " needs the " + controller + " controller, which no mounted hierarchy carries (mounted: "
            + fs.hierarchies().stream().map(Hierarchy::label).toList() + ")"));
  }

  static boolean isV2(Hierarchy h) {
    return h.version() == CgroupVersion.V2;
  }

  /** A file of the parent, stripped; FAILED_PRECONDITION if it cannot be read. */
  String readParent(Hierarchy h, String file) {
    try {
      return fs.read(h, parent, file).strip();
    } catch (IOException e) {
      throw new LmctfyException(ErrorCode.FAILED_PRECONDITION,
          "cannot read the parent's " + file + " to check the spec against it: " + e.getMessage(), e);
    }
  }

  /** The controllers available to the parent's children on v2 (its {@code cgroup.subtree_control}). */
  Set<String> parentSubtree(Hierarchy unified) {
    return Set.of(readParent(unified, "cgroup.subtree_control").split("\\s+"));
  }
}
