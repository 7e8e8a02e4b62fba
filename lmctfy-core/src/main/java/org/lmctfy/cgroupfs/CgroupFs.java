package org.lmctfy.cgroupfs;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.lmctfy.vhost.VirtualHosts;

/**
 * The cgroup filesystem as the library sees it: mounted hierarchies, cgroups in them, their
 * interface files, ownership markers and process membership. This is the seam between the library
 * and the kernel: {@code ContainerApi.hostCgroupFs()} gives the real one; {@code
 * org.lmctfy.testing.FakeCgroupFs} is an in-memory one that behaves like the kernel, for tests.
 * This package knows no implementation of its own.
 *
 * <p>Every operation names a hierarchy (one of {@link #hierarchies()}) and a {@link CgroupPath}
 * relative to that hierarchy's mount. Every {@code IOException} a method throws when the cgroup
 * filesystem refuses is a {@link CgroupFsException} naming the operation, the file, the value and
 * the errno the kernel gave (a method's own {@code @throws} says only what differs); a backend
 * never swallows one and never retries on its own.
 *
 * <p>What a backend must do, and what the kernel does, is pinned down by the contract suite in
 * {@code org.lmctfy.testing.contract.CgroupFsContract}, which a new backend must pass.
 *
 * <p>Implementations are thread-safe.
 *
 * <pre>{@code
 * CgroupFs fs = ContainerApi.hostCgroupFs();
 * Hierarchy memory = fs.hierarchy("memory").orElseThrow();
 * fs.makeCgroup(memory, CgroupPath.of("/job"));
 * fs.write(memory, CgroupPath.of("/job"), "memory.limit_in_bytes", "104857600");
 * }</pre>
 *
 * @since 0.1
 */
public interface CgroupFs {

  /**
   * The mounted hierarchies, v1 ones first in mount order, then the v2 unified one.
   *
   * @return the mounted hierarchies, v1 ones first in mount order, then the v2 unified one
   */
  List<Hierarchy> hierarchies();

  /**
   * The hierarchy carrying {@code controller}, or the one named so ({@code "name=systemd"}).
   *
   * @param controller the controller's name ({@code "memory"}) or the named hierarchy's name
   * @return the hierarchy carrying {@code controller}, or the one named so ({@code "name=systemd"})
   */
  default Optional<Hierarchy> hierarchy(String controller) {
    for (Hierarchy h : hierarchies()) {
      if (h.has(controller) || h.name().equals(controller)) {
        return Optional.of(h);
      }
    }
    return Optional.empty();
  }

  /**
   * The v1 controllers the kernel knows but that are not mounted anywhere (from {@code
   * /proc/cgroups}), which {@link #mount} can mount.
   *
   * @return the v1 controllers the kernel knows but that are not mounted anywhere (from {@code
   *     /proc/cgroups}), which {@link #mount} can mount
   */
  Set<String> unmountedControllers() throws IOException;

  /**
   * Whether a cgroup exists at {@code path}.
   *
   * @param h the hierarchy
   * @param path the cgroup's path in the hierarchy
   * @return whether a cgroup exists at {@code path}
   */
  boolean exists(Hierarchy h, CgroupPath path) throws IOException;

  /**
   * Makes the cgroup {@code path}; the kernel creates its interface files. Fails with EEXIST if it
   * exists and ENOENT if its parent does not.
   *
   * @param h the hierarchy
   * @param path the cgroup's path in the hierarchy
   */
  void makeCgroup(Hierarchy h, CgroupPath path) throws IOException;

  /**
   * Removes the cgroup {@code path} with its interface files. Fails with EBUSY if it has child
   * cgroups or member processes, ENOENT if it does not exist.
   *
   * @param h the hierarchy
   * @param path the cgroup's path in the hierarchy
   */
  void removeCgroup(Hierarchy h, CgroupPath path) throws IOException;

  /**
   * The names of {@code path}'s child cgroups, sorted. ENOENT if {@code path} does not exist.
   *
   * @param h the hierarchy
   * @param path the cgroup's path in the hierarchy
   * @return the names of {@code path}'s child cgroups, sorted
   */
  List<String> children(Hierarchy h, CgroupPath path) throws IOException;

  /**
   * Whether the cgroup has an interface file called {@code file}.
   *
   * @param h the hierarchy
   * @param path the cgroup's path in the hierarchy
   * @param file the interface file's name ({@code null} for the cgroup's directory where allowed)
   * @return whether the cgroup has an interface file called {@code file}
   */
  boolean hasFile(Hierarchy h, CgroupPath path, String file) throws IOException;

  /**
   * The content of an interface file, as the kernel prints it (usually ending in a newline).
   *
   * @param h the hierarchy
   * @param path the cgroup's path in the hierarchy
   * @param file the interface file's name ({@code null} for the cgroup's directory where allowed)
   * @return the content of an interface file, as the kernel prints it (usually ending in a newline)
   */
  String read(Hierarchy h, CgroupPath path, String file) throws IOException;

  /**
   * Reads an interface file into {@code buffer}, from its start, for callers that read many files
   * (stats of thousands of containers): the kernel backend allocates nothing, and an absent file is
   * an answer, not an exception.
   *
   * @param h the hierarchy
   * @param path the cgroup's path in the hierarchy
   * @param file the interface file's name
   * @param buffer where the content goes, from its start
   * @return the number of bytes read; {@code buffer.length} if the file may be longer (read it
   *     again into a larger buffer); -1 if there is no such file (ENOENT: the cgroup has no such
   *     file, or is gone; {@link #exists} tells which)
   * @throws IOException as {@link #read} does, for any other failure
   */
  default int readInto(Hierarchy h, CgroupPath path, String file, byte[] buffer)
      throws IOException {
    String content;
    try {
      content = read(h, path, file);
    } catch (CgroupFsException e) {
      if (e.errno() == Errno.ENOENT) {
        return -1;
      }
      throw e;
    }
    byte[] bytes = content.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    int n = Math.min(bytes.length, buffer.length);
    System.arraycopy(bytes, 0, buffer, 0, n);
    return n;
  }

  /**
   * Writes {@code value} to an interface file in one write, as the kernel expects. The kernel
   * validates it: a refused value is an EINVAL, EBUSY, ENOSPC... {@link CgroupFsException}.
   *
   * @param h the hierarchy
   * @param path the cgroup's path in the hierarchy
   * @param file the interface file's name ({@code null} for the cgroup's directory where allowed)
   * @param value the value
   */
  void write(Hierarchy h, CgroupPath path, String file, String value) throws IOException;

  /**
   * The marker {@code key} on a cgroup (a {@code user.*} extended attribute on the kernel), or
   * empty if it has none.
   *
   * @param h the hierarchy
   * @param path the cgroup's path in the hierarchy
   * @param key the marker's key
   * @return the marker {@code key} on a cgroup (a {@code user.*} extended attribute on the kernel),
   *     or empty if it has none
   */
  Optional<String> marker(Hierarchy h, CgroupPath path, String key) throws IOException;

  /**
   * The keys of the markers on a cgroup, sorted.
   *
   * @param h the hierarchy
   * @param path the cgroup's path in the hierarchy
   * @return the keys of the markers on a cgroup, sorted
   */
  List<String> markerKeys(Hierarchy h, CgroupPath path) throws IOException;

  /**
   * Sets the marker {@code key} on a cgroup.
   *
   * @param h the hierarchy
   * @param path the cgroup's path in the hierarchy
   * @param key the marker's key
   * @param value the value
   */
  void setMarker(Hierarchy h, CgroupPath path, String key, String value) throws IOException;

  /**
   * Sets the marker {@code key} on a cgroup unless it has one: false, and nothing changed, if it
   * has. The kernel backend does this in one step ({@code XATTR_CREATE}); this default reads, then
   * sets, which is enough for a caller holding the container's lock.
   *
   * @param h the hierarchy
   * @param path the cgroup's path in the hierarchy
   * @param key the marker's key
   * @param value the value
   * @return whether it did
   */
  default boolean addMarker(Hierarchy h, CgroupPath path, String key, String value)
      throws IOException {
    if (marker(h, path, key).isPresent()) {
      return false;
    }
    setMarker(h, path, key, value);
    return true;
  }

  /**
   * Removes the marker {@code key} from a cgroup; no error if it had none.
   *
   * @param h the hierarchy
   * @param path the cgroup's path in the hierarchy
   * @param key the marker's key
   */
  void removeMarker(Hierarchy h, CgroupPath path, String key) throws IOException;

  /**
   * Changes the owner of a cgroup's directory ({@code file == null}) or of one of its interface
   * files, by numeric ids; {@code -1} leaves an id unchanged.
   *
   * @param h the hierarchy
   * @param path the cgroup's path in the hierarchy
   * @param file the interface file's name ({@code null} for the cgroup's directory where allowed)
   * @param uid the user id ({@code -1}: unchanged)
   * @param gid the group id ({@code -1}: unchanged)
   */
  void chown(Hierarchy h, CgroupPath path, @Nullable String file, int uid, int gid)
      throws IOException;

  /**
   * The owner of a cgroup's directory or interface file.
   *
   * @param h the hierarchy
   * @param path the cgroup's path in the hierarchy
   * @param file the interface file's name ({@code null} for the cgroup's directory where allowed)
   * @return the owner of a cgroup's directory or interface file
   */
  Owner owner(Hierarchy h, CgroupPath path, @Nullable String file) throws IOException;

  /**
   * The cgroup of process {@code pid} in each hierarchy where it is visible below the mount root
   * (from {@code /proc/<pid>/cgroup}). ESRCH if there is no such process.
   *
   * @param pid the process id
   * @return the cgroup of process {@code pid} in each hierarchy where it is visible below the mount
   *     root (from {@code /proc/<pid>/cgroup})
   */
  Map<Hierarchy, CgroupPath> cgroupsOf(long pid) throws IOException;

  /**
   * Mounts a new v1 hierarchy with {@code controllers} at {@code mountPoint} and returns it. EBUSY
   * if a controller is mounted elsewhere.
   *
   * @param controllers the controllers
   * @param mountPoint where to mount it
   * @return the Hierarchy
   */
  Hierarchy mount(Set<String> controllers, String mountPoint) throws IOException;

  /**
   * Unmounts a hierarchy this backend mounted (the undo of {@link #mount}).
   *
   * @param h the hierarchy
   */
  void unmount(Hierarchy h) throws IOException;

  /**
   * The id of the calling process, as this backend's {@link #cgroupsOf} knows it.
   *
   * @return the id of the calling process, as this backend's {@link #cgroupsOf} knows it
   */
  default long selfPid() {
    return ProcessHandle.current().pid();
  }

  /**
   * Sends {@code SIGKILL} to process {@code pid}. ESRCH if there is no such process.
   *
   * @param pid the process id
   */
  void kill(long pid) throws IOException;

  /**
   * A new {@link CgroupWatcher}: one place where one thread waits for any number of watches on this
   * backend's cgroups. The caller closes it. The kernel backend's is one epoll set with one inotify
   * instance; this default polls ({@link CgroupWatcher#polling}) every {@link
   * CgroupWatcher#POLL_INTERVAL} and has no eventfds or PSI triggers.
   *
   * @return a new watcher, owned by the caller
   * @throws IOException if the backend cannot make one (the kernel's errno in a {@link
   *     CgroupFsException})
   */
  default CgroupWatcher watcher() throws IOException {
    return CgroupWatcher.polling(this, CgroupWatcher.POLL_INTERVAL);
  }

  /**
   * Starts {@code command} (its argv, environment, directory and redirections) as a process that is
   * a member of {@code cgroups}, one cgroup per hierarchy, before it executes its first
   * instruction, and returns it once it is placed.
   *
   * <p>The kernel backend starts a launcher {@code /bin/sh} that writes its own pid into each
   * cgroup's {@code cgroup.procs} (the paths and the argv are passed as positional parameters,
   * never spliced into the script), exits with status 125 if a write fails, and otherwise execs the
   * command. An in-memory fake places a fake process with the same writes; a backend that wraps
   * another delegates to it.
   *
   * @param command the program to start, with its environment, directory and redirections
   * @param cgroups one cgroup per hierarchy
   * @return the Process
   * @throws IOException if the launcher could not start or place itself (naming the file); no
   *     process is left behind then
   * @throws org.lmctfy.LmctfyException INVALID_ARGUMENT, before anything starts, if the program is
   *     not an executable file or the working directory or a redirected file is unusable
   */
  Process start(ProcessBuilder command, Map<Hierarchy, CgroupPath> cgroups) throws IOException;

  /**
   * How this backend makes virtual hosts (lmctfy's {@code virtual_host}: namespaces, a root, an
   * init) and runs processes in them; empty when it cannot, and then a spec with a virtual host is
   * UNIMPLEMENTED. The kernel backend's uses bubblewrap and util-linux's {@code nsenter}; the fake
   * of {@code lmctfy-testing} models them.
   *
   * @return the backend's virtual hosts, or empty
   */
  default Optional<VirtualHosts> virtualHosts() {
    return Optional.empty();
  }

  /**
   * What this backend can do beyond the operations every backend has; the library asks for one
   * before it needs it, and a request that needs one the backend lacks is UNIMPLEMENTED (with
   * nothing changed); one that says what the backend is ({@link #HOST_TREE}) steers a choice
   * instead. A backend that overrides {@link #setDeviceFilter}, or whose {@link #watcher} makes
   * eventfd or PSI watches, names that here; this default names none.
   *
   * <p>New capabilities may come in a minor release: a {@code switch} over them needs a default.
   */
  enum Capability {
    /** {@link #setDeviceFilter} and {@link #deviceFilter}: device rules on cgroup v2. */
    DEVICE_FILTERS,
    /** {@link CgroupWatcher#eventControl}: v1's eventfd notifications (OOM, memory thresholds). */
    EVENT_CONTROL,
    /** {@link CgroupWatcher#pressureTrigger}: PSI triggers on v2's {@code *.pressure} files. */
    PRESSURE_TRIGGERS,
    /**
     * The hierarchies are this machine's own cgroup tree, the one its PID 1 manages, as mounted in
     * this process's mount namespace: where systemd runs the machine it manages this tree, so
     * {@code ContainerApi.open} may choose the systemd driver for it. The kernel backend has it; an
     * in-memory tree, or a backend that shows only part of a tree, has not.
     *
     * @since 0.2
     */
    HOST_TREE
  }

  /**
   * The optional capabilities of this backend. The kernel backend has them all; the fake all but
   * {@link Capability#HOST_TREE}.
   *
   * <pre>{@code
   * if (fs.capabilities().contains(CgroupFs.Capability.DEVICE_FILTERS)) { ... }
   * }</pre>
   *
   * @return the capabilities this backend has (none by default)
   */
  default Set<Capability> capabilities() {
    return Set.of();
  }

  /**
   * The directory where processes that share this cgroup filesystem keep per-container lock files
   * ({@code /run/lmctfy/locks} for root on the host, a directory of its own for another user);
   * empty when no other process can reach it, as for an in-memory fake.
   *
   * @return the directory where processes that share this cgroup filesystem keep per-container lock
   *     files ({@code /run/lmctfy/locks} for root on the host, a directory of its own for another
   *     user); empty when no other process can reach it, as for an in-memory fake
   */
  default Optional<java.nio.file.Path> lockDirectory() {
    return Optional.empty();
  }

  /**
   * The effective uid of the process using this filesystem: the library trusts its markers only on
   * cgroup directories owned by this uid or by root (0), which a delegated tenant cannot have
   * written. An in-memory fake, and a backend that wraps another without saying, answer 0.
   *
   * @return the effective uid whose directories, with root's, carry markers the library believes
   */
  default int effectiveUid() {
    return 0;
  }

  /**
   * Whether the cgroup {@code path} of the v2 hierarchy {@code h} was delegated to the processes in
   * it, so that they may arrange their own subtree (move themselves into a leaf, enable controllers
   * for their children): systemd marks the cgroup of a unit with {@code Delegate=yes} with the
   * xattr {@code user.delegate=1} (systemd 251 and later), and the root of a cgroup namespace is
   * delegated by the namespace (the kernel's root cgroup has no {@code cgroup.type}; every other
   * cgroup, a namespace's root too, has one). The library moves the processes of such a default
   * root into a processes leaf at its first create (see {@code ContainerApi.open()}). This default,
   * for backends that cannot tell, answers false.
   *
   * @param h the unified hierarchy
   * @param path the cgroup's path in it
   * @return whether the cgroup is delegated to the processes in it
   * @throws IOException if the cgroup cannot be read (a {@link CgroupFsException} names it and the
   *     errno)
   */
  default boolean delegated(Hierarchy h, CgroupPath path) throws IOException {
    return false;
  }

  /**
   * Replaces the device filter of a cgroup v2 cgroup: on the kernel, lmctfy's eBPF cgroup-device
   * program, attached with {@code BPF_F_ALLOW_MULTI} (so the filters of the cgroup's ancestors, and
   * of other managers, still apply: an access must pass all of them) and swapped for the new one
   * atomically ({@code BPF_F_REPLACE}). The filter allows a device access when one of its rules
   * covers the device (its type, and its major and minor unless -1) and every access requested
   * ({@code r}, {@code w}, {@code m}); everything else is denied.
   *
   * <p>The kernel backend records the rules in a marker named after the program's tag, and reports
   * them back only while that program is the one attached. Loading and attaching need {@code
   * CAP_BPF} or {@code CAP_SYS_ADMIN}: EPERM without. This default has no device filters.
   *
   * @param h the unified hierarchy
   * @param path the cgroup
   * @param allowed the devices the filter allows, one rule per device with its access letters
   *     merged (every other device is denied; an empty list denies all); null removes the filter
   * @throws IOException if the kernel refuses (a {@link CgroupFsException} with operation BPF names
   *     the cgroup, the rules and the errno); the filter is then as it was
   */
  default void setDeviceFilter(Hierarchy h, CgroupPath path, @Nullable List<DeviceRule> allowed)
      throws IOException {
    throw new CgroupFsException(
        CgroupFsException.Operation.BPF,
        h.display(path, null),
        allowed == null ? null : allowed.toString(),
        Errno.EOPNOTSUPP,
        "this CgroupFs has no device filters");
  }

  /**
   * The rules of the device filter {@link #setDeviceFilter} attached to a cgroup v2 cgroup, or
   * empty when it has none (a cgroup without a filter of lmctfy's allows every device its ancestors
   * allow).
   *
   * @param h the unified hierarchy
   * @param path the cgroup
   * @return the allowed devices as they were set, or empty
   * @throws IOException if the kernel refuses the query (EPERM without {@code CAP_NET_ADMIN} or
   *     {@code CAP_SYS_ADMIN}), or if the program attached is not the one its record describes
   */
  default Optional<List<DeviceRule>> deviceFilter(Hierarchy h, CgroupPath path) throws IOException {
    return Optional.empty();
  }
}
