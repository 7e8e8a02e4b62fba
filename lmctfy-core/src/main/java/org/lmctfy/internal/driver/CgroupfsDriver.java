package org.lmctfy.internal.driver;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.errors.Errors;
import org.lmctfy.internal.lifecycle.Containers;
import org.lmctfy.internal.lock.ContainerLocks;
import org.lmctfy.internal.naming.ContainerName;
import org.lmctfy.spec.InitSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cgroups as they are: the root given, or the default one. Where the default root is this
 * process's own cgroup and was delegated to it (a unit with {@code Delegate=yes}, the root of a
 * cgroup namespace), it holds this process, and cgroup v2 lets only a cgroup without processes
 * enable controllers for its children: the first top-level create moves the root's processes into
 * the processes leaf {@value #SUPERVISOR_LEAF}, as systemd's delegation documentation asks of a
 * delegated manager and as {@code initMachine} with {@code processes_leaf} does.
 */
final class CgroupfsDriver extends Driver {
  private static final Logger LOG = LoggerFactory.getLogger(CgroupfsDriver.class);

  /** The leaf a delegated default root's processes move into (the demo's name for it, too). */
  static final String SUPERVISOR_LEAF = "lmctfy-supervisor";

  /** Who delegated the root, which says what the remedy for a missing controller is. */
  enum Delegation {
    NONE,
    SYSTEMD_UNIT,
    CGROUP_NAMESPACE
  }

  private final CgroupFs fs;
  private final CgroupPath root;
  private final Hierarchy unified;
  private final Delegation delegation;

  /**
   * @param unified the v2 hierarchy, or null
   * @param delegation who delegated the root; NONE moves nothing
   */
  CgroupfsDriver(CgroupFs fs, CgroupPath root, Hierarchy unified, Delegation delegation) {
    this.fs = fs;
    this.root = root;
    this.unified = unified;
    this.delegation = unified == null ? Delegation.NONE : delegation;
  }

  @Override
  public CgroupPath root() {
    return root;
  }

  @Override
  public String describe() {
    return switch (delegation) {
      case NONE -> "cgroupfs";
      case SYSTEMD_UNIT ->
          "systemd (this process's own unit, which systemd delegated: Delegate=yes)";
      case CGROUP_NAMESPACE -> "cgroupfs (the root of this process's cgroup namespace)";
    };
  }

  @Override
  public boolean prepare(Containers containers) {
    if (delegation == Delegation.NONE) {
      return false;
    }
    try {
      if (processes().isEmpty()) {
        return false; // the common case: moved at an earlier create, or by initMachine
      }
      // two processes may move at once: the root's lock (root before the new container's) orders
      // them
      try (ContainerLocks.Held held = containers.lock(ContainerName.root())) {
        moveIntoLeaf(containers, fs, unified, root, SUPERVISOR_LEAF, processes());
      }
      return false; // the root was there: its processes' move into a leaf is not undone
    } catch (IOException e) {
      throw Errors.of(
          "move the processes of the API's root "
              + unified.display(root, null)
              + " into "
              + SUPERVISOR_LEAF,
          e);
    }
  }

  private String processes() throws IOException {
    return fs.read(unified, root, "cgroup.procs").strip();
  }

  /**
   * Moves the processes of {@code root} into its processes leaf {@code leaf} (initMachine's
   * processes_leaf, marked so that it is never taken for a container), when it still has any.
   */
  static void moveIntoLeaf(
      Containers containers,
      CgroupFs fs,
      Hierarchy unified,
      CgroupPath root,
      String leaf,
      String seen)
      throws IOException {
    if (seen.isEmpty() || fs.read(unified, root, "cgroup.procs").isBlank()) {
      return;
    }
    LOG.info(
        "the API's root {} holds processes [{}]; moving them into {}/ so that it can enable controllers for its"
            + " containers (cgroup v2 lets only a cgroup without processes do that)",
        unified.display(root, null),
        seen.replace('\n', ' '),
        leaf);
    containers.moveRootProcesses(new InitSpec(List.of(), Set.of(), leaf));
  }

  @Override
  public String controllerRemedy(String controller, String offered) {
    return switch (delegation) {
      case NONE -> RootKeeperDefaults.INIT_MACHINE;
      case SYSTEMD_UNIT -> Remedies.systemdController(controller, root);
      case CGROUP_NAMESPACE -> Remedies.namespaceController(controller);
    };
  }

  /** The default remedy, as the lifecycle says it. */
  private static final class RootKeeperDefaults {
    static final String INIT_MACHINE = "run initMachine with enable_controllers";
  }
}
