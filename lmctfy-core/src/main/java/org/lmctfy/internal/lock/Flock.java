package org.lmctfy.internal.lock;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupFsException.Operation;
import org.lmctfy.cgroupfs.Errno;

/**
 * {@code flock(2)} on a lock file. Unlike the POSIX record locks behind {@code FileChannel.lock},
 * a flock belongs to the open file, not to the process, so the kernel's per-process deadlock
 * detection cannot refuse a wait that only looks like a cycle when several threads of two
 * processes take locks in the same top-down order; like them it is dropped when the holder dies.
 *
 * <p>A holder removes its lock file as it lets go ({@link #unlockAndRemove}), and a lock file
 * nobody holds (its holder died) may be removed at any time ({@link #removeIfFree}), so that
 * files do not pile up as names come and go: whoever removes one holds its lock, and a waiter
 * that wakes holding a file that was removed meanwhile (its link count is 0) lets go and opens
 * the path again, where the next file is.
 *
 * <p>A lock file is opened with {@code O_NOFOLLOW} (a symlink planted at its path is refused with
 * ELOOP, its target never created or opened), must be a regular file owned by this process's
 * effective uid (else EACCES: someone else planted it), and is given mode 0600 whatever the umask.
 */
final class Flock {
  private static final int O_RDWR = 2;
  private static final int O_CREAT = 0100;
  private static final int O_NOFOLLOW = 0400000;
  private static final int O_CLOEXEC = 0x80000;
  private static final int LOCK_EX = 2;
  private static final int LOCK_NB = 4;
  private static final int EWOULDBLOCK = 11;
  private static final int EINTR = 4;
  private static final int ENOENT = 2;
  private static final int S_IFMT = 0170000;
  private static final int S_IFREG = 0100000;
  static final int S_IFDIR = 0040000;
  private static final int FILE_MODE = 0600;

  static {
    Native.register(Platform.C_LIBRARY_NAME);
  }

  private Flock() {}

  private static native int open(byte[] path, int flags, int mode) throws LastErrorException;

  private static native int flock(int fd, int operation) throws LastErrorException;

  private static native int close(int fd) throws LastErrorException;

  private static native int unlink(byte[] path) throws LastErrorException;

  private static native int fchmod(int fd, int mode) throws LastErrorException;

  private static native int mkdir(byte[] path, int mode) throws LastErrorException;

  private static native int chmod(byte[] path, int mode) throws LastErrorException;

  static native int geteuid();

  /** What fstat(2) says of an open file. */
  record FileStat(long dev, long ino, long nlink, int mode, int uid) {}

  /**
   * Opens, checks and locks the lock file at {@code path}, creating it, waiting at most until
   * {@code deadlineNanos} ({@link System#nanoTime()}); returns its fd, or -1 when the deadline
   * passed (with {@code holder[0]} the pid that holds it, if the kernel says, else 0).
   *
   * @throws CgroupFsException naming the file: ELOOP for a symlink, EACCES for a file that is not
   *     a regular file of this uid, or what open(2) or flock(2) refused
   */
  static int lock(String path, long deadlineNanos, long[] holder) throws IOException {
    byte[] cPath = cString(path);
    while (true) {
      int fd = openChecked(path, cPath, true);
      try {
        if (!lockOpen(fd, deadlineNanos)) {
          holder[0] = holderOf(fd);
          close(fd);
          return -1;
        }
        if (stat(fd).nlink() > 0) {
          return fd;
        }
      } catch (IOException | LastErrorException e) {
        throw closedAfter(fd, path, e);
      }
      close(fd); // a sweep removed it as we waited: lock the file now at the path
    }
  }

  /** Opens a lock file without following a symlink, and refuses one this uid does not own. */
  private static int openChecked(String path, byte[] cPath, boolean create) throws IOException {
    int fd;
    try {
      fd = open(cPath, O_RDWR | O_CLOEXEC | O_NOFOLLOW | (create ? O_CREAT : 0), FILE_MODE);
    } catch (LastErrorException e) {
      if (e.getErrorCode() == Errno.ELOOP.number()) {
        throw new CgroupFsException(Operation.WRITE, path, null, Errno.EACCES,
            "a symbolic link where a lock file belongs: refused, not followed");
      }
      throw failure(Operation.WRITE, path, e);
    }
    try {
      FileStat st = stat(fd);
      if ((st.mode() & S_IFMT) != S_IFREG || st.uid() != geteuid()) {
        throw new CgroupFsException(Operation.WRITE, path, null, Errno.EACCES,
            "not a regular file owned by uid " + geteuid() + " (mode " + Integer.toOctalString(st.mode())
            + ", uid " + st.uid() + "): not a lock file of ours, left alone");
      }
      if ((st.mode() & 07777) != FILE_MODE) {
        fchmod(fd, FILE_MODE); // created under a umask that took bits, or by an older version
      }
      return fd;
    } catch (IOException | LastErrorException e) {
      throw closedAfter(fd, path, e);
    }
  }

  /** Closes {@code fd} after {@code e} (a failure to close rides along) and returns {@code e} for the path. */
  private static IOException closedAfter(int fd, String path, Exception e) {
    try {
      close(fd);
    } catch (LastErrorException closing) {
      e.addSuppressed(closing);
    }
    return rethrown(path, e);
  }

  /** Takes the lock, polling after a first try until the deadline; false if it passed. */
  private static boolean lockOpen(int fd, long deadlineNanos) throws IOException {
    long pause = 1;
    while (true) {
      try {
        flock(fd, LOCK_EX | LOCK_NB);
        return true;
      } catch (LastErrorException e) {
        if (e.getErrorCode() != EINTR && e.getErrorCode() != EWOULDBLOCK) {
          throw e;
        }
      }
      long left = deadlineNanos - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      try {
        Thread.sleep(Math.min(pause, Math.max(1, left / 1_000_000)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while waiting for a lock", e);
      }
      pause = Math.min(pause * 2, 20);
    }
  }

  /** The pid /proc/locks names as holding the flock on the file open at {@code fd}, or 0. */
  private static long holderOf(int fd) {
    try {
      FileStat st = stat(fd);
      long major = ((st.dev() >>> 8) & 0xfff) | ((st.dev() >>> 32) & ~0xfffL);
      long minor = (st.dev() & 0xff) | ((st.dev() >>> 12) & ~0xffL);
      String id = String.format(":%02x:%02x:%d", major, minor, st.ino());
      for (String line : Files.readAllLines(Path.of("/proc/locks"))) {
        String[] f = line.trim().split("\\s+");
        // "1: FLOCK  ADVISORY  WRITE 1234 00:19:5678 0 EOF"; a waiter's line has "->" after the number
        if (f.length >= 6 && f[1].equals("FLOCK")) {
          int at = f[2].equals("->") ? 1 : 0;
          if (at == 0 && f.length > 5 && (":" + f[5]).endsWith(id)) {
            return Long.parseLong(f[4]);
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      return 0; // the holder is a courtesy for the message: not knowing it is no failure
    }
    return 0;
  }

  /** fstat(2) of {@code fd}: through glibc where it exports it, else procfs. */
  static FileStat stat(int fd) throws IOException {
    if (Stat.AVAILABLE) {
      byte[] buffer = new byte[256];
      Stat.fstat(fd, buffer);
      ByteBuffer b = ByteBuffer.wrap(buffer).order(ByteOrder.nativeOrder());
      return Stat.WIDE
          ? new FileStat(b.getLong(0), b.getLong(8), b.getLong(16), b.getInt(24), b.getInt(28))
          : new FileStat(b.getLong(0), b.getLong(8), b.getInt(20), b.getInt(16), b.getInt(24));
    }
    Map<String, Object> a = Files.readAttributes(Path.of("/proc/self/fd/" + fd), "unix:dev,ino,nlink,mode,uid");
    return new FileStat((Long) a.get("dev"), (Long) a.get("ino"), (Integer) a.get("nlink"),
        (Integer) a.get("mode"), (Integer) a.get("uid"));
  }

  /**
   * fstat(2), where glibc exports it (2.33 and later) and {@code struct stat}'s layout is known:
   * x86-64's own, or the generic one of aarch64.
   */
  private static final class Stat {
    static final boolean WIDE = Platform.ARCH.equals("x86-64");
    static final boolean AVAILABLE = register();

    private static boolean register() {
      if (!WIDE && !Platform.ARCH.equals("aarch64")) {
        return false;
      }
      try {
        Native.register(Stat.class, Platform.C_LIBRARY_NAME);
        return true;
      } catch (UnsatisfiedLinkError e) {
        return false; // an older glibc: procfs answers
      }
    }

    static native int fstat(int fd, byte[] buffer) throws LastErrorException;
  }

  /**
   * Removes the lock file at {@code path}, which this process holds open at {@code fd} with its
   * lock taken, then lets go of the lock by closing it: a waiter that was given the removed file
   * sees its link count 0 and opens the path again. Closes {@code fd} whatever happens; throws
   * what unlink(2) refused, once the lock is let go (the file then stays for {@link
   * #removeIfFree}).
   */
  static void unlockAndRemove(String path, int fd) throws IOException {
    try {
      unlink(cString(path)); // still the file at the path: only a holder removes one, and we hold it
    } catch (LastErrorException e) {
      try {
        close(fd);
      } catch (LastErrorException closing) {
        e.addSuppressed(closing);
      }
      if (e.getErrorCode() == ENOENT) {
        return; // the directory went with /run: nothing is left, which is what removal is for
      }
      throw failure(Operation.RMDIR, path, e);
    }
    close(fd);
  }

  /** mkdir(2) with exactly {@code mode}, whatever the umask; false if it existed. */
  static boolean makeDirectory(String path, int mode) throws IOException {
    byte[] cPath = cString(path);
    try {
      mkdir(cPath, mode);
    } catch (LastErrorException e) {
      if (e.getErrorCode() == Errno.EEXIST.number()) {
        return false;
      }
      throw failure(Operation.MKDIR, path, e);
    }
    try {
      chmod(cPath, mode); // mkdir's mode is masked by the umask
    } catch (LastErrorException e) {
      throw failure(Operation.MKDIR, path, e);
    }
    return true;
  }

  /**
   * Removes the lock file at {@code path} if nobody holds it, taking its lock without waiting;
   * false if it is held, or gone already.
   */
  static boolean removeIfFree(String path) throws IOException {
    byte[] cPath = cString(path);
    int fd;
    try {
      fd = openChecked(path, cPath, false);
    } catch (CgroupFsException e) {
      if (e.errno() == Errno.ENOENT) {
        return false;
      }
      throw e;
    }
    try {
      try {
        flock(fd, LOCK_EX | LOCK_NB);
      } catch (LastErrorException e) {
        if (e.getErrorCode() == EWOULDBLOCK || e.getErrorCode() == EINTR) {
          return false;
        }
        throw failure(Operation.WRITE, path, e);
      }
      if (stat(fd).nlink() == 0) {
        return false; // removed by another sweep while we opened it
      }
      unlink(cPath); // still the file at the path: only a holder removes one, and we hold it
      return true;
    } catch (LastErrorException e) {
      throw failure(Operation.RMDIR, path, e);
    } finally {
      close(fd);
    }
  }

  private static IOException rethrown(String path, Exception e) {
    return e instanceof LastErrorException l ? failure(Operation.WRITE, path, l) : (IOException) e;
  }

  private static CgroupFsException failure(Operation op, String path, LastErrorException e) {
    return new CgroupFsException(op, path, null, Errno.of(e.getErrorCode()));
  }

  private static byte[] cString(String s) {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    return Arrays.copyOf(utf8, utf8.length + 1);
  }
}
