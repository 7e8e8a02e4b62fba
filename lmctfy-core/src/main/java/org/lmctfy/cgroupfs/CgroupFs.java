package org.lmctfy.cgroupfs;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The cgroup filesystem as the library sees it: mounted hierarchies, cgroups in them, their
 * interface files, ownership markers and process membership. This is the seam between the library
 * and the kernel: {@link #host()} is the real one; {@code org.lmctfy.testing.FakeCgroupFs} is an
 * in-memory one that behaves like the kernel, for tests.
 *
 * <p>Every operation names a hierarchy (one of {@link #hierarchies()}) and a {@link CgroupPath}
 * relative to that hierarchy's mount. Failures are {@link CgroupFsException}s carrying the
 * operation, file, value and errno the kernel gave; a backend never swallows one and never retries
 * on its own.
 *
 * <p>What a backend must do, and what the kernel does, is pinned down by the contract suite in
 * {@code org.lmctfy.testing.CgroupFsContract}, which a new backend must pass.
 *
 * <p>Implementations are thread-safe.
 *
 * <pre>{@code
 * CgroupFs fs = CgroupFs.host();
 * Hierarchy memory = fs.hierarchy("memory").orElseThrow();
 * fs.makeCgroup(memory, CgroupPath.of("/job"));
 * fs.write(memory, CgroupPath.of("/job"), "memory.limit_in_bytes", "104857600");
 * }</pre>
 *
 * @since 0.1
 */
public interface CgroupFs {

  /**
   * The host's cgroup filesystem: every hierarchy mounted in this process's mount namespace,
   * found from {@code /proc/self/mountinfo} and {@code /proc/self/cgroup}.
   *
   * @throws IOException if those files cannot be read or no cgroup hierarchy is mounted
   */
  static CgroupFs host() throws IOException {
    return org.lmctfy.internal.kernel.KernelCgroupFs.discover();
  }

  /** The mounted hierarchies, v1 ones first in mount order, then the v2 unified one. */
  List<Hierarchy> hierarchies();

  /** The hierarchy carrying {@code controller}, or the one named so ({@code "name=systemd"}). */
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
   */
  Set<String> unmountedControllers() throws IOException;

  /** Whether a cgroup exists at {@code path}. */
  boolean exists(Hierarchy h, CgroupPath path) throws IOException;

  /**
   * Makes the cgroup {@code path}; the kernel creates its interface files. Fails with EEXIST if it
   * exists and ENOENT if its parent does not.
   */
  void makeCgroup(Hierarchy h, CgroupPath path) throws IOException;

  /**
   * Removes the cgroup {@code path} with its interface files. Fails with EBUSY if it has child
   * cgroups or member processes, ENOENT if it does not exist.
   */
  void removeCgroup(Hierarchy h, CgroupPath path) throws IOException;

  /** The names of {@code path}'s child cgroups, sorted. ENOENT if {@code path} does not exist. */
  List<String> children(Hierarchy h, CgroupPath path) throws IOException;

  /** Whether the cgroup has an interface file called {@code file}. */
  boolean hasFile(Hierarchy h, CgroupPath path, String file) throws IOException;

  /** The content of an interface file, as the kernel prints it (usually ending in a newline). */
  String read(Hierarchy h, CgroupPath path, String file) throws IOException;

  /**
   * Reads an interface file into {@code buffer}, from its start, for callers that read many files
   * (stats of thousands of containers): the kernel backend allocates nothing, and an absent file is
   * an answer, not an exception.
   *
   * @return the number of bytes read; {@code buffer.length} if the file may be longer (read it
   *     again into a larger buffer); -1 if there is no such file (ENOENT: the cgroup has no such
   *     file, or is gone; {@link #exists} tells which)
   * @throws IOException as {@link #read} does, for any other failure
   */
  default int readInto(Hierarchy h, CgroupPath path, String file, byte[] buffer) throws IOException {
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
   */
  void write(Hierarchy h, CgroupPath path, String file, String value) throws IOException;

  /**
   * The marker {@code key} on a cgroup (a {@code user.*} extended attribute on the kernel), or
   * empty if it has none.
   */
  Optional<String> marker(Hierarchy h, CgroupPath path, String key) throws IOException;

  /** The keys of the markers on a cgroup, sorted. */
  List<String> markerKeys(Hierarchy h, CgroupPath path) throws IOException;

  /** Sets the marker {@code key} on a cgroup. */
  void setMarker(Hierarchy h, CgroupPath path, String key, String value) throws IOException;

  /**
   * Sets the marker {@code key} on a cgroup unless it has one: false, and nothing changed, if it
   * has. The kernel backend does this in one step ({@code XATTR_CREATE}); this default reads, then
   * sets, which is enough for a caller holding the container's lock.
   */
  default boolean addMarker(Hierarchy h, CgroupPath path, String key, String value) throws IOException {
    if (marker(h, path, key).isPresent()) {
      return false;
    }
    setMarker(h, path, key, value);
    return true;
  }

  /** Removes the marker {@code key} from a cgroup; no error if it had none. */
  void removeMarker(Hierarchy h, CgroupPath path, String key) throws IOException;

  /**
   * Changes the owner of a cgroup's directory ({@code file == null}) or of one of its interface
   * files, by numeric ids; {@code -1} leaves an id unchanged.
   */
  void chown(Hierarchy h, CgroupPath path, String file, int uid, int gid) throws IOException;

  /** The owner ({@code [uid, gid]}) of a cgroup's directory or interface file. */
  int[] owner(Hierarchy h, CgroupPath path, String file) throws IOException;

  /**
   * The cgroup of process {@code pid} in each hierarchy where it is visible below the mount root
   * (from {@code /proc/<pid>/cgroup}). ESRCH if there is no such process.
   */
  Map<Hierarchy, CgroupPath> cgroupsOf(long pid) throws IOException;

  /**
   * Mounts a new v1 hierarchy with {@code controllers} at {@code mountPoint} and returns it.
   * EBUSY if a controller is mounted elsewhere.
   */
  Hierarchy mount(Set<String> controllers, String mountPoint) throws IOException;

  /** Unmounts a hierarchy this backend mounted (the undo of {@link #mount}). */
  void unmount(Hierarchy h) throws IOException;

  /** The id of the calling process, as this backend's {@link #cgroupsOf} knows it. */
  default long selfPid() {
    return ProcessHandle.current().pid();
  }

  /** Sends {@code SIGKILL} to process {@code pid}. ESRCH if there is no such process. */
  void kill(long pid) throws IOException;

  /**
   * A new {@link CgroupWatcher}: one place where one thread waits for any number of watches on
   * this backend's cgroups. The caller closes it. The kernel backend's is one epoll set with one
   * inotify instance; this default polls ({@link CgroupWatcher#polling}) every {@link
   * CgroupWatcher#POLL_INTERVAL} and has no eventfds or PSI triggers.
   */
  default CgroupWatcher watcher() throws IOException {
    return CgroupWatcher.polling(this, CgroupWatcher.POLL_INTERVAL);
  }

  /**
   * Starts {@code command} (its argv, environment, directory and redirections) as a process that
   * is a member of {@code cgroups}, one cgroup per hierarchy, before it executes its first
   * instruction, and returns it once it is placed.
   *
   * <p>The default is for backends whose processes are this machine's: a launcher {@code /bin/sh}
   * writes its own pid into each cgroup's {@code cgroup.procs} (the paths and the argv are passed
   * as positional parameters, never spliced into the script), exits with status 125 if a write
   * fails, and otherwise execs the command. A backend whose processes are not the host's (an
   * in-memory fake) overrides this.
   *
   * @throws IOException if the launcher could not start or place itself (naming the file); no
   *     process is left behind then
   * @throws org.lmctfy.LmctfyException INVALID_ARGUMENT, before anything starts, if the program
   *     is not an executable file or the working directory or a redirected file is unusable
   */
  default Process start(ProcessBuilder command, Map<Hierarchy, CgroupPath> cgroups) throws IOException {
    return org.lmctfy.internal.process.Launcher.start(this, command, cgroups);
  }

  /**
   * The directory where processes that share this cgroup filesystem keep per-container lock
   * files ({@code /run/lmctfy/locks} for the host); empty when no other process can reach it, as
   * for an in-memory fake.
   */
  default Optional<java.nio.file.Path> lockDirectory() {
    return Optional.empty();
  }
}
