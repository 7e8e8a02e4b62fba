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

/**
 * {@code flock(2)} on a lock file. Unlike the POSIX record locks behind {@code FileChannel.lock},
 * a flock belongs to the open file, not to the process, so the kernel's per-process deadlock
 * detection cannot refuse a wait that only looks like a cycle when several threads of two
 * processes take locks in the same top-down order; like them it is dropped when the holder dies.
 *
 * <p>Lock files that nobody holds may be removed at any time ({@link #removeIfFree}), so that
 * they do not pile up as names come and go: whoever removes one holds its lock, and a waiter that
 * wakes holding a file that was removed meanwhile (its link count is 0) lets go and opens the
 * path again, where the next file is.
 */
final class Flock {
  private static final int O_RDWR = 2;
  private static final int O_CREAT = 0100;
  private static final int O_CLOEXEC = 0x80000;
  private static final int LOCK_EX = 2;
  private static final int LOCK_NB = 4;
  private static final int EWOULDBLOCK = 11;
  private static final int EINTR = 4;
  private static final int ENOENT = 2;

  static {
    Native.register(Platform.C_LIBRARY_NAME);
  }

  private Flock() {}

  private static native int open(byte[] path, int flags, int mode) throws LastErrorException;

  private static native int flock(int fd, int operation) throws LastErrorException;

  private static native int close(int fd) throws LastErrorException;

  private static native int unlink(byte[] path) throws LastErrorException;

  /** Blocks until this process holds the lock file at {@code path}, creating it; returns its fd. */
  static int lock(String path) throws IOException {
    byte[] cPath = cString(path);
    while (true) {
      int fd = open(cPath, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
      try {
        lockOpen(fd);
        if (linkCount(fd) > 0) {
          return fd;
        }
      } catch (IOException | LastErrorException e) {
        try {
          close(fd);
        } catch (LastErrorException closing) {
          e.addSuppressed(closing);
        }
        throw e;
      }
      close(fd); // a sweep removed it as we waited: lock the file now at the path
    }
  }

  private static void lockOpen(int fd) {
    while (true) {
      try {
        flock(fd, LOCK_EX);
        return;
      } catch (LastErrorException e) {
        if (e.getErrorCode() != EINTR) {
          throw e;
        }
      }
    }
  }

  /** The link count of the file open at {@code fd}: fstat(2) where it can be read, else through procfs. */
  private static long linkCount(int fd) throws IOException {
    if (Stat.AVAILABLE) {
      byte[] buffer = new byte[256];
      Stat.fstat(fd, buffer);
      ByteBuffer stat = ByteBuffer.wrap(buffer).order(ByteOrder.nativeOrder());
      return Stat.WIDE ? stat.getLong(Stat.NLINK) : stat.getInt(Stat.NLINK);
    }
    return (Integer) Files.getAttribute(Path.of("/proc/self/fd/" + fd), "unix:nlink");
  }

  /**
   * fstat(2), where glibc exports it (2.33 and later) and {@code st_nlink}'s place in {@code struct
   * stat} is known: x86-64's own layout, or the generic one of aarch64.
   */
  private static final class Stat {
    static final int NLINK = Platform.ARCH.equals("x86-64") ? 16 : Platform.ARCH.equals("aarch64") ? 20 : -1;
    static final boolean WIDE = Platform.ARCH.equals("x86-64");
    static final boolean AVAILABLE = register();

    private static boolean register() {
      if (NLINK < 0) {
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

  /** Lets go of the lock by closing its file. */
  static void unlock(int fd) {
    close(fd);
  }

  /**
   * Removes the lock file at {@code path} if nobody holds it, taking its lock without waiting;
   * false if it is held, or gone already.
   */
  static boolean removeIfFree(String path) throws IOException {
    byte[] cPath = cString(path);
    int fd;
    try {
      fd = open(cPath, O_RDWR | O_CLOEXEC, 0);
    } catch (LastErrorException e) {
      if (e.getErrorCode() == ENOENT) {
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
        throw e;
      }
      if (linkCount(fd) == 0) {
        return false; // removed by another sweep while we opened it
      }
      unlink(cPath); // still the file at the path: only a holder removes one, and we hold it
      return true;
    } finally {
      close(fd);
    }
  }

  private static byte[] cString(String s) {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    return Arrays.copyOf(utf8, utf8.length + 1);
  }
}
