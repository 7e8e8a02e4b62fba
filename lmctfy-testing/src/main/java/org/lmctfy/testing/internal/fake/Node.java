package org.lmctfy.testing.internal.fake;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.lmctfy.cgroupfs.CgroupPath;

/**
 * One cgroup. Everything is allocated lazily: a fresh cgroup is a name and a parent, and its files
 * read their initial content from the controllers until written.
 */
final class Node {
  final Hier hier;
  final Node parent;
  final String name;
  final CgroupPath path;
  private TreeMap<String, Node> children;
  private Map<String, String> values;
  private TreeMap<String, String> markers;
  private int markerChars;
  private Map<String, int[]> owners;
  private TreeSet<Long> tids;
  private Map<String, Object> state;

  /**
   * The device filter of a v2 cgroup (what lmctfy's eBPF program enforces on the kernel), or null.
   */
  java.util.List<org.lmctfy.cgroupfs.DeviceRule> deviceFilter;

  /** systemd's {@code user.delegate=1}: the cgroup of a unit with {@code Delegate=yes}. */
  boolean delegated;

  /** {@code path} is {@code parent}'s path and {@code name}, the root's "/". */
  Node(Hier hier, Node parent, String name, CgroupPath path) {
    this.hier = hier;
    this.parent = parent;
    this.name = name;
    this.path = path;
  }

  boolean isRoot() {
    return parent == null;
  }

  /** The child cgroups by name, ascending. */
  Map<String, Node> children() {
    return children == null ? Collections.emptyMap() : children;
  }

  Node child(String childName) {
    return children == null ? null : children.get(childName);
  }

  /**
   * Only through {@link Hier#add}, which keeps the hierarchy's path index in step, and {@link
   * Hier#addOutside}, whose cgroups no path reaches.
   */
  void addChild(Node child) {
    if (children == null) {
      children = new TreeMap<>();
    }
    children.put(child.name, child);
  }

  /** Only through {@link Hier#remove}. */
  void removeChild(String childName) {
    children.remove(childName);
  }

  /** The stored content of a file, or null if it still has its initial content. */
  String value(String file) {
    return values == null ? null : values.get(file);
  }

  void put(String file, String content) {
    if (values == null) {
      values = new HashMap<>();
    }
    values.put(file, content);
  }

  void forget(String file) {
    if (values != null) {
      values.remove(file);
    }
  }

  /** The markers by key, ascending. */
  SortedMap<String, String> markers() {
    return markers == null ? Collections.emptySortedMap() : markers;
  }

  /** The characters of every marker's key and value, the measure of kernfs's xattr limit. */
  int markerChars() {
    return markerChars;
  }

  void setMarker(String key, String value) {
    if (markers == null) {
      markers = new TreeMap<>();
    }
    String old = markers.put(key, value);
    markerChars += old == null ? key.length() + value.length() : value.length() - old.length();
  }

  void removeMarker(String key) {
    String old = markers == null ? null : markers.remove(key);
    if (old != null) {
      markerChars -= key.length() + old.length();
    }
  }

  /**
   * Who made this cgroup (its directory and files start as theirs, as kernfs does), or null for
   * root.
   */
  int[] creator;

  /** The owner of the directory (file "") or of a file: as chowned, else the creator, else root. */
  int[] owner(String file) {
    int[] o = owners == null ? null : owners.get(file);
    return o != null ? o.clone() : creator != null ? creator.clone() : new int[] {0, 0};
  }

  void setOwner(String file, int[] owner) {
    if (owners == null) {
      owners = new HashMap<>(4);
    }
    owners.put(file, owner.clone());
  }

  /** Thread ids that are members of this cgroup (not of its descendants), ascending. */
  TreeSet<Long> tids() {
    return tids == null ? new TreeSet<>() : tids;
  }

  void addTid(long tid) {
    if (tids == null) {
      tids = new TreeSet<>();
    }
    tids.add(tid);
  }

  void removeTid(long tid) {
    if (tids != null) {
      tids.remove(tid);
    }
  }

  boolean hasTasks() {
    return tids != null && !tids.isEmpty();
  }

  /** Whether this cgroup or a descendant has a member task. */
  boolean populated() {
    if (hasTasks()) {
      return true;
    }
    for (Node c : children().values()) {
      if (c.populated()) {
        return true;
      }
    }
    return false;
  }

  /** Tasks in this cgroup and its descendants. */
  int subtreeTasks() {
    int n = tids == null ? 0 : tids.size();
    for (Node c : children().values()) {
      n += c.subtreeTasks();
    }
    return n;
  }

  /** Descendant cgroups, not counting this one. */
  int descendants() {
    int n = 0;
    for (Node c : children().values()) {
      n += 1 + c.descendants();
    }
    return n;
  }

  /** Controller state that is not a file's content (device rules). */
  @SuppressWarnings("unchecked")
  <T> T state(String key) {
    return state == null ? null : (T) state.get(key);
  }

  void setState(String key, Object value) {
    if (state == null) {
      state = new HashMap<>(2);
    }
    state.put(key, value);
  }
}
