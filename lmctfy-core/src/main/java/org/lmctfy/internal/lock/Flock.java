package org.lmctfy.internal.lock;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * {@code flock(2)} on a lock file. Unlike the POSIX record locks behind {@code FileChannel.lock},
 * a flock belongs to the open file, not to the process, so the kernel's per-process deadlock
 * detection cannot refuse a wait that only looks like a cycle when several threads of two
 * processes take locks in the same top-down order; like them it is dropped when the holder dies.
 */
final class Flock {
  private static final int O_RDWR = 2;
  private static final int O_CREAT = 0100;
  private static final int O_CLOEXEC = 0x80000;
  private static final int LOCK_EX = 2;

  static {
    Native.register(Platform.C_LIBRARY_NAME);
  }

  private Flock() {}

  private static native int open(byte[] path, int flags, int mode) throws LastErrorException;

  private static native int flock(int fd, int operation) throws LastErrorException;

  private static native int close(int fd) throws LastErrorException;

  /** Opens (creating) {@code path} and blocks until it holds an exclusive flock; returns the fd. */
  static int lock(String path) {
    byte[] utf8 = path.getBytes(StandardCharsets.UTF_8);
    int fd = open(Arrays.copyOf(utf8, utf8.length + 1), O_RDWR | O_CREAT | O_CLOEXEC, 0600); // a C string
    try {
      while (true) {
        try {
          flock(fd, LOCK_EX);
          return fd;
        } catch (LastErrorException e) {
          if (e.getErrorCode() != 4) { // EINTR: wait again
            throw e;
          }
        }
      }
    } catch (LastErrorException e) {
      try {
        close(fd);
      } catch (LastErrorException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  /** Releases the lock by closing its file. */
  static void unlock(int fd) {
    close(fd);
  }
}
