package org.lmctfy.internal.lifecycle;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.errors.Errors;
import org.lmctfy.internal.naming.ContainerName;
import org.lmctfy.internal.resources.Chown;
import org.lmctfy.internal.resources.ContainerView;
import org.lmctfy.internal.resources.DeviceFilter;
import org.lmctfy.internal.resources.FileWrite;
import org.lmctfy.internal.resources.MemoryShrink;
import org.lmctfy.internal.resources.Mode;
import org.lmctfy.internal.resources.ResourcePlan;
import org.lmctfy.spec.ContainerSpec;

/**
 * Transactional update: on v2 the controllers the spec's fields need are enabled first, from the
 * API's root down to the parent (a container has the files of a controller only once its parent
 * enables it; an enabling the kernel refuses is FAILED_PRECONDITION naming the controller and the
 * cgroup); then the plan is made against what the container has (REPLACE resets exactly the
 * controllers it has); the values of every field the plan touches are read before the first write;
 * a lower memory limit than the container uses is reclaimed down to first, or refused ({@link
 * MemoryShrink}); the writes go in the plan's kernel-safe order; if one fails, a plan back to the
 * values read (worked out from the state the failure left) puts them back, the enabling is undone,
 * and the exception carries the failing file and errno with every value that could not be restored
 * attached as suppressed.
 */
final class Updater {
  private final Layout layout;
  private final CgroupFs fs;
  private final Function<ContainerName, ContainerView> views;

  private final Census census;
  private final SubtreeControl subtree;

  Updater(
      Layout layout,
      Census census,
      Function<ContainerName, ContainerView> views,
      SubtreeControl subtree) {
    this.subtree = subtree;
    this.census = census;
    this.layout = layout;
    this.fs = layout.fs();
    this.views = views;
  }

  /**
   * The fields the container's spec was given: on our ownership marker, or for a container another
   * tool made, on a marker of their own once we updated it (until then none).
   */
  Set<String> fields(ContainerName name) throws IOException {
    return new LinkedHashSet<>(recorded(name).fields());
  }

  /** Where a container's fields are recorded, and which. */
  private record Recorded(String ownerValue, List<String> fields) {}

  private Recorded recorded(ContainerName name) throws IOException {
    CgroupPath path = layout.path(name);
    String owner = census.ownerValue(name).orElse(null);
    if (owner != null) {
      return new Recorded(owner, Layout.fieldsOf(owner));
    }
    return new Recorded(
        null,
        fs.marker(layout.anchor(), path, Layout.FIELDS_KEY)
            .map(v -> Arrays.asList(v.split(",")))
            .orElse(List.of()));
  }

  private void record(ContainerName name, Recorded was, Set<String> fields) throws IOException {
    CgroupPath path = layout.path(name);
    if (was.ownerValue() != null
        && !layout.trusted(path)) { // delegated (now): on the parent, as create does
      fs.setMarker(
          layout.anchor(),
          layout.path(name.parent()),
          Layout.recordKey(name),
          Layout.ownerValue(fields));
    } else if (was.ownerValue() != null) {
      fs.setMarker(layout.anchor(), path, Layout.OWNER_KEY, Layout.ownerValue(fields));
    } else {
      fs.setMarker(layout.anchor(), path, Layout.FIELDS_KEY, String.join(",", fields));
    }
  }

  void update(ContainerName name, ContainerSpec spec, Mode mode, boolean forceMemoryLimit)
      throws IOException {
    ContainerView view = views.apply(name);
    CgroupPath path = layout.path(name);
    Set<String> bring = ResourcePlan.v2Controllers(spec, view);
    Recorded recorded = recorded(name);
    Set<String> before = new LinkedHashSet<>(recorded.fields());
    if (mode == Mode.REPLACE) {
      ResourcePlan.checkReplace(spec, before, "update " + name);
    }
    Transaction tx = new Transaction();
    ContainerSpec old = null;
    List<FileWrite> defaults = List.of();
    Set<String> touched = new LinkedHashSet<>(before);
    try {
      if (!bring.isEmpty()) {
        enable(name, tx, bring);
      }
      ResourcePlan plan =
          ResourcePlan.of(spec, mode, view).knowingTheDeviceFilter(before, mode, view);
      MemoryShrink.reclaimOrRefuse(view, name.value(), plan.writes(), forceMemoryLimit);
      touched.addAll(plan.touched());
      old = ResourcePlan.read(view, touched);
      defaults = plan.asRead(view);
      Set<String> after = mode == Mode.REPLACE ? plan.fields() : union(before, plan.fields());
      boolean trustedBefore = layout.trusted(path);
      apply(fs, path, plan);
      boolean trustedAfter = layout.trusted(path);
      // a new owner moves the record: onto the parent when the tenant now owns the directory, back
      // onto the directory (and off the parent) when root owns it again
      if (!after.equals(before) || trustedBefore != trustedAfter) {
        record(name, recorded, after);
        if (trustedAfter && !trustedBefore && recorded.ownerValue() != null) {
          fs.removeMarker(layout.anchor(), layout.path(name.parent()), Layout.recordKey(name));
        }
      }
      tx.commit();
    } catch (IOException | RuntimeException e) {
      LmctfyException failure =
          Errors.of("update " + name + " (every value changed was put back)", e);
      if (old != null) {
        restore(view, path, old, touched, failure, defaults);
      }
      try {
        tx.close();
      } catch (RuntimeException undo) {
        failure.addSuppressed(undo);
      }
      throw failure;
    }
  }

  /**
   * Enables {@code controllers} from the API's root down to the parent; a refusal names controller
   * and cgroup.
   */
  private void enable(ContainerName name, Transaction tx, Set<String> controllers) {
    Hierarchy unified =
        layout.managed().stream()
            .filter(h -> h.version() == CgroupVersion.V2)
            .findFirst()
            .orElseThrow();
    try {
      subtree.enable(
          tx, unified, layout.root(), layout.path(name.parent()), name.baseName(), controllers);
    } catch (IOException e) {
      throw new LmctfyException(
          ErrorCode.FAILED_PRECONDITION,
          "update "
              + name
              + ": the "
              + String.join(", ", controllers)
              + " controller(s) must be enabled for it in "
              + Layout.describe(unified, layout.path(name.parent()))
              + " (and each cgroup above it, up to the API's root), and the kernel refused: "
              + e.getMessage()
              + (e instanceof CgroupFsException c && c.errno() == Errno.EBUSY
                  ? " (a cgroup with processes of its own "
                      + "cannot enable controllers for its children)"
                  : ""),
          e);
    }
  }

  /** Puts back {@code old}: a plan from the state the failure left to the values read before. */
  private void restore(
      ContainerView view,
      CgroupPath path,
      ContainerSpec old,
      Set<String> touched,
      LmctfyException failure,
      List<FileWrite> defaults) {
    ResourcePlan back = ResourcePlan.restoring(old, touched, view);
    List<FileWrite> writes = new ArrayList<>(back.writes());
    writes.addAll(defaults);
    steps(fs, path, writes, back, failure);
  }

  /**
   * Applies a plan's writes, then its device filter, then its owner changes (skipping delegate
   * files the cgroup lacks).
   */
  static void apply(CgroupFs fs, CgroupPath path, ResourcePlan plan) throws IOException {
    IOException failed = steps(fs, path, plan.writes(), plan, null);
    if (failed != null) {
      throw failed;
    }
  }

  /**
   * The steps of a plan, in order: {@code writes}, then the plan's device filter, then its owner
   * changes. Applied ({@code restoring} null), each write is checked and the first failure ends
   * them and is returned; restoring, each write is made as it is, and each failure rides on {@code
   * restoring}, suppressed, and the next step is tried (null is returned).
   */
  private static IOException steps(
      CgroupFs fs,
      CgroupPath path,
      List<FileWrite> writes,
      ResourcePlan plan,
      LmctfyException restoring) {
    for (FileWrite w : writes) {
      try {
        if (restoring == null) {
          write(fs, path, w);
        } else {
          fs.write(w.hierarchy(), path, w.file(), w.value());
        }
      } catch (IOException e) {
        IOException end =
            failed(e, restoring, w.field() + " (\"" + w.value() + "\" to " + w.file() + ")");
        if (end != null) {
          return end;
        }
      }
    }
    DeviceFilter devices = plan.deviceFilter();
    if (devices != null) {
      try {
        fs.setDeviceFilter(devices.unified(), path, devices.rules());
      } catch (IOException e) {
        IOException end =
            failed(
                e,
                restoring,
                "device.rules (the device filter of "
                    + devices.unified().display(path, null)
                    + ")");
        if (end != null) {
          return end;
        }
      }
    }
    for (Chown c : plan.chowns()) {
      try {
        if (c.file() == null || fs.hasFile(c.hierarchy(), path, c.file())) {
          fs.chown(c.hierarchy(), path, c.file(), c.uid(), c.gid());
        }
      } catch (IOException e) {
        IOException end = failed(e, restoring, "the owner of " + path + "/" + c.file());
        if (end != null) {
          return end;
        }
      }
    }
    return null;
  }

  /**
   * A step's failure: what ends the steps when they are applied; restoring, nothing, and the
   * failure rides on {@code restoring}, naming {@code what} could not be put back.
   */
  private static IOException failed(IOException e, LmctfyException restoring, String what) {
    if (restoring == null) {
      return e;
    }
    restoring.addSuppressed(new IOException("could not restore " + what, e));
    return null;
  }

  /** A write of a plan applied: a missing file named as such, a unified file read back. */
  private static void write(CgroupFs fs, CgroupPath path, FileWrite w) throws IOException {
    try {
      fs.write(w.hierarchy(), path, w.file(), w.value());
    } catch (CgroupFsException e) {
      if (e.errno() == Errno.ENOENT && lacksFile(fs, path, w)) {
        throw missingFile(w, e);
      }
      LmctfyException v1 = MemoryShrink.v1Refusal(fs, path, w, e);
      if (v1 != null) {
        throw v1;
      }
      throw e;
    }
    if (w.check() != FileWrite.Check.NONE) {
      checkReadsBack(fs, path, w);
    }
  }

  /**
   * Whether an ENOENT of {@code w} means this kernel lacks the file: the cgroup is there, has (on
   * v2) the file's controller, and still has no such file. Otherwise the controller was taken away
   * and maybe given back meanwhile (a sibling's create that failed disabled it in the shared
   * parent, and its retry enabled it again: seen in KernelConcurrencyTest), and the kernel's ENOENT
   * goes as it is.
   */
  private static boolean lacksFile(CgroupFs fs, CgroupPath path, FileWrite w) throws IOException {
    if (!fs.exists(w.hierarchy(), path)) {
      return false;
    }
    if (w.hierarchy().version() == CgroupVersion.V2) {
      String controller = w.file().substring(0, w.file().indexOf('.'));
      if (!org.lmctfy.internal.codec.FlatKeyed.hasWord(
          fs.read(w.hierarchy(), path, "cgroup.controllers"), controller)) {
        return false;
      }
    }
    return !fs.hasFile(w.hierarchy(), path, w.file());
  }

  /**
   * A write the kernel refused with ENOENT while the cgroup is there: this kernel lacks the file
   * (an optional feature, such as zswap or io.latency; the plan could not tell before the cgroup
   * existed when no ancestor below the root has the controller). The machine's, not the caller's,
   * so FAILED_PRECONDITION naming the field.
   */
  private static LmctfyException missingFile(FileWrite w, CgroupFsException e) {
    return new LmctfyException(
        ErrorCode.FAILED_PRECONDITION,
        w.field()
            + " cannot be honoured: this kernel has no "
            + w.file()
            + (w.absent() == null ? "" : " (" + w.absent() + ")")
            + ": "
            + e.getMessage(),
        e);
  }

  /**
   * A unified file must show the value written, so that spec() reads back what the spec gave (the
   * kernel's own form: {@code memory.swap.high} in whole pages, {@code cpu.uclamp.min} with two
   * decimals...). Else INVALID_ARGUMENT with the kernel's form; the caller's rollback undoes it.
   */
  private static void checkReadsBack(CgroupFs fs, CgroupPath path, FileWrite w) throws IOException {
    String shown = fs.read(w.hierarchy(), path, w.file()).strip();
    if (w.check() == FileWrite.Check.VALID) {
      if (shown.contains(" invalid")) {
        throw new LmctfyException(
            ErrorCode.FAILED_PRECONDITION,
            w.field()
                + " \""
                + w.value()
                + "\": the kernel made "
                + w.hierarchy().display(path, w.file())
                + " \""
                + shown
                + "\"");
      }
      return;
    }
    if (!shown.equals(w.value().strip())) {
      throw new LmctfyException(
          ErrorCode.INVALID_ARGUMENT,
          w.field()
              + " \""
              + w.value()
              + "\": the kernel holds it "
              + "as \""
              + shown.replace("\n", "\\n")
              + "\" ("
              + w.hierarchy().display(path, w.file())
              + "); give the value as the"
              + " kernel shows it, so that spec() reads back what the spec gave");
    }
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> out = new LinkedHashSet<>(a);
    out.addAll(b);
    return out;
  }
}
