package org.lmctfy.internal.kernel.vhost;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.kernel.launch.LaunchChecks;
import org.lmctfy.internal.kernel.launch.Launcher;
import org.lmctfy.internal.kernel.vhost.Tools.Tool;
import org.lmctfy.vhost.Blueprint;
import org.lmctfy.vhost.ProcessId;
import org.lmctfy.vhost.VirtualHosts;

/**
 * The host's virtual hosts, made with the distribution's tools and started through the launcher
 * that places itself in the container's cgroups before it execs anything ({@link Launcher}); the
 * JVM builds every argument, no shell reads any.
 *
 * <ul>
 *   <li><b>start</b>: the launcher (a session leader: its spawn made it one, or, where the JDK
 *       started it, the {@code setsid --} before bwrap) execs {@code bwrap --unshare-pid
 *       --unshare-ipc [--unshare-uts --hostname H] [--unshare-net] [--unshare-user --uid 0 --gid 0]
 *       --as-pid-1 (--dev-bind / / | --bind ROOTFS / --dev /dev) --proc /proc [--bind|--ro-bind SRC
 *       DEST]... --chdir DIR -- INIT...}. bwrap stays as the monitor (a host process in the cgroups
 *       that waits for the init); its child is the init, pid 1 inside. The default init is
 *       catatonit in pause mode ({@code -P}): it reaps orphans, ignores every signal but TERM and
 *       INT from inside, and never exits on its own; with a rootfs it is bound read-only at {@code
 *       /dev/.lmctfy/catatonit} inside bwrap's own {@code /dev} (nothing is written to the root).
 *       No {@code --die-with-parent}: the init outlives the creating JVM, and destroy, killAll and
 *       cleanup end it through the cgroups. The start returns once the init's executable is no
 *       longer bwrap's (it has exec'd); if bwrap exits first, its message is the error.
 *   <li><b>join</b>: the launcher execs {@code [setsid --] nsenter -t INIT [-U
 *       --preserve-credentials] -m [-u] -i [-n] -p -r --wd=/proc/INIT/root/DIR -- ARGV}, joining
 *       every namespace of the init that differs from the JVM's; nsenter forks into the pid
 *       namespace and waits, passing the program's exit status (or its signal) on. The init's start
 *       time is checked before the start and again once the program runs (nsenter has opened the
 *       namespaces by then): a reused pid is never joined without being found out, and the process
 *       is then killed.
 * </ul>
 */
public final class HostVirtualHosts implements VirtualHosts {
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(HostVirtualHosts.class);

  /** Where the default init is bound inside a virtual host with its own root. */
  static final String BOUND_INIT = "/dev/.lmctfy/catatonit";

  private static final Duration START_DEADLINE = Duration.ofSeconds(30);
  private static final Duration JOIN_DEADLINE = Duration.ofSeconds(10);
  private static final long POLL_NANOS = TimeUnit.MICROSECONDS.toNanos(500);
  private static final File DEV_NULL = new File("/dev/null");

  private final CgroupFs fs;

  /**
   * The virtual hosts of the host whose cgroups {@code fs} reaches.
   *
   * @param fs the kernel's cgroup filesystem, which places the launchers
   */
  public HostVirtualHosts(CgroupFs fs) {
    this.fs = fs;
  }

  private boolean rootless() {
    return fs.effectiveUid() != 0;
  }

  @Override
  public void check(Blueprint blueprint) throws IOException {
    Tools.path(Tool.BWRAP);
    Tools.path(Tool.SETSID);
    Tools.path(Tool.NSENTER);
    Blueprint.Init init = blueprint.init();
    if (init.argv().isEmpty()) {
      Tools.path(Tool.CATATONIT);
    }
    if (rootless()) {
      checkUserNamespaces();
    }
    Path root = Path.of("/");
    if (blueprint.rootfs() != null) {
      root = Path.of(blueprint.rootfs());
      if (!Files.isDirectory(root)) {
        throw invalid(
            "filesystem.rootfs "
                + root
                + ": not a directory"
                + (Files.exists(root) ? "" : " (ENOENT)"));
      }
      for (String dir : List.of("/proc", "/dev")) {
        if (!InsidePaths.isDirectory(root, "/", dir)) {
          throw invalid(
              "filesystem.rootfs "
                  + root
                  + ": has no "
                  + dir
                  + " directory for the virtual host's own "
                  + dir
                  + " (lmctfy makes no mount points in a root filesystem: create it)");
        }
      }
    }
    List<Blueprint.Bind> binds = blueprint.binds();
    for (int i = 0; i < binds.size(); i++) {
      checkBind(root, binds.get(i), "filesystem.mounts.mount[" + i + "]");
    }
    if (!init.argv().isEmpty()) {
      if (!InsidePaths.isDirectory(root, "/", init.directory())) {
        throw invalid(
            "virtual_host.init.run_spec.working_directory "
                + init.directory()
                + ": not a directory inside the virtual "
                + "host (in "
                + root
                + ")");
      }
      String program = init.argv().get(0);
      Map<String, String> environment =
          init.environment() != null ? init.environment() : System.getenv();
      if (InsidePaths.findProgram(root, init.directory(), program, environment) == null) {
        throw invalid(
            "virtual_host.init.init_argv[0] "
                + program
                + ": not an executable file inside the virtual host"
                + " (in "
                + root
                + ", on "
                + (environment.containsKey("PATH")
                    ? "its PATH"
                    : "execvp's default PATH " + InsidePaths.EXECVP_PATH)
                + ")");
      }
      LaunchChecks.checkRedirections(initCommand(blueprint), Path.of("/"));
    }
  }

  private static void checkBind(Path root, Blueprint.Bind m, String field) throws IOException {
    Path source = Path.of(m.source());
    if (!Files.exists(source)) {
      throw invalid(
          field + ".source " + source + ": no such file or directory on the host (ENOENT)");
    }
    String target = InsidePaths.resolve(root, "/", m.target());
    if (target == null) {
      throw invalid(
          field
              + ".target "
              + m.target()
              + ": no such file or directory inside the virtual host (in "
              + root
              + "); lmctfy makes no mount points: create it");
    }
    boolean dir = Files.isDirectory(source);
    if (dir != Files.isDirectory(InsidePaths.host(root, target), LinkOption.NOFOLLOW_LINKS)) {
      throw invalid(
          field
              + ".target "
              + m.target()
              + ": "
              + (dir
                  ? "not a directory, but the source is one"
                  : "a directory, but the source is not"));
    }
  }

  /** What an unprivileged user needs for a user namespace, named by the sysctl that forbids it. */
  private static void checkUserNamespaces() throws IOException {
    Path max = Path.of("/proc/sys/user/max_user_namespaces");
    if (Files.exists(max) && Long.parseLong(Files.readString(max).strip()) == 0) {
      throw new LmctfyException(
          ErrorCode.FAILED_PRECONDITION,
          "a virtual host without root needs a user namespace, "
              + "and user.max_user_namespaces is 0 on this machine");
    }
    Path debian = Path.of("/proc/sys/kernel/unprivileged_userns_clone");
    if (Files.exists(debian) && Files.readString(debian).strip().equals("0")) {
      throw new LmctfyException(
          ErrorCode.FAILED_PRECONDITION,
          "a virtual host without root needs a user namespace, "
              + "and kernel.unprivileged_userns_clone is 0 on this machine");
    }
    Path apparmor = Path.of("/proc/sys/kernel/apparmor_restrict_unprivileged_userns");
    if (Files.exists(apparmor) && Files.readString(apparmor).strip().equals("1")) {
      throw new LmctfyException(
          ErrorCode.FAILED_PRECONDITION,
          "a virtual host without root needs a user namespace, "
              + "and kernel.apparmor_restrict_unprivileged_userns is 1 on this machine (AppArmor lets unconfined "
              + "programs make none; bwrap has no profile that allows it here)");
    }
  }

  @Override
  public ProcessId start(Blueprint blueprint, Map<Hierarchy, CgroupPath> cgroups)
      throws IOException {
    ProcessBuilder command = initCommand(blueprint);
    Procfs.FileId bwrap = Procfs.FileId.of(Tools.path(Tool.BWRAP).toRealPath());
    LOG.debug("start virtual host {} in {}", command.command(), cgroups.values());
    Process monitor = Launcher.start(fs, command, cgroups);
    long child = -1;
    try {
      long end = System.nanoTime() + START_DEADLINE.toNanos();
      while (true) {
        if (child < 0) {
          List<Long> children = Procfs.children(monitor.pid());
          child = children.isEmpty() ? -1 : children.get(0);
        }
        if (child > 0) {
          Procfs.FileId exe = Procfs.executable(child);
          if (exe != null && !exe.equals(bwrap)) {
            OptionalLong started = Procfs.startTime(child);
            if (started.isPresent() && monitor.isAlive()) {
              ProcessId init = new ProcessId(child, started.getAsLong());
              closeStreams(monitor);
              LOG.debug("virtual host init {} runs (bwrap {})", init, monitor.pid());
              return init;
            }
          }
        }
        if (!monitor.isAlive()) {
          throw new LmctfyException(
              ErrorCode.FAILED_PRECONDITION,
              "the virtual host could not be made: bwrap exited "
                  + status(monitor.exitValue())
                  + " before its init ran"
                  + said(monitor, command));
        }
        if (System.nanoTime() > end) {
          throw new LmctfyException(
              ErrorCode.DEADLINE_EXCEEDED,
              "the virtual host's init did not start within "
                  + START_DEADLINE.toSeconds()
                  + " s (bwrap pid "
                  + monitor.pid()
                  + ", its child "
                  + child
                  + ")"
                  + said(monitor, command));
        }
        LockSupport.parkNanos(POLL_NANOS);
      }
    } catch (IOException | RuntimeException | Error e) {
      end(monitor, child, e);
      throw e;
    }
  }

  /** The launcher's command for bwrap and the init. */
  private ProcessBuilder initCommand(Blueprint blueprint) {
    Blueprint.Init init = blueprint.init();
    String rootfs = blueprint.rootfs();
    List<String> argv =
        new ArrayList<>(
            List.of(
                Tools.path(Tool.SETSID).toString(),
                "--",
                Tools.path(Tool.BWRAP).toString(),
                "--unshare-pid",
                "--unshare-ipc"));
    if (blueprint.hostname() != null) {
      argv.addAll(List.of("--unshare-uts", "--hostname", blueprint.hostname()));
    }
    if (blueprint.ownNetwork()) {
      argv.add("--unshare-net");
    }
    if (rootless()) {
      // root inside, mapped to the caller: one user namespace that owns all the others, which
      // nsenter can then join (a --dev of bwrap without it makes a second, nested one)
      argv.addAll(List.of("--unshare-user", "--uid", "0", "--gid", "0"));
    }
    argv.add("--as-pid-1");
    if (rootfs == null) {
      argv.addAll(List.of("--dev-bind", "/", "/"));
    } else {
      argv.addAll(List.of("--bind", rootfs, "/", "--dev", "/dev"));
    }
    argv.addAll(List.of("--proc", "/proc"));
    for (Blueprint.Bind m : blueprint.binds()) {
      argv.addAll(List.of(m.readOnly() ? "--ro-bind" : "--bind", m.source(), m.target()));
    }
    List<String> initArgv = init.argv();
    if (initArgv.isEmpty()) {
      String catatonit = Tools.path(Tool.CATATONIT).toString();
      if (rootfs != null) {
        argv.addAll(List.of("--ro-bind", catatonit, BOUND_INIT));
        catatonit = BOUND_INIT;
      }
      initArgv = List.of(catatonit, "-P");
    }
    argv.addAll(List.of("--chdir", init.directory(), "--"));
    argv.addAll(initArgv);
    ProcessBuilder pb = new ProcessBuilder(argv);
    if (init.environment() != null) {
      pb.environment().clear();
      pb.environment().putAll(init.environment());
    }
    pb.redirectInput(init.stdin() == null ? DEV_NULL : new File(init.stdin()));
    pb.redirectOutput(
        init.stdout() == null
            ? ProcessBuilder.Redirect.DISCARD
            : ProcessBuilder.Redirect.appendTo(new File(init.stdout())));
    pb.redirectError(
        init.stderr() == null
            ? ProcessBuilder.Redirect.PIPE
            : ProcessBuilder.Redirect.appendTo(new File(init.stderr())));
    return pb;
  }

  @Override
  public Process join(
      ProcessId init,
      ProcessBuilder command,
      boolean newSession,
      Map<Hierarchy, CgroupPath> cgroups)
      throws IOException {
    requireRunning(init);
    Path root = Path.of("/proc/" + init.pid() + "/root");
    String dir = command.directory() == null ? "/" : command.directory().getPath();
    String resolvedDir = InsidePaths.resolve(root, "/", dir);
    if (resolvedDir == null || !Files.isDirectory(InsidePaths.host(root, resolvedDir))) {
      requireRunning(init); // its root went with it: not the caller's mistake
      throw invalid("working_directory " + dir + " is not a directory inside the virtual host");
    }
    String program = command.command().get(0);
    if (InsidePaths.findProgram(root, resolvedDir, program, command.environment()) == null) {
      requireRunning(init);
      throw invalid(
          "argv[0] "
              + program
              + " is not an executable file inside the virtual host"
              + (program.contains("/")
                  ? ""
                  : " (searched on "
                      + (command.environment().containsKey("PATH")
                          ? "the program's PATH"
                          : "execvp's default PATH " + InsidePaths.EXECVP_PATH)
                      + ")"));
    }
    LaunchChecks.checkRedirections(command, Path.of("/"));
    List<String> argv = new ArrayList<>();
    if (newSession) {
      argv.addAll(List.of(Tools.path(Tool.SETSID).toString(), "--"));
    }
    argv.addAll(List.of(Tools.path(Tool.NSENTER).toString(), "-t", Long.toString(init.pid())));
    for (String ns : Procfs.NAMESPACES) {
      long theirs = Procfs.namespace(init.pid(), ns);
      if (theirs >= 0 && theirs != Procfs.namespace(ProcessHandle.current().pid(), ns)) {
        argv.add(ns.equals("user") ? "--user" : "--" + (ns.equals("mnt") ? "mount" : ns));
        if (ns.equals("user")) {
          argv.add("--preserve-credentials");
        }
      }
    }
    argv.addAll(List.of("--root", "--wd=" + InsidePaths.host(root, resolvedDir), "--"));
    argv.addAll(command.command());
    ProcessBuilder launch =
        new ProcessBuilder(argv)
            .directory(new File("/"))
            .redirectInput(command.redirectInput())
            .redirectOutput(command.redirectOutput())
            .redirectError(command.redirectError())
            .redirectErrorStream(command.redirectErrorStream());
    launch.environment().clear();
    launch.environment().putAll(command.environment());
    LOG.debug("join virtual host {}: {} in {}", init, argv, cgroups.values());
    Process joiner = Launcher.start(fs, launch, cgroups);
    long child = -1;
    try {
      if (!frozen(cgroups)) {
        long end = System.nanoTime() + JOIN_DEADLINE.toNanos();
        while (child < 0 && System.nanoTime() < end && joiner.isAlive()) {
          List<Long> children = Procfs.children(joiner.pid());
          if (children.isEmpty()) {
            LockSupport.parkNanos(POLL_NANOS);
          } else {
            child = children.get(0);
          }
        }
        // nsenter opened the namespaces before it forked (or it ended): the init must be the same
        if (!isRunning(init)) {
          throw new CgroupFsException(
              CgroupFsException.Operation.KILL,
              "virtual host init " + init.pid(),
              null,
              Errno.ESRCH,
              "the virtual host's init (pid "
                  + init
                  + ") ended while the process was joining it; "
                  + "the process was killed");
        }
      }
      return new JoinedProcess(joiner, child);
    } catch (IOException | RuntimeException | Error e) {
      end(joiner, child, e);
      throw e;
    }
  }

  /**
   * Whether a process placed in {@code cgroups} stays stopped by a freezer, the v1 one ({@code
   * freezer.state} other than THAWED) or v2's ({@code cgroup.events} says {@code frozen 1}):
   * nsenter forks nothing there until a thaw, so the join does not wait for the program.
   */
  private boolean frozen(Map<Hierarchy, CgroupPath> cgroups) throws IOException {
    for (Map.Entry<Hierarchy, CgroupPath> e : cgroups.entrySet()) {
      Hierarchy h = e.getKey();
      CgroupPath path = e.getValue();
      boolean stopped =
          h.has("freezer")
              ? !fs.read(h, path, "freezer.state").strip().equals("THAWED")
              : h.version() == CgroupVersion.V2
                  && fs.hasFile(h, path, "cgroup.freeze")
                  && fs.read(h, path, "cgroup.events").contains("frozen 1");
      if (stopped) {
        return true;
      }
    }
    return false;
  }

  @Override
  public boolean isRunning(ProcessId init) throws IOException {
    OptionalLong started = Procfs.startTime(init.pid());
    return started.isPresent()
        && started.getAsLong() == init.startTime()
        && !Procfs.ended(init.pid());
  }

  private void requireRunning(ProcessId init) throws IOException {
    if (!isRunning(init)) {
      throw new CgroupFsException(
          CgroupFsException.Operation.READ,
          "/proc/" + init.pid() + "/stat",
          null,
          Errno.ESRCH,
          "the virtual host's init (pid "
              + init.pid()
              + ", start time "
              + init.startTime()
              + ") is not running");
    }
  }

  @Override
  public boolean holds(ProcessId init, long tid) throws IOException {
    requireRunning(init);
    long theirs = Procfs.namespace(tid, "pid");
    if (theirs < 0) {
      throw new CgroupFsException(
          CgroupFsException.Operation.READ,
          "/proc/" + tid + "/ns/pid",
          null,
          Errno.ESRCH,
          "no process or thread " + tid);
    }
    return theirs == Procfs.namespace(init.pid(), "pid");
  }

  /**
   * Kills what a failed start left: the child (the init, or nsenter's program) and the launcher.
   */
  private void end(Process p, long child, Throwable failure) {
    try {
      if (child > 0) {
        fs.kill(child);
      }
    } catch (IOException | RuntimeException e) {
      if (!(e instanceof CgroupFsException c && c.errno() == Errno.ESRCH)) {
        failure.addSuppressed(e);
      }
    }
    p.destroyForcibly();
    try {
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        failure.addSuppressed(
            new IllegalStateException(
                "process " + p.pid() + " did not end within 10 s of SIGKILL"));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void closeStreams(Process p) {
    for (java.io.Closeable c :
        List.<java.io.Closeable>of(p.getOutputStream(), p.getInputStream(), p.getErrorStream())) {
      try {
        c.close();
      } catch (IOException e) {
        LOG.debug("closing a stream of {}: {}", p, e.toString());
      }
    }
  }

  /**
   * What bwrap wrote to its standard error, as {@code ": <text>"}: what the pipe holds (bwrap wrote
   * it before it exited; reading never waits), or where the init's run spec sent it.
   */
  private static String said(Process p, ProcessBuilder command) {
    if (command.redirectError().file() != null) {
      return " (its messages went to " + command.redirectError().file() + ")";
    }
    try {
      InputStream err = p.getErrorStream();
      String s =
          new String(err.readNBytes(Math.min(err.available(), 4096)), StandardCharsets.UTF_8)
              .strip();
      return s.isEmpty() ? "" : ": " + s;
    } catch (IOException e) {
      return " (its standard error could not be read: " + e.getMessage() + ")";
    }
  }

  private static String status(int code) {
    return code > 128 ? "on signal " + (code - 128) : "with status " + code;
  }

  private static LmctfyException invalid(String message) {
    return new LmctfyException(ErrorCode.INVALID_ARGUMENT, message);
  }
}
