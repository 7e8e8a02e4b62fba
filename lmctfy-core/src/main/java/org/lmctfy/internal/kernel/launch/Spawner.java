package org.lmctfy.internal.kernel.launch;

import com.sun.jna.LastErrorException;
import java.io.BufferedInputStream;
import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.libc.Libc;
import org.lmctfy.internal.libc.Pidfd;
import org.lmctfy.internal.libc.Spawn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts processes with glibc's {@code posix_spawn} ({@link Spawn}), the one place that turns a
 * {@link ProcessBuilder}'s program, environment, directory and redirections into a spawn.
 *
 * <p>The fast way, {@link #intoCgroup}: where the C library can spawn into a cgroup (glibc 2.39+)
 * and the container is one v2 cgroup, the program is spawned there directly: no launcher shell, no
 * gate, no {@code cgroup.procs} write. It execs the program itself (argv[0] found on the program's
 * PATH as the launcher's sh finds it) with exactly its environment and no descriptor but 0, 1 and
 * 2, so the rules of the launcher hold by construction. Anywhere else, or when the spawn is refused
 * (the kernel's {@code clone3} without the cgroup field, a cgroup that takes no process), it
 * returns null and the {@link Launcher}'s gate starts it.
 *
 * <p>The gate itself, {@link #start}: spawned where the JVM is, so it costs one {@code exec} (the
 * shell's) before the program's; only where the C library cannot spawn so (no {@code
 * addclosefrom_np}: glibc before 2.34, or another C library) does the JDK start it, through its
 * {@code jspawnhelper}. Each choice is logged at DEBUG.
 */
final class Spawner {
  private static final Logger LOG = LoggerFactory.getLogger(Spawner.class);

  /** Internal test knob: {@code true} sends every start through the gate. */
  static final String GATE_ONLY = "lmctfy.internal.run.gateOnly";

  private static final int O_PATH = 010000000;
  private static final int O_TRUNC = 01000;
  private static final int O_APPEND = 02000;

  private Spawner() {}

  /**
   * Spawns {@code command} (its stdin a pipe, a file or inherited) into {@code cgroups}, or returns
   * null where the gate must start it.
   */
  static @Nullable Process intoCgroup(ProcessBuilder command, Map<Hierarchy, CgroupPath> cgroups)
      throws IOException {
    String gate = whyTheGate(cgroups);
    if (gate != null) {
      LOG.debug("start {}: through the launcher's gate: {}", command.command(), gate);
      return null;
    }
    Map.Entry<Hierarchy, CgroupPath> only = cgroups.entrySet().iterator().next();
    String cgroup = only.getKey().display(only.getValue(), null);
    if (frozen(cgroup)) {
      // the child would stop before its exec, and posix_spawn waits for the exec (CLONE_VFORK)
      LOG.debug("start {}: through the launcher's gate: {} is frozen", command.command(), cgroup);
      return null;
    }
    List<String> argv = command.command();
    boolean newSession = isSetsid(argv);
    if (newSession) {
      argv = argv.subList(2, argv.size());
    }
    int dir;
    try {
      dir = Libc.open(cgroup, O_PATH | Libc.O_DIRECTORY | Libc.O_CLOEXEC);
    } catch (LastErrorException e) {
      LOG.debug("start {}: through the launcher's gate: {}: {}", command.command(), cgroup, e);
      return null; // the gate's write names the file and the errno
    }
    try {
      Process p = spawn(command, argv, dir, newSession);
      LOG.debug("start {}: spawned into {} (pid {})", command.command(), cgroup, p.pid());
      return p;
    } catch (Spawn.SpawnException e) {
      LOG.debug("start {}: through the launcher's gate: {}", command.command(), e.getMessage());
      return null;
    } finally {
      closeAll(List.of(dir));
    }
  }

  /**
   * Whether {@link #start} makes a new session itself, so that {@code setsid --} can be left out of
   * a command it starts.
   */
  static boolean makesSessions() {
    return Spawn.unavailable() == null;
  }

  /**
   * Starts {@code command} where the JVM is: spawned, in a new session if {@code newSession} (only
   * where {@link #makesSessions}), or by the JDK where the C library cannot spawn so.
   */
  static Process start(ProcessBuilder command, boolean newSession) throws IOException {
    String why = Spawn.unavailable();
    if (why != null) {
      LOG.debug("start {}: the JDK starts it (jspawnhelper): {}", command.command(), why);
      return new JdkProcess(command.start());
    }
    try {
      return spawn(command, command.command(), -1, newSession);
    } catch (Spawn.SpawnException e) {
      throw new IOException(
          "Cannot run program \""
              + command.command().get(0)
              + "\": error="
              + e.errno()
              + ", "
              + Errno.of(e.errno()).description()
              + " ("
              + e.getMessage()
              + ")",
          e);
    }
  }

  /**
   * Spawns {@code argv} with {@code command}'s environment, directory and redirections, into the
   * cgroup directory {@code cgroupFd} unless it is -1.
   */
  private static Process spawn(
      ProcessBuilder command, List<String> argv, int cgroupFd, boolean newSession)
      throws IOException, Spawn.SpawnException {
    Map<String, String> env = command.environment();
    String program = argv.get(0);
    String path =
        program.contains("/")
            ? program
            : LaunchChecks.resolve(
                program, env.getOrDefault("PATH", LaunchChecks.DEFAULT_PATH), command.directory());
    List<String> envp = new ArrayList<>(env.size());
    env.forEach((k, v) -> envp.add(k + "=" + v));
    List<Integer> opened = new ArrayList<>();
    try {
      int[] in = input(command.redirectInput(), opened);
      int[] out = output(command.redirectOutput(), 1, opened);
      int[] err =
          command.redirectErrorStream()
              ? new int[] {-1, out[1]}
              : output(command.redirectError(), 2, opened);
      int pid =
          Spawn.spawn(
              path,
              argv,
              envp,
              command.directory() == null ? null : command.directory().getPath(),
              cgroupFd,
              new int[] {in[0], out[1], err[1]},
              newSession);
      Process p;
      try {
        p =
            new SpawnedProcess(
                pid,
                in[1] < 0
                    ? OutputStream.nullOutputStream()
                    : new java.io.FileOutputStream(proc(in[1])),
                out[0] < 0
                    ? InputStream.nullInputStream()
                    : new BufferedInputStream(new FileInputStream(proc(out[0]))),
                err[0] < 0
                    ? InputStream.nullInputStream()
                    : new BufferedInputStream(new FileInputStream(proc(err[0]))));
      } catch (IOException | RuntimeException | Error e) {
        // no Process owns the child: end and reap it here (an unreaped child's pid is its own)
        try {
          Libc.kill(pid, Pidfd.SIGKILL);
        } catch (LastErrorException killed) {
          e.addSuppressed(killed);
        }
        Spawn.waitpid(pid);
        throw e;
      }
      return p;
    } finally {
      closeAll(opened); // the child's ends; the parent's ends are reopened above
    }
  }

  /** Why the gate starts this one, or null where a spawn into the cgroup is tried. */
  private static @Nullable String whyTheGate(Map<Hierarchy, CgroupPath> cgroups) {
    if (Boolean.getBoolean(GATE_ONLY)) {
      return GATE_ONLY + " is set";
    }
    if (cgroups.size() != 1 || cgroups.keySet().iterator().next().version() != CgroupVersion.V2) {
      return "the container is not one v2 cgroup (" + cgroups.size() + " hierarchies)";
    }
    return Spawn.cgroupUnavailable();
  }

  /** Whether v2's freezer holds the cgroup (its own {@code cgroup.freeze} or an ancestor's). */
  private static boolean frozen(String cgroup) throws IOException {
    Path dir = Path.of(cgroup);
    return Files.readString(dir.resolve("cgroup.events")).contains("frozen 1")
        || Files.readString(dir.resolve("cgroup.freeze")).strip().equals("1");
  }

  /** RunCommand's DETACHED prefix, {@code setsid --}: a spawn makes the session itself. */
  static boolean isSetsid(List<String> argv) {
    return argv.size() > 2 && argv.get(0).endsWith("/setsid") && argv.get(1).equals("--");
  }

  /** {child's fd, parent's end or -1}. */
  private static int[] input(ProcessBuilder.Redirect r, List<Integer> opened) throws IOException {
    switch (r.type()) {
      case PIPE:
        int[] p = pipe(opened);
        return new int[] {p[0], p[1]};
      case READ:
        return new int[] {open(r.file().getPath(), Libc.O_RDONLY, opened), -1};
      default:
        return new int[] {0, -1};
    }
  }

  /** {parent's end or -1, child's fd}. */
  private static int[] output(ProcessBuilder.Redirect r, int inherited, List<Integer> opened)
      throws IOException {
    switch (r.type()) {
      case PIPE:
        return pipe(opened);
      case WRITE:
        return new int[] {
          -1, open(r.file().getPath(), Libc.O_WRONLY | Libc.O_CREAT | O_TRUNC, opened)
        };
      case APPEND:
        return new int[] {
          -1, open(r.file().getPath(), Libc.O_WRONLY | Libc.O_CREAT | O_APPEND, opened)
        };
      default:
        return new int[] {-1, inherited};
    }
  }

  private static int[] pipe(List<Integer> opened) {
    int[] p = Spawn.pipe();
    opened.add(p[0]);
    opened.add(p[1]);
    return p;
  }

  private static int open(String file, int flags, List<Integer> opened) throws IOException {
    try {
      int fd = Libc.open(file, flags | Libc.O_CLOEXEC, 0666);
      opened.add(fd);
      return fd;
    } catch (LastErrorException e) {
      throw new FileNotFoundException(file + " (errno " + e.getErrorCode() + ")");
    }
  }

  private static String proc(int fd) {
    return "/proc/self/fd/" + fd;
  }

  private static void closeAll(List<Integer> fds) {
    for (int fd : fds) {
      try {
        Libc.close(fd);
      } catch (LastErrorException e) {
        // a descriptor of ours that is gone already: nothing to undo
      }
    }
  }
}
