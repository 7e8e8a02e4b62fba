package org.lmctfy.internal.lifecycle;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.errors.Errors;
import org.lmctfy.internal.lock.ContainerLocks;
import org.lmctfy.internal.naming.ContainerName;
import org.lmctfy.internal.process.ProcessKiller;

/**
 * Removes containers, children first: marks the intent on the parent, kills what runs inside,
 * removes the cgroup in every hierarchy (bounded retries on EBUSY, going on past one hierarchy's
 * failure to the others), the anchor last, then the intent. A destroy that fails half-way leaves
 * the intent, so calling it again (or create, or cleanup) finishes it.
 */
final class Destroyer {
  private static final int EBUSY_RETRIES = 40;

  private final Layout layout;
  private final CgroupFs fs;
  private final Census census;
  private final ContainerLocks locks;
  private final ProcessKiller killer;
  private final Consumer<ContainerName> onDestroyed;

  Destroyer(
      Layout layout,
      Census census,
      ContainerLocks locks,
      ProcessKiller killer,
      Consumer<ContainerName> onDestroyed) {
    this.onDestroyed = onDestroyed;
    this.layout = layout;
    this.fs = layout.fs();
    this.census = census;
    this.locks = locks;
    this.killer = killer;
  }

  /** Destroys {@code name}, whose lock the caller holds. */
  void destroy(ContainerName name) throws IOException {
    if (!quickly(name)) {
      State state = census.of(name);
      LOG.debug("destroy {}: by the census ({}: {})", name, state.kind(), state.describe());
      destroy(state);
    }
  }

  /**
   * The common case in a few system calls: our anchor cgroup is there and no intent is on the
   * parent, so the intent goes on and rmdir goes to each hierarchy, the anchor last. The kernel
   * refuses (EBUSY) a cgroup with children or processes. On a refusal before anything went, the
   * intent is taken back and this returns false, as it does, having changed nothing, when the
   * container is not ours or a dead process's intent is there: the census way decides. On one
   * after, the census way finishes the job.
   */
  private boolean quickly(ContainerName name) throws IOException {
    CgroupPath path = layout.path(name);
    Hierarchy anchor = layout.anchor();
    CgroupPath parent = layout.path(name.parent());
    String intent = Layout.intentKey(name);
    // one look at the directory's owner: where it is trusted, its own marker says whether it is
    // ours
    if (census.delegated(name)
        || !census.ownedHere(name)
        || !fs.addMarker(anchor, parent, intent, Layout.DESTROYING)) {
      // a delegated container goes the census way: whatever its tenant made below goes too
      return false;
    }
    List<Hierarchy> managed = layout.managed();
    boolean removed = false;
    for (int i = managed.size() - 1; i >= 0; i--) {
      try {
        fs.removeCgroup(managed.get(i), path);
        removed = true;
      } catch (CgroupFsException e) {
        if (e.errno() == Errno.ENOENT) {
          continue;
        }
        if (removed) {
          finish(census.of(name));
          return true;
        }
        fs.removeMarker(anchor, parent, intent); // whole still: the census way starts afresh
        return false;
      }
    }
    fs.removeMarker(anchor, parent, intent);
    onDestroyed.accept(name);
    return true;
  }

  /** Destroys what {@code state} (read under the name's lock) found. */
  void destroy(State state) {
    switch (state.kind()) {
      case ABSENT:
        throw new LmctfyException(
            ErrorCode.NOT_FOUND, "container " + state.name() + " does not exist");
      case FOREIGN:
      case PARTIAL:
        if (!state.isOurs()) {
          removeForeign(state);
          return;
        }
        finish(state);
        return;
      default:
        finish(state);
    }
  }

  /** Destroys a container of ours, or finishes what a dead process of ours began. */
  void finish(State state) {
    try {
      if (state.isOurs()
          && state.present().contains(layout.anchor())
          && census.delegated(state.name())) {
        removeOurs(state, true);
        return;
      }
      List<String> foreign = new ArrayList<>();
      List<ContainerName> children = census.children(state.name(), foreign);
      // threaded cgroups another tool made in it hold threads of its own processes: they go with it
      boolean threads =
          state.isOurs()
              && state.present().contains(layout.anchor())
              && layout.cgroupType(state.path()).equals("domain threaded");
      if (threads) {
        children.removeIf(c -> threaded(layout.path(c)));
        foreign.removeIf(f -> threaded(CgroupPath.of(f)));
      }
      for (ContainerName child : children) {
        try (ContainerLocks.Held held = locks.lock(layout.path(child).value(), child.value())) {
          destroy(child);
        }
      }
      if (!foreign.isEmpty()) {
        throw new LmctfyException(
            ErrorCode.FAILED_PRECONDITION,
            "cannot destroy "
                + state.name()
                + ": it holds cgroups that are not containers "
                + foreign
                + " (not made by lmctfy; remove them)");
      }
      if (threads) {
        LOG.debug("destroy {}: a thread root; its threaded cgroups go with it", state.name());
      }
      removeOurs(state, threads);
    } catch (IOException e) {
      throw Errors.of("destroy " + state.name(), e);
    }
  }

  /**
   * Removes a container of ours; with {@code tree} (a delegated one) also everything below it,
   * whatever its tenant made there and whatever markers it wrote or removed: every process at or
   * below it is killed and the subtree thawed, then every cgroup is removed, deepest first, in
   * every hierarchy, writing no marker below the container (its tenant may have filled them).
   */
  private void removeOurs(State state, boolean tree) throws IOException {
    Hierarchy anchor = layout.anchor();
    CgroupPath parent = layout.path(state.name().parent());
    String intent = Layout.intentKey(state.name());
    boolean marked = !Layout.DESTROYING.equals(state.intent()) && !state.present().isEmpty();
    if (marked) {
      fs.setMarker(anchor, parent, intent, Layout.DESTROYING);
    }
    List<String> found = new ArrayList<>();
    try {
      if (tree) {
        killer.killAllAndThaw(state.present(), state.path());
      } else {
        killer.killAll(state.present(), state.path());
      }
    } catch (IOException | RuntimeException e) {
      if (marked && state.intent() == null) {
        unmark(anchor, parent, intent, e); // nothing was removed: the container stays whole
      }
      throw e;
    }
    LmctfyException failures = null;
    for (Hierarchy h : state.present()) {
      if (h.equals(anchor)) {
        continue;
      }
      try {
        if (tree) {
          removeTree(h, state.path(), state.present(), found);
        } else {
          removeCgroup(h, state.path());
        }
      } catch (IOException e) {
        failures = collect(failures, state, e);
      }
    }
    if (failures != null) {
      throw failures; // the anchor and the intent stay: destroy again to finish
    }
    if (state.present().contains(anchor)) {
      if (tree) {
        removeTree(anchor, state.path(), state.present(), found);
      } else {
        removeCgroup(anchor, state.path());
      }
    }
    if (tree) {
      fs.removeMarker(anchor, parent, Layout.recordKey(state.name()));
      if (!found.isEmpty()) {
        LOG.info("destroy {}: removed what its delegate made below it: {}", state.name(), found);
      }
      for (String below : found) {
        if (below.startsWith(anchor.label() + ":")) {
          descendant(state, below.substring(below.indexOf(':') + 1)).ifPresent(onDestroyed);
        }
      }
    }
    fs.removeMarker(anchor, parent, intent);
    onDestroyed.accept(state.name());
  }

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Destroyer.class);

  /**
   * The container name of a cgroup {@code relative} below {@code state}'s, if its components are
   * valid names.
   */
  private static java.util.Optional<ContainerName> descendant(State state, String relative) {
    ContainerName n = state.name();
    for (String c : relative.split("/")) {
      if (!ContainerName.isValidComponent(c)) {
        return java.util.Optional.empty();
      }
      n = n.child(c);
    }
    return java.util.Optional.of(n);
  }

  /**
   * Removes the cgroups below {@code path} in {@code h}, deepest first, then {@code path} itself;
   * when a tenant put a process back meanwhile (EBUSY), kills again, a few times. Each cgroup found
   * below goes into {@code found} as {@code label:relative/path}.
   */
  private void removeTree(Hierarchy h, CgroupPath path, List<Hierarchy> present, List<String> found)
      throws IOException {
    for (int round = 0; ; round++) {
      try {
        removeBelow(h, path, path, found);
        removeCgroup(h, path);
        return;
      } catch (CgroupFsException e) {
        if (e.errno() != Errno.EBUSY || round >= 3) {
          throw e;
        }
        killer.killAllAndThaw(present, path);
      }
    }
  }

  private void removeBelow(Hierarchy h, CgroupPath top, CgroupPath path, List<String> found)
      throws IOException {
    List<String> children;
    try {
      children = fs.children(h, path);
    } catch (CgroupFsException e) {
      if (e.errno() == Errno.ENOENT) {
        return;
      }
      throw e;
    }
    for (String child : children) {
      CgroupPath below = path.resolve(child);
      removeBelow(h, top, below, found);
      removeCgroup(h, below);
      String entry = h.label() + ":" + below.relativeTo(top).value().substring(1);
      if (!found.contains(entry)) {
        found.add(entry);
      }
    }
  }

  /**
   * Takes back a destroy's intent after a failure that removed nothing, keeping any new failure.
   */
  private void unmark(Hierarchy anchor, CgroupPath parent, String intent, Exception failure) {
    try {
      fs.removeMarker(anchor, parent, intent);
    } catch (IOException | RuntimeException e) {
      failure.addSuppressed(e); // the intent stays: the next destroy finishes the job
    }
  }

  private static LmctfyException collect(LmctfyException failures, State state, IOException e) {
    if (failures == null) {
      return Errors.of("destroy " + state.name() + " (call destroy again to finish)", e);
    }
    failures.addSuppressed(e);
    return failures;
  }

  /** Whether the cgroup at {@code path} is threaded (its cgroup.type; a vanished one is not). */
  private boolean threaded(CgroupPath path) {
    try {
      return layout.cgroupType(path).equals("threaded");
    } catch (CgroupFsException e) {
      if (e.errno() == Errno.ENOENT) {
        return false;
      }
      throw Errors.of("destroy: read the type of " + Layout.describe(layout.anchor(), path), e);
    } catch (IOException e) {
      throw Errors.of("destroy: read the type of " + Layout.describe(layout.anchor(), path), e);
    }
  }

  /**
   * Cgroups we did not make go only when empty: no child cgroup, no process (of a threaded one,
   * whose cgroup.procs cannot be read: no thread).
   */
  private void removeForeign(State state) {
    try {
      for (Hierarchy h : state.present()) {
        String members =
            h.version() == org.lmctfy.cgroupfs.CgroupVersion.V2
                    && layout.cgroupType(state.path()).equals("threaded")
                ? "cgroup.threads"
                : "cgroup.procs";
        if (!fs.children(h, state.path()).isEmpty()
            || !fs.read(h, state.path(), members).isBlank()) {
          throw new LmctfyException(
              ErrorCode.FAILED_PRECONDITION,
              "cgroups at "
                  + state.name()
                  + " were not made by lmctfy and are not empty ("
                  + Layout.describe(h, state.path())
                  + " has child cgroups or processes); lmctfy removes foreign cgroups only when empty");
        }
      }
      for (Hierarchy h : state.present()) {
        removeCgroup(h, state.path());
      }
    } catch (IOException e) {
      throw Errors.of("destroy " + state.name(), e);
    }
  }

  /** rmdir, retried while the kernel is still letting killed processes go (EBUSY). */
  void removeCgroup(Hierarchy h, CgroupPath path) throws IOException {
    for (int attempt = 0; ; attempt++) {
      try {
        fs.removeCgroup(h, path);
        return;
      } catch (CgroupFsException e) {
        if (e.errno() == Errno.ENOENT) {
          return; // gone already: what we wanted
        }
        if (e.errno() != Errno.EBUSY
            || attempt >= EBUSY_RETRIES
            || !fs.children(h, path).isEmpty()) {
          throw e;
        }
      }
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while removing " + Layout.describe(h, path), e);
      }
    }
  }
}
