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

  /**
   * Every cgroup of the tree by its path, kept in step by {@link #add} and {@link #remove}, the
   * only ways the tree changes: a lookup is one hash probe instead of a walk over split components.
   */
  private final Map<CgroupPath, Node> byPath = new HashMap<>();

  private final Shape rootShape;

  /** v1: every child's shape. */
  private final Shape childShape;

  /**
   * v2: a child's shape by its parent's cgroup.subtree_control, of which it is a fixed function.
   */
  private final Map<String, Shape> v2ChildShapes = new HashMap<>();

  /** What a cgroup has: the controllers whose state it keeps and its files by name. */
  private record Shape(List<Controller> controllers, Map<String, Binding> files) {}

  /**
   * @param namespaceRoot null for a mount of the whole hierarchy; else the path, in the whole
   *     hierarchy, of the cgroup that is the root of the cgroup namespace this hierarchy is seen
   *     from: its ancestors are made too, outside the namespace (not reachable by any path, as the
   *     kernel hides them), so that their files (the hierarchy limits, the controllers they enable)
   *     apply as the kernel applies them
   */
  Hier(
      Hierarchy hierarchy,
      Machine machine,
      Processes processes,
      List<Controller> controllers,
      CgroupPath namespaceRoot) {
    this.hierarchy = hierarchy;
    this.machine = machine;
    this.processes = processes;
    this.controllers = List.copyOf(controllers);
    this.rootShape = shape(true, "");
    this.childShape = shape(false, "");
    if (namespaceRoot == null) {
      this.root = new Node(this, null, "", CgroupPath.root());
    } else {
      Node above = new Node(this, null, "", CgroupPath.root());
      CgroupPath at = CgroupPath.root();
      for (String name : namespaceRoot.parent().components()) {
        at = at.resolve(name);
        above = addOutside(above, name, at);
      }
      this.root = new Node(this, above, namespaceRoot.name(), CgroupPath.root());
      above.addChild(root);
    }
    byPath.put(root.path, root);
  }

  /**
   * Whether {@code node} is the root of the cgroup namespace this hierarchy is seen from (which has
   * a parent, outside the namespace), rather than the hierarchy's own root.
   */
  boolean isNamespaceRoot(Node node) {
    return node == root && !node.isRoot();
  }

  /**
   * Makes a cgroup outside the namespace below {@code parent}, at {@code hostPath} of the whole
   * hierarchy: no path of this hierarchy reaches it, as the kernel hides it from the namespace.
   */
  Node addOutside(Node parent, String name, CgroupPath hostPath) {
    Node node = new Node(this, parent, name, hostPath);
    parent.addChild(node);
    return node;
  }

  boolean isV2() {
    return hierarchy.version() == CgroupVersion.V2;
  }

  /**
   * The last path looked up and its cgroup (or null): one operation of the library passes the same
   * path object for several calls in a row, and an identity test costs less than hashing. Reset by
   * every add and remove; like the index, only used under the fake's lock.
   */
  private CgroupPath lastPath;

  private Node lastNode;

  /**
   * The last parent's cgroup.subtree_control given to shape() and its children's shape: a fixed
   * function.
   */
  private String lastEnabled;

  private Shape lastShape;

  /** The cgroup at {@code path}, or null. */
  Node find(CgroupPath path) {
    if (path != lastPath) {
      lastNode = byPath.get(path);
      lastPath = path;
    }
    return lastNode;
  }

  /**
   * Makes the new cgroup {@code path} (its name is {@code name}) under {@code parent}, which has no
   * such child.
   */
  Node add(Node parent, String name, CgroupPath path) {
    Node node = new Node(this, parent, name, path);
    parent.addChild(node);
    byPath.put(node.path, node);
    lastPath = null;
    return node;
  }

  /** Removes a cgroup that has no children. */
  void remove(Node node) {
    node.parent.removeChild(node.name);
    byPath.remove(node.path);
    lastPath = null;
  }

  /**
   * The files of a cgroup, by name. v1: fixed per root/child. v2: the core's plus those of the
   * controllers enabled in the parent's cgroup.subtree_control (all of them at the root).
   */
  Map<String, Binding> files(Node node) {
    return shape(node).files();
  }

  /** The controllers of this hierarchy whose state a cgroup has (v2: as enabled by the parent). */
  List<Controller> activeControllers(Node node) {
    return shape(node).controllers();
  }

  private Shape shape(Node node) {
    if (node.isRoot()) {
      return rootShape;
    }
    if (!isV2()) {
      return childShape;
    }
    String enabled = CoreV2.subtreeControl(node.parent);
    if (enabled == lastEnabled) { // the same stored value as the last call's: identity, not hashing
      return lastShape;
    }
    Shape s = v2ChildShapes.get(enabled);
    if (s == null) {
      s = shape(false, enabled);
      v2ChildShapes.put(enabled, s);
    }
    lastEnabled = enabled;
    lastShape = s;
    return s;
  }

  private Shape shape(boolean isRoot, String enabledList) {
    List<String> enabled = List.of(enabledList.strip().split(" "));
    List<Controller> active = new ArrayList<>();
    Map<String, Binding> files = new LinkedHashMap<>();
    for (Controller c : controllers) {
      if (isRoot || !isV2() || c.name().isEmpty() || enabled.contains(c.name())) {
        active.add(c);
        for (FileSpec f : c.files()) {
          if (f.existsIn(isRoot) && !machine.absentFiles().contains(f.name())) {
            files.put(f.name(), new Binding(c, f));
          }
        }
      }
    }
    return new Shape(List.copyOf(active), Map.copyOf(files));
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
