package org.lmctfy.internal.kernel;

import com.sun.jna.LastErrorException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
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
import org.lmctfy.internal.kernel.launch.Launcher;
import org.lmctfy.internal.kernel.vhost.HostVirtualHosts;
import org.lmctfy.internal.libc.Libc;
import org.lmctfy.vhost.VirtualHosts;

/**
 * The host's cgroup filesystem. Mutations and reads of interface files go through libc so that
 * every failure keeps its errno; directory listings and metadata use NIO.
 */
public final class KernelCgroupFs implements CgroupFs {
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(KernelCgroupFs.class);
  private static final String MARKER_PREFIX = "user.lmctfy.";
  private static final int READ_CHUNK = 4096;
  private static final int SMALL_BUFFER = 256;
  private static final int XATTR_CREATE = 1;
  private static final int SIGKILL = 9;
  private static final Path LOCKS = Path.of("/run/lmctfy/locks");

  private final List<Hierarchy> hierarchies;
  private final Path proc;

  /** For each mount point this backend mounted, the directories it made for it, top first. */
  private final Map<String, List<Path>> madeForMount = new ConcurrentHashMap<>();

  private final VirtualHosts virtualHosts = new HostVirtualHosts(this);

  KernelCgroupFs(List<Hierarchy> hierarchies, Path proc) {
    this.hierarchies = new CopyOnWriteArrayList<>(hierarchies);
    this.proc = proc;
  }

  /** Discovers the hierarchies mounted in this process's mount namespace. */
  public static CgroupFs discover() throws IOException {
    Path proc = Path.of("/proc");
    String mountinfo = Files.readString(proc.resolve("self/mountinfo"));
    String self = Files.readString(proc.resolve("self/cgroup"));
    String cgroups = Files.readString(proc.resolve("cgroups"));
    List<Hierarchy> found =
        Discovery.hierarchies(mountinfo, self, cgroups, KernelCgroupFs::controllersOf);
    if (found.isEmpty()) {
      throw new IOException("no cgroup hierarchy is mounted (read /proc/self/mountinfo)");
    }
    return new KernelCgroupFs(found, proc);
  }

  private static String controllersOf(String mountPoint) {
    try {
      return Files.readString(Path.of(mountPoint, "cgroup.controllers"));
    } catch (IOException e) {
      return "";
    }
  }

  @Override
  public List<Hierarchy> hierarchies() {
    return Collections.unmodifiableList(hierarchies);
  }

  @Override
  public Set<String> unmountedControllers() throws IOException {
    Set<String> out = Discovery.unboundControllers(readProc("cgroups"));
    for (Hierarchy h : hierarchies) {
      out.removeAll(h.controllers());
    }
    return out;
  }

  @Override
  public boolean exists(Hierarchy h, CgroupPath path) {
    // every cgroup directory, v1 or v2, has cgroup.procs; access(2) of it answers in one call,
    // without the exception NIO makes of an absent file, the common answer when creating
    return Libc.exists(h.display(path, "cgroup.procs"));
  }

  @Override
  public void makeCgroup(Hierarchy h, CgroupPath path) throws IOException {
    String dir = h.display(path, null);
    LOG.debug("mkdir {}", dir);
    try {
      Libc.mkdir(dir, 0755);
    } catch (LastErrorException e) {
      throw fail(Operation.MKDIR, dir, null, e);
    }
  }

  @Override
  public void removeCgroup(Hierarchy h, CgroupPath path) throws IOException {
    String dir = h.display(path, null);
    LOG.debug("rmdir {}", dir);
    try {
      Libc.rmdir(dir);
    } catch (LastErrorException e) {
      throw fail(Operation.RMDIR, dir, null, e);
    }
  }

  @Override
  public List<String> children(Hierarchy h, CgroupPath path) throws IOException {
    Path dir = dir(h, path);
    List<String> out = new ArrayList<>();
    try {
      // kernfs counts a directory's subdirectories in its link count (2 + subdirectories): a leaf
      // cgroup needs no listing of its dozens of interface files
      if ((Integer) Files.getAttribute(dir, "unix:nlink", LinkOption.NOFOLLOW_LINKS) == 2) {
        return out;
      }
      try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, Files::isDirectory)) {
        for (Path p : entries) {
          out.add(p.getFileName().toString());
        }
      }
    } catch (NoSuchFileException e) {
      throw new CgroupFsException(Operation.LIST, h.display(path, null), null, Errno.ENOENT);
    }
    Collections.sort(out);
    return out;
  }

  @Override
  public boolean hasFile(Hierarchy h, CgroupPath path, String file) {
    return Files.isRegularFile(dir(h, path).resolve(file), LinkOption.NOFOLLOW_LINKS);
  }

  @Override
  public String read(Hierarchy h, CgroupPath path, String file) throws IOException {
    return readFile(h.display(path, file));
  }

  /** A whole file through libc, so that a failure keeps its errno. */
  private static String readFile(String name) throws CgroupFsException {
    int fd = open(name, Libc.O_RDONLY, Operation.READ, null);
    try {
      byte[] chunk = new byte[READ_CHUNK];
      long n = Libc.read(fd, chunk, chunk.length);
      if (n <= 0) {
        return "";
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream((int) n);
      do {
        out.write(chunk, 0, (int) n);
      } while ((n = Libc.read(fd, chunk, chunk.length)) > 0);
      return out.toString(StandardCharsets.UTF_8);
    } catch (LastErrorException e) {
      throw fail(Operation.READ, name, null, e);
    } finally {
      closeFd(fd, Operation.READ, name, null);
    }
  }

  /**
   * Reads without allocating: the C path is built in a buffer of the calling thread, the bytes go
   * straight into the caller's buffer (a second read sees the end, or continues a longer file), and
   * ENOENT is -1 rather than an exception. Anything else fails as {@link #read} does, naming the
   * file.
   */
  @Override
  public int readInto(Hierarchy h, CgroupPath path, String file, byte[] buffer) throws IOException {
    PathBuffer p = PATHS.get();
    int fd;
    try {
      fd = Libc.open(p.of(h, path, file), Libc.O_RDONLY | Libc.O_CLOEXEC);
    } catch (LastErrorException e) {
      if (e.getErrorCode() == Errno.ENOENT.number()) {
        return -1;
      }
      throw fail(Operation.READ, h.display(path, file), null, e);
    }
    try {
      int n = (int) Libc.read(fd, buffer, buffer.length);
      while (n > 0 && n < buffer.length) {
        byte[] more = p.scratch;
        int m = (int) Libc.read(fd, more, Math.min(more.length, buffer.length - n));
        if (m <= 0) {
          break;
        }
        System.arraycopy(more, 0, buffer, n, m);
        n += m;
      }
      return Math.max(n, 0);
    } catch (LastErrorException e) {
      throw fail(Operation.READ, h.display(path, file), null, e);
    } finally {
      try {
        Libc.close(fd);
      } catch (LastErrorException e) {
        throw fail(Operation.READ, h.display(path, file), null, e); // the name only on failure
      }
    }
  }

  private static final ThreadLocal<PathBuffer> PATHS = ThreadLocal.withInitial(PathBuffer::new);

  /** A thread's buffer for C paths, and for the rest of a file longer than one read. */
  private static final class PathBuffer {
    byte[] bytes = new byte[512];
    final byte[] scratch = new byte[READ_CHUNK];
    private int at;

    /** {@code <mount point><path>/<file>\0}, ASCII copied as is, anything else as UTF-8. */
    byte[] of(Hierarchy h, CgroupPath path, String file) {
      at = 0;
      put(h.mountPoint());
      if (!path.isRoot()) {
        put(path.value());
      }
      put("/");
      put(file);
      put("\0");
      return bytes;
    }

    private void put(String s) {
      int n = s.length();
      for (int i = 0; i < n; i++) {
        char c = s.charAt(i);
        if (c >= 0x80) {
          putBytes(s.substring(i).getBytes(StandardCharsets.UTF_8));
          return;
        }
        if (at == bytes.length) {
          bytes = Arrays.copyOf(bytes, bytes.length * 2);
        }
        bytes[at++] = (byte) c;
      }
    }

    private void putBytes(byte[] b) {
      if (at + b.length > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, at + b.length));
      }
      System.arraycopy(b, 0, bytes, at, b.length);
      at += b.length;
    }
  }

  @Override
  public void write(Hierarchy h, CgroupPath path, String file, String value) throws IOException {
    String name = h.display(path, file);
    LOG.debug("write {} = \"{}\"", name, value);
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    int fd = open(name, Libc.O_WRONLY, Operation.WRITE, value);
    try {
      long n = Libc.write(fd, bytes, bytes.length);
      if (n != bytes.length) {
        throw new CgroupFsException(
            Operation.WRITE, name, value, Errno.EIO, "short write of " + n + " bytes");
      }
    } catch (LastErrorException e) {
      throw fail(Operation.WRITE, name, value, e);
    } finally {
      closeFd(fd, Operation.WRITE, name, value);
    }
  }

  private static void closeFd(int fd, Operation op, String name, String value)
      throws CgroupFsException {
    try {
      Libc.close(fd);
    } catch (LastErrorException e) {
      throw fail(op, name, value, e);
    }
  }

  private static int open(String name, int flags, Operation op, String value)
      throws CgroupFsException {
    try {
      return Libc.open(name, flags | Libc.O_CLOEXEC);
    } catch (LastErrorException e) {
      throw fail(op, name, value, e);
    }
  }

  @Override
  public Optional<String> marker(Hierarchy h, CgroupPath path, String key) throws IOException {
    String dir = h.display(path, null);
    String name = MARKER_PREFIX + key;
    try {
      return Optional.of(
          new String(grown((b, n) -> Libc.getxattr(dir, name, b, n)), StandardCharsets.UTF_8));
    } catch (LastErrorException e) {
      if (e.getErrorCode() == Errno.ENODATA.number()) {
        return Optional.empty();
      }
      throw fail(Operation.GET_MARKER, dir, key, e);
    }
  }

  /** systemd's mark of a delegated unit's cgroup (systemd 251+), readable by anyone. */
  private static final String SYSTEMD_DELEGATE = "user.delegate";

  @Override
  public boolean delegated(Hierarchy h, CgroupPath path) throws IOException {
    if (path.isRoot()) {
      return hasFile(h, path, "cgroup.type"); // a namespace's root; the kernel's root has none
    }
    String dir = h.display(path, null);
    try {
      return "1"
          .equals(
              new String(
                  grown((b, n) -> Libc.getxattr(dir, SYSTEMD_DELEGATE, b, n)),
                  StandardCharsets.UTF_8));
    } catch (LastErrorException e) {
      if (e.getErrorCode() == Errno.ENODATA.number()
          || e.getErrorCode() == Errno.EOPNOTSUPP.number()) {
        return false;
      }
      throw fail(Operation.GET_MARKER, dir, SYSTEMD_DELEGATE, e);
    }
  }

  @Override
  public List<String> markerKeys(Hierarchy h, CgroupPath path) throws IOException {
    String dir = h.display(path, null);
    byte[] list;
    try {
      list = grown((b, n) -> Libc.listxattr(dir, b, n));
    } catch (LastErrorException e) {
      throw fail(Operation.GET_MARKER, dir, null, e);
    }
    List<String> keys = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < list.length; i++) {
      if (list[i] == 0) {
        String name = new String(list, start, i - start, StandardCharsets.UTF_8);
        if (name.startsWith(MARKER_PREFIX)) {
          keys.add(name.substring(MARKER_PREFIX.length()));
        }
        start = i + 1;
      }
    }
    Collections.sort(keys);
    return keys;
  }

  @Override
  public void setMarker(Hierarchy h, CgroupPath path, String key, String value) throws IOException {
    setxattr(h, path, key, value, 0);
  }

  @Override
  public boolean addMarker(Hierarchy h, CgroupPath path, String key, String value)
      throws IOException {
    return setxattr(h, path, key, value, XATTR_CREATE);
  }

  /** A marker's setxattr; with XATTR_CREATE false where the marker is there already. */
  private static boolean setxattr(Hierarchy h, CgroupPath path, String key, String value, int flags)
      throws IOException {
    String dir = h.display(path, null);
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    LOG.debug(
        "setxattr{} {} {}{} = \"{}\"",
        flags == XATTR_CREATE ? " (if absent)" : "",
        dir,
        MARKER_PREFIX,
        key,
        value);
    try {
      Libc.setxattr(dir, MARKER_PREFIX + key, bytes, bytes.length, flags);
      return true;
    } catch (LastErrorException e) {
      if (flags == XATTR_CREATE && e.getErrorCode() == Errno.EEXIST.number()) {
        return false;
      }
      throw fail(Operation.SET_MARKER, dir, key + "=" + value, e);
    }
  }

  @Override
  public void removeMarker(Hierarchy h, CgroupPath path, String key) throws IOException {
    String dir = h.display(path, null);
    LOG.debug("removexattr {} {}{}", dir, MARKER_PREFIX, key);
    try {
      Libc.removexattr(dir, MARKER_PREFIX + key);
    } catch (LastErrorException e) {
      if (e.getErrorCode() != Errno.ENODATA.number()) {
        throw fail(Operation.REMOVE_MARKER, dir, key, e);
      }
    }
  }

  @Override
  public void chown(Hierarchy h, CgroupPath path, String file, int uid, int gid)
      throws IOException {
    String name = h.display(path, file);
    LOG.debug("chown {} {}:{}", name, uid, gid);
    try {
      Libc.chown(name, uid, gid);
    } catch (LastErrorException e) {
      throw fail(Operation.CHOWN, name, uid + ":" + gid, e);
    }
  }

  @Override
  public Owner owner(Hierarchy h, CgroupPath path, String file) throws IOException {
    Path p = file == null ? dir(h, path) : dir(h, path).resolve(file);
    try {
      return new Owner(
          (Integer) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS),
          (Integer) Files.getAttribute(p, "unix:gid", LinkOption.NOFOLLOW_LINKS));
    } catch (NoSuchFileException e) {
      throw new CgroupFsException(Operation.STAT, p.toString(), null, Errno.ENOENT);
    }
  }

  @Override
  public Map<Hierarchy, CgroupPath> cgroupsOf(long pid) throws IOException {
    String file = proc.resolve(pid + "/cgroup").toString();
    String text;
    try {
      text = readFile(file);
    } catch (CgroupFsException e) {
      // absent (ENOENT), or ended and reaped between the open and the read (ESRCH): no such process
      if (e.errno() == Errno.ENOENT || e.errno() == Errno.ESRCH) {
        throw new CgroupFsException(Operation.READ, file, null, Errno.ESRCH);
      }
      throw e;
    }
    Map<Hierarchy, CgroupPath> out = new LinkedHashMap<>();
    for (Discovery.Membership m : Discovery.memberships(text)) {
      for (Hierarchy h : hierarchies) {
        boolean same =
            m.unified() ? h.version() == CgroupVersion.V2 : h.name().equals(m.hierarchyName());
        if (!same) {
          continue;
        }
        CgroupPath full = CgroupPath.of(m.path());
        CgroupPath root = CgroupPath.of(h.mountRoot());
        if (root.isAncestorOrSelf(full)) {
          out.put(h, full.relativeTo(root));
        }
      }
    }
    return out;
  }

  @Override
  public Hierarchy mount(Set<String> controllers, String mountPoint) throws IOException {
    List<Path> made = new ArrayList<>();
    for (Path p = Path.of(mountPoint); p != null && !Files.exists(p); p = p.getParent()) {
      made.add(0, p);
    }
    for (Path p : made) {
      try {
        Libc.mkdir(p.toString(), 0755);
      } catch (LastErrorException e) {
        removeDirs(made);
        throw fail(Operation.MKDIR, p.toString(), null, e);
      }
    }
    String data = String.join(",", new LinkedHashSet<>(controllers));
    LOG.debug("mount -t cgroup -o {} cgroup {}", data, mountPoint);
    try {
      Libc.mount("cgroup", mountPoint, "cgroup", 0, data);
    } catch (LastErrorException e) {
      removeDirs(made);
      throw fail(Operation.MOUNT, mountPoint, data, e);
    }
    madeForMount.put(mountPoint, made);
    Hierarchy h = new Hierarchy(data, CgroupVersion.V1, controllers, mountPoint, "/");
    hierarchies.add(h);
    return h;
  }

  @Override
  public void unmount(Hierarchy h) throws IOException {
    LOG.debug("umount {}", h.mountPoint());
    try {
      Libc.umount2(h.mountPoint(), 0);
    } catch (LastErrorException e) {
      throw fail(Operation.UNMOUNT, h.mountPoint(), null, e);
    }
    hierarchies.remove(h);
    List<Path> made = madeForMount.remove(h.mountPoint());
    if (made != null) {
      removeDirs(made);
    }
  }

  @Override
  public void kill(long pid) throws IOException {
    if (pid <= 0 || pid > Integer.MAX_VALUE) {
      throw new CgroupFsException(Operation.KILL, "pid " + pid, null, Errno.ESRCH);
    }
    LOG.debug("kill -KILL {}", pid);
    try {
      Libc.kill((int) pid, SIGKILL);
    } catch (LastErrorException e) {
      throw fail(Operation.KILL, "pid " + pid, null, e);
    }
  }

  /** One epoll set with one inotify instance for every watch; see {@link KernelWatches}. */
  @Override
  public CgroupWatcher watcher() throws IOException {
    return KernelWatches.open();
  }

  /**
   * Spawned straight into the cgroup where glibc and the layout allow it, else the launcher places
   * itself, then execs the command (see {@link Launcher}).
   */
  @Override
  public Process start(ProcessBuilder command, Map<Hierarchy, CgroupPath> cgroups)
      throws IOException {
    LOG.debug("start {} in {}", command.command(), cgroups.values());
    return Launcher.start(this, command, cgroups);
  }

  /**
   * Made with bubblewrap and joined with nsenter, through the launcher; see {@link
   * HostVirtualHosts}.
   */
  @Override
  public Optional<VirtualHosts> virtualHosts() {
    return Optional.of(virtualHosts);
  }

  @Override
  public int effectiveUid() {
    return Libc.geteuid();
  }

  @Override
  public Set<Capability> capabilities() {
    return java.util.EnumSet.allOf(Capability.class);
  }

  @Override
  public Optional<Path> lockDirectory() {
    return Optional.of(lockDirectory(Libc.geteuid(), System.getenv("XDG_RUNTIME_DIR")));
  }

  /**
   * Root's {@code /run/lmctfy/locks}; for another uid a directory that uid alone can write: its
   * {@code $XDG_RUNTIME_DIR/lmctfy/locks}, or {@code /tmp/lmctfy-<uid>} (in the sticky /tmp, where
   * nobody else can rename or remove it; one made by someone else is refused when locking).
   */
  static Path lockDirectory(int euid, String runtimeDir) {
    if (euid == 0) {
      return LOCKS;
    }
    if (runtimeDir != null && runtimeDir.startsWith("/")) {
      return Path.of(runtimeDir, "lmctfy", "locks");
    }
    return Path.of("/tmp", "lmctfy-" + euid);
  }

  /** Removes directories made for a mount point, deepest first; they are empty. */
  private static void removeDirs(List<Path> made) throws CgroupFsException {
    for (int i = made.size() - 1; i >= 0; i--) {
      try {
        Libc.rmdir(made.get(i).toString());
      } catch (LastErrorException e) {
        throw fail(Operation.RMDIR, made.get(i).toString(), null, e);
      }
    }
  }

  /** An xattr call filling a buffer of {@code size} bytes ({@code null}, 0: it says the size). */
  private interface XattrCall {
    long fill(byte[] buffer, long size);
  }

  /**
   * The bytes an xattr call fills: with a small buffer first (JNA copies a whole Java array to
   * native memory and back on every call), then with the size the kernel asks for on ERANGE.
   */
  private static byte[] grown(XattrCall call) {
    for (int size = SMALL_BUFFER; ; ) {
      byte[] buffer = new byte[size];
      try {
        return Arrays.copyOf(buffer, (int) call.fill(buffer, buffer.length));
      } catch (LastErrorException e) {
        if (e.getErrorCode() != Errno.ERANGE.number()) {
          throw e;
        }
        size = (int) call.fill(null, 0); // what it takes now; if it grows again, ERANGE again
      }
    }
  }

  private String readProc(String name) throws IOException {
    return Files.readString(proc.resolve(name));
  }

  private static Path dir(Hierarchy h, CgroupPath path) {
    return Path.of(h.display(path, null));
  }

  @Override
  public void setDeviceFilter(Hierarchy h, CgroupPath path, List<DeviceRule> allowed)
      throws IOException {
    LOG.debug("device filter of {}: {}", h.display(path, null), allowed);
    DeviceFilters.set(this, h, path, allowed);
  }

  @Override
  public Optional<List<DeviceRule>> deviceFilter(Hierarchy h, CgroupPath path) throws IOException {
    return DeviceFilters.get(this, h, path);
  }

  private static CgroupFsException fail(
      Operation op, String file, String value, LastErrorException e) {
    Errno errno = Errno.of(e.getErrorCode());
    String detail = errno == Errno.UNKNOWN ? "errno " + e.getErrorCode() : null;
    return new CgroupFsException(op, file, value, errno, detail);
  }

  @Override
  public String toString() {
    return "KernelCgroupFs" + hierarchies;
  }
}
