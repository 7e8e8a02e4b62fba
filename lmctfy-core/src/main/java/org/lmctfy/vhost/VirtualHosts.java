package org.lmctfy.vhost;

import java.io.IOException;
import java.util.Map;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;

/**
 * How a {@link CgroupFs} backend makes virtual hosts (lmctfy's namespaces) and starts processes in
 * them: the part of the SPI the library's {@code virtual_host} uses, from {@link
 * CgroupFs#virtualHosts()}. A virtual host is its init, a process in its own pid, ipc and mount
 * namespaces (and uts, network and user ones as the spec and the caller say); it lives until it is
 * killed, and with it go its namespaces, its mounts and every process in them.
 *
 * <p>The kernel backend's implementation uses the distribution's tools, each started by the
 * launcher that places itself in the container's cgroups before it execs anything: bubblewrap
 * ({@code bwrap}) makes the namespaces, the root, the mounts and the init; util-linux {@code
 * nsenter} joins them. The fake of {@code lmctfy-testing} models them in memory.
 *
 * <pre>{@code
 * VirtualHosts vh = fs.virtualHosts().orElseThrow();
 * Blueprint machine = new Blueprint("vh", false, null, List.of(), Blueprint.Init.DEFAULT);
 * vh.check(machine);
 * ProcessId init = vh.start(machine, cgroups);
 * Process p = vh.join(init, new ProcessBuilder("/bin/hostname"), false, cgroups);
 * }</pre>
 *
 * <p>Implementations are thread-safe.
 *
 * @since 0.1 (in {@code org.lmctfy.cgroupfs} until 0.2)
 */
public interface VirtualHosts {
  /**
   * Checks on this machine everything {@link #start} would otherwise refuse once started, without
   * changing anything: the tools and their versions, the root and the mount sources and targets,
   * the init's program, and what a caller without root needs (user namespaces allowed).
   *
   * @param blueprint what the virtual host is made of
   * @throws IOException if the machine cannot be read
   * @throws org.lmctfy.LmctfyException FAILED_PRECONDITION naming a missing tool and its package or
   *     a setting of the machine, INVALID_ARGUMENT naming the field and the path
   */
  void check(Blueprint blueprint) throws IOException;

  /**
   * Starts a virtual host's init as a member of {@code cgroups} (one cgroup per hierarchy) before
   * it runs anything, and returns once the init runs: every process of the virtual host is in those
   * cgroups from its first instruction. The init outlives the caller; killing it (a SIGKILL, {@code
   * cgroup.kill}) ends the virtual host.
   *
   * @param blueprint what the virtual host is made of
   * @param cgroups one cgroup per hierarchy
   * @return the init, named so that a reused pid cannot stand for it
   * @throws IOException if placing it failed (naming the file and the errno); nothing is left
   *     running then
   * @throws org.lmctfy.LmctfyException FAILED_PRECONDITION with the tool's own message when the
   *     virtual host could not be made, or DEADLINE_EXCEEDED; nothing is left running then
   */
  ProcessId start(Blueprint blueprint, Map<Hierarchy, CgroupPath> cgroups) throws IOException;

  /**
   * Starts {@code command} inside the virtual host of {@code init}: in every namespace of the init
   * that differs from the caller's, with the init's root, as a member of {@code cgroups} before it
   * runs anything. The command's program and its directory ({@link ProcessBuilder#directory()},
   * default {@code /}; a relative one is taken from {@code /}) are paths inside the virtual host;
   * its redirected files are the host's. The process returned is the caller's child to wait for;
   * its {@link Process#pid()} is the program's (once it runs; in a frozen cgroup, the joining
   * process's until then).
   *
   * @param init the virtual host's init
   * @param command the program, its arguments, environment, directory inside and redirections
   * @param newSession whether the program starts a new session (lmctfy's DETACHED)
   * @param cgroups one cgroup per hierarchy
   * @return the started process
   * @throws IOException ESRCH (a {@link CgroupFsException}) if {@code init} no longer runs; a
   *     placement failure naming the file and the errno
   * @throws org.lmctfy.LmctfyException INVALID_ARGUMENT, before anything starts, if the program is
   *     not an executable file inside the virtual host or its directory is not a directory there
   */
  Process join(
      ProcessId init,
      ProcessBuilder command,
      boolean newSession,
      Map<Hierarchy, CgroupPath> cgroups)
      throws IOException;

  /**
   * Whether {@code init} still runs (the same process: its pid and start time).
   *
   * @param init the virtual host's init
   * @return whether it runs
   * @throws IOException if the process table cannot be read
   */
  boolean isRunning(ProcessId init) throws IOException;

  /**
   * Whether the process or thread {@code tid} runs inside the virtual host of {@code init} (in its
   * pid namespace).
   *
   * @param init the virtual host's init
   * @param tid a process or thread id
   * @return whether it is inside
   * @throws IOException ESRCH (a {@link CgroupFsException}) if {@code tid} or {@code init} does not
   *     run
   */
  boolean holds(ProcessId init, long tid) throws IOException;
}
