package org.lmctfy.internal.process;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
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
 * Empties a cgroup (one path in several hierarchies) of processes: {@code cgroup.kill} where the
 * unified hierarchy has it, otherwise freeze (v1 freezer), SIGKILL every member, thaw, repeated
 * until every hierarchy's {@code cgroup.procs} is empty or the deadline passes. Freezing first
 * stops a fork loop from outrunning the kills; thawing lets the frozen die.
 */
public final class ProcessKiller {
  private final CgroupFs fs;
  private final Duration deadline;

  public ProcessKiller(CgroupFs fs, Duration deadline) {
    this.fs = fs;
    this.deadline = deadline;
  }

  /** Kills every process at {@code path} in {@code hierarchies} (which hold only leaves here). */
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
            + " survived SIGKILL for " + deadline.toMillis() + " ms");
      }
      if (round == 0 || round % 10 == 0) {
        signal(pids, unified, freezer, path, cgroupKill);
      }
      pause();
    }
  }

  private void signal(TreeSet<Long> pids, Hierarchy unified, Hierarchy freezer, CgroupPath path, boolean cgroupKill)
      throws IOException {
    if (cgroupKill) {
      fs.write(unified, path, "cgroup.kill", "1");
    }
    boolean froze = freezer != null && fs.exists(freezer, path);
    if (froze) {
      fs.write(freezer, path, "freezer.state", "FROZEN");
      pids = members(List.of(freezer), path, pids);
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
        fs.write(freezer, path, "freezer.state", "THAWED");
      }
    }
  }

  private TreeSet<Long> members(List<Hierarchy> hierarchies, CgroupPath path) throws IOException {
    return members(hierarchies, path, new TreeSet<>());
  }

  private TreeSet<Long> members(List<Hierarchy> hierarchies, CgroupPath path, TreeSet<Long> into)
      throws IOException {
    for (Hierarchy h : hierarchies) {
      if (!fs.exists(h, path)) {
        continue;
      }
      for (String line : fs.read(h, path, "cgroup.procs").split("\n")) {
        if (!line.isBlank()) {
          into.add(Long.parseLong(line.strip()));
        }
      }
    }
    return into;
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
