package org.lmctfy.internal.libc;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import org.jspecify.annotations.Nullable;

/**
 * A pidfd: a file descriptor that names one process, not its number. A signal sent through it
 * reaches that process or nobody (ESRCH once it has ended), never another that got the pid after
 * it, and it can be waited for ({@code waitid(P_PIDFD)}). Linux 5.3 ({@code pidfd_open}; {@code
 * pidfd_send_signal} is 5.1), called by number, since glibc wraps them only from 2.36. The system
 * call numbers are the generic table's, the same on x86-64 and aarch64.
 *
 * <p>Thread-safe: {@link #signal} and {@link #close} exclude each other, so a signal never goes to
 * a descriptor number that a close gave back.
 */
public final class Pidfd implements AutoCloseable {
  private static final long SYS_PIDFD_SEND_SIGNAL = 424;
  private static final long SYS_PIDFD_OPEN = 434;
  private static final int ENOSYS = 38;

  public static final int SIGKILL = 9;
  public static final int SIGTERM = 15;

  /** Whether the kernel has pidfds: false after the first ENOSYS. */
  private static volatile boolean kernelHasThem = true;

  private int fd;

  private Pidfd(int fd) {
    this.fd = fd;
  }

  /**
   * A pidfd of {@code pid}, or null where there is none to have: a kernel before 5.3 (ENOSYS), a
   * process that is gone (ESRCH), or no descriptor left (EMFILE). The caller must know that {@code
   * pid} is still the process it means (its own child not yet reaped, or one it checks again after
   * the open).
   */
  public static @Nullable Pidfd open(long pid) {
    if (!kernelHasThem) {
      return null;
    }
    try {
      return new Pidfd((int) Calls.syscall(SYS_PIDFD_OPEN, pid, 0, 0, 0));
    } catch (LastErrorException e) {
      if (e.getErrorCode() == ENOSYS) {
        kernelHasThem = false;
      }
      return null;
    }
  }

  /** The descriptor, for {@code waitid(P_PIDFD)}; -1 once closed. */
  public synchronized int fd() {
    return fd;
  }

  /**
   * Sends {@code signal}: true if it was sent (a zombie takes it and ignores it, as kill(2) does),
   * false if not: the process has ended (ESRCH), this pidfd is closed, or the kernel refused
   * (EPERM: the program became set-user-ID), which {@link Process#destroy()} ignores too.
   */
  public synchronized boolean signal(int signal) {
    if (fd < 0) {
      return false;
    }
    try {
      Calls.syscall(SYS_PIDFD_SEND_SIGNAL, fd, signal, 0, 0);
      return true;
    } catch (LastErrorException e) {
      return false;
    }
  }

  /** Closes the descriptor; later signals do nothing. Idempotent. */
  @Override
  public synchronized void close() {
    if (fd >= 0) {
      int closing = fd;
      fd = -1;
      Libc.close(closing);
    }
  }

  /** syscall(2) with four integer arguments, in a class of its own (JNA maps one name once). */
  private static final class Calls {
    static {
      Native.register(Calls.class, Platform.C_LIBRARY_NAME);
    }

    static native long syscall(long number, long a, long b, long c, long d)
        throws LastErrorException;
  }
}
