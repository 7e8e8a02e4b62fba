package org.lmctfy.internal.process;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.errors.Errors;

/**
 * Empties a cgroup (one path in several hierarchies) and every cgroup below it of processes: {@code
 * cgroup.kill} where the unified hierarchy has it (frozen processes die of it too), and freeze,
 * SIGKILL every member, thaw, repeated until every hierarchy's subtree is empty or the deadline
 * passes. Freezing first stops a fork loop from outrunning the kills; it uses the v1 freezer where
 * there is one (which freezes the subtree), else the unified hierarchy's {@code cgroup.freeze} when
 * the kernel has no {@code cgroup.kill}. What it froze it always thaws.
 *
 * <p>{@link #killAllAndThaw} is the user's killAll: it then thaws the whole subtree in every
 * freezer the kernel has (v1 {@code freezer.state}, v2 {@code cgroup.freeze}), whoever froze it, so
 * that the emptied containers take and run new processes at once, on v1 and v2 alike.
 */
public final class ProcessKiller {
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(ProcessKiller.class);
  private static final String STATE = "freezer.state";
  private static final String FREEZE = "cgroup.freeze";

  private final CgroupFs fs;
  private final Duration deadline;

  public ProcessKiller(CgroupFs fs, Duration deadline) {
    this.fs = fs;
    this.deadline = deadline;
  }

  /**
   * Kills every process at or below {@code path} in {@code hierarchies}.
   *
   * @throws LmctfyException DEADLINE_EXCEEDED naming the survivors and where they are
   */
  public void killAll(List<Hierarchy> hierarchies, CgroupPath path) throws IOException {
    long end = System.nanoTime() + deadline.toNanos();
    Hierarchy unified = find(hierarchies, h -> h.version() == CgroupVersion.V2);
    boolean cgroupKill = unified != null && fs.hasFile(unified, path, "cgroup.kill");
    Hierarchy freezer = find(hierarchies, h -> h.has("freezer"));
    if (freezer == null && !cgroupKill) {
      freezer = unified;
    }
    long start = System.nanoTime();
    boolean told = false;
    for (int round = 0; ; round++) {
      TreeSet<Long> pids = members(hierarchies, path);
      if (pids.isEmpty()) {
        return;
      }
      long t = System.nanoTime();
      if (!told && t - start > Freezer.PATIENCE_NANOS && t <= end) {
        told = true;
        LOG.info(
            "processes {} in cgroup {} or below are still alive after 1 s of SIGKILL; going on for up to {} ms in all",
            pids,
            path,
            deadline.toMillis());
      }
      if (t > end) {
        throw new LmctfyException(
            ErrorCode.DEADLINE_EXCEEDED,
            "processes "
                + pids
                + " in cgroup "
                + path
                + " or below survived SIGKILL for "
                + deadline.toMillis()
                + " ms: "
                + whereabouts(hierarchies, path));
      }
      if (round == 0 || round % 10 == 0) {
        signal(pids, unified, freezer, path, cgroupKill);
      }
      pause();
    }
  }

  /**
   * {@link #killAll}, then thaws {@code path} and every cgroup below it in every freezer of {@code
   * hierarchies}, also when the kill failed.
   */
  public void killAllAndThaw(List<Hierarchy> hierarchies, CgroupPath path) throws IOException {
    try {
      killAll(hierarchies, path);
    } catch (IOException | RuntimeException e) {
      try {
        thawAll(hierarchies, path);
      } catch (IOException | RuntimeException thaw) {
        e.addSuppressed(thaw);
      }
      throw e;
    }
    thawAll(hierarchies, path);
  }

  /**
   * Thaws {@code path} and every cgroup below it that is frozen on its own, in every freezer; a
   * failure in one freezer does not stop the others (the first is thrown, the rest suppressed).
   */
  public void thawAll(List<Hierarchy> hierarchies, CgroupPath path) throws IOException {
    IOException failure = null;
    for (Hierarchy h : hierarchies) {
      try {
        if ((h.has("freezer") || h.version() == CgroupVersion.V2) && fs.exists(h, path)) {
          thaw(h, path, true);
        }
      } catch (IOException e) {
        failure = Errors.keepFirst(failure, e);
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private void signal(
      TreeSet<Long> pids, Hierarchy unified, Hierarchy freezer, CgroupPath path, boolean cgroupKill)
      throws IOException {
    if (cgroupKill) {
      fs.write(unified, path, "cgroup.kill", "1");
    }
    boolean froze = freezer != null && !path.isRoot() && fs.exists(freezer, path);
    if (froze) {
      fs.write(
          freezer,
          path,
          freezer.version() == CgroupVersion.V1 ? STATE : FREEZE,
          freezer.version() == CgroupVersion.V1 ? "FROZEN" : "1");
      pids.addAll(members(List.of(freezer), path)); // what forked before the freeze took hold
    }
    try {
      for (long pid : pids) {
        try {
          fs.kill(pid);
        } catch (CgroupFsException e) {
          if (e.errno() != Errno.ESRCH) {
            throw e;
          }
        }
      }
    } finally {
      if (froze) {
        thaw(freezer, path, true);
      }
    }
  }

  /**
   * Thaws the cgroup, then every cgroup below that is frozen on its own (a parent's thaw leaves
   * those). A cgroup below that vanishes meanwhile is skipped. {@code h} is the v1 freezer
   * hierarchy or the unified one.
   */
  private void thaw(Hierarchy h, CgroupPath path, boolean top) throws IOException {
    try {
      if (path.isRoot()) {
        // the root cgroup has no freezer file and cannot be frozen
      } else if (h.version() == CgroupVersion.V1) {
        if (top || fs.read(h, path, "freezer.self_freezing").strip().equals("1")) {
          fs.write(h, path, STATE, "THAWED");
        }
      } else if (fs.read(h, path, FREEZE).strip().equals("1")) {
        fs.write(h, path, FREEZE, "0");
      }
      for (String child : fs.children(h, path)) {
        thaw(h, path.resolve(child), false);
      }
    } catch (CgroupFsException e) {
      if (top || e.errno() != Errno.ENOENT) {
        throw e;
      }
    }
  }

  private TreeSet<Long> members(List<Hierarchy> hierarchies, CgroupPath path) throws IOException {
    TreeSet<Long> pids = new TreeSet<>();
    for (Hierarchy h : hierarchies) {
      if (fs.exists(h, path)) {
        pids.addAll(Members.of(fs, h, path, "cgroup.procs", true));
      }
    }
    return pids;
  }

  /** {@code "memory:/sys/fs/cgroup/memory/job=[12, 13], ..."}: where the survivors are. */
  private String whereabouts(List<Hierarchy> hierarchies, CgroupPath path) throws IOException {
    TreeMap<String, TreeSet<Long>> out = new TreeMap<>();
    for (Hierarchy h : hierarchies) {
      if (fs.exists(h, path)) {
        TreeSet<Long> pids = Members.of(fs, h, path, "cgroup.procs", true);
        if (!pids.isEmpty()) {
          out.put(h.label() + ":" + h.display(path, null), pids);
        }
      }
    }
    return out.toString();
  }

  private static Hierarchy find(List<Hierarchy> hs, java.util.function.Predicate<Hierarchy> p) {
    return hs.stream().filter(p).findFirst().orElse(null);
  }

  private static void pause() throws IOException {
    try {
      Thread.sleep(5);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while killing a container's processes", e);
    }
  }
}
