package org.lmctfy.internal.kernel;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Platform;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupFsException.Operation;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.internal.libc.Libc;

/**
 * The plumbing under {@link KernelWatches}: one epoll set with its wake-up eventfd. Every entry
 * carries a token, never a descriptor number, so a descriptor closed and reused while a thread
 * waits is never mistaken for another. Not thread-safe: its owner serialises every call, except
 * that one thread may be in {@link #await} meanwhile and any thread may {@link #wakeup}; the
 * descriptors are closed only once no thread waits.
 */
final class EpollSet {
  static final int EPOLLIN = 0x1;
  static final int EPOLLPRI = 0x2;
  static final int EPOLLERR = 0x8;
  static final int EPOLLHUP = 0x10;

  /** The token of the wake-up eventfd; an owner's tokens are others. */
  static final long WAKE = 0;

  private static final int EPOLL_CTL_ADD = 1;
  private static final int EPOLL_CTL_DEL = 2;

  /** {@code struct epoll_event} is packed on x86-64 (u32 events, u64 data), natural elsewhere. */
  private static final int EVENT_SIZE = Platform.isIntel() ? 12 : 16;

  private static final int DATA_OFFSET = Platform.isIntel() ? 4 : 8;
  private static final int MAX_EVENTS = 256;
  private static final byte[] ONE =
      ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putLong(1).array();

  private final int epoll;
  private final int wake;
  private final Memory events = new Memory((long) EVENT_SIZE * MAX_EVENTS);
  private final Memory ctlEvent = new Memory(16);
  private final byte[] eight = new byte[8];

  private EpollSet(int epoll, int wake) {
    this.epoll = epoll;
    this.wake = wake;
  }

  /** A new epoll set holding its wake-up eventfd (token {@link #WAKE}). */
  static EpollSet open() throws CgroupFsException {
    int ep = -1;
    int wk = -1;
    try {
      ep = Libc.epoll_create1(Libc.O_CLOEXEC);
      wk = Libc.eventfd(0, Libc.EFD_CLOEXEC | Libc.EFD_NONBLOCK);
    } catch (LastErrorException e) {
      CgroupFsException failure = fail("epoll, inotify and eventfd of a watcher", null, e);
      closeQuietly(failure, ep, wk);
      throw failure;
    }
    EpollSet set = new EpollSet(ep, wk);
    try {
      set.add(wk, EPOLLIN, WAKE, "eventfd");
    } catch (CgroupFsException e) {
      closeQuietly(e, ep, wk);
      throw e;
    }
    return set;
  }

  /**
   * Adds {@code fd}, whose events {@code eventMask} come back with {@code token}; {@code what}
   * names it in errors.
   */
  void add(int fd, int eventMask, long token, String what) throws CgroupFsException {
    ctlEvent.setInt(0, eventMask);
    ctlEvent.setLong(DATA_OFFSET, token);
    try {
      Libc.epoll_ctl(epoll, EPOLL_CTL_ADD, fd, ctlEvent);
    } catch (LastErrorException e) {
      throw fail(what, null, e);
    }
  }

  /** Takes {@code fd} out of the set, if it is still in it. */
  void remove(int fd) {
    try {
      Libc.epoll_ctl(epoll, EPOLL_CTL_DEL, fd, ctlEvent);
    } catch (LastErrorException e) {
      // ENOENT: gone already
    }
  }

  /**
   * Waits up to {@code millis} for events; their count, each read by {@link #mask} and {@link
   * #token}.
   */
  int await(int millis) throws LastErrorException {
    return Libc.epoll_wait(epoll, events, MAX_EVENTS, millis);
  }

  /** The events of the {@code i}th entry of the last {@link #await}. */
  int mask(int i) {
    return events.getInt((long) i * EVENT_SIZE);
  }

  /** The token of the {@code i}th entry of the last {@link #await}. */
  long token(int i) {
    return events.getLong((long) i * EVENT_SIZE + DATA_OFFSET);
  }

  /** Wakes a thread in {@link #await} (or the next one to call it). */
  void wakeup() {
    try {
      Libc.write(wake, ONE, 8);
    } catch (LastErrorException e) {
      // EAGAIN: the counter is already non-zero, which is a pending wake-up
    }
  }

  /** Reads the wake-up eventfd's counter back to 0. */
  void drainWakeup() {
    drainCounter(wake);
  }

  /** Reads an eventfd's counter back to 0 (non-blocking: EAGAIN if it was 0 already). */
  void drainCounter(int fd) {
    try {
      Libc.read(fd, eight, 8);
    } catch (LastErrorException e) {
      // EAGAIN: nothing to read; the signal is what counts
    }
  }

  /**
   * Closes the wake-up eventfd and the epoll set; a failed close is added to {@code failure}, or
   * becomes it.
   */
  CgroupFsException close(CgroupFsException failure) {
    failure = close(failure, wake);
    failure = close(failure, epoll);
    events.close();
    ctlEvent.close();
    return failure;
  }

  // ---- descriptor helpers for the watcher and its parts

  /** Closes {@code fd}; a failure is added to {@code failure}, or becomes it. */
  static CgroupFsException close(CgroupFsException failure, int fd) {
    try {
      Libc.close(fd);
    } catch (LastErrorException e) {
      if (failure == null) {
        return fail("watcher descriptor " + fd, null, e);
      }
      failure.addSuppressed(e);
    }
    return failure;
  }

  /** Opens {@code path} close-on-exec; {@code value} is what was to be written, for the error. */
  static int openFile(String path, int flags, String value) throws CgroupFsException {
    try {
      return Libc.open(path, flags | Libc.O_CLOEXEC);
    } catch (LastErrorException e) {
      throw fail(path, value, e);
    }
  }

  /** Closes descriptors after a failure, attaching a failed close to {@code cause}. */
  static void closeQuietly(Exception cause, int... fds) {
    for (int fd : fds) {
      if (fd >= 0) {
        try {
          Libc.close(fd);
        } catch (LastErrorException e) {
          cause.addSuppressed(e);
        }
      }
    }
  }

  static CgroupFsException fail(String file, String value, LastErrorException e) {
    Errno errno = Errno.of(e.getErrorCode());
    return new CgroupFsException(
        Operation.WATCH,
        file,
        value,
        errno,
        errno == Errno.UNKNOWN ? "errno " + e.getErrorCode() : null);
  }
}
