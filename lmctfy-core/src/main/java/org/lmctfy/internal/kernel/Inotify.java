package org.lmctfy.internal.kernel;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import java.nio.charset.StandardCharsets;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.internal.libc.Libc;

/**
 * The plumbing under {@link KernelWatches}: one non-blocking inotify instance, its directory
 * watches and its event queue read into a reused buffer. Not thread-safe: its owner serialises
 * every call.
 */
final class Inotify {
  static final int IN_MODIFY = 0x2;
  static final int IN_DELETE = 0x200;
  static final int IN_Q_OVERFLOW = 0x4000;
  static final int IN_IGNORED = 0x8000;
  static final int IN_ONLYDIR = 0x1000000;
  private static final int BUFFER = 64 * 1024;

  /**
   * Told of each event read: the watch descriptor, the mask and the name in the directory (or
   * null).
   */
  interface Listener {
    void event(int wd, int mask, String name);
  }

  private final int fd;
  private final Memory buffer = new Memory(BUFFER);

  private Inotify(int fd) {
    this.fd = fd;
  }

  static Inotify open() throws CgroupFsException {
    try {
      return new Inotify(Libc.inotify_init1(Libc.O_NONBLOCK | Libc.O_CLOEXEC));
    } catch (LastErrorException e) {
      throw EpollSet.fail("epoll, inotify and eventfd of a watcher", null, e);
    }
  }

  /** The descriptor, readable when events are queued. */
  int fd() {
    return fd;
  }

  /** The watch descriptor of {@code dir} for {@code mask} (the kernel gives one per inode). */
  int addWatch(String dir, int mask) throws CgroupFsException {
    try {
      return Libc.inotifyAddWatch(fd, dir, mask);
    } catch (LastErrorException e) {
      throw EpollSet.fail(dir, null, e);
    }
  }

  /** Removes the watch {@code wd} of {@code dir}; one the kernel dropped already is no failure. */
  void removeWatch(int wd, String dir) throws CgroupFsException {
    try {
      Libc.inotify_rm_watch(fd, wd);
    } catch (LastErrorException e) {
      if (e.getErrorCode() != Errno.EINVAL.number()) { // EINVAL: the kernel dropped it already
        throw EpollSet.fail(dir, null, e);
      }
    }
  }

  /** Reads every queued event, each to {@code listener}. */
  void readAll(Listener listener) throws CgroupFsException {
    while (true) {
      long n;
      try {
        n = Libc.read(fd, buffer, BUFFER);
      } catch (LastErrorException e) {
        if (e.getErrorCode() == Errno.EAGAIN.number()) {
          return;
        }
        if (e.getErrorCode() == Errno.EINTR.number()) {
          continue;
        }
        throw EpollSet.fail("inotify", null, e);
      }
      if (n <= 0) {
        return;
      }
      for (long at = 0; at + 16 <= n; ) { // struct inotify_event: wd, mask, cookie, len, name[len]
        int wd = buffer.getInt(at);
        int mask = buffer.getInt(at + 4);
        int len = buffer.getInt(at + 12);
        String name = len > 0 ? buffer.getString(at + 16, StandardCharsets.UTF_8.name()) : null;
        at += 16 + len;
        listener.event(wd, mask, name);
      }
    }
  }

  /**
   * Closes the instance (and with it every watch); a failed close is added to {@code failure}, or
   * becomes it.
   */
  CgroupFsException close(CgroupFsException failure) {
    failure = EpollSet.close(failure, fd);
    buffer.close();
    return failure;
  }
}
