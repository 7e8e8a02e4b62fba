package org.lmctfy.internal.lifecycle;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.lock.ContainerLocks;
import org.lmctfy.internal.naming.ContainerName;

/**
 * cleanup()'s walk of the tree: finishes or undoes every unfinished or partial container of ours
 * (each under its cleanup lock), reports what it leaves (foreign directories, forged intents,
 * partial cgroups of another tool) and removes the records of delegated children that are gone.
 */
final class Sweeper {
  private final Layout layout;
  private final Census census;
  private final Destroyer destroyer;
  private final Function<ContainerName, ContainerLocks.Held> lock;

  /**
   * @param lock takes a child's cleanup lock (its {@link ContainerOperation#CLEANUP} entry)
   */
  Sweeper(
      Layout layout,
      Census census,
      Destroyer destroyer,
      Function<ContainerName, ContainerLocks.Held> lock) {
    this.layout = layout;
    this.census = census;
    this.destroyer = destroyer;
    this.lock = lock;
  }

  /** Sweeps below {@code name}, adding what it removed and what it could not to the lists. */
  void sweep(ContainerName name, List<String> removed, List<String> failures) {
    List<String> foreign = new ArrayList<>();
    List<String> forged = new ArrayList<>();
    List<ContainerName> children;
    try {
      children = census.children(name, foreign, forged);
    } catch (IOException e) {
      failures.add(name + ": cannot list: " + e.getMessage());
      return;
    }
    foreign.forEach(
        f -> failures.add(f + ": not a valid container name, not made by lmctfy: left alone"));
    forged.forEach(
        failures::add); // each intent a tenant could have written: reported, never obeyed
    for (ContainerName child : children) {
      try (ContainerLocks.Held held = lock.apply(child)) {
        State state = census.of(child);
        if (state.isContainer()) {
          sweep(child, removed, failures);
        } else if (state.isOurs()) {
          destroyer.finish(state);
          removed.add(
              child + " (" + state.kind().name().toLowerCase() + ", " + state.describe() + ")");
        } else if (state.kind() == State.Kind.PARTIAL) {
          failures.add(
              child
                  + ": partial and not made by lmctfy ("
                  + state.describe()
                  + "): left alone; "
                  + "destroy it by name to remove it if it is empty");
        }
      } catch (IOException | LmctfyException e) {
        failures.add(child + ": " + e.getMessage());
      }
    }
    sweepRecords(name, removed, failures);
  }

  /**
   * Root's records ({@code record.<child>}, on a parent it trusts) of delegated children that are
   * gone: a destroy cut short between the cgroup's removal and its record's leaves one, and each
   * takes one of the parent's markers. Removed under the child's lock.
   */
  private void sweepRecords(ContainerName name, List<String> removed, List<String> failures) {
    CgroupPath path = layout.path(name);
    Hierarchy anchor = layout.anchor();
    CgroupFs fs = layout.fs();
    try {
      if (!layout.trusted(path)) {
        return;
      }
      for (String key : fs.markerKeys(anchor, path)) {
        if (!key.startsWith(Layout.RECORD_PREFIX)) {
          continue;
        }
        ContainerName child = name.child(key.substring(Layout.RECORD_PREFIX.length()));
        try (ContainerLocks.Held held = lock.apply(child)) {
          if (!fs.exists(anchor, layout.path(child))) {
            fs.removeMarker(anchor, path, key);
            removed.add(child + " (the record of a delegated container already removed)");
          }
        } catch (IOException | LmctfyException e) {
          failures.add(child + ": its record " + key + " on " + name + ": " + e.getMessage());
        }
      }
    } catch (CgroupFsException e) {
      if (e.errno() != Errno.ENOENT) { // gone: no records (a driver's root not made yet)
        failures.add(name + ": cannot read its records: " + e.getMessage());
      }
    } catch (IOException e) {
      failures.add(name + ": cannot read its records: " + e.getMessage());
    }
  }
}
