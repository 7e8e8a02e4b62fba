package org.lmctfy.internal.kernel;

import com.sun.jna.LastErrorException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.Set;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupFsException.Operation;
import org.lmctfy.cgroupfs.CgroupWatch;
import org.lmctfy.cgroupfs.Errno;

/**
 * The kernel's wake-ups: inotify through the JDK's {@link WatchService} (which on Linux is
 * inotify and watches directories: kernfs notifies a cgroup directory with the name of the changed
 * file), v1 eventfds registered in {@code cgroup.event_control}, and PSI triggers polled for
 * POLLPRI. A thread blocked in {@code poll(2)} also polls a private eventfd that {@code close()}
 * signals; file descriptors are released only once no thread is in {@code poll}.
 */
final class KernelWatches {
  private static final Errno UNKNOWN = Errno.UNKNOWN;

  private KernelWatches() {}

  /**
   * inotify on the cgroup's directory for changes to {@code files}, and on its parent for its
   * removal: kernfs sends nothing to a removed directory's own watch (checked on 6.18: no
   * IN_DELETE_SELF, no IN_IGNORED), but the parent sees IN_DELETE with the child's name.
   */
  static CgroupWatch inotify(String dir, boolean root, Set<String> files) throws IOException {
    WatchService ws = FileSystems.getDefault().newWatchService();
    Path path = Path.of(dir);
    try {
      WatchKey own = path.register(ws, StandardWatchEventKinds.ENTRY_MODIFY);
      WatchKey parent = root ? null : path.getParent().register(ws, StandardWatchEventKinds.ENTRY_DELETE);
      if (!java.nio.file.Files.isDirectory(path)) {
        throw new NoSuchFileException(dir); // removed while the parent's watch was being set up
      }
      return new InotifyWatch(ws, own, parent, path.getFileName().toString(), Set.copyOf(files), dir);
    } catch (NoSuchFileException e) {
      ws.close();
      throw new CgroupFsException(Operation.WATCH, dir, null, Errno.ENOENT);
    } catch (IOException | RuntimeException e) {
      try {
        ws.close();
      } catch (IOException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  private static final class InotifyWatch implements CgroupWatch {
    private final WatchService ws;
    private final WatchKey own;
    private final WatchKey parent;
    private final String name;
    private final Set<String> files;
    private final String dir;
    private volatile boolean removed;

    InotifyWatch(WatchService ws, WatchKey own, WatchKey parent, String name, Set<String> files, String dir) {
      this.ws = ws;
      this.own = own;
      this.parent = parent;
      this.name = name;
      this.files = files;
      this.dir = dir;
    }

    @Override
    public boolean await() throws IOException, InterruptedException {
      if (removed) {
        throw new CgroupFsException(Operation.WATCH, dir, null, Errno.ENOENT, "the watched cgroup was removed");
      }
      while (true) {
        WatchKey key;
        try {
          key = ws.take();
        } catch (ClosedWatchServiceException e) {
          return false;
        }
        boolean relevant = false;
        for (WatchEvent<?> event : key.pollEvents()) {
          String context = String.valueOf(event.context());
          boolean gone = key == parent && context.equals(name);
          if (event.kind() == StandardWatchEventKinds.OVERFLOW || (key == own && files.contains(context)) || gone) {
            relevant = true;
            removed |= gone;
          }
        }
        if (!key.reset()) {
          relevant = true;
          removed = true;
        }
        if (relevant) {
          return true;
        }
      }
    }

    @Override
    public void close() throws IOException {
      ws.close();
    }
  }

  /** A v1 eventfd registration: {@code "<efd> <fd of file> <args>"} to {@code cgroup.event_control}. */
  static CgroupWatch eventControl(String dir, String file, String args) throws IOException {
    String target = dir + "/" + file;
    String control = dir + "/cgroup.event_control";
    int efd = -1;
    int tfd = -1;
    int cancel = -1;
    try {
      efd = Libc.eventfd(0, Libc.EFD_CLOEXEC);
      cancel = Libc.eventfd(0, Libc.EFD_CLOEXEC);
      tfd = open(target, Libc.O_RDONLY, args);
      String line = efd + " " + tfd + (args == null || args.isEmpty() ? "" : " " + args);
      int cfd = open(control, Libc.O_WRONLY, line);
      try {
        byte[] bytes = line.getBytes(StandardCharsets.US_ASCII);
        Libc.write(cfd, bytes, bytes.length);
      } catch (LastErrorException e) {
        throw fail(control, line, e);
      } finally {
        Libc.close(cfd);
      }
      return new PollWatch(target, new int[] {efd, tfd}, efd, Libc.POLLIN, cancel, true);
    } catch (LastErrorException e) {
      closeQuietly(e, efd, tfd, cancel);
      throw fail(target, args, e);
    } catch (IOException | RuntimeException e) {
      closeQuietly(e, efd, tfd, cancel);
      throw e;
    }
  }

  /** A PSI trigger: the trigger written to an O_RDWR fd of the pressure file, then POLLPRI. */
  static CgroupWatch pressureTrigger(String dir, String file, String trigger) throws IOException {
    String target = dir + "/" + file;
    int fd = -1;
    int cancel = -1;
    try {
      fd = open(target, Libc.O_RDWR | Libc.O_NONBLOCK, trigger);
      byte[] bytes = trigger.getBytes(StandardCharsets.US_ASCII);
      try {
        Libc.write(fd, bytes, bytes.length);
      } catch (LastErrorException e) {
        throw fail(target, trigger, e);
      }
      cancel = Libc.eventfd(0, Libc.EFD_CLOEXEC);
      return new PollWatch(target, new int[] {fd}, fd, Libc.POLLPRI, cancel, false);
    } catch (LastErrorException e) {
      closeQuietly(e, fd, cancel);
      throw fail(target, trigger, e);
    } catch (IOException | RuntimeException e) {
      closeQuietly(e, fd, cancel);
      throw e;
    }
  }

  private static int open(String path, int flags, String value) throws CgroupFsException {
    try {
      return Libc.open(path, flags | Libc.O_CLOEXEC);
    } catch (LastErrorException e) {
      throw fail(path, value, e);
    }
  }

  /** Closes descriptors after a failure, attaching a failed close to {@code cause}. */
  private static void closeQuietly(Exception cause, int... fds) {
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

  private static CgroupFsException fail(String file, String value, LastErrorException e) {
    Errno errno = Errno.of(e.getErrorCode());
    return new CgroupFsException(Operation.WATCH, file, value, errno,
        errno == UNKNOWN ? "errno " + e.getErrorCode() : null);
  }

  /** poll(2) on one descriptor and the cancel eventfd. */
  private static final class PollWatch implements CgroupWatch {
    private final String target;
    private final int[] owned;
    private final int fd;
    private final short events;
    private final int cancel;
    private final boolean drain;
    private boolean closed;
    private boolean polling;
    private boolean released;
    private boolean failed;

    PollWatch(String target, int[] owned, int fd, short events, int cancel, boolean drain) {
      this.target = target;
      this.owned = owned;
      this.fd = fd;
      this.events = events;
      this.cancel = cancel;
      this.drain = drain;
    }

    @Override
    public boolean await() throws IOException {
      synchronized (this) {
        if (closed) {
          return false;
        }
        if (failed) {
          throw new CgroupFsException(Operation.WATCH, target, null, Errno.EIO, "the kernel reported an error");
        }
        polling = true;
      }
      try {
        return pollOnce();
      } finally {
        synchronized (this) {
          polling = false;
          if (closed) {
            release();
          }
        }
      }
    }

    private boolean pollOnce() throws IOException {
      ByteBuffer buf = ByteBuffer.allocate(16).order(ByteOrder.nativeOrder());
      byte[] eight = new byte[8];
      while (true) {
        buf.clear();
        buf.putInt(fd).putShort(events).putShort((short) 0);
        buf.putInt(cancel).putShort(Libc.POLLIN).putShort((short) 0);
        byte[] fds = buf.array();
        try {
          Libc.poll(fds, 2, -1);
        } catch (LastErrorException e) {
          if (e.getErrorCode() == Errno.EINTR.number()) {
            continue;
          }
          throw fail(target, null, e);
        }
        ByteBuffer out = ByteBuffer.wrap(fds).order(ByteOrder.nativeOrder());
        short revents = out.getShort(6);
        short cancelled = out.getShort(14);
        if (cancelled != 0) {
          return false;
        }
        if ((revents & (Libc.POLLERR | Libc.POLLHUP | Libc.POLLNVAL)) != 0) {
          synchronized (this) {
            failed = true; // PSI: the cgroup went away; the next await says so
          }
          return true;
        }
        if ((revents & events) != 0) {
          if (drain) {
            try {
              Libc.read(fd, eight, 8);
            } catch (LastErrorException e) {
              throw fail(target, null, e);
            }
          }
          return true;
        }
      }
    }

    @Override
    public void close() throws IOException {
      synchronized (this) {
        if (closed) {
          return;
        }
        closed = true;
        if (!polling) {
          release();
          return;
        }
        byte[] one = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putLong(1).array();
        try {
          Libc.write(cancel, one, 8); // wakes the polling thread, which releases the descriptors
        } catch (LastErrorException e) {
          throw fail(target, null, e);
        }
      }
    }

    /** Called with the lock held, once no thread polls. */
    private void release() throws CgroupFsException {
      if (released) {
        return;
      }
      released = true;
      CgroupFsException failure = null;
      int[] all = java.util.Arrays.copyOf(owned, owned.length + 1);
      all[owned.length] = cancel;
      for (int d : all) {
        try {
          Libc.close(d);
        } catch (LastErrorException e) {
          if (failure == null) {
            failure = fail(target, null, e);
          } else {
            failure.addSuppressed(e);
          }
        }
      }
      if (failure != null) {
        throw failure;
      }
    }
  }
}
