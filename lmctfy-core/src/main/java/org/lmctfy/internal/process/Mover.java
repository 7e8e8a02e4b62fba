package org.lmctfy.internal.process;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.errors.Errors;

/**
 * Moves threads into a cgroup in several hierarchies, all or nothing. On v1 a tid is written to
 * {@code tasks} (that thread alone moves); on v2 to {@code cgroup.procs} (its whole process moves:
 * v2 domain cgroups hold whole processes). Each thread's cgroups are read first; if a move fails,
 * the moves already made are undone newest first, writing each thread back where it was.
 */
public final class Mover {
  private final CgroupFs fs;

  public Mover(CgroupFs fs) {
    this.fs = fs;
  }

  /** The file a tid is written to in {@code h}. */
  static String file(Hierarchy h) {
    return h.version() == CgroupVersion.V2 ? "cgroup.procs" : "tasks";
  }

  /**
   * Moves {@code tids} into {@code path} in every one of {@code hierarchies}.
   *
   * @param what the operation, for messages ({@code "enter [12] into /job"})
   */
  public void move(List<Long> tids, List<Hierarchy> hierarchies, CgroupPath path, String what) {
    for (Long tid : tids) {
      if (tid == null || tid <= 0) {
        throw new LmctfyException(
            ErrorCode.INVALID_ARGUMENT, what + ": " + tid + " is not a thread id");
      }
    }
    Map<Long, Map<Hierarchy, CgroupPath>> before = new LinkedHashMap<>();
    for (long tid : tids) {
      try {
        before.put(tid, fs.cgroupsOf(tid));
      } catch (IOException e) {
        throw Errors.ofMove(what + ": cannot read the cgroups of " + tid, e);
      }
    }
    checkCommonAncestors(before, hierarchies, path, what);
    Deque<Runnable> undo = new ArrayDeque<>();
    for (long tid : tids) {
      for (Hierarchy h : hierarchies) {
        try {
          fs.write(h, path, file(h), Long.toString(tid));
        } catch (IOException e) {
          List<LmctfyException> failed = new ArrayList<>();
          int made = undo.size();
          for (Runnable step : undo) {
            try {
              step.run();
            } catch (LmctfyException u) {
              failed.add(u);
            }
          }
          LmctfyException failure =
              Errors.ofMove(
                  what
                      + ": moving "
                      + tid
                      + " into "
                      + h.label()
                      + ":"
                      + h.display(path, null)
                      + " failed ("
                      + (made - failed.size())
                      + " of "
                      + made
                      + " moves undone"
                      + (failed.isEmpty()
                          ? ""
                          : "; " + failed.size() + " could not be: see the suppressed exceptions")
                      + ")",
                  e);
          failed.forEach(failure::addSuppressed);
          throw failure;
        }
        CgroupPath back = before.get(tid).get(h);
        undo.push(() -> moveBack(h, back, tid));
      }
    }
  }

  /**
   * Before {@code run} places a new process, which starts in this JVM's cgroups, into {@code path}:
   * the common-ancestor rule below, for the JVM's own process (nothing to check for root).
   */
  public void checkPlacement(List<Hierarchy> hierarchies, CgroupPath path, String what) {
    if (fs.effectiveUid() == 0) {
      return;
    }
    long self = fs.selfPid();
    try {
      checkCommonAncestors(Map.of(self, fs.cgroupsOf(self)), hierarchies, path, what);
    } catch (IOException e) {
      throw Errors.ofMove(what + ": cannot read the cgroups of this process (" + self + ")", e);
    }
  }

  /**
   * cgroup v2 moves a process only for a writer that may write the {@code cgroup.procs} of the
   * common ancestor of its cgroup and the destination: checked before anything moves, so that a
   * user on its delegated subtree gets PERMISSION_DENIED naming that file rather than a half-made
   * move. Root may write every file; another user must own it.
   */
  private void checkCommonAncestors(
      Map<Long, Map<Hierarchy, CgroupPath>> before,
      List<Hierarchy> hierarchies,
      CgroupPath path,
      String what) {
    int self = fs.effectiveUid();
    if (self == 0) {
      return;
    }
    for (Map.Entry<Long, Map<Hierarchy, CgroupPath>> tid : before.entrySet()) {
      for (Hierarchy h : hierarchies) {
        CgroupPath from = tid.getValue().get(h);
        if (h.version() != CgroupVersion.V2 || from == null) {
          continue;
        }
        CgroupPath ancestor = commonAncestor(from, path);
        int owner;
        try {
          owner = fs.owner(h, ancestor, "cgroup.procs").uid();
        } catch (IOException e) {
          throw Errors.ofMove(
              what
                  + ": cannot read the owner of the common ancestor "
                  + h.display(ancestor, "cgroup.procs"),
              e);
        }
        if (owner != self) {
          throw new LmctfyException(
              ErrorCode.PERMISSION_DENIED,
              what
                  + ": moving "
                  + tid.getKey()
                  + " from "
                  + h.display(from, null)
                  + " into "
                  + h.display(path, null)
                  + " needs write access to the common ancestor's "
                  + h.display(ancestor, "cgroup.procs")
                  + " (cgroup v2's rule), which belongs to uid "
                  + owner
                  + ", not to uid "
                  + self
                  + "; nothing was moved"
                  + (tid.getKey() == fs.selfPid()
                      ? " (a process run starts in this JVM's cgroup)"
                      : ""));
        }
      }
    }
  }

  private static CgroupPath commonAncestor(CgroupPath a, CgroupPath b) {
    CgroupPath p = CgroupPath.root();
    List<String> x = a.components();
    List<String> y = b.components();
    for (int i = 0; i < Math.min(x.size(), y.size()) && x.get(i).equals(y.get(i)); i++) {
      p = p.resolve(x.get(i));
    }
    return p;
  }

  private void moveBack(Hierarchy h, CgroupPath back, long tid) {
    if (back == null) {
      throw new LmctfyException(
          ErrorCode.FAILED_PRECONDITION,
          "cannot move " + tid + " back in " + h.label() + ": its cgroup there was not visible");
    }
    try {
      fs.write(h, back, file(h), Long.toString(tid));
    } catch (IOException e) {
      throw Errors.ofMove(
          "moving " + tid + " back to " + h.label() + ":" + h.display(back, null), e);
    }
  }
}
