package org.lmctfy.testing;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupFsException.Operation;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.CgroupWatcher;
import org.lmctfy.cgroupfs.DeviceRule;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.cgroupfs.Owner;
import org.lmctfy.vhost.Blueprint;
import org.lmctfy.vhost.ProcessId;
import org.lmctfy.vhost.VirtualHosts;

/**
 * {@link FakeCgroupFs#asUser}: the fake as a user without capabilities. Directories are 0755 and
 * interface files 0644, as the kernel makes them, so only an owner writes; reads are everyone's.
 * Each check and the operation it guards run under the fake's monitor.
 */
final class FakeUserView implements CgroupFs {
  private final FakeCgroupFs fake;
  private final int uid;
  private final int gid;

  FakeUserView(FakeCgroupFs fake, int uid, int gid) {
    this.fake = fake;
    this.uid = uid;
    this.gid = gid;
  }

  private boolean owns(Hierarchy h, CgroupPath path, String file) throws IOException {
    return fake.owner(h, path, file).uid() == uid;
  }

  private CgroupFsException denied(
      Operation op,
      Hierarchy h,
      CgroupPath path,
      String file,
      String value,
      Errno errno,
      String why) {
    return new CgroupFsException(
        op, h.display(path, file), value, errno, why + " (uid " + uid + ")");
  }

  private CgroupFsException bpfDenied(Hierarchy h, CgroupPath path, String why) {
    return denied(Operation.BPF, h, path, null, null, Errno.EPERM, why);
  }

  private void requireDirectory(
      Operation op, Hierarchy h, CgroupPath dir, CgroupPath shown, String value)
      throws IOException {
    if (fake.exists(h, dir) && !owns(h, dir, null)) {
      throw denied(
          op, h, shown, null, value, Errno.EACCES, "no write access to " + h.display(dir, null));
    }
  }

  /**
   * v2: moving {@code pid} into {@code dest} needs {@code cgroup.procs} of the common ancestor too.
   */
  private void requireCommonAncestor(Hierarchy h, CgroupPath dest, String file, long pid)
      throws IOException {
    if (h.version() != CgroupVersion.V2) {
      return;
    }
    CgroupPath from = fake.cgroupsOf(pid).get(h);
    if (from == null) {
      return; // no such process: the fake's own check gives ESRCH
    }
    CgroupPath common = from;
    while (!dest.equals(common)
        && !dest.value().startsWith(common.isRoot() ? "/" : common.value() + "/")) {
      common = common.parent();
    }
    if (!owns(h, common, "cgroup.procs")) {
      throw denied(
          Operation.WRITE,
          h,
          dest,
          file,
          Long.toString(pid),
          Errno.EACCES,
          "moving a process from "
              + from.value()
              + " needs write access to cgroup.procs of their common ancestor "
              + common.value());
    }
  }

  /** What {@code op} of {@code path} needs of its parent directory (nothing for a root). */
  private void requireParentDirectory(Operation op, Hierarchy h, CgroupPath path)
      throws IOException {
    if (!path.isRoot()) {
      requireDirectory(op, h, path.parent(), path, null);
    }
  }

  @Override
  public void makeCgroup(Hierarchy h, CgroupPath path) throws IOException {
    synchronized (fake.monitor()) {
      requireParentDirectory(Operation.MKDIR, h, path);
      fake.makeCgroup(h, path);
      fake.madeBy(h, path, uid, gid);
    }
  }

  @Override
  public void removeCgroup(Hierarchy h, CgroupPath path) throws IOException {
    synchronized (fake.monitor()) {
      requireParentDirectory(Operation.RMDIR, h, path);
      fake.removeCgroup(h, path);
    }
  }

  @Override
  public void write(Hierarchy h, CgroupPath path, String file, String value) throws IOException {
    synchronized (fake.monitor()) {
      if (fake.hasFile(h, path, file) && !owns(h, path, file)) {
        throw denied(
            Operation.WRITE, h, path, file, value, Errno.EACCES, "the file is not the caller's");
      }
      boolean move =
          file.equals("cgroup.procs") || file.equals("cgroup.threads") || file.equals("tasks");
      if (move && value.strip().matches("\\d+")) {
        long pid = Long.parseLong(value.strip());
        requireCommonAncestor(h, path, file, pid == 0 ? fake.selfPid() : pid);
      }
      fake.write(h, path, file, value);
    }
  }

  @Override
  public void setMarker(Hierarchy h, CgroupPath path, String key, String value) throws IOException {
    synchronized (fake.monitor()) {
      requireDirectory(Operation.SET_MARKER, h, path, path, key + "=" + value);
      fake.setMarker(h, path, key, value);
    }
  }

  @Override
  public boolean addMarker(Hierarchy h, CgroupPath path, String key, String value)
      throws IOException {
    synchronized (fake.monitor()) {
      requireDirectory(Operation.SET_MARKER, h, path, path, key + "=" + value);
      return fake.addMarker(h, path, key, value);
    }
  }

  @Override
  public void removeMarker(Hierarchy h, CgroupPath path, String key) throws IOException {
    synchronized (fake.monitor()) {
      requireDirectory(Operation.REMOVE_MARKER, h, path, path, key);
      fake.removeMarker(h, path, key);
    }
  }

  @Override
  public void chown(Hierarchy h, CgroupPath path, String file, int toUid, int toGid)
      throws IOException {
    throw denied(
        Operation.CHOWN,
        h,
        path,
        file,
        toUid + ":" + toGid,
        Errno.EPERM,
        "only root changes owners");
  }

  @Override
  public Hierarchy mount(Set<String> controllers, String mountPoint) throws IOException {
    throw new CgroupFsException(
        Operation.MOUNT,
        mountPoint,
        String.join(",", controllers),
        Errno.EPERM,
        "only root mounts (uid " + uid + ")");
  }

  @Override
  public void unmount(Hierarchy h) throws IOException {
    throw new CgroupFsException(
        Operation.UNMOUNT,
        h.mountPoint(),
        null,
        Errno.EPERM,
        "only root unmounts (uid " + uid + ")");
  }

  @Override
  public void setDeviceFilter(Hierarchy h, CgroupPath path, List<DeviceRule> rules)
      throws IOException {
    throw bpfDenied(h, path, "device filters need CAP_BPF or CAP_SYS_ADMIN");
  }

  @Override
  public Optional<List<DeviceRule>> deviceFilter(Hierarchy h, CgroupPath path) throws IOException {
    throw bpfDenied(h, path, "querying device filters needs CAP_NET_ADMIN");
  }

  @Override
  public Process start(ProcessBuilder command, Map<Hierarchy, CgroupPath> cgroups)
      throws IOException {
    synchronized (fake.monitor()) {
      checkPlacement(cgroups);
      return fake.start(command, cgroups);
    }
  }

  /**
   * A process the user starts goes into {@code cgroups} by the user's writes: the kernel's checks
   * of them.
   */
  private void checkPlacement(Map<Hierarchy, CgroupPath> cgroups) throws IOException {
    for (Map.Entry<Hierarchy, CgroupPath> e : cgroups.entrySet()) {
      String file = e.getKey().version() == CgroupVersion.V2 ? "cgroup.procs" : "tasks";
      if (fake.hasFile(e.getKey(), e.getValue(), file) && !owns(e.getKey(), e.getValue(), file)) {
        throw denied(
            Operation.WRITE,
            e.getKey(),
            e.getValue(),
            file,
            null,
            Errno.EACCES,
            "the file is not the " + "caller's");
      }
      requireCommonAncestor(e.getKey(), e.getValue(), file, fake.selfPid());
    }
  }

  /** The fake's virtual hosts, their processes placed by the user's writes. */
  @Override
  public Optional<VirtualHosts> virtualHosts() {
    VirtualHosts inner = fake.virtualHosts().orElseThrow();
    return Optional.of(
        new VirtualHosts() {
          @Override
          public void check(Blueprint blueprint) throws IOException {
            inner.check(blueprint);
          }

          @Override
          public ProcessId start(Blueprint blueprint, Map<Hierarchy, CgroupPath> cgroups)
              throws IOException {
            synchronized (fake.monitor()) {
              checkPlacement(cgroups);
              return inner.start(blueprint, cgroups);
            }
          }

          @Override
          public Process join(
              ProcessId init,
              ProcessBuilder command,
              boolean newSession,
              Map<Hierarchy, CgroupPath> cgroups)
              throws IOException {
            synchronized (fake.monitor()) {
              checkPlacement(cgroups);
              return inner.join(init, command, newSession, cgroups);
            }
          }

          @Override
          public boolean isRunning(ProcessId init) throws IOException {
            return inner.isRunning(init);
          }

          @Override
          public boolean holds(ProcessId init, long tid) throws IOException {
            return inner.holds(init, tid);
          }
        });
  }

  @Override
  public int effectiveUid() {
    return uid;
  }

  // ---- reads and the rest: as root's, everyone may

  @Override
  public List<Hierarchy> hierarchies() {
    return fake.hierarchies();
  }

  /** Device filters (each EPERM for a user); its watcher polls, without eventfd or PSI watches. */
  @Override
  public Set<Capability> capabilities() {
    return Set.of(Capability.DEVICE_FILTERS);
  }

  @Override
  public Set<String> unmountedControllers() {
    return fake.unmountedControllers();
  }

  @Override
  public boolean exists(Hierarchy h, CgroupPath path) {
    return fake.exists(h, path);
  }

  @Override
  public List<String> children(Hierarchy h, CgroupPath path) throws IOException {
    return fake.children(h, path);
  }

  @Override
  public boolean hasFile(Hierarchy h, CgroupPath path, String file) {
    return fake.hasFile(h, path, file);
  }

  @Override
  public String read(Hierarchy h, CgroupPath path, String file) throws IOException {
    return fake.read(h, path, file);
  }

  @Override
  public boolean delegated(Hierarchy h, CgroupPath path) throws IOException {
    return fake.delegated(h, path); // systemd's user.delegate: anyone may read it
  }

  @Override
  public Optional<String> marker(Hierarchy h, CgroupPath path, String key) throws IOException {
    return fake.marker(h, path, key);
  }

  @Override
  public List<String> markerKeys(Hierarchy h, CgroupPath path) throws IOException {
    return fake.markerKeys(h, path);
  }

  @Override
  public Owner owner(Hierarchy h, CgroupPath path, String file) throws IOException {
    return fake.owner(h, path, file);
  }

  @Override
  public Map<Hierarchy, CgroupPath> cgroupsOf(long pid) throws IOException {
    return fake.cgroupsOf(pid);
  }

  @Override
  public long selfPid() {
    return fake.selfPid();
  }

  @Override
  public void kill(long pid) throws IOException {
    fake.kill(pid); // fake processes have no owner: the caller's own, as a tenant's processes are
  }

  @Override
  public CgroupWatcher watcher() {
    return fake.watcher();
  }

  @Override
  public Optional<java.nio.file.Path> lockDirectory() {
    return fake.lockDirectory();
  }

  @Override
  public String toString() {
    return fake + " as uid " + uid;
  }
}
