package org.lmctfy.testing;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.lmctfy.ContainerApi;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupFsException.Operation;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupWatch;
import org.lmctfy.cgroupfs.CgroupWatcher;
import org.lmctfy.cgroupfs.DeviceRule;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.cgroupfs.Owner;
import org.lmctfy.spec.InitSpec;
import org.lmctfy.testing.FakeOperation.Kind;
import org.lmctfy.testing.internal.fake.Kernel;
import org.lmctfy.testing.internal.fake.Layouts;
import org.lmctfy.testing.internal.fake.Machine;
import org.lmctfy.testing.internal.fake.WatchQueue;

/**
 * An in-memory {@link CgroupFs} that behaves like the Linux kernel, so code that manages cgroups
 * can be tested without root, including how it handles failures. It is a real implementation, not a
 * mock: making a cgroup creates its controllers' interface files with the kernel's defaults, writes
 * are validated and refused with the kernel's errno, {@code cgroup.procs} moves fake processes, and
 * a cgroup with children or processes cannot be removed.
 *
 * <p>On top of the kernel it offers what a test needs, grouped by role as MockWebServer keeps its
 * dispatcher and socket policies apart: the process table and what started processes do ({@link
 * #processes()}; {@link #start} runs nothing), what the kernel does on its own ({@link #kernel()}:
 * values, OOMs, pressure), fault injection and a crash point ({@link #faults()}), the record of
 * mutations ({@link #record()}) and {@link #snapshot() snapshots} to compare.
 *
 * <p>Fidelity: v1 rules were checked against a 6.18 kernel; v2 controller rules follow the kernel's
 * cgroup-v2 documentation. Usage counters never move by themselves. Not for production use.
 *
 * <p>Thread-safe: every method holds one lock.
 *
 * <pre>{@code
 * FakeCgroupFs fs = FakeCgroupFs.create();
 * Hierarchy memory = fs.hierarchy("memory").orElseThrow();
 * fs.faults().failAt(2, Errno.EINVAL);               // the second write of the code under test fails
 * assertThatThrownBy(() -> api.create("/job", spec)).isInstanceOf(LmctfyException.class);
 * assertThat(fs.exists(memory, CgroupPath.of("/job"))).isFalse();   // and it cleaned up
 * }</pre>
 *
 * @since 0.1
 */
public final class FakeCgroupFs implements CgroupFs {
  /** The pid {@link #selfPid()} returns: the test's own process. */
  private static final long SELF_PID = 4242;

  private final Object lock = new Object();
  private final Kernel kernel;
  private final Recorder recorder = new Recorder();
  private final FakeLayout layout;
  private final FakeProcesses processes;
  private final FakeKernel kernelEvents;
  private final FakeFaults faults;
  private final FakeRecord record;

  private FakeCgroupFs(Kernel kernel, FakeLayout layout) {
    this.kernel = kernel;
    this.layout = layout;
    this.processes = new FakeProcesses(lock, kernel);
    this.kernelEvents = new FakeKernel(lock, kernel);
    this.faults = new FakeFaults(lock, recorder);
    this.record = new FakeRecord(lock, recorder);
  }

  /**
   * The process table: processes and threads the test makes and ends, and what started processes
   * do.
   *
   * @return this fake's processes
   */
  public FakeProcesses processes() {
    return processes;
  }

  /**
   * What the kernel does on its own, as the test makes it happen: values, OOMs, pressure.
   *
   * @return this fake's kernel events
   */
  public FakeKernel kernel() {
    return kernelEvents;
  }

  /**
   * The faults to inject: failing mutations and a crash point.
   *
   * @return this fake's faults
   */
  public FakeFaults faults() {
    return faults;
  }

  /**
   * The record of mutating operations.
   *
   * @return this fake's record
   */
  public FakeRecord record() {
    return record;
  }

  /**
   * A fake laid out as most users' machines are: systemd on pure cgroup v2 ({@link
   * FakeLayout#SYSTEMD_V2}), the test's own process in {@code /system.slice/app.service}.
   *
   * @return a fake systemd machine on pure cgroup v2
   */
  public static FakeCgroupFs create() {
    return builder().build();
  }

  /**
   * A fake with the hierarchies of {@code layout}.
   *
   * @param layout the hierarchies to mount
   * @return the fake, with only root cgroups
   */
  public static FakeCgroupFs create(FakeLayout layout) {
    return builder().layout(layout).build();
  }

  /**
   * A builder, to choose the layout, the cpus, the memory nodes and the v2 root's controllers.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Sets up a fake: its layout, the machine's cpus and memory nodes, the v2 root's enabled
   * controllers.
   */
  public static final class Builder {
    private FakeLayout layout = FakeLayout.SYSTEMD_V2;
    private String cpus;
    private String memoryNodes;
    private Set<String> rootSubtreeControl;
    private List<String> rdmaDevices;
    private Map<String, Long> miscCapacity;
    private Set<String> withoutFiles;

    /**
     * Interface files this fake kernel was built without, as a kernel without a feature lacks them:
     * {@code "memory.zswap.max"} (no zswap), {@code "io.latency"}, {@code "cpu.uclamp.min"}. None
     * by default.
     *
     * @param files the file names
     * @return this builder
     */
    public Builder withoutFiles(Set<String> files) {
      this.withoutFiles = Set.copyOf(files);
      return this;
    }

    private Builder() {}

    /**
     * The machine's RDMA devices, as {@code rdma.max} names them ({@code "mlx4_0"}); none by
     * default (as on a machine without RDMA hardware, where every rdma.max write is ENODEV).
     *
     * @param devices the device names
     * @return this builder
     */
    public Builder rdmaDevices(List<String> devices) {
      this.rdmaDevices = List.copyOf(devices);
      return this;
    }

    /**
     * The machine's misc resources and their capacity, as the root's {@code misc.capacity} lists
     * them ({@code "sev"} 16); none by default (as on a machine without such hardware, where every
     * misc.max write is EINVAL).
     *
     * @param capacity resource names and how many units the machine has
     * @return this builder
     */
    public Builder miscCapacity(Map<String, Long> capacity) {
      this.miscCapacity = Map.copyOf(capacity);
      return this;
    }

    /**
     * The hierarchies to mount, and where the processes start; {@link FakeLayout#SYSTEMD_V2} by
     * default.
     *
     * @param layout the layout
     * @return this builder
     */
    public Builder layout(FakeLayout layout) {
      this.layout = Objects.requireNonNull(layout, "layout");
      return this;
    }

    /**
     * The online cpus as a kernel list, {@code "0-1"} by default.
     *
     * @param cpuList a kernel cpu list ({@code "0-3,8"})
     * @return the online cpus as a kernel list, {@code "0-1"} by default
     */
    public Builder cpus(String cpuList) {
      this.cpus = Objects.requireNonNull(cpuList, "cpuList");
      return this;
    }

    /**
     * The memory nodes as a kernel list, {@code "0"} by default.
     *
     * @param nodeList a kernel node list ({@code "0"})
     * @return the memory nodes as a kernel list, {@code "0"} by default
     */
    public Builder memoryNodes(String nodeList) {
      this.memoryNodes = Objects.requireNonNull(nodeList, "nodeList");
      return this;
    }

    /**
     * The controllers enabled in the v2 root's {@code cgroup.subtree_control}; by default all of
     * them in {@link FakeLayout#V2}, systemd's in {@link FakeLayout#SYSTEMD_V2}, none elsewhere.
     * Ones the v2 root does not have are ignored.
     *
     * @param controllers the controllers
     * @return this builder
     */
    public Builder rootSubtreeControl(Set<String> controllers) {
      this.rootSubtreeControl = Set.copyOf(controllers);
      return this;
    }

    /**
     * The fake.
     *
     * @return a new fake with only root cgroups
     */
    public FakeCgroupFs build() {
      Machine m = Layouts.defaultMachine(layout);
      Machine machine =
          new Machine(
              cpus == null ? m.cpus() : cpus,
              memoryNodes == null ? m.mems() : memoryNodes,
              m.blockDevices(),
              m.hugepageSizes(),
              rdmaDevices == null ? m.rdmaDevices() : rdmaDevices,
              miscCapacity == null ? m.miscCapacity() : miscCapacity,
              withoutFiles == null ? m.absentFiles() : withoutFiles);
      Set<String> enabled =
          rootSubtreeControl == null
              ? Layouts.defaultRootSubtreeControl(layout)
              : rootSubtreeControl;
      FakeCgroupFs fs = new FakeCgroupFs(new Kernel(layout, machine, enabled, SELF_PID), layout);
      if (layout == FakeLayout.SYSTEMD_V2) {
        fs.systemdTree();
      }
      fs.startingTreeIsNow();
      return fs;
    }
  }

  /**
   * The cgroups (as {@code "label:/path"}) the fake started with, which no code under test made.
   */
  private Set<String> startingCgroups = Set.of();

  /** What {@code hasNoCgroupsButTheRoots} allows: the cgroups of now, which the fixture made. */
  void startingTreeIsNow() {
    startingCgroups = Set.copyOf(snapshot().cgroups());
  }

  Set<String> startingCgroups() {
    return startingCgroups;
  }

  /**
   * Where {@code ContainerApi.open(this)} puts its root: the test's unit on SYSTEMD_V2, else the
   * mount root.
   */
  CgroupPath containerRoot() {
    return layout == FakeLayout.SYSTEMD_V2 ? SYSTEMD_UNIT : CgroupPath.root();
  }

  /** The processes leaf of {@link #SYSTEMD_UNIT}, where the test's own process runs. */
  static final String SYSTEMD_LEAF = "lmctfy-supervisor";

  /** The unit the test's own process runs in on {@link FakeLayout#SYSTEMD_V2}. */
  static final CgroupPath SYSTEMD_UNIT = CgroupPath.of("/system.slice/app.service");

  /**
   * systemd's tree: pid 1 in /init.scope, this process in the processes leaf of
   * /system.slice/app.service, which enables systemd's controllers; not in the record.
   */
  private void systemdTree() {
    Hierarchy unified = hierarchies().get(0);
    CgroupPath slice = CgroupPath.of("/system.slice");
    try {
      makeCgroup(unified, CgroupPath.of("/init.scope"));
      write(unified, CgroupPath.of("/init.scope"), "cgroup.procs", "1");
      makeCgroup(unified, slice);
      String enable =
          Layouts.SYSTEMD_ENABLES.stream()
              .sorted()
              .map(c -> "+" + c)
              .collect(java.util.stream.Collectors.joining(" "));
      write(unified, slice, "cgroup.subtree_control", enable);
      makeCgroup(unified, SYSTEMD_UNIT);
      write(unified, SYSTEMD_UNIT, "cgroup.procs", Long.toString(SELF_PID));
    } catch (CgroupFsException e) {
      throw new AssertionError("the fake refused systemd's tree", e);
    }
    try (ContainerApi api = ContainerApi.open(this)) { // what the unit's manager does at its start
      api.initMachine(new InitSpec(List.of(), Layouts.SYSTEMD_ENABLES, SYSTEMD_LEAF));
    }
    record.clear();
  }

  // ---- CgroupFs: reads.

  @Override
  public List<Hierarchy> hierarchies() {
    synchronized (lock) {
      recorder.checkAlive();
      return kernel.hierarchies();
    }
  }

  /**
   * Device filters, eventfd and PSI watches; not {@link Capability#HOST_TREE}: its tree is in
   * memory, not the one this machine's PID 1 manages.
   */
  @Override
  public Set<Capability> capabilities() {
    return java.util.EnumSet.of(
        Capability.DEVICE_FILTERS, Capability.EVENT_CONTROL, Capability.PRESSURE_TRIGGERS);
  }

  @Override
  public Set<String> unmountedControllers() {
    synchronized (lock) {
      recorder.checkAlive();
      return kernel.unmountedControllers();
    }
  }

  @Override
  public boolean exists(Hierarchy h, CgroupPath path) {
    synchronized (lock) {
      recorder.checkAlive();
      return kernel.exists(h, path);
    }
  }

  @Override
  public List<String> children(Hierarchy h, CgroupPath path) throws CgroupFsException {
    synchronized (lock) {
      recorder.checkAlive();
      return kernel.children(h, path);
    }
  }

  @Override
  public boolean hasFile(Hierarchy h, CgroupPath path, String file) {
    synchronized (lock) {
      recorder.checkAlive();
      return kernel.hasFile(h, path, file);
    }
  }

  @Override
  public String read(Hierarchy h, CgroupPath path, String file) throws CgroupFsException {
    synchronized (lock) {
      recorder.checkAlive();
      return kernel.read(h, path, file);
    }
  }

  @Override
  public Optional<String> marker(Hierarchy h, CgroupPath path, String key)
      throws CgroupFsException {
    synchronized (lock) {
      recorder.checkAlive();
      return kernel.marker(h, path, key);
    }
  }

  @Override
  public List<String> markerKeys(Hierarchy h, CgroupPath path) throws CgroupFsException {
    synchronized (lock) {
      recorder.checkAlive();
      return kernel.markerKeys(h, path);
    }
  }

  @Override
  public Owner owner(Hierarchy h, CgroupPath path, String file) throws CgroupFsException {
    synchronized (lock) {
      recorder.checkAlive();
      return kernel.owner(h, path, file);
    }
  }

  @Override
  public Map<Hierarchy, CgroupPath> cgroupsOf(long pid) throws CgroupFsException {
    synchronized (lock) {
      recorder.checkAlive();
      return kernel.cgroupsOf(pid);
    }
  }

  // ---- CgroupFs: watches. Not mutations: not recorded, no faults; a crash stops them too.

  /**
   * A watcher whose watches are signalled at once, on the thread that changed the fake: a file
   * watch after every change (any successful mutation, process change, {@link FakeKernel#setValue},
   * {@link FakeKernel#raiseOom}) and when its cgroup is removed; a v1 eventfd registration by
   * {@link FakeKernel#raiseOom} ({@code memory.oom_control}), by {@link FakeKernel#setValue} of a
   * usage file that crosses the threshold either way ({@code memory.usage_in_bytes}, {@code
   * memory.memsw.usage_in_bytes}; other files are EINVAL), and by removal; a PSI trigger, validated
   * as the kernel does for a privileged writer (window 500 ms to 10 s, threshold within it), by
   * {@link FakeKernel#raisePressure} and by removal. No polling, no delay.
   */
  @Override
  public CgroupWatcher watcher() {
    synchronized (lock) {
      recorder.checkAlive();
      return new Watcher();
    }
  }

  /** {@link #watcher()}: every call under the fake's lock, then the queue's own. */
  private final class Watcher implements CgroupWatcher {
    private final WatchQueue queue = new WatchQueue();

    @Override
    public CgroupWatch watch(Hierarchy h, CgroupPath path, Set<String> files)
        throws CgroupFsException {
      synchronized (lock) {
        recorder.checkAlive();
        return kernel.watch(queue, h, path);
      }
    }

    @Override
    public CgroupWatch eventControl(Hierarchy h, CgroupPath path, String file, String args)
        throws CgroupFsException {
      synchronized (lock) {
        recorder.checkAlive();
        return kernel.eventControl(queue, h, path, file, args);
      }
    }

    @Override
    public CgroupWatch pressureTrigger(Hierarchy h, CgroupPath path, String file, String trigger)
        throws CgroupFsException {
      synchronized (lock) {
        recorder.checkAlive();
        return kernel.pressureTrigger(queue, h, path, file, trigger);
      }
    }

    @Override
    public List<CgroupWatch> await(Duration timeout) throws InterruptedException {
      return queue.take(Math.max(0, timeout.toNanos()));
    }

    @Override
    public void wakeup() {
      queue.wakeup();
    }

    @Override
    public void close() {
      queue.close();
    }
  }

  /**
   * Whether systemd marked the cgroup delegated ({@code user.delegate=1}, a unit with {@code
   * Delegate=yes}): {@link FakeSystemd}'s units, {@link #markDelegated}, and the unit of {@link
   * FakeLayout#SYSTEMD_V2}.
   */
  @Override
  public boolean delegated(Hierarchy h, CgroupPath path) throws CgroupFsException {
    synchronized (lock) {
      recorder.checkAlive();
      return kernel.delegated(h, path);
    }
  }

  /**
   * Marks the cgroup at {@code path} of the v2 hierarchy as systemd marks a unit's with {@code
   * Delegate=yes} (the xattr {@code user.delegate=1}); the mark goes with the cgroup. Not recorded:
   * systemd did it. {@code ContainerApi.open} over this fake then treats a process's own cgroup
   * there as delegated to it.
   *
   * @param path the cgroup's path in the v2 hierarchy
   * @throws CgroupFsException ENOENT if there is no such cgroup
   */
  public void markDelegated(CgroupPath path) throws CgroupFsException {
    synchronized (lock) {
      kernel.setDelegated(unifiedHierarchy(), path);
    }
  }

  /** The v2 hierarchy; IllegalStateException on a layout without one. */
  Hierarchy unifiedHierarchy() {
    return hierarchies().stream()
        .filter(h -> h.version() == org.lmctfy.cgroupfs.CgroupVersion.V2)
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "this fake's layout " + layout + " has no cgroup2 hierarchy"));
  }

  /**
   * What another process (systemd) does to the cgroups: under the fake's lock, not recorded, never
   * failed or crashed by the test's faults, and no permission checks.
   */
  <T> T asSystemd(SystemdStep<T> step) throws CgroupFsException {
    synchronized (lock) {
      T out = step.run(kernel);
      kernel.changed();
      lock.notifyAll();
      return out;
    }
  }

  /** One step of {@link #asSystemd}. */
  interface SystemdStep<T> {
    T run(Kernel kernel) throws CgroupFsException;
  }

  // ---- CgroupFs: mutations, each recorded and open to faults and crashes.

  @Override
  public void makeCgroup(Hierarchy h, CgroupPath path) throws CgroupFsException {
    mutate(Kind.MKDIR, h, path, null, null, null);
  }

  @Override
  public void removeCgroup(Hierarchy h, CgroupPath path) throws CgroupFsException {
    mutate(Kind.RMDIR, h, path, null, null, null);
  }

  @Override
  public void write(Hierarchy h, CgroupPath path, String file, String value)
      throws CgroupFsException {
    mutate(Kind.WRITE, h, path, file, value, null);
  }

  /**
   * A view of this fake as an unprivileged user: the same cgroups, files and processes, with the
   * kernel's permission checks of a caller without capabilities. Making or removing a cgroup needs
   * write access to the parent directory and a marker (a user xattr) to the cgroup's; a file write
   * needs the file; every refusal is EACCES. A cgroup the user makes, and its files, are the
   * user's. On v2 moving a process also needs write access to {@code cgroup.procs} of the common
   * ancestor of its cgroup and the destination. {@code chown}, {@code mount}, {@code umount} and
   * device filters are EPERM. Root's view (uid 0) is this fake itself.
   *
   * <pre>{@code
   * FakeCgroupFs fs = FakeCgroupFs.create(FakeLayout.V2);
   * ContainerApi.open(fs).create("/t", ContainerSpec.parse("owner: 1000 owner_group: 1000")); // delegate /t
   * try (ContainerApi tenant = ContainerApi.open(fs.asUser(1000, 1000), CgroupPath.of("/t"))) {
   *   tenant.create("/job", ContainerSpec.empty());                                       // /t/job, the user's
   * }
   * }</pre>
   *
   * @param uid the user's uid (0: this fake)
   * @param gid the user's gid
   * @return a view that checks permissions as {@code uid}
   */
  public CgroupFs asUser(int uid, int gid) {
    return uid == 0 ? this : new FakeUserView(this, uid, gid);
  }

  /** The monitor every operation holds: a user view checks and acts under it. */
  Object monitor() {
    return lock;
  }

  /** Records that {@code uid} made the cgroup: it owns its directory and files. */
  void madeBy(Hierarchy h, CgroupPath path, int uid, int gid) throws CgroupFsException {
    synchronized (lock) {
      kernel.setCreator(h, path, uid, gid);
    }
  }

  @Override
  public void setDeviceFilter(Hierarchy h, CgroupPath path, List<DeviceRule> rules)
      throws CgroupFsException {
    String shown = rules == null ? "none" : rules.toString();
    mutate(Kind.DEVICE_FILTER, h, path, null, shown, rules);
  }

  @Override
  public Optional<List<DeviceRule>> deviceFilter(Hierarchy h, CgroupPath path)
      throws CgroupFsException {
    synchronized (lock) {
      recorder.checkAlive();
      return kernel.deviceFilter(h, path);
    }
  }

  @Override
  public void setMarker(Hierarchy h, CgroupPath path, String key, String value)
      throws CgroupFsException {
    mutate(Kind.SET_MARKER, h, path, null, value, key);
  }

  @Override
  public void removeMarker(Hierarchy h, CgroupPath path, String key) throws CgroupFsException {
    mutate(Kind.REMOVE_MARKER, h, path, null, key, null);
  }

  @Override
  public void chown(Hierarchy h, CgroupPath path, String file, int uid, int gid)
      throws CgroupFsException {
    mutate(Kind.CHOWN, h, path, file, uid + ":" + gid, new int[] {uid, gid});
  }

  @Override
  public Hierarchy mount(Set<String> controllers, String mountPoint) throws CgroupFsException {
    synchronized (lock) {
      String label = String.join(",", new java.util.TreeSet<>(controllers));
      begin(Kind.MOUNT, label, mountPoint, mountPoint);
      Hierarchy mounted;
      try {
        mounted = kernel.mount(controllers, mountPoint);
      } catch (CgroupFsException e) {
        throw failed(e);
      }
      done();
      return mounted;
    }
  }

  @Override
  public void unmount(Hierarchy h) throws CgroupFsException {
    mutate(Kind.UNMOUNT, h, CgroupPath.root(), null, null, null);
  }

  /**
   * SIGKILL, recorded as a KILL of the pid: the process ends at once, except one a v1 freezer
   * holds, which ends when it is thawed (as the kernel does; the v2 freezer lets it die at once).
   */
  @Override
  public void kill(long pid) throws CgroupFsException {
    synchronized (lock) {
      begin(Kind.KILL, "", Long.toString(pid), "pid " + pid);
      if (!kernel.processes().contains(pid)) {
        throw failed(new CgroupFsException(Operation.KILL, "pid " + pid, null, Errno.ESRCH));
      }
      kernel.kill(pid);
      done();
    }
  }

  /**
   * Runs nothing: spawns a fake process (one thread) and places it in {@code cgroups} by writing
   * its pid to each {@code cgroup.procs} in turn, as the host's launcher does, so the writes are
   * recorded and open to {@link FakeFaults#failAt}/{@link FakeFaults#failWhen}, and the kernel's
   * refusals apply (an empty v1 cpuset is ENOSPC). If one fails, the fake process ends and the
   * failure is thrown. Once placed it does what the {@link FakeProcesses#onRun script} says for its
   * command (forks, writes, exits with a status after a delay); without one, the returned {@link
   * Process} has the fake pid and empty streams, and it runs until {@link FakeProcesses#exit(long,
   * int)}, a kill or {@code cgroup.kill} ends it (exit status 137). What it would have run is
   * {@link FakeProcesses#commandOf}.
   */
  @Override
  public Process start(ProcessBuilder command, Map<Hierarchy, CgroupPath> cgroups)
      throws CgroupFsException {
    return start(command, cgroups, null);
  }

  /**
   * {@link #start}; once placed, the process joins the virtual host of {@code init} (null: none,
   * {@link #NEW_INIT}: it is the init of a new one).
   */
  private FakeProcess start(ProcessBuilder command, Map<Hierarchy, CgroupPath> cgroups, Long init)
      throws CgroupFsException {
    synchronized (lock) {
      recorder.checkAlive();
      long pid = kernel.spawnProcess();
      try {
        for (Map.Entry<Hierarchy, CgroupPath> e : cgroups.entrySet()) {
          write(e.getKey(), e.getValue(), "cgroup.procs", Long.toString(pid));
        }
      } catch (CgroupFsException | RuntimeException | FakeCrash e) {
        kernel.exitProcess(
            pid); // as the host's launcher, which runs nothing unless it is told to go
        throw e;
      }
      if (init != null) {
        if (init == NEW_INIT) {
          kernel.makeInit(pid);
        } else {
          kernel.joinVirtualHost(pid, init);
        }
      }
      kernel.watch(pid);
      FakeProcess process = processes.started(pid, command);
      kernel.changed();
      return process;
    }
  }

  /**
   * Virtual hosts in memory: a virtual host is its init, a fake process placed in the container's
   * cgroups like any started one ({@link FakeProcesses#commandOf} is its {@code init_argv}, or
   * {@code [catatonit, -P]} for the default init), and the processes joined to it ({@link
   * FakeProcesses#commandOf} is the program's argv, as the caller gave it). Scripts ({@link
   * FakeProcesses#onRun}) decide what each does from that command; an init whose script exits at
   * once fails the start as bwrap would, with FAILED_PRECONDITION. A child that a joined process
   * forks is in the virtual host too; when the init ends (killed, {@code cgroup.kill}, its script,
   * {@link FakeProcesses#exit}), every process of the virtual host is killed, as the kernel ends a
   * pid namespace. Start times are the fake's ticks, so a pid is never mistaken for another
   * process's. {@link FakeProcesses#virtualHostOf} tells a test where a process runs. Nothing of
   * the machine is checked: a root filesystem, mounts and tools are taken as given.
   *
   * @return this fake's virtual hosts
   */
  @Override
  public Optional<org.lmctfy.vhost.VirtualHosts> virtualHosts() {
    return Optional.of(virtualHosts);
  }

  private final org.lmctfy.vhost.VirtualHosts virtualHosts =
      new org.lmctfy.vhost.VirtualHosts() {
        @Override
        public void check(org.lmctfy.vhost.Blueprint blueprint) {
          synchronized (lock) {
            recorder.checkAlive();
          }
        }

        @Override
        public org.lmctfy.vhost.ProcessId start(
            org.lmctfy.vhost.Blueprint blueprint, Map<Hierarchy, CgroupPath> cgroups)
            throws CgroupFsException {
          synchronized (lock) {
            List<String> argv =
                blueprint.init().argv().isEmpty()
                    ? List.of("catatonit", "-P")
                    : blueprint.init().argv();
            long pid =
                FakeCgroupFs.this
                    .start(
                        new ProcessBuilder(argv).redirectOutput(ProcessBuilder.Redirect.DISCARD),
                        cgroups,
                        NEW_INIT)
                    .pid();
            Integer status = kernel.exitStatus(pid);
            if (status != null) {
              throw new org.lmctfy.LmctfyException(
                  org.lmctfy.ErrorCode.FAILED_PRECONDITION,
                  "the virtual host could not "
                      + "be made: its init "
                      + argv
                      + " exited with status "
                      + status
                      + " at once (a script of the fake)");
            }
            processes.madeVirtualHost(new FakeVirtualHost(pid, blueprint));
            return new org.lmctfy.vhost.ProcessId(pid, kernel.startTime(pid));
          }
        }

        @Override
        public Process join(
            org.lmctfy.vhost.ProcessId init,
            ProcessBuilder command,
            boolean newSession,
            Map<Hierarchy, CgroupPath> cgroups)
            throws CgroupFsException {
          synchronized (lock) {
            recorder.checkAlive();
            requireRunning(init);
            return FakeCgroupFs.this.start(command, cgroups, init.pid());
          }
        }

        @Override
        public boolean isRunning(org.lmctfy.vhost.ProcessId init) {
          synchronized (lock) {
            Long started = kernel.startTime(init.pid());
            return started != null
                && started == init.startTime()
                && kernel.processes().contains(init.pid());
          }
        }

        @Override
        public boolean holds(org.lmctfy.vhost.ProcessId init, long tid) throws CgroupFsException {
          synchronized (lock) {
            requireRunning(init);
            long pid;
            try {
              pid = kernel.pidOf(tid);
            } catch (IllegalArgumentException e) {
              throw new CgroupFsException(
                  Operation.READ,
                  "/proc/" + tid + "/ns/pid",
                  null,
                  Errno.ESRCH,
                  "no process or thread " + tid);
            }
            Long itsInit = kernel.initOf(pid);
            return itsInit != null && itsInit == init.pid();
          }
        }

        private void requireRunning(org.lmctfy.vhost.ProcessId init) throws CgroupFsException {
          if (!isRunning(init)) {
            throw new CgroupFsException(
                Operation.READ,
                "/proc/" + init.pid() + "/stat",
                null,
                Errno.ESRCH,
                "the virtual host's init (pid " + init.pid() + ") is not running");
          }
        }
      };

  /** Marks a started process as the init of a new virtual host. */
  private static final long NEW_INIT = -1;

  // Every mutation, under the lock: begin (counts it; a crash or an injected fault ends it there),
  // the kernel's change, then done, or failed if the kernel refused.

  /**
   * One mutation of a cgroup or one of its files (or, at its root, of a hierarchy), recorded as
   * {@code kind} of {@code file} with {@code value}: begin, the kernel's change, then done or
   * failed. {@code arg} is what else the change needs: a marker's key, a chown's uid and gid, a
   * device filter's rules. The change is picked by a switch, not passed as a lambda: the fake makes
   * millions of mutations, and a call site that every mutation's lambda shares is megamorphic (no
   * inlining, every capturing lambda allocated).
   */
  @SuppressWarnings("unchecked") // a device filter's rules, as setDeviceFilter passes them
  private void mutate(
      Kind kind, Hierarchy h, CgroupPath path, String file, String value, Object arg)
      throws CgroupFsException {
    synchronized (lock) {
      Errno injected =
          recorder.begin(kind, h.label(), Objects.requireNonNull(path, "path"), file, value);
      if (injected != null) {
        throw injected(kind, value, h.display(path, file), injected);
      }
      try {
        switch (kind) {
          case MKDIR -> kernel.makeCgroup(h, path);
          case RMDIR -> kernel.removeCgroup(h, path);
          case WRITE -> kernel.write(h, path, file, value);
          case SET_MARKER -> kernel.setMarker(h, path, (String) arg, value);
          case REMOVE_MARKER -> kernel.removeMarker(h, path, value);
          case CHOWN -> kernel.chown(h, path, file, ((int[]) arg)[0], ((int[]) arg)[1]);
          case DEVICE_FILTER -> kernel.setDeviceFilter(h, path, (List<DeviceRule>) arg, value);
          case UNMOUNT -> kernel.unmount(h);
          default -> throw new IllegalArgumentException(kind + " is not a mutation of a cgroup");
        }
      } catch (CgroupFsException e) {
        throw failed(e);
      }
      done();
    }
  }

  /** Begins a mutation of something else (recorded at "/"), {@code display} naming it. */
  private void begin(Kind kind, String label, String value, String display)
      throws CgroupFsException {
    Errno injected = recorder.begin(kind, label, CgroupPath.root(), null, value);
    if (injected != null) {
      throw injected(kind, value, display, injected);
    }
  }

  private CgroupFsException injected(Kind kind, String value, String display, Errno errno) {
    recorder.end(errno);
    Operation verb = kind == Kind.DEVICE_FILTER ? Operation.BPF : Operation.valueOf(kind.name());
    String shown = kind == Kind.WRITE || kind == Kind.SET_MARKER ? value : null;
    return new CgroupFsException(verb, display, shown, errno, "injected by FakeCgroupFs");
  }

  /** Records that the kernel refused the mutation; returns the refusal to throw. */
  private CgroupFsException failed(CgroupFsException e) {
    recorder.end(e.errno());
    return e;
  }

  private void done() {
    recorder.end(null);
    processes.mutated(); // a kill or cgroup.kill may have ended a started process
    kernel.changed();
  }

  // ---- The test's own process and the whole state.

  /**
   * The pid standing for the test's own process; like pid 1 it starts in every hierarchy's root.
   */
  @Override
  public long selfPid() {
    synchronized (lock) {
      return kernel.selfPid();
    }
  }

  /**
   * The whole state now; works while crashed.
   *
   * @return the whole state now; works while crashed
   */
  public FakeSnapshot snapshot() {
    synchronized (lock) {
      return new FakeSnapshot(kernel.snapshot());
    }
  }
}
