package org.lmctfy.testing.internal.fake;

import static org.lmctfy.cgroupfs.CgroupFsException.Operation.CHOWN;
import static org.lmctfy.cgroupfs.CgroupFsException.Operation.GET_MARKER;
import static org.lmctfy.cgroupfs.CgroupFsException.Operation.LIST;
import static org.lmctfy.cgroupfs.CgroupFsException.Operation.MKDIR;
import static org.lmctfy.cgroupfs.CgroupFsException.Operation.MOUNT;
import static org.lmctfy.cgroupfs.CgroupFsException.Operation.READ;
import static org.lmctfy.cgroupfs.CgroupFsException.Operation.REMOVE_MARKER;
import static org.lmctfy.cgroupfs.CgroupFsException.Operation.RMDIR;
import static org.lmctfy.cgroupfs.CgroupFsException.Operation.SET_MARKER;
import static org.lmctfy.cgroupfs.CgroupFsException.Operation.UNMOUNT;
import static org.lmctfy.cgroupfs.CgroupFsException.Operation.WRITE;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupFsException.Operation;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.DeviceRule;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.cgroupfs.Owner;
import org.lmctfy.testing.FakeLayout;

/**
 * The modelled kernel: hierarchies, cgroups, files, markers, owners and processes. Not thread-safe;
 * FakeCgroupFs serialises calls. Methods throw CgroupFsException with the errno the kernel gives.
 */
public final class Kernel {
  /**
   * kernfs: at most 128 user xattrs or 128 KiB of them per cgroup, else ENOSPC, a replacement too.
   */
  private static final int MAX_MARKERS = 128;

  private static final int MAX_MARKER_BYTES = 128 << 10;

  /**
   * What a process in a cgroup namespace may write in the namespace's root when cgroup2 is mounted
   * with nsdelegate (CFTYPE_NS_DELEGATABLE); every other file there is EPERM.
   */
  private static final Set<String> NS_DELEGATABLE =
      Set.of("cgroup.procs", "cgroup.threads", "cgroup.subtree_control");

  /** The exit status Java reports for a process SIGKILL ended: 128 + 9. */
  public static final int SIGKILLED = 137;

  private final Machine machine;
  private final List<String> known;
  private final List<Hier> hiers = new ArrayList<>();

  /** The Hierarchy of each of {@link #hiers}, in the same order; replaced whenever they change. */
  private List<Hierarchy> mounted;

  /** {@link #hiers} as an array for {@link #find}, replaced with {@link #mounted}. */
  private Hier[] hierArray;

  private final Processes processes;
  private final Watches watches = new Watches();

  public Kernel(FakeLayout layout, Machine machine, Set<String> rootSubtreeControl, long selfPid) {
    this.machine = machine;
    this.known = Layouts.known(layout);
    this.processes = new Processes(hiers, selfPid);
    for (Layouts.Mount m : Layouts.mounts(layout)) {
      CgroupPath namespaceRoot =
          m.version() == CgroupVersion.V2 ? Layouts.namespaceRoot(layout) : null;
      Hier h = hier(m.name(), m.version(), m.controllers(), m.mountPoint(), namespaceRoot);
      hiers.add(h);
      if (namespaceRoot != null) {
        Pod.lay(h);
      }
      if (m.version() == CgroupVersion.V2) {
        Set<String> enabled = new LinkedHashSet<>(rootSubtreeControl);
        enabled.retainAll(m.controllers());
        if (!enabled.isEmpty()) {
          List<String> sorted = new ArrayList<>(enabled);
          sorted.sort(Subsystems.ORDER);
          h.root.put(CoreV2.SUBTREE, String.join(" ", sorted) + "\n");
        }
      }
    }
    processes.start();
    mountsChanged();
  }

  private void mountsChanged() {
    List<Hierarchy> out = new ArrayList<>();
    for (Hier h : hiers) {
      out.add(h.hierarchy);
    }
    mounted = List.copyOf(out);
    hierArray = hiers.toArray(new Hier[0]);
  }

  private Hier hier(
      String name,
      CgroupVersion version,
      List<String> controllers,
      String mountPoint,
      CgroupPath namespaceRoot) {
    Hierarchy h = new Hierarchy(name, version, Set.copyOf(controllers), mountPoint, "/");
    return new Hier(
        h, machine, processes, Layouts.models(version, controllers, machine), namespaceRoot);
  }

  // ---- The CgroupFs operations.

  /** Unmodifiable, as the host's is. */
  public List<Hierarchy> hierarchies() {
    return mounted;
  }

  public Set<String> unmountedControllers() {
    Set<String> out = new LinkedHashSet<>(known);
    for (Hier h : hiers) {
      out.removeAll(h.hierarchy.controllers());
    }
    return out;
  }

  public boolean exists(Hierarchy h, CgroupPath path) {
    Hier hier = find(h);
    return hier != null && hier.find(path) != null;
  }

  public void makeCgroup(Hierarchy h, CgroupPath path) throws CgroupFsException {
    Hier hier = hierOrFail(MKDIR, h, path, null, null);
    if (path.isRoot()) {
      throw fail(MKDIR, h, path, null, null, Errno.EEXIST);
    }
    Node parent = hier.find(path.parent());
    if (parent == null) {
      throw fail(MKDIR, h, path, null, null, Errno.ENOENT);
    }
    String name = path.name();
    if (parent.child(name) != null || hier.files(parent).containsKey(name)) {
      throw fail(MKDIR, h, path, null, null, Errno.EEXIST);
    }
    if (name.indexOf('\n') >= 0) {
      throw fail(MKDIR, h, path, null, null, Errno.EINVAL);
    }
    if (name.length() > 255) {
      throw fail(MKDIR, h, path, null, null, Errno.ENAMETOOLONG);
    }
    if (hier.isV2() && overLimits(parent)) {
      throw fail(MKDIR, h, path, null, null, Errno.EAGAIN);
    }
    Node node = hier.add(parent, name, path);
    for (Controller c : hier.activeControllers(node)) {
      c.created(node);
    }
  }

  /**
   * cgroup_check_hierarchy_limits(): from the parent up to the hierarchy's root (past a namespace's
   * root: its ancestors' caps apply too), a cgroup whose descendants reached its
   * cgroup.max.descendants, or below which the new cgroup would be more levels down than its
   * cgroup.max.depth (checked).
   */
  private static boolean overLimits(Node parent) {
    int levels = 1;
    for (Node a = parent; a != null; a = a.parent, levels++) {
      String maxDesc = a.value("cgroup.max.descendants");
      if (maxDesc != null && a.descendants() >= Numbers.stored(maxDesc)) {
        return true;
      }
      String maxDepth = a.value("cgroup.max.depth");
      if (maxDepth != null && levels > Numbers.stored(maxDepth)) {
        return true;
      }
    }
    return false;
  }

  public void removeCgroup(Hierarchy h, CgroupPath path) throws CgroupFsException {
    Hier hier = hierOrFail(RMDIR, h, path, null, null);
    Node node = hier.find(path);
    if (node == null) {
      Node parent = path.isRoot() ? null : hier.find(path.parent());
      boolean isFile = parent != null && hier.files(parent).containsKey(path.name());
      throw fail(RMDIR, h, path, null, null, isFile ? Errno.ENOTDIR : Errno.ENOENT);
    }
    if (node == hier.root || !node.children().isEmpty() || node.hasTasks()) {
      throw fail(RMDIR, h, path, null, null, Errno.EBUSY);
    }
    hier.remove(node);
  }

  public List<String> children(Hierarchy h, CgroupPath path) throws CgroupFsException {
    Map<String, Node> children = nodeOrFail(LIST, h, path, null, null).children();
    return children.isEmpty() ? new ArrayList<>() : new ArrayList<>(children.keySet());
  }

  public boolean hasFile(Hierarchy h, CgroupPath path, String file) {
    Hier hier = find(h);
    Node node = hier == null ? null : hier.find(path);
    return node != null && hier.files(node).containsKey(file);
  }

  public String read(Hierarchy h, CgroupPath path, String file) throws CgroupFsException {
    Node node = nodeOrFail(READ, h, path, file, null);
    Hier.Binding b = binding(READ, node, file, null);
    if (b.spec().access() == FileSpec.Access.WO) {
      throw fail(READ, h, path, file, null, Errno.EINVAL);
    }
    try {
      return b.controller().read(node, b.spec());
    } catch (KernelError e) {
      throw fail(READ, h, path, file, null, e.errno());
    }
  }

  /**
   * Checked: a missing file is ENOENT, a directory EISDIR; as root a read-only file opens for
   * writing and the write is EINVAL (not EACCES); a zero-length write changes nothing.
   */
  public void write(Hierarchy h, CgroupPath path, String file, String value)
      throws CgroupFsException {
    Node node = nodeOrFail(WRITE, h, path, file, value);
    Hier.Binding b = binding(WRITE, node, file, value);
    if (value.isEmpty()) {
      return;
    }
    try {
      if (b.spec().access() == FileSpec.Access.RO) {
        throw KernelError.of(Errno.EINVAL);
      }
      if (node.hier.isNamespaceRoot(node) && !NS_DELEGATABLE.contains(file)) {
        throw KernelError.of(Errno.EPERM); // nsdelegate: the namespace's root is not its own
      }
      b.controller().write(node, b.spec(), value);
    } catch (KernelError e) {
      throw fail(WRITE, h, path, file, value, e.errno());
    }
    processes.settle(); // a thaw or a move out of a frozen cgroup lets a SIGKILLed process die
  }

  public Optional<String> marker(Hierarchy h, CgroupPath path, String key)
      throws CgroupFsException {
    return Optional.ofNullable(nodeOrFail(GET_MARKER, h, path, null, null).markers().get(key));
  }

  public List<String> markerKeys(Hierarchy h, CgroupPath path) throws CgroupFsException {
    return List.copyOf(nodeOrFail(GET_MARKER, h, path, null, null).markers().keySet());
  }

  public void setMarker(Hierarchy h, CgroupPath path, String key, String value)
      throws CgroupFsException {
    Node node = nodeOrFail(SET_MARKER, h, path, null, value);
    if (key.isEmpty()) {
      throw fail(SET_MARKER, h, path, null, value, Errno.EINVAL);
    }
    // kernfs reserves room for a new marker before it knows that one is replaced: a replacement
    // on a full cgroup is refused too (checked on a 6.18 kernel)
    int count = node.markers().size() + 1;
    int bytes = node.markerChars() + key.length() + value.length();
    if (count > MAX_MARKERS || bytes > MAX_MARKER_BYTES) {
      throw fail(SET_MARKER, h, path, null, value, Errno.ENOSPC);
    }
    node.setMarker(key, value);
  }

  /**
   * A v2 cgroup's device filter: replaced whole (null removes it); EINVAL on a v1 hierarchy, as
   * BPF_PROG_ATTACH.
   */
  public void setDeviceFilter(Hierarchy h, CgroupPath path, List<DeviceRule> rules, String shown)
      throws CgroupFsException {
    Node node = nodeOrFail(Operation.BPF, h, path, null, shown);
    if (h.version() != org.lmctfy.cgroupfs.CgroupVersion.V2) {
      throw fail(Operation.BPF, h, path, null, shown, Errno.EINVAL);
    }
    node.deviceFilter = rules == null ? null : List.copyOf(rules);
  }

  public java.util.Optional<List<DeviceRule>> deviceFilter(Hierarchy h, CgroupPath path)
      throws CgroupFsException {
    Node node = nodeOrFail(Operation.BPF, h, path, null, null);
    if (h.version() != org.lmctfy.cgroupfs.CgroupVersion.V2) {
      throw fail(Operation.BPF, h, path, null, null, Errno.EINVAL);
    }
    return java.util.Optional.ofNullable(node.deviceFilter);
  }

  /** systemd's mark of a delegated unit's cgroup; gone with the cgroup. */
  public void setDelegated(Hierarchy h, CgroupPath path) throws CgroupFsException {
    nodeOrFail(SET_MARKER, h, path, null, null).delegated = true;
  }

  /** systemd's mark, or the root of a cgroup namespace, which the namespace delegates. */
  public boolean delegated(Hierarchy h, CgroupPath path) throws CgroupFsException {
    Node node = nodeOrFail(GET_MARKER, h, path, null, null);
    return node.delegated || node.hier.isNamespaceRoot(node);
  }

  public void removeMarker(Hierarchy h, CgroupPath path, String key) throws CgroupFsException {
    nodeOrFail(REMOVE_MARKER, h, path, null, null).removeMarker(key);
  }

  public void chown(Hierarchy h, CgroupPath path, String file, int uid, int gid)
      throws CgroupFsException {
    Node node = nodeOrFail(CHOWN, h, path, file, null);
    String key = file == null ? "" : file;
    if (file != null) {
      binding(CHOWN, node, file, null);
    }
    int[] o = node.owner(key);
    node.setOwner(key, new int[] {uid == -1 ? o[0] : uid, gid == -1 ? o[1] : gid});
  }

  /** A cgroup {@code uid} made: its directory and files are owned by it (until chowned). */
  public void setCreator(Hierarchy h, CgroupPath path, int uid, int gid) throws CgroupFsException {
    nodeOrFail(MKDIR, h, path, null, null).creator = new int[] {uid, gid};
  }

  public Owner owner(Hierarchy h, CgroupPath path, String file) throws CgroupFsException {
    Node node = nodeOrFail(Operation.STAT, h, path, file, null);
    if (file != null) {
      binding(Operation.STAT, node, file, null);
    }
    int[] o = node.owner(file == null ? "" : file);
    return new Owner(o[0], o[1]);
  }

  public Map<Hierarchy, CgroupPath> cgroupsOf(long pid) throws CgroupFsException {
    if (processes.pidOf(pid) == null) {
      throw new CgroupFsException(READ, "/proc/" + pid + "/cgroup", null, Errno.ESRCH);
    }
    Map<Hierarchy, CgroupPath> out = new LinkedHashMap<>();
    for (Hier h : hiers) {
      out.put(h.hierarchy, h.cgroupOf(pid).path);
    }
    return out;
  }

  /**
   * Modelled on mount(2) for cgroup v1: EINVAL for nothing or an unknown controller, EBUSY for one
   * in use.
   */
  public Hierarchy mount(Set<String> controllers, String mountPoint) throws CgroupFsException {
    if (controllers.isEmpty() || !known.containsAll(controllers)) {
      throw new CgroupFsException(MOUNT, mountPoint, null, Errno.EINVAL);
    }
    for (Hier h : hiers) {
      if (h.hierarchy.mountPoint().equals(mountPoint)
          || h.hierarchy.controllers().stream().anyMatch(controllers::contains)) {
        throw new CgroupFsException(MOUNT, mountPoint, null, Errno.EBUSY);
      }
    }
    List<String> sorted = new ArrayList<>(controllers);
    sorted.sort(Subsystems.ORDER);
    Hier h = hier(String.join(",", sorted), CgroupVersion.V1, sorted, mountPoint, null);
    int at = 0;
    while (at < hiers.size() && hiers.get(at).hierarchy.version() == CgroupVersion.V1) {
      at++;
    }
    hiers.add(at, h);
    mountsChanged();
    processes.enterAll(h);
    return h.hierarchy;
  }

  /** Unmounting a hierarchy that still has cgroups is EBUSY; one not mounted EINVAL. */
  public void unmount(Hierarchy h) throws CgroupFsException {
    Hier hier = find(h);
    if (hier == null) {
      throw new CgroupFsException(UNMOUNT, h.mountPoint(), null, Errno.EINVAL);
    }
    if (!hier.root.children().isEmpty()) {
      throw new CgroupFsException(UNMOUNT, h.mountPoint(), null, Errno.EBUSY);
    }
    hiers.remove(hier);
    mountsChanged();
  }

  // ---- What tests drive.

  public long selfPid() {
    return processes.selfPid();
  }

  public long spawnProcess() {
    return processes.spawn();
  }

  public long spawnThread(long pid) {
    return processes.spawnThread(pid);
  }

  /** A child of {@code parent} in the parent's cgroups, as fork(2) makes it. */
  public long forkProcess(long parent) {
    return processes.fork(parent);
  }

  /** Whether a freezer holds {@code pid}. */
  public boolean frozen(long pid) {
    return processes.frozen(pid);
  }

  public void exitProcess(long pid) {
    processes.exit(pid);
  }

  /** SIGKILL: ends {@code pid} now, or once thawed if a v1 freezer holds it. */
  public void kill(long pid) {
    processes.kill(pid);
  }

  /** Ends {@code pid} with {@code status}; {@link #SIGKILLED} is a SIGKILL's. */
  public void exitProcess(long pid, int status) {
    processes.exit(pid, status);
  }

  /** Keeps the exit status of {@code pid} for {@link #exitStatus}. */
  public void watch(long pid) {
    processes.watch(pid);
  }

  /** The status a watched process ended with, or null while it runs. */
  public Integer exitStatus(long pid) {
    return processes.exitStatus(pid);
  }

  public Set<Long> processes() {
    return processes.pids();
  }

  /**
   * Makes {@code pid} the init of a new virtual host: when it ends, every process in it is killed.
   */
  public void makeInit(long pid) {
    processes.makeInit(pid);
  }

  /** Puts {@code pid} in the virtual host of {@code init}; its children are born there. */
  public void joinVirtualHost(long pid, long init) {
    processes.join(pid, init);
  }

  /** The init of the virtual host {@code pid} runs in, or null. */
  public Long initOf(long pid) {
    return processes.initOf(pid);
  }

  /** When {@code pid} started, in the fake's ticks; null if it does not run. */
  public Long startTime(long pid) {
    return processes.startTime(pid);
  }

  /** The process a thread belongs to. */
  public long pidOf(long tid) {
    Long pid = processes.pidOf(tid);
    if (pid == null) {
      throw new IllegalArgumentException("no such thread: " + tid);
    }
    return pid;
  }

  /** Sets a file's content with no validation; the cgroup and the file must exist. */
  public void setKernelValue(Hierarchy h, CgroupPath path, String file, String content) {
    Hier hier = find(h);
    Node node = hier == null ? null : hier.find(path);
    if (node == null || !hier.files(node).containsKey(file)) {
      throw new IllegalArgumentException("no file " + h.display(path, file) + " in the fake");
    }
    node.put(file, content);
  }

  // ---- Notifications.

  public org.lmctfy.cgroupfs.CgroupWatch watch(WatchQueue queue, Hierarchy h, CgroupPath path)
      throws CgroupFsException {
    return watches.files(queue, nodeOrFail(Operation.WATCH, h, path, null, null));
  }

  public org.lmctfy.cgroupfs.CgroupWatch eventControl(
      WatchQueue queue, Hierarchy h, CgroupPath path, String file, String args)
      throws CgroupFsException {
    Node node = nodeOrFail(Operation.WATCH, h, path, file, args);
    if (!node.hier.files(node).containsKey("cgroup.event_control")) {
      throw fail(Operation.WATCH, h, path, "cgroup.event_control", args, Errno.ENOENT);
    }
    return watches.eventControl(queue, node, file, args);
  }

  public org.lmctfy.cgroupfs.CgroupWatch pressureTrigger(
      WatchQueue queue, Hierarchy h, CgroupPath path, String file, String trigger)
      throws CgroupFsException {
    return watches.pressure(
        queue, nodeOrFail(Operation.WATCH, h, path, file, trigger), file, trigger);
  }

  /** Something changed: wake the watches that the kernel would wake. */
  public void changed() {
    watches.changed();
  }

  /**
   * An out-of-memory in the cgroup, as the kernel reports it after killing a process: v1 {@code
   * memory.oom_control}'s {@code oom_kill} grows and its eventfds are signalled; v2 {@code oom} and
   * {@code oom_kill} grow in {@code memory.events} of the cgroup and its ancestors and in its
   * {@code memory.events.local}.
   */
  public void raiseOom(Hierarchy h, CgroupPath path) {
    Hier hier = find(h);
    Node node = hier == null ? null : hier.find(path);
    if (node == null) {
      throw new IllegalArgumentException("no cgroup " + h.display(path, null) + " in the fake");
    }
    Map<String, Hier.Binding> files = hier.files(node);
    if (files.containsKey("memory.oom_control") && !hier.isV2()) {
      bump(node, "memory.oom_control", "oom_kill");
      watches.raise(node, Watches.Kind.OOM, null);
    } else if (files.containsKey("memory.events")) {
      for (Node n = node; n != null; n = n.parent) {
        if (hier.files(n).containsKey("memory.events")) {
          bump(n, "memory.events", "oom");
          bump(n, "memory.events", "oom_kill");
        }
      }
      bump(node, "memory.events.local", "oom");
      bump(node, "memory.events.local", "oom_kill");
    } else {
      throw new IllegalArgumentException(
          "no memory controller at "
              + h.display(path, null)
              + " (v1 memory.oom_control or v2 memory.events) in the fake");
    }
    watches.changed();
  }

  /** Fires the PSI triggers written to {@code file} ({@code "cpu.pressure"}...) of the cgroup. */
  public void raisePressure(Hierarchy h, CgroupPath path, String file) {
    Hier hier = find(h);
    Node node = hier == null ? null : hier.find(path);
    if (node == null || !hier.files(node).containsKey(file) || !file.endsWith(".pressure")) {
      throw new IllegalArgumentException(
          "no pressure file " + h.display(path, file) + " in the fake");
    }
    watches.raise(node, Watches.Kind.PRESSURE, file);
  }

  private static void bump(Node node, String file, String key) {
    Hier.Binding b = node.hier.files(node).get(file);
    StringBuilder out = new StringBuilder();
    for (String line : b.controller().read(node, b.spec()).split("\n")) {
      String[] kv = line.split(" ");
      out.append(
              kv.length == 2 && kv[0].equals(key) ? key + " " + (Long.parseLong(kv[1]) + 1) : line)
          .append('\n');
    }
    node.put(file, out.toString());
  }

  /**
   * The whole state as sections (a hierarchy, a cgroup "memory:/a", a process) of named entries,
   * all sorted: what FakeSnapshot compares.
   */
  public Map<String, Map<String, String>> snapshot() {
    Map<String, Map<String, String>> out = new TreeMap<>();
    for (Hier h : hiers) {
      Hierarchy hy = h.hierarchy;
      List<String> cs = new ArrayList<>(hy.controllers());
      cs.sort(Subsystems.ORDER);
      out.put(
          "hierarchy " + hy.label(),
          Map.of(
              "mount",
              hy.version()
                  + " \""
                  + hy.name()
                  + "\" "
                  + String.join(",", cs)
                  + " at "
                  + hy.mountPoint()));
      for (Node n : h.walk()) {
        out.put(hy.label() + ":" + n.path, section(h, n));
      }
    }
    processes
        .table()
        .forEach((pid, tids) -> out.put("process " + pid, Map.of("threads", tids.toString())));
    return out;
  }

  private static Map<String, String> section(Hier h, Node n) {
    Map<String, String> s = new TreeMap<>();
    for (Map.Entry<String, Hier.Binding> f : h.files(n).entrySet()) {
      FileSpec spec = f.getValue().spec();
      if (spec.access() != FileSpec.Access.WO) {
        String content;
        try {
          content = f.getValue().controller().read(n, spec);
        } catch (KernelError e) {
          content = "<" + e.errno() + ">";
        }
        s.put(f.getKey(), content);
      }
      int[] o = n.owner(f.getKey());
      if (o[0] != 0 || o[1] != 0) {
        s.put("@owner " + f.getKey(), o[0] + ":" + o[1]);
      }
    }
    int[] o = n.owner("");
    s.put("@owner", o[0] + ":" + o[1]);
    n.markers().forEach((k, v) -> s.put("@marker " + k, v));
    if (n.deviceFilter != null) {
      s.put("@device filter", n.deviceFilter.toString());
    }
    return s;
  }

  // ---- Lookups.

  /**
   * The hierarchy's model; callers usually pass the very Hierarchy the fake handed out, so that is
   * tried first.
   */
  private Hier find(Hierarchy h) {
    for (Hier hier : hierArray) {
      if (hier.hierarchy == h) {
        return hier;
      }
    }
    for (Hier hier : hiers) {
      if (hier.hierarchy.equals(h)) {
        return hier;
      }
    }
    return null;
  }

  private Hier hierOrFail(Operation op, Hierarchy h, CgroupPath path, String file, String value)
      throws CgroupFsException {
    Hier hier = find(h);
    if (hier == null) {
      throw fail(op, h, path, file, value, Errno.ENOENT);
    }
    return hier;
  }

  private Node nodeOrFail(Operation op, Hierarchy h, CgroupPath path, String file, String value)
      throws CgroupFsException {
    Node node = hierOrFail(op, h, path, file, value).find(path);
    if (node == null) {
      throw fail(op, h, path, file, value, Errno.ENOENT);
    }
    return node;
  }

  private static Hier.Binding binding(Operation op, Node node, String file, String value)
      throws CgroupFsException {
    Hier.Binding b = node.hier.files(node).get(file);
    if (b == null) {
      Errno e = node.child(file) != null ? Errno.EISDIR : Errno.ENOENT;
      throw fail(op, node.hier.hierarchy, node.path, file, value, e);
    }
    return b;
  }

  private static CgroupFsException fail(
      Operation op, Hierarchy h, CgroupPath path, String file, String value, Errno errno) {
    return new CgroupFsException(op, h.display(path, file), value, errno);
  }
}
