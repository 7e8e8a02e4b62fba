package org.lmctfy.internal.resources;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.codec.FlatKeyed;
import org.lmctfy.internal.errors.Errors;

/**
 * One container as the resource handlers see it: where each controller lives (the hierarchies it
 * occupies), and the files of the container ({@code self}, absent before it is made), of its parent
 * and of the API's root. Built for each operation by the lifecycle; reads through the SPI.
 */
public final class ContainerView {
  private final CgroupFs fs;
  private final CgroupPath parent;
  private final CgroupPath self;
  private final List<Hierarchy> managed;
  private final CgroupPath root;
  private final java.util.function.BinaryOperator<String> remedy;

  /**
   * @param managed the hierarchies the container occupies, the anchor first
   * @param root the API's root cgroup, where v2 controllers must be available
   */
  public ContainerView(
      CgroupFs fs, List<Hierarchy> managed, CgroupPath root, CgroupPath parent, CgroupPath self) {
    this(
        fs,
        managed,
        root,
        parent,
        self,
        (controller, offered) -> "run initMachine with enable_controllers");
  }

  /**
   * @param remedy how to give the root a v2 controller it lacks, from the controller and the root's
   *     {@code cgroup.controllers}: the driver that chose the root knows
   */
  public ContainerView(
      CgroupFs fs,
      List<Hierarchy> managed,
      CgroupPath root,
      CgroupPath parent,
      CgroupPath self,
      java.util.function.BinaryOperator<String> remedy) {
    this.fs = fs;
    this.managed = managed;
    this.root = root;
    this.parent = parent;
    this.self = self;
    this.remedy = remedy;
  }

  /**
   * How to give the API's root {@code controller}, which its {@code cgroup.controllers} ({@code
   * offered}) lacks.
   */
  String rootRemedy(String controller, String offered) {
    return remedy.apply(controller, offered);
  }

  List<Hierarchy> managed() {
    return managed;
  }

  CgroupFs fs() {
    return fs;
  }

  CgroupPath self() {
    return self;
  }

  CgroupPath parent() {
    return parent;
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

  /**
   * Whether the container has {@code controller}: on v1 its hierarchy is mounted; on v2 the parent
   * enables it for the container (the container's {@code cgroup.controllers} lists it). What
   * REPLACE resets: a controller the container does not have has no files to reset.
   */
  boolean has(String controller) {
    Optional<Hierarchy> h = find(controller);
    if (h.isEmpty() || !isV2(h.get())) {
      return h.isPresent();
    }
    return has(h.get(), self, "cgroup.controllers")
        && FlatKeyed.hasWord(read(h.get(), self, "cgroup.controllers"), controller);
  }

  /** The unified hierarchy, or empty when no cgroup2 is mounted. */
  Optional<Hierarchy> unified() {
    return fs.hierarchies().stream().filter(ContainerView::isV2).findFirst();
  }

  /** The hierarchy of {@code controller}; FAILED_PRECONDITION naming {@code field} if none. */
  Hierarchy require(String controller, String field) {
    return find(controller)
        .orElseThrow(
            () ->
                new LmctfyException(
                    ErrorCode.FAILED_PRECONDITION,
                    field
                        + " needs the "
                        + controller
                        + " controller, which no mounted hierarchy carries (mounted: "
                        + fs.hierarchies().stream().map(Hierarchy::label).toList()
                        + ")"));
  }

  static boolean isV2(Hierarchy h) {
    return h.version() == CgroupVersion.V2;
  }

  /** FAILED_PRECONDITION: {@code field} has no equivalent in the cgroup version {@code h} is. */
  static LmctfyException notOn(Hierarchy h, String field, String why) {
    return new LmctfyException(
        ErrorCode.FAILED_PRECONDITION,
        field
            + " cannot be honoured on cgroup "
            + (isV2(h) ? "v2" : "v1")
            + " ("
            + h.label()
            + " hierarchy at "
            + h.mountPoint()
            + "): "
            + why);
  }

  /** A file of the parent, stripped. */
  String readParent(Hierarchy h, String file) {
    return read(h, parent, file);
  }

  /**
   * A file of the nearest cgroup from the parent up that has it, stripped, with that cgroup: on v2
   * a cgroup whose parent does not enable a controller has none of its files, and its effective
   * values (cpuset.cpus.effective) are its parent's, so the nearest ancestor that has the file
   * answers for it. The hierarchy's root has every controller's root files.
   */
  String[] readNearest(Hierarchy h, String file) {
    for (CgroupPath p = parent; ; p = p.parent()) {
      if (p.isRoot() || has(h, p, file)) {
        return new String[] {read(h, p, file), h.display(p, null)};
      }
    }
  }

  /**
   * Whether this kernel lacks {@code file} (an optional file of a controller, such as {@code
   * memory.zswap.max}), judged on the nearest cgroup below the root, from the parent up, that has
   * {@code probe} (a file every such cgroup with the controller has): what a create can know before
   * its cgroup exists. False when no such cgroup is found (the parent does not have the controller
   * and no ancestor below the root does); the write then says so itself (ENOENT, which the Updater
   * turns into FAILED_PRECONDITION naming the field).
   */
  boolean lacks(Hierarchy h, String probe, String file) {
    CgroupPath p = nearest(h, probe);
    return p != null && !has(h, p, file);
  }

  /**
   * Whether the nearest cgroup below the root, from the parent up, that has {@code probe} has
   * {@code file}.
   */
  boolean nearestHas(Hierarchy h, String probe, String file) {
    CgroupPath p = nearest(h, probe);
    return p != null && has(h, p, file);
  }

  private CgroupPath nearest(Hierarchy h, String probe) {
    for (CgroupPath p = parent;
        !p.isRoot();
        p = p.parent()) { // a root lacks files a child has (on v1 too)
      if (has(h, p, probe)) {
        return p;
      }
    }
    return null;
  }

  /**
   * A file of the hierarchy's root cgroup (machine-wide settings), stripped; null if it has none.
   */
  String readRoot(Hierarchy h, String file) {
    return has(h, CgroupPath.root(), file) ? read(h, CgroupPath.root(), file) : null;
  }

  /** A file of the container, stripped. */
  String readSelf(Hierarchy h, String file) {
    return read(h, self, file);
  }

  boolean parentHas(Hierarchy h, String file) {
    return has(h, parent, file);
  }

  boolean selfHas(Hierarchy h, String file) {
    return has(h, self, file);
  }

  private boolean has(Hierarchy h, CgroupPath p, String file) {
    try {
      return fs.hasFile(h, p, file);
    } catch (IOException e) {
      throw Errors.of("cannot look for " + h.display(p, file), e);
    }
  }

  private String read(Hierarchy h, CgroupPath p, String file) {
    try {
      return fs.read(h, p, file).strip();
    } catch (IOException e) {
      throw Errors.of("cannot read " + file, e);
    }
  }

  /**
   * The v2 controllers the API root can give its subtree ({@code cgroup.controllers} of the root):
   * the create enables them in every {@code cgroup.subtree_control} from the root to the parent.
   */
  String rootControllers(Hierarchy unified) {
    return read(unified, root, "cgroup.controllers");
  }
}
