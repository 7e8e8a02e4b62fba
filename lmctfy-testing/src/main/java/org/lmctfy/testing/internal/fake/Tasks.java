package org.lmctfy.testing.internal.fake;

import java.util.TreeSet;
import org.lmctfy.cgroupfs.Errno;

/** cgroup.procs, tasks and cgroup.threads: reading members and moving tasks, v1 and v2. */
final class Tasks {
  private Tasks() {}

  /**
   * The task a write names: kstrtoint of the stripped value, so "abc", "1 2", "\n" and "-1" are
   * EINVAL (all checked); 0 is the writer itself (checked: writing "0" tried to move the shell); an
   * unknown pid is ESRCH (checked).
   */
  static long target(Node node, String value) {
    int pid = Numbers.kstrtoint(value);
    if (pid < 0) {
      throw KernelError.of(Errno.EINVAL);
    }
    long tid = pid == 0 ? node.hier.processes.selfPid() : pid;
    if (node.hier.processes.pidOf(tid) == null) {
      throw KernelError.of(Errno.ESRCH);
    }
    return tid;
  }

  /** Moves the whole process of {@code tid}: every thread of it in this hierarchy. */
  static void moveProcess(Node target, long tid) {
    Processes p = target.hier.processes;
    target.hier.checkAttach(target);
    for (long t : p.threads(p.pidOf(tid))) {
      target.hier.place(t, target);
    }
  }

  /** Moves one thread. */
  static void moveThread(Node target, long tid) {
    target.hier.checkAttach(target);
    target.hier.place(tid, target);
  }

  /** The distinct processes with a thread in the cgroup, one per line, ascending. */
  static String procs(Node node) {
    if (!node.hasTasks()) {
      return "";
    }
    TreeSet<Long> pids = new TreeSet<>();
    for (long tid : node.tids()) {
      pids.add(node.hier.processes.pidOf(tid));
    }
    return lines(pids);
  }

  static String tasks(Node node) {
    return node.hasTasks() ? lines(node.tids()) : "";
  }

  private static String lines(Iterable<Long> ids) {
    StringBuilder sb = new StringBuilder();
    for (long id : ids) {
      sb.append(id).append('\n');
    }
    return sb.toString();
  }

  /** The kernel's "0"/"1" flag files: any non-zero u64 reads back 1 (checked). */
  static String flag(String value) {
    return Numbers.kstrtoull(value) != 0 ? "1\n" : "0\n";
  }
}
