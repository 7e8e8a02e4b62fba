package org.lmctfy.testing.internal.fake;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/** The fake's process table: pids, their threads, and every task's cgroup in each hierarchy. */
final class Processes {
  private final TreeMap<Long, TreeSet<Long>> threadsOf = new TreeMap<>();
  private final Map<Long, Long> pidOfTid = new HashMap<>();
  private final List<Hier> hiers;
  private final long selfPid;
  private final Map<Long, Integer> exitStatus = new HashMap<>();

  /** Processes sent SIGKILL while a v1 freezer held them: they die when thawed. */
  private final Set<Long> killedWhileFrozen = new TreeSet<>();

  /** Each process in a virtual host, to the init of its pid namespace (an init maps to itself). */
  private final Map<Long, Long> initOf = new HashMap<>();

  /**
   * When each process started, in the fake's ticks: with its pid, an identity no reuse can fake.
   */
  private final Map<Long, Long> startTimes = new HashMap<>();

  private long next;
  private long ticks;

  /** Starts with pid 1 and the test's own process, both in every hierarchy's root. */
  Processes(List<Hier> hiers, long selfPid) {
    this.hiers = hiers;
    this.selfPid = selfPid;
    this.next = selfPid + 1;
  }

  void start() {
    add(1, h -> h.root);
    add(selfPid, h -> h.root);
  }

  long selfPid() {
    return selfPid;
  }

  long spawn() {
    long pid = next++;
    add(pid, h -> h.root);
    return pid;
  }

  /**
   * Enters a new process with one thread, placed in each hierarchy's cgroup {@code where} names.
   */
  private void add(long pid, Function<Hier, Node> where) {
    startTimes.put(pid, ++ticks);
    TreeSet<Long> tids = new TreeSet<>();
    tids.add(pid);
    threadsOf.put(pid, tids);
    pidOfTid.put(pid, pid);
    for (Hier h : hiers) {
      h.place(pid, where.apply(h));
    }
  }

  /**
   * A child of {@code parent}, as fork(2) makes it: one thread, in the cgroups of the parent's main
   * thread.
   */
  long fork(long parent) {
    if (!threadsOf.containsKey(parent)) {
      throw new IllegalArgumentException("no such process: " + parent);
    }
    long pid = next++;
    add(pid, h -> h.cgroupOf(parent));
    Long init = initOf.get(parent);
    if (init != null) {
      initOf.put(pid, init); // a child is born in its parent's pid namespace
    }
    return pid;
  }

  /** Whether a freezer, v1 or v2, holds {@code pid}: it runs nothing until thawed. */
  boolean frozen(long pid) {
    if (frozenByV1(pid)) {
      return true;
    }
    for (Hier h : hiers) {
      if (h.hierarchy.version() == org.lmctfy.cgroupfs.CgroupVersion.V2) {
        Node n = h.cgroupOf(pid);
        if (n != null && CoreV2.frozen(n)) {
          return true;
        }
      }
    }
    return false;
  }

  /** A new thread of {@code pid}, in the same cgroups as the process's main thread. */
  long spawnThread(long pid) {
    TreeSet<Long> tids = threadsOf.get(pid);
    if (tids == null) {
      throw new IllegalArgumentException("no such process: " + pid);
    }
    long tid = next++;
    tids.add(tid);
    pidOfTid.put(tid, pid);
    for (Hier h : hiers) {
      h.place(tid, h.cgroupOf(pid));
    }
    return tid;
  }

  /** Keeps the exit status of {@code pid} when it ends, for {@link #exitStatus}. */
  void watch(long pid) {
    exitStatus.put(pid, null);
  }

  /** The status a watched process ended with, or null while it runs (or if it is not watched). */
  Integer exitStatus(long pid) {
    return exitStatus.get(pid);
  }

  void exit(long pid) {
    exit(pid, 0);
  }

  /** Ends {@code pid} with {@code status} (128 + n for signal n, as Java reports it). */
  void exit(long pid, int status) {
    if (exitStatus.containsKey(pid) && threadsOf.containsKey(pid)) {
      exitStatus.put(pid, status);
    }
    TreeSet<Long> tids = threadsOf.remove(pid);
    if (tids == null) {
      throw new IllegalArgumentException("no such process: " + pid);
    }
    for (long tid : tids) {
      pidOfTid.remove(tid);
      for (Hier h : hiers) {
        h.drop(tid);
      }
    }
    startTimes.remove(pid);
    Long init = initOf.remove(pid);
    if (init != null && init == pid) {
      // a pid namespace's init ended: the kernel SIGKILLs every other process in it
      List<Long> members = new ArrayList<>();
      initOf.forEach(
          (member, itsInit) -> {
            if (itsInit == pid) {
              members.add(member);
            }
          });
      for (long member : members) {
        initOf.remove(member);
        if (threadsOf.containsKey(member)) {
          kill(member);
        }
      }
    }
  }

  /** Makes {@code pid} the init of a new pid namespace, a virtual host's. */
  void makeInit(long pid) {
    initOf.put(pid, pid);
  }

  /** Puts {@code pid} into the pid namespace of {@code init}, as a process that joins it. */
  void join(long pid, long init) {
    initOf.put(pid, init);
  }

  /** The init of the virtual host {@code pid} runs in, or null. */
  Long initOf(long pid) {
    return initOf.get(pid);
  }

  /** When {@code pid} started, in ticks; null if it does not run. */
  Long startTime(long pid) {
    return startTimes.get(pid);
  }

  /**
   * SIGKILL, as the kernel delivers it: at once, except to a process that a v1 freezer holds (its
   * cgroup or an ancestor FROZEN), which dies only once it is thawed or moved out (checked on this
   * machine's kernel: it stays in cgroup.procs in state D). The v2 freezer lets it die.
   */
  void kill(long pid) {
    if (!threadsOf.containsKey(pid)) {
      return; // ended meanwhile: a pid namespace's end took it with its init
    }
    if (frozenByV1(pid)) {
      killedWhileFrozen.add(pid);
    } else {
      exit(pid, Kernel.SIGKILLED);
    }
  }

  /** Ends the processes killed while frozen that no v1 freezer holds any more. */
  void settle() {
    if (killedWhileFrozen.isEmpty()) {
      return;
    }
    for (long pid : List.copyOf(killedWhileFrozen)) {
      if (!threadsOf.containsKey(pid)) {
        killedWhileFrozen.remove(pid);
      } else if (!frozenByV1(pid)) {
        killedWhileFrozen.remove(pid);
        exit(pid, Kernel.SIGKILLED);
      }
    }
  }

  private boolean frozenByV1(long pid) {
    for (Hier h : hiers) {
      if (h.hierarchy.version() == org.lmctfy.cgroupfs.CgroupVersion.V1
          && h.hierarchy.has("freezer")) {
        for (long tid : threads(pid)) {
          Node n = h.cgroupOf(tid);
          if (n != null && (FreezerV1.selfFrozen(n) || FreezerV1.parentFrozen(n))) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** The process a task belongs to, or null. */
  Long pidOf(long tid) {
    return pidOfTid.get(tid);
  }

  NavigableSet<Long> threads(long pid) {
    TreeSet<Long> t = threadsOf.get(pid);
    return t == null ? new TreeSet<>() : new TreeSet<>(t);
  }

  Set<Long> pids() {
    return Set.copyOf(threadsOf.keySet());
  }

  /** Every pid with its thread ids, ascending. */
  Map<Long, List<Long>> table() {
    Map<Long, List<Long>> out = new TreeMap<>();
    threadsOf.forEach((pid, tids) -> out.put(pid, new ArrayList<>(tids)));
    return out;
  }

  /** Puts every task of the system into a new hierarchy's root, as a fresh mount does. */
  void enterAll(Hier h) {
    for (long tid : pidOfTid.keySet()) {
      h.place(tid, h.root);
    }
  }
}
