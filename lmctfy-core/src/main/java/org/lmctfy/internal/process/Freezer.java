package org.lmctfy.internal.process;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;

/**
 * Freezes and thaws a cgroup and its subtree. Where a v1 freezer hierarchy is mounted it alone is
 * used ({@code freezer.state}, which freezes descendants and is the controller with freezing
 * semantics on hybrid machines); otherwise the unified hierarchy's {@code cgroup.freeze}. Both
 * wait, polling, until the kernel reports the new state: {@code freezer.state} reads {@code FROZEN}
 * (it passes through {@code FREEZING}) or {@code THAWED}; {@code cgroup.events} says {@code frozen
 * 1} or {@code frozen 0}. A freeze that does not complete by the deadline is undone (thawed).
 *
 * <p>Both kernels freeze a subtree through its top and keep a cgroup frozen while an ancestor is: a
 * thaw of a cgroup whose ancestor is frozen lifts its own freeze, then fails FAILED_PRECONDITION
 * naming that ancestor (it cannot run until the ancestor is thawed), on v1 and v2 alike.
 */
public final class Freezer {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Freezer.class);

  /**
   * How long a wait for the kernel (the freezer, a kill loop) goes on before it is logged at INFO.
   */
  static final long PATIENCE_NANOS = 1_000_000_000L;

  private final CgroupFs fs;
  private final Hierarchy hierarchy;
  private final Duration deadline;

  /** The freezer of {@code managed}; one that has none refuses to freeze or thaw. */
  public Freezer(CgroupFs fs, List<Hierarchy> managed, Duration deadline) {
    this.fs = fs;
    this.deadline = deadline;
    this.hierarchy =
        managed.stream()
            .filter(h -> h.has("freezer"))
            .findFirst()
            .or(() -> managed.stream().filter(h -> h.version() == CgroupVersion.V2).findFirst())
            .orElse(null);
  }

  /**
   * @throws LmctfyException UNIMPLEMENTED if neither a v1 freezer nor a unified hierarchy is
   *     mounted
   */
  private void requireFreezer() {
    if (hierarchy == null) {
      throw new LmctfyException(
          ErrorCode.UNIMPLEMENTED,
          "pause and resume need the v1 freezer or the unified hierarchy; neither is mounted");
    }
  }

  /**
   * Whether any of {@code cgroups} is frozen (on its own or through an ancestor), by every freezer
   * the kernel has: a process placed there does not run until it is thawed.
   */
  public static boolean isFrozen(CgroupFs fs, java.util.Map<Hierarchy, CgroupPath> cgroups)
      throws IOException {
    for (java.util.Map.Entry<Hierarchy, CgroupPath> e : cgroups.entrySet()) {
      Hierarchy h = e.getKey();
      if (h.has("freezer") && !fs.read(h, e.getValue(), "freezer.state").strip().equals("THAWED")) {
        return true;
      }
      if (h.version() == CgroupVersion.V2
          && fs.hasFile(h, e.getValue(), "cgroup.freeze")
          && fs.read(h, e.getValue(), "cgroup.events").contains("frozen 1")) {
        return true;
      }
    }
    return false;
  }

  public void freeze(CgroupPath path) throws IOException {
    requireFreezer();
    set(path, true);
    try {
      await(path, true);
    } catch (LmctfyException | IOException e) {
      try {
        set(path, false);
      } catch (IOException | RuntimeException undo) {
        e.addSuppressed(undo);
      }
      throw e;
    }
  }

  public void thaw(CgroupPath path) throws IOException {
    requireFreezer();
    set(path, false);
    CgroupPath blocker = frozenAncestor(path);
    if (blocker != null) {
      throw new LmctfyException(
          ErrorCode.FAILED_PRECONDITION,
          hierarchy.display(path, null)
              + " is thawed itself but stays frozen while its ancestor "
              + hierarchy.display(blocker, null)
              + " is frozen: resume that one");
    }
    await(path, false);
  }

  /** The nearest ancestor of {@code path} frozen on its own, or null. */
  private CgroupPath frozenAncestor(CgroupPath path) throws IOException {
    if (v1() && !fs.read(hierarchy, path, "freezer.parent_freezing").strip().equals("1")) {
      return null;
    }
    for (CgroupPath p = path; !p.isRoot(); ) {
      p = p.parent();
      if (p.isRoot()) {
        return null; // the root cgroup cannot be frozen
      }
      String self =
          v1()
              ? fs.read(hierarchy, p, "freezer.self_freezing")
              : fs.read(hierarchy, p, "cgroup.freeze");
      if (self.strip().equals("1")) {
        return p;
      }
    }
    return null;
  }

  private boolean v1() {
    return hierarchy.version() == CgroupVersion.V1;
  }

  private void set(CgroupPath path, boolean frozen) throws IOException {
    if (v1()) {
      fs.write(hierarchy, path, "freezer.state", frozen ? "FROZEN" : "THAWED");
    } else {
      fs.write(hierarchy, path, "cgroup.freeze", frozen ? "1" : "0");
    }
  }

  /**
   * What the kernel reports now: {@code FROZEN}/{@code FREEZING}/{@code THAWED}, or {@code frozen
   * 0|1}.
   */
  private String state(CgroupPath path) throws IOException {
    if (v1()) {
      return fs.read(hierarchy, path, "freezer.state").strip();
    }
    return fs.read(hierarchy, path, "cgroup.events")
        .lines()
        .filter(l -> l.startsWith("frozen "))
        .findFirst()
        .orElse("frozen ?");
  }

  private void await(CgroupPath path, boolean frozen) throws IOException {
    String wanted = v1() ? (frozen ? "FROZEN" : "THAWED") : (frozen ? "frozen 1" : "frozen 0");
    long start = System.nanoTime();
    long end = start + deadline.toNanos();
    boolean told = false;
    while (true) {
      String now = state(path);
      if (now.equals(wanted)) {
        return;
      }
      long t = System.nanoTime();
      if (!told && t - start > PATIENCE_NANOS && t <= end) {
        told = true;
        LOG.info(
            "{} still says \"{}\" after 1 s; waiting for \"{}\" for up to {} ms in all",
            hierarchy.display(path, v1() ? "freezer.state" : "cgroup.events"),
            now,
            wanted,
            deadline.toMillis());
      }
      if (t > end) {
        String file = v1() ? "freezer.state" : "cgroup.events";
        throw new LmctfyException(
            ErrorCode.DEADLINE_EXCEEDED,
            hierarchy.display(path, file)
                + " still says \""
                + now
                + "\", not \""
                + wanted
                + "\", after "
                + deadline.toMillis()
                + " ms"
                + (frozen ? "; thawed it again" : ""));
      }
      try {
        Thread.sleep(2);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException(
            "interrupted while waiting for " + hierarchy.display(path, null) + " to be " + wanted,
            e);
      }
    }
  }
}
