package org.lmctfy.testing.internal.fake;

import static org.lmctfy.testing.internal.fake.FileSpec.ro;
import static org.lmctfy.testing.internal.fake.FileSpec.rw;
import static org.lmctfy.testing.internal.fake.FileSpec.wo;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.lmctfy.cgroupfs.Errno;

/**
 * The core files of the v2 hierarchy. Checked on this machine's /sys/fs/cgroup/unified: which files
 * exist at the root and below it, their initial content, that an empty controller list reads "" (no
 * newline), that cgroup.subtree_control refuses a token without +/- and an unknown controller
 * (EINVAL) and one not in cgroup.controllers (ENOENT), and accepts "-x" for one not enabled;
 * cgroup.max.descendants/depth ("max", negative ERANGE, garbage EINVAL, mkdir beyond them EAGAIN);
 * cgroup.freeze 0/1 (2 ERANGE), cgroup.kill only 1 (0, 2 ERANGE; reading it EINVAL); cgroup.type
 * "domain" that takes only "threaded" (then cgroup.procs reads EOPNOTSUPP, the parent reads "domain
 * threaded", its siblings and new children "domain invalid"); unknown pids ESRCH. From
 * Documentation/admin-guide/cgroup-v2.rst: no internal processes (cgroup.procs EBUSY where
 * subtree_control is not empty, enabling EBUSY where there are processes) except for threaded
 * controllers (cpuset, cpu, perf_event, pids), which make such a cgroup a thread root where a
 * domain controller is EOPNOTSUPP (checked on 6.12); "+perf_event" ENOENT, "-perf_event" accepted;
 * cgroup.kill of a threaded cgroup EOPNOTSUPP; disabling what a child still enables EBUSY,
 * controller files follow the parent's subtree_control, cgroup.kill kills the subtree,
 * cgroup.threads moves one thread within its threaded subtree (from its thread root into a threaded
 * cgroup below it, and back; EOPNOTSUPP across subtrees, checked on 6.1 and 6.12).
 */
final class CoreV2 extends Controller {
  static final String SUBTREE = "cgroup.subtree_control";

  /** Controllers every v2 cgroup has without enabling them (cgroup.stat counts them). */
  private static final List<String> IMPLICIT = List.of("perf_event");

  /**
   * The threaded controllers (cgrp_dfl_threaded_ss_mask): they may share a cgroup with processes.
   */
  private static final Set<String> THREADED = Set.of("cpuset", "cpu", "perf_event", "pids");

  private static final String PSI =
      "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
          + "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n";
  private static final String CPU_STAT = "usage_usec 0\nuser_usec 0\nsystem_usec 0\nnice_usec 0\n";
  private static final String CPU_STAT_BANDWIDTH =
      "nr_periods 0\nnr_throttled 0\nthrottled_usec 0\nnr_bursts 0\nburst_usec 0\n";

  private static final List<FileSpec> FILES =
      List.of(
          ro("cgroup.controllers", null),
          ro("cgroup.events", null).childOnly(),
          rw("cgroup.freeze", "0\n").childOnly(),
          wo("cgroup.kill").childOnly(),
          rw("cgroup.max.depth", "max\n"),
          rw("cgroup.max.descendants", "max\n"),
          rw("cgroup.pressure", "1\n"),
          rw("cgroup.procs", null),
          ro("cgroup.stat", null),
          ro("cgroup.stat.local", "frozen_usec 0\n").childOnly(),
          rw(SUBTREE, ""),
          rw("cgroup.threads", null),
          rw("cgroup.type", "domain\n").childOnly(),
          rw("cpu.pressure", PSI),
          ro("cpu.stat", null),
          ro("cpu.stat.local", null),
          rw("io.pressure", PSI),
          rw("memory.pressure", PSI));

  static final CoreV2 INSTANCE = new CoreV2();

  private CoreV2() {
    super("", FILES);
  }

  static String subtreeControl(Node node) {
    String v = node.value(SUBTREE);
    return v == null ? "" : v;
  }

  /** What the cgroup may enable: the root offers all its controllers, a child its parent's. */
  static Set<String> available(Node node) {
    if (!node.isRoot()) {
      return words(subtreeControl(node.parent));
    }
    Set<String> all = new LinkedHashSet<>();
    for (Controller c : node.hier.controllers) {
      if (!c.name().isEmpty()) {
        all.add(c.name());
      }
    }
    return all;
  }

  private static Set<String> words(String list) {
    Set<String> out = new LinkedHashSet<>();
    for (String w : list.strip().split(" ")) {
      if (!w.isEmpty()) {
        out.add(w);
      }
    }
    return out;
  }

  private static String print(Set<String> names) {
    List<String> sorted = new ArrayList<>(names);
    sorted.sort(Subsystems.ORDER);
    return sorted.isEmpty() ? "" : String.join(" ", sorted) + "\n";
  }

  static boolean frozen(Node node) {
    for (Node n = node; n != null; n = n.parent) {
      if ("1\n".equals(n.value("cgroup.freeze"))) {
        return true;
      }
    }
    return false;
  }

  /** The nearest cgroup from {@code node} up that is not threaded: the domain of its threads. */
  private static Node threadDomain(Node node) {
    Node n = node;
    while (threaded(n) && !n.isRoot()) {
      n = n.parent;
    }
    return n;
  }

  private static boolean threaded(Node node) {
    return "threaded\n".equals(node.value("cgroup.type"));
  }

  /**
   * cgroup_is_thread_root(): a domain with a threaded child, or with processes and a threaded
   * controller enabled for its children (checked on 6.12: such a cgroup reads "domain threaded").
   */
  private static boolean threadRoot(Node node) {
    if (threaded(node)) {
      return false;
    }
    for (Node c : node.children().values()) {
      if (threaded(c)) {
        return true;
      }
    }
    if (node.hasTasks()) {
      for (String c : words(subtreeControl(node))) {
        if (THREADED.contains(c)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * cgroup_can_be_thread_root(): the root; else a domain with no populated domain child and no
   * domain controller enabled for its children. Such a cgroup may hold processes beside threaded
   * controllers (checked on 6.12: "+pids" and "+cpu" with a process in the cgroup are accepted).
   */
  private static boolean canBeThreadRoot(Node node) {
    if (node.isRoot()) {
      return true;
    }
    if (threaded(node)) {
      return false;
    }
    for (Node c : node.children().values()) {
      if (!threaded(c) && c.populated()) {
        return false;
      }
    }
    for (String c : words(subtreeControl(node))) {
      if (!THREADED.contains(c)) {
        return false;
      }
    }
    return true;
  }

  /**
   * cgroup_is_valid_domain(): not threaded, and no ancestor is threaded or a thread root other than
   * the root (checked: a sibling of a threaded cgroup and a new child of one read "domain
   * invalid").
   */
  private static boolean validDomain(Node node) {
    if (threaded(node)) {
      return false;
    }
    for (Node a = node.parent; a != null; a = a.parent) {
      if (threaded(a) || (!a.isRoot() && threadRoot(a))) {
        return false;
      }
    }
    return true;
  }

  private static String type(Node node) {
    if (threaded(node)) {
      return "threaded\n";
    }
    if (!validDomain(node)) {
      return "domain invalid\n";
    }
    return threadRoot(node) ? "domain threaded\n" : "domain\n";
  }

  /**
   * The last parent's subtree_control and the cgroup.controllers it makes: read on every create.
   */
  private record Printed(String subtreeControl, String controllers) {}

  private volatile Printed lastPrinted;

  private String controllersText(Node node) {
    if (node.isRoot()) {
      return print(available(node));
    }
    String given = subtreeControl(node.parent);
    Printed last = lastPrinted;
    if (last == null || !last.subtreeControl().equals(given)) {
      last = new Printed(given, print(words(given)));
      lastPrinted = last;
    }
    return last.controllers();
  }

  private static boolean active(Node node, String controller) {
    return available(node).contains(controller);
  }

  @Override
  public String read(Node node, FileSpec file) {
    return switch (file.name()) {
      case "cgroup.controllers" -> controllersText(node);
      case "cgroup.events" ->
          "populated " + (node.populated() ? 1 : 0) + "\nfrozen " + (frozen(node) ? 1 : 0) + "\n";
      case "cgroup.procs" -> {
        if (threaded(node)) {
          throw KernelError.of(Errno.EOPNOTSUPP);
        }
        yield Tasks.procs(node);
      }
      case "cgroup.threads" -> Tasks.tasks(node);
      case "cgroup.type" -> type(node);
      case "cgroup.stat" -> stat(node);
      case "cpu.stat" ->
          node.value(file.name()) != null
              ? node.value(file.name()) // a test's setKernelValue
              : active(node, "cpu") ? CPU_STAT + CPU_STAT_BANDWIDTH : CPU_STAT;
      case "cpu.stat.local" -> active(node, "cpu") ? "throttled_usec 0\n" : "";
      default -> super.read(node, file);
    };
  }

  private static String stat(Node node) {
    Set<String> counted = new TreeSet<>(Subsystems.ORDER);
    counted.addAll(IMPLICIT);
    counted.addAll(available(node.hier.root));
    StringBuilder sb = new StringBuilder("nr_descendants ").append(node.descendants()).append('\n');
    for (String c : counted) {
      sb.append("nr_subsys_").append(c).append(' ').append(withCss(node, c)).append('\n');
    }
    sb.append("nr_dying_descendants 0\n");
    for (String c : counted) {
      sb.append("nr_dying_subsys_").append(c).append(" 0\n");
    }
    return sb.toString();
  }

  /** Cgroups in the subtree that have the controller (checked: perf_event counts every one). */
  private static int withCss(Node node, String controller) {
    int n = IMPLICIT.contains(controller) || active(node, controller) ? 1 : 0;
    for (Node c : node.children().values()) {
      n += withCss(c, controller);
    }
    return n;
  }

  @Override
  public void write(Node node, FileSpec file, String value) {
    String name = file.name();
    switch (name) {
      case SUBTREE -> writeSubtreeControl(node, value);
      case "cgroup.procs" -> {
        long tid = Tasks.target(node, value);
        if (threaded(node) || !validDomain(node)) { // cgroup_migrate_vet_dst()
          throw KernelError.of(Errno.EOPNOTSUPP);
        }
        if (!node.isRoot() && !subtreeControl(node).isEmpty() && !canBeThreadRoot(node)) {
          throw KernelError.of(Errno.EBUSY);
        }
        Tasks.moveProcess(node, tid);
      }
      case "cgroup.threads" -> {
        long tid = Tasks.target(node, value);
        Node from = node.hier.cgroupOf(tid);
        if (from == node) {
          return;
        }
        if (from == null
            || threadDomain(from) != threadDomain(node)
            || !validDomain(threadDomain(node))) {
          throw KernelError.of(Errno.EOPNOTSUPP); // a thread moves only within its threaded subtree
        }
        Tasks.moveThread(node, tid);
      }
      case "cgroup.max.depth", "cgroup.max.descendants" -> {
        String s = Numbers.strip(value);
        if (s.equals("max")) {
          node.forget(name);
        } else if (Numbers.kstrtoint(s) < 0) {
          throw KernelError.of(Errno.ERANGE);
        } else {
          node.put(name, Numbers.kstrtoint(s) + "\n");
        }
      }
      case "cgroup.freeze" -> node.put(name, zeroOrOne(value) + "\n");
      case "cgroup.pressure" -> node.put(name, zeroOrOne(value) + "\n");
      case "cgroup.kill" -> {
        if (Numbers.kstrtoint(value) != 1) {
          throw KernelError.of(Errno.ERANGE);
        }
        if (threaded(node)) { // kills whole processes: not in a cgroup that holds only threads
          throw KernelError.of(Errno.EOPNOTSUPP);
        }
        kill(node);
      }
      case "cgroup.type" -> {
        if (!Numbers.strip(value).equals("threaded")) {
          throw KernelError.of(Errno.EINVAL);
        }
        node.put(name, "threaded\n");
      }
      // A PSI trigger ("some 150000 1000000") lives as long as the open file; nothing to keep.
      default -> {
        String s = Numbers.strip(value);
        if (!s.startsWith("some ") && !s.startsWith("full ")) {
          throw KernelError.of(Errno.EINVAL);
        }
      }
    }
  }

  private static int zeroOrOne(String value) {
    int v = Numbers.kstrtoint(value);
    if (v != 0 && v != 1) {
      throw KernelError.of(Errno.ERANGE);
    }
    return v;
  }

  private static void kill(Node node) {
    Set<Long> pids = new TreeSet<>();
    collect(node, pids);
    for (long pid : pids) {
      node.hier.processes.kill(pid);
    }
  }

  private static void collect(Node node, Set<Long> pids) {
    for (long tid : node.tids()) {
      pids.add(node.hier.processes.pidOf(tid));
    }
    for (Node c : node.children().values()) {
      collect(c, pids);
    }
  }

  private static void writeSubtreeControl(Node node, String value) {
    Set<String> enable = new LinkedHashSet<>();
    Set<String> disable = new LinkedHashSet<>();
    for (String tok : Numbers.strip(value).split("\\s+")) {
      if (tok.isEmpty()) {
        continue;
      }
      String c = tok.substring(1);
      if ((tok.charAt(0) != '+' && tok.charAt(0) != '-')
          || !Subsystems.KERNEL_ORDER.contains(c)
          || c.equals("blkio")) {
        throw KernelError.of(Errno.EINVAL);
      }
      if (IMPLICIT.contains(
          c)) { // on in every cgroup, never in cgroup.controllers (checked on 6.12)
        if (tok.charAt(0) == '+') {
          throw KernelError.of(Errno.ENOENT);
        }
        continue;
      }
      if (tok.charAt(0) == '+') {
        enable.add(c);
        disable.remove(c);
      } else {
        disable.add(c);
        enable.remove(c);
      }
    }
    Set<String> current = words(subtreeControl(node));
    enable.removeAll(current);
    disable.retainAll(current);
    for (String c : enable) {
      if (!available(node).contains(c)) {
        throw KernelError.of(Errno.ENOENT);
      }
    }
    for (String c : disable) {
      for (Node child : node.children().values()) {
        if (words(subtreeControl(child)).contains(c)) {
          throw KernelError.of(Errno.EBUSY);
        }
      }
    }
    if (!enable.isEmpty() && !node.isRoot()) { // cgroup_vet_subtree_control_enable()
      if (!threaded(node) && !validDomain(node)) {
        throw KernelError.of(Errno.EOPNOTSUPP);
      }
      boolean domainEnable = enable.stream().anyMatch(c -> !THREADED.contains(c));
      if (domainEnable && (threadRoot(node) || threaded(node))) {
        throw KernelError.of(Errno.EOPNOTSUPP); // no domain controller inside a thread subtree
      }
      if ((domainEnable || !(canBeThreadRoot(node) || threaded(node))) && node.hasTasks()) {
        throw KernelError.of(Errno.EBUSY);
      }
    }
    current.addAll(enable);
    current.removeAll(disable);
    for (Node child : node.children().values()) {
      forgetFiles(child, disable);
    }
    if (current.isEmpty()) {
      node.forget(SUBTREE);
    } else {
      node.put(SUBTREE, print(current));
    }
  }

  /** A disabled controller's state goes with it: enabling it again starts from the defaults. */
  private static void forgetFiles(Node child, Set<String> disabled) {
    for (Controller c : child.hier.controllers) {
      if (disabled.contains(c.name())) {
        for (FileSpec f : c.files()) {
          child.forget(f.name());
        }
      }
    }
  }
}
