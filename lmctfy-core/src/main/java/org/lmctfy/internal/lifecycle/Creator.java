package org.lmctfy.internal.lifecycle;

import java.io.IOException;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.ResourceHandle;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.errors.Errors;
import org.lmctfy.internal.naming.ContainerName;
import org.lmctfy.internal.resources.ResourcePlan;
import org.lmctfy.spec.ContainerSpec;

/**
 * Makes a container whose state has been checked and whose spec has been planned, under its lock:
 * intent on the parent, one cgroup per hierarchy (each a {@link ResourceHandle}), the ownership
 * marker, the parent's v2 controllers, the plan's writes (a v1 cpuset gets its parent's cpus and
 * memory nodes there), a virtual host's init, the spec's fields; then the commit (the intent goes).
 * On any failure everything is undone newest first and the exception carries the first failure with
 * every failed undo suppressed; if an undo failed, the intent stays so that the next operation on
 * the name finishes the job.
 */
final class Creator {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Creator.class);
  private final Layout layout;
  private final CgroupFs fs;
  private final Census census;
  private final Destroyer destroyer;
  private final VirtualHostKeeper virtualHosts;
  private final SubtreeControl subtree;

  Creator(
      Layout layout,
      Census census,
      Destroyer destroyer,
      VirtualHostKeeper virtualHosts,
      SubtreeControl subtree) {
    this.layout = layout;
    this.fs = layout.fs();
    this.census = census;
    this.destroyer = destroyer;
    this.virtualHosts = virtualHosts;
    this.subtree = subtree;
  }

  /**
   * Makes {@code name}. In the common case nothing is at its path and this goes straight to work;
   * what is in the way (the anchor cgroup, seen first, or a cgroup elsewhere, refused by mkdir with
   * EEXIST) is classified by a census, then refused, or cleared when a dead process of ours left
   * it, before the work starts again. Our anchor cgroup is made first and removed last, so where it
   * is absent nothing of ours is.
   */
  void create(ContainerName name, ResourcePlan plan, ContainerSpec spec) throws IOException {
    LOG.debug("create {}: fields {}", name, plan.fields());
    if (fs.exists(layout.anchor(), layout.path(name))) {
      prepare(census.of(name));
    }
    try {
      make(name, plan, spec);
    } catch (InTheWay e) {
      LOG.debug(
          "create {}: {} was in the way; undone, judging what is there",
          name,
          Layout.describe(e.hierarchy, layout.path(name)));
      prepare(census.of(name));
      try {
        make(name, plan, spec);
      } catch (InTheWay again) {
        throw new LmctfyException(
            ErrorCode.ALREADY_EXISTS,
            "create "
                + name
                + ": "
                + Layout.describe(again.hierarchy, layout.path(name))
                + " appeared while it was being created",
            again);
      }
    }
  }

  /**
   * A cgroup was in the way of a mkdir (EEXIST); make() undoes everything it did before it lets
   * this out.
   */
  private static final class InTheWay extends RuntimeException {
    final transient Hierarchy hierarchy;

    InTheWay(Hierarchy hierarchy, CgroupFsException refusal) {
      super(refusal);
      this.hierarchy = hierarchy;
    }
  }

  private void make(ContainerName name, ResourcePlan plan, ContainerSpec spec) {
    CgroupPath path = layout.path(name);
    CgroupPath parent = layout.path(name.parent());
    Hierarchy anchor = layout.anchor();
    String intent = Layout.intentKey(name);
    Transaction tx = new Transaction();
    try {
      fs.setMarker(anchor, parent, intent, Layout.CREATING);
      for (Hierarchy h : layout.managed()) {
        try {
          fs.makeCgroup(h, path);
        } catch (CgroupFsException e) {
          if (e.errno() == Errno.EEXIST) {
            throw new InTheWay(h, e);
          }
          if (e.errno() == Errno.EAGAIN) { // a cap of an ancestor: say which, then undo
            throw HierarchyLimits.refused("create " + name, fs, h, path, e);
          }
          throw e;
        }
        tx.add(
            ResourceHandle.of(
                path,
                () -> "cgroup " + Layout.describe(h, path),
                () -> destroyer.removeCgroup(h, path)));
        if (h.equals(anchor)) {
          fs.setMarker(anchor, path, Layout.OWNER_KEY, Layout.ownerValue(plan.fields()));
        }
      }
      if (plan.unified() != null) {
        subtree.enable(
            tx, plan.unified(), layout.root(), parent, name.baseName(), plan.v2Controllers());
      }
      Updater.apply(fs, path, plan);
      virtualHosts.start(name, spec, tx); // after the limits: the init is born under them

      // delegated (only a chown can have made a directory we just made another's): our record goes
      // where its tenant cannot write
      if (!plan.chowns().isEmpty() && !layout.trusted(path)) {
        String key = Layout.recordKey(name);
        fs.setMarker(anchor, parent, key, Layout.ownerValue(plan.fields()));
        tx.add(
            ResourceHandle.of(
                path, () -> "record " + key, () -> fs.removeMarker(anchor, parent, key)));
      }
      fs.removeMarker(anchor, parent, intent); // the commit point
      tx.commit();
    } catch (InTheWay e) {
      LmctfyException undo = rollBack(name, tx, (CgroupFsException) e.getCause());
      throw undo.getSuppressed().length > 0 ? undo : e; // an undo failed: the intent stays, say so
    } catch (IOException | RuntimeException e) {
      throw rollBack(name, tx, e);
    }
  }

  private LmctfyException rollBack(ContainerName name, Transaction tx, Exception cause) {
    LmctfyException failure = Errors.of("create " + name, cause);
    LOG.debug("create {}: undoing every step after: {}", name, failure.getMessage());
    try {
      tx.close();
      fs.removeMarker(layout.anchor(), layout.path(name.parent()), Layout.intentKey(name));
    } catch (IOException | RuntimeException undo) {
      failure.addSuppressed(undo);
    }
    return failure;
  }

  /** Refuses what is at the path, or clears what a dead process of ours left there. */
  private void prepare(State state) {
    switch (state.kind()) {
      case ABSENT:
        return;
      case COMPLETE:
      case FOREIGN:
        throw new LmctfyException(
            ErrorCode.ALREADY_EXISTS,
            "container " + state.name() + " already exists (" + state.describe() + ")");
      case PARTIAL:
        if (!state.isOurs()) {
          throw new LmctfyException(
              ErrorCode.ALREADY_EXISTS,
              "cgroups not made by lmctfy are in the way of "
                  + state.name()
                  + ": "
                  + state.describe()
                  + "; remove them, or destroy "
                  + state.name()
                  + " to remove them if they are empty");
        }
        LOG.debug(
            "create {}: removing what a process of ours left: {}", state.name(), state.describe());
        destroyer.finish(state);
        return;
      default: // UNFINISHED, STALE_INTENT: a process of ours died half-way
        LOG.debug(
            "create {}: finishing the {} a process of ours left: {}",
            state.name(),
            state.intent(),
            state.describe());
        destroyer.finish(state);
    }
  }
}
