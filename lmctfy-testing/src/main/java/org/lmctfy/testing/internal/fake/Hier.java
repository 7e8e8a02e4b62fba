package org.lmctfy.testing.internal.fake;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;

/** One mounted hierarchy: its tree, its controllers' files and which cgroup each task is in. */
final class Hier {
  /** A file of a cgroup and the controller that answers for it. */
  record Binding(Controller controller, FileSpec spec) {}

  final Hierarchy hierarchy;
  final Machine machine;
  final Processes processes;
  /** Core first, then the controllers in kernel order (for v2: the ones the root offers). */
  final List<Controller> controllers;
  final Node root;
  private final Map<Long, Node> cgroupOfTid = new HashMap<>();
  private final Map<String, Map<String, Binding>> fileTables = new HashMap<>();

  Hier(Hierarchy hierarchy, Machine machine, Processes processes, List<Controller> controllers) {
    this.hierarchy = hierarchy;
    this.machine = machine;
    this.processes = processes;
    this.controllers = List.copyOf(controllers);
    this.root = new Node(this, null, "");
  }

  boolean isV2() {
    return hierarchy.version() == CgroupVersion.V2;
  }

  /** The cgroup at {@code path}, or null. */
  Node find(CgroupPath path) {
    Node n = root;
    for (String c : path.components()) {
      n = n.child(c);
      if (n == null) {
        return null;
      }
    }
    return n;
  }

  /**
   * The files of a cgroup, by name. v1: fixed per root/child. v2: the core's plus those of the
   * controllers enabled in the parent's cgroup.subtree_control (all of them at the root).
   */
  Map<String, Binding> files(Node node) {
    String key;
    if (node.isRoot()) {
      key = "/";
    } else if (isV2()) {
      key = CoreV2.subtreeControl(node.parent);
    } else {
      key = "";
    }
    return fileTables.computeIfAbsent(key, k -> table(node.isRoot(), k));
  }

  private Map<String, Binding> table(boolean isRoot, String enabledList) {
    List<String> enabled = List.of(enabledList.strip().split(" "));
    Map<String, Binding> out = new LinkedHashMap<>();
    for (Controller c : controllers) {
      boolean present = isRoot || !isV2() || c.name().isEmpty() || enabled.contains(c.name());
      if (present) {
        for (FileSpec f : c.files()) {
          if (f.existsIn(isRoot)) {
            out.put(f.name(), new Binding(c, f));
          }
        }
      }
    }
    return Map.copyOf(out);
  }

  /** The controllers of this hierarchy whose state a cgroup has (v2: as enabled by the parent). */
  List<Controller> activeControllers(Node node) {
    if (node.isRoot() || !isV2()) {
      return controllers;
    }
    List<String> enabled = List.of(CoreV2.subtreeControl(node.parent).strip().split(" "));
    List<Controller> out = new ArrayList<>();
    for (Controller c : controllers) {
      if (c.name().isEmpty() || enabled.contains(c.name())) {
        out.add(c);
      }
    }
    return out;
  }

  Node cgroupOf(long tid) {
    return cgroupOfTid.get(tid);
  }

  /** Puts a task into a cgroup, leaving its old one. */
  void place(long tid, Node target) {
    Node old = cgroupOfTid.put(tid, target);
    if (old != null) {
      old.removeTid(tid);
    }
    target.addTid(tid);
  }

  void drop(long tid) {
    Node old = cgroupOfTid.remove(tid);
    if (old != null) {
      old.removeTid(tid);
    }
  }

  /** Checks every active controller accepts a task moving into {@code target}. */
  void checkAttach(Node target) {
    for (Controller c : activeControllers(target)) {
      c.checkAttach(target);
    }
  }

  /** Every cgroup, parents before children, siblings sorted. */
  List<Node> walk() {
    List<Node> out = new ArrayList<>();
    walk(root, out);
    return out;
  }

  private static void walk(Node n, List<Node> out) {
    out.add(n);
    for (Node c : n.children().values()) {
      walk(c, out);
    }
  }
}
