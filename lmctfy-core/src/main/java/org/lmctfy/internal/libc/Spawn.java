package org.lmctfy.internal.libc;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import com.sun.jna.StringArray;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * glibc's {@code posix_spawn}: the child is made by {@code clone} with {@code CLONE_VM |
 * CLONE_VFORK}, runs on its own stack and only glibc code before the exec: no Java code runs in it,
 * unlike a {@code fork} called through JNA, and no helper program is executed first, unlike the
 * JDK's {@code ProcessBuilder} (which spawns {@code jspawnhelper}, which then execs the program).
 * With {@code POSIX_SPAWN_SETCGROUP} (glibc 2.39+) the child is made by {@code clone3} with {@code
 * CLONE_INTO_CGROUP}, inside a v2 cgroup from its first instruction, so nothing moves it and the
 * kernel's {@code cgroup_threadgroup_rwsem} is never taken for writing.
 *
 * <p>The child gets: the three given descriptors as 0, 1 and 2, every other descriptor closed
 * ({@code addclosefrom_np(3)}, glibc 2.34+), the working directory ({@code addchdir_np}), an empty
 * signal mask and every signal's default action, a new session if asked; then it execs {@code path}
 * with exactly {@code argv} and {@code envp}.
 */
public final class Spawn {
  private static final short SETSIGDEF = 0x04;
  private static final short SETSIGMASK = 0x08;
  private static final short SETSID = 0x80;
  private static final short SETCGROUP = 0x100;

  /** At least glibc's posix_spawnattr_t (336 bytes on 64-bit) and file actions (80), zeroed. */
  private static final int OPAQUE = 1024;

  private static final int SIGSET = 128;

  public static final int ENOSYS = 38;
  public static final int E2BIG = 7;
  public static final int EOPNOTSUPP = 95;
  private static final int EINTR = 4;

  /** Why this C library cannot spawn as {@link #spawn} does, or null where it can. */
  private static final @Nullable String MISSING =
      probe(Calls.class, "posix_spawn with addclosefrom_np and addchdir_np (glibc 2.34+)");

  /** Why this C library cannot spawn into a cgroup, or null where it can. */
  private static final @Nullable String CGROUP_MISSING =
      MISSING != null
          ? MISSING
          : probe(CgroupCall.class, "posix_spawnattr_setcgroup_np (glibc 2.39+)");

  /** Set once the kernel refused {@code clone3}'s cgroup field (E2BIG, ENOSYS). */
  private static volatile @Nullable String kernelRefused;

  private Spawn() {}

  /** Binds {@code calls}; what is missing, or null. */
  private static @Nullable String probe(Class<?> calls, String what) {
    try {
      Native.register(calls, Platform.C_LIBRARY_NAME);
      return null;
    } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
      return "the C library has no " + what + ": " + e.getMessage();
    }
  }

  /** Why {@link #spawn} is not to be called here, or null where it can be. */
  public static @Nullable String unavailable() {
    return MISSING;
  }

  /** Why a spawn into a cgroup is not to be tried here, or null where it is. */
  public static @Nullable String cgroupUnavailable() {
    return CGROUP_MISSING != null ? CGROUP_MISSING : kernelRefused;
  }

  /** A refusal of {@code posix_spawn}: its error number. */
  public static final class SpawnException extends Exception {
    private static final long serialVersionUID = 1L;
    private final int errno;

    SpawnException(int errno, String message) {
      super(message);
      this.errno = errno;
    }

    public int errno() {
      return errno;
    }

    /** Whether the kernel or the cgroup refused the spawn into it, so the gate must be used. */
    public boolean cgroupRefused() {
      return errno == E2BIG || errno == EOPNOTSUPP || errno == ENOSYS;
    }
  }

  /**
   * Spawns {@code path}, into the cgroup directory {@code cgroupFd} (opened {@code O_PATH |
   * O_DIRECTORY}) unless it is -1; returns its pid. The caller reaps it ({@link #waitpid}).
   *
   * @param stdio the descriptors the child gets as 0, 1 and 2
   * @param directory the child's working directory, or null for the caller's
   */
  public static int spawn(
      String path,
      List<String> argv,
      List<String> envp,
      @Nullable String directory,
      int cgroupFd,
      int[] stdio,
      boolean newSession)
      throws SpawnException {
    Memory actions = new Memory(OPAQUE);
    Memory attr = new Memory(OPAQUE);
    actions.clear();
    attr.clear();
    check(Calls.posix_spawn_file_actions_init(actions), "posix_spawn_file_actions_init");
    try {
      check(Calls.posix_spawnattr_init(attr), "posix_spawnattr_init");
      try {
        for (int i = 0; i < 3; i++) {
          check(
              Calls.posix_spawn_file_actions_adddup2(actions, stdio[i], i),
              "posix_spawn_file_actions_adddup2");
        }
        check(
            Calls.posix_spawn_file_actions_addclosefrom_np(actions, 3),
            "posix_spawn_file_actions_addclosefrom_np");
        if (directory != null) {
          check(
              Calls.posix_spawn_file_actions_addchdir_np(actions, directory),
              "posix_spawn_file_actions_addchdir_np");
        }
        Memory empty = new Memory(SIGSET);
        empty.clear();
        Memory all = new Memory(SIGSET);
        all.clear();
        Calls.sigfillset(all);
        check(Calls.posix_spawnattr_setsigmask(attr, empty), "posix_spawnattr_setsigmask");
        check(Calls.posix_spawnattr_setsigdefault(attr, all), "posix_spawnattr_setsigdefault");
        short flags = (short) (SETSIGDEF | SETSIGMASK | (newSession ? SETSID : 0));
        if (cgroupFd >= 0) {
          check(
              CgroupCall.posix_spawnattr_setcgroup_np(attr, cgroupFd),
              "posix_spawnattr_setcgroup_np");
          flags |= SETCGROUP;
        }
        check(Calls.posix_spawnattr_setflags(attr, flags), "posix_spawnattr_setflags");
        int[] pid = new int[1];
        int error =
            Calls.posix_spawn(
                pid,
                path,
                actions,
                attr,
                new StringArray(argv.toArray(String[]::new)),
                new StringArray(envp.toArray(String[]::new)));
        if (error != 0) {
          SpawnException e =
              new SpawnException(error, "posix_spawn of " + path + ": errno " + error);
          if (cgroupFd >= 0 && (error == E2BIG || error == ENOSYS)) {
            kernelRefused = "the kernel refused clone3 into a cgroup (errno " + error + ")";
          }
          throw e;
        }
        return pid[0];
      } finally {
        Calls.posix_spawnattr_destroy(attr);
      }
    } finally {
      Calls.posix_spawn_file_actions_destroy(actions);
    }
  }

  private static void check(int error, String call) throws SpawnException {
    if (error != 0) {
      throw new SpawnException(error, call + ": errno " + error);
    }
  }

  /** A pipe, both ends close-on-exec: {read, write}. */
  public static int[] pipe() {
    int[] fds = new int[2];
    Calls.pipe2(fds, Libc.O_CLOEXEC);
    return fds;
  }

  /**
   * Waits for the child {@code pid} to end and reaps it; returns its status as {@link
   * Process#exitValue()} gives it: the exit code, or 128 plus the signal that ended it.
   */
  public static int waitpid(int pid) {
    int[] status = new int[1];
    while (true) {
      try {
        Calls.waitpid(pid, status, 0);
        break;
      } catch (LastErrorException e) {
        if (e.getErrorCode() != EINTR) {
          throw e;
        }
      }
    }
    int s = status[0];
    return (s & 0x7f) == 0 ? (s >> 8) & 0xff : 128 + (s & 0x7f);
  }

  /** The glibc 2.34 calls, bound together: one missing symbol means none is used. */
  private static final class Calls {
    static native int posix_spawn_file_actions_init(Pointer actions);

    static native int posix_spawn_file_actions_destroy(Pointer actions);

    static native int posix_spawn_file_actions_adddup2(Pointer actions, int fd, int newFd);

    static native int posix_spawn_file_actions_addclosefrom_np(Pointer actions, int from);

    static native int posix_spawn_file_actions_addchdir_np(Pointer actions, String path);

    static native int posix_spawnattr_init(Pointer attr);

    static native int posix_spawnattr_destroy(Pointer attr);

    static native int posix_spawnattr_setflags(Pointer attr, short flags);

    static native int posix_spawnattr_setsigmask(Pointer attr, Pointer mask);

    static native int posix_spawnattr_setsigdefault(Pointer attr, Pointer signals);

    static native int posix_spawn(
        int[] pid, String path, Pointer actions, Pointer attr, Pointer argv, Pointer envp);

    static native int sigfillset(Pointer set);

    static native int pipe2(int[] fds, int flags) throws LastErrorException;

    static native int waitpid(int pid, int[] status, int options) throws LastErrorException;
  }

  /** glibc 2.39's call, bound apart: where it is missing, {@link Calls} still spawn. */
  private static final class CgroupCall {
    static native int posix_spawnattr_setcgroup_np(Pointer attr, int cgroup);
  }
}
