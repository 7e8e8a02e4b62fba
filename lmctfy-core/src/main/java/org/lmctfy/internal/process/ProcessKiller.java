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

/**
 * Empties a cgroup (one path in several hierarchies) and every cgroup below it of processes:
 * {@code cgroup.kill} where the unified hierarchy has it, and freeze (v1 freezer, which freezes the
 * subtree), SIGKILL every member, thaw, repeated until every hierarchy's subtree is empty or the
 * deadline passes. Freezing first stops a fork loop from outrunning the kills; thawing (the cgroup
 * and any cgroup below that was frozen on its own) lets the frozen die.
 */
public final class ProcessKiller {
  private static final String STATE = "freezer.state";

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
    Hierarchy freezer = find(hierarchies, h -> h.has("freezer"));
    boolean cgroupKill = unified != null && fs.hasFile(unified, path, "cgroup.kill");
    for (int round = 0; ; round++) {
      TreeSet<Long> pids = members(hierarchies, path);
      if (pids.isEmpty()) {
        return;
      }
      if (System.nanoTime() > end) {
        throw new LmctfyException(ErrorCode.DEADLINE_EXCEEDED, "processes " + pids + " in cgroup " + path
            + " or below survived SIGKILL for " + deadline.toMillis() + " ms: " + whereabouts(hierarchies, path));
      }
      if (round == 0 || round % 10 == 0) {
        signal(pids, hierarchies, unified, freezer, path, cgroupKill);
      }
      pause();
    }
  }

  private void signal(TreeSet<Long> pids, List<Hierarchy> hierarchies, Hierarchy unified, Hierarchy freezer,
      CgroupPath path, boolean cgroupKill) throws IOException {
    if (cgroupKill) {
      fs.write(unified, path, "cgroup.kill", "1");
    }
    boolean froze = freezer != null && fs.exists(freezer, path);
    if (froze) {
      fs.write(freezer, path, STATE, "FROZEN");
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
        thaw(freezer, path);
      }
    }
  }

  /** Thaws the cgroup, then every cgroup below that is frozen on its own (a parent's thaw leaves those). */
  private void thaw(Hierarchy freezer, CgroupPath path) throws IOException {
    fs.write(freezer, path, STATE, "THAWED");
    for (String child : fs.children(freezer, path)) {
      CgroupPath c = path.resolve(child);
      if (fs.read(freezer, c, "freezer.self_freezing").strip().equals("1")) {
        fs.write(freezer, c, STATE, "THAWED");
      }
      thaw(freezer, c);
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
