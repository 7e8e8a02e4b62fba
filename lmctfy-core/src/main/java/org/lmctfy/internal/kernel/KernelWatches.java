package org.lmctfy.internal.kernel;

import static org.lmctfy.internal.kernel.EpollSet.EPOLLERR;
import static org.lmctfy.internal.kernel.EpollSet.EPOLLHUP;
import static org.lmctfy.internal.kernel.EpollSet.EPOLLIN;
import static org.lmctfy.internal.kernel.EpollSet.EPOLLPRI;
import static org.lmctfy.internal.kernel.EpollSet.closeQuietly;
import static org.lmctfy.internal.kernel.EpollSet.fail;
import static org.lmctfy.internal.kernel.EpollSet.openFile;
import static org.lmctfy.internal.kernel.Inotify.IN_DELETE;
import static org.lmctfy.internal.kernel.Inotify.IN_IGNORED;
import static org.lmctfy.internal.kernel.Inotify.IN_MODIFY;
import static org.lmctfy.internal.kernel.Inotify.IN_ONLYDIR;
import static org.lmctfy.internal.kernel.Inotify.IN_Q_OVERFLOW;

import com.sun.jna.LastErrorException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupFsException.Operation;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.CgroupWatch;
import org.lmctfy.cgroupfs.CgroupWatcher;
import org.lmctfy.cgroupfs.Errno;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.errors.Errors;
import org.lmctfy.internal.libc.Libc;

/**
 * The kernel's wake-ups for any number of watches, and the rules of which file notifies how: one
 * {@link EpollSet} holding one {@link Inotify} instance (every file and removal watch, on the
 * cgroup's directory and its parent's: kernfs notifies a directory's watch with the name of a
 * changed {@code *.events} file, and its parent's with the name of a removed child), the eventfd of
 * each v1 {@code cgroup.event_control} registration, the descriptor of each PSI trigger (POLLPRI),
 * and the set's eventfd for {@link #wakeup}. Watches of files no kernel notifies are signalled
 * every {@link #POLL_INTERVAL} by {@link #await} itself. Descriptors of the watcher itself are
 * released only once no thread waits in {@code epoll_wait}.
 */
final class KernelWatches implements CgroupWatcher {
  /** A directory's watch hears its files modified and its children removed. */
  private static final int IN_MASK = IN_MODIFY | IN_DELETE | IN_ONLYDIR;

  /** The epoll token of the inotify instance ({@link EpollSet#WAKE} is 0; fd watches from 2). */
  private static final long INOTIFY = 1;

  private final EpollSet epoll;
  private final Inotify inotify;

  private final Object lock = new Object();

  /** Directories with an inotify watch, by watch descriptor. */
  private final Map<Integer, Dir> dirs = new HashMap<>();

  private final Map<Long, FdWatch> fdWatches = new HashMap<>();
  private final Set<Watch> polled = new LinkedHashSet<>();
  private final Set<CgroupWatch> ready = new LinkedHashSet<>();
  private long nextToken = 2;
  private long nextPoll;
  private boolean awaiting;
  private boolean closed;
  private boolean released;

  private KernelWatches(EpollSet epoll, Inotify inotify) {
    this.epoll = epoll;
    this.inotify = inotify;
  }

  /** A new watcher: an epoll set with its wake-up eventfd, and an inotify instance in it. */
  static KernelWatches open() throws IOException {
    EpollSet ep = EpollSet.open();
    Inotify in = null;
    try {
      in = Inotify.open();
      ep.add(in.fd(), EPOLLIN, INOTIFY, "inotify");
      return new KernelWatches(ep, in);
    } catch (IOException | RuntimeException e) {
      CgroupFsException failure = in == null ? null : in.close(null);
      failure = ep.close(failure);
      if (failure != null) {
        e.addSuppressed(failure);
      }
      throw e;
    }
  }

  // ---- opening watches

  /**
   * inotify when every file is one the kernel notifies (a v2 {@code *.events} or {@code
   * *.events.local} file) or none is asked for (removal only); polling otherwise.
   */
  @Override
  public CgroupWatch watch(Hierarchy h, CgroupPath path, Set<String> files) throws IOException {
    boolean notified =
        files.stream()
            .allMatch(
                f ->
                    h.version() == CgroupVersion.V2
                        && (f.endsWith(".events") || f.endsWith(".events.local")));
    String dir = h.display(path, null);
    synchronized (lock) {
      requireOpen(dir);
      if (!notified) {
        if (!Libc.exists(h.display(path, "cgroup.procs"))) {
          throw new CgroupFsException(Operation.WATCH, dir, null, Errno.ENOENT);
        }
        Watch w = new Watch();
        if (polled.isEmpty()) {
          nextPoll = System.nanoTime() + POLL_INTERVAL.toNanos();
        }
        polled.add(w);
        return w;
      }
      Dir own = files.isEmpty() ? null : addDir(dir); // nothing to hear from the directory itself
      Dir parent = null;
      try {
        parent = path.isRoot() ? null : addDir(h.display(path.parent(), null));
        if (!Libc.exists(h.display(path, "cgroup.procs"))) {
          throw new CgroupFsException(
              Operation.WATCH, dir, null, Errno.ENOENT); // removed meanwhile
        }
      } catch (IOException | RuntimeException e) {
        if (own != null) {
          unref(own, e);
        }
        if (parent != null) {
          unref(parent, e);
        }
        throw e;
      }
      FileWatch w =
          new FileWatch(own, parent, path.isRoot() ? null : path.name(), Set.copyOf(files));
      for (String f : w.files) {
        own.byName.computeIfAbsent(f, k -> new ArrayList<>()).add(w);
      }
      if (parent != null) {
        parent.byName.computeIfAbsent(w.name, k -> new ArrayList<>()).add(w);
      }
      return w;
    }
  }

  /**
   * The directory's inotify watch (the kernel gives one descriptor per inode), one more user of it.
   */
  private Dir addDir(String dir) throws CgroupFsException {
    int wd = inotify.addWatch(dir, IN_MASK);
    Dir d = dirs.computeIfAbsent(wd, k -> new Dir(wd, dir));
    d.refs++;
    return d;
  }

  /**
   * One user less of a directory's watch; the last removes it. Failures are attached to {@code
   * cause}.
   */
  private void unref(Dir d, Exception cause) {
    try {
      unref(d);
    } catch (CgroupFsException e) {
      cause.addSuppressed(e);
    }
  }

  private void unref(Dir d) throws CgroupFsException {
    if (--d.refs > 0 || d.gone) {
      return;
    }
    dirs.remove(d.wd);
    d.gone = true;
    inotify.removeWatch(d.wd, d.path);
  }

  /**
   * A v1 eventfd registration: {@code "<efd> <fd of file> <args>"} to {@code cgroup.event_control}.
   */
  @Override
  public CgroupWatch eventControl(Hierarchy h, CgroupPath path, String file, String args)
      throws IOException {
    String dir = h.display(path, null);
    String target = dir + "/" + file;
    String control = dir + "/cgroup.event_control";
    synchronized (lock) {
      requireOpen(target);
      int efd = -1;
      int tfd = -1;
      try {
        efd = Libc.eventfd(0, Libc.EFD_CLOEXEC | Libc.EFD_NONBLOCK);
        tfd = openFile(target, Libc.O_RDONLY, args);
        String line = efd + " " + tfd + (args == null || args.isEmpty() ? "" : " " + args);
        int cfd = openFile(control, Libc.O_WRONLY, line);
        try {
          byte[] bytes = line.getBytes(StandardCharsets.US_ASCII);
          Libc.write(cfd, bytes, bytes.length);
        } catch (LastErrorException e) {
          throw fail(control, line, e);
        } finally {
          Libc.close(cfd);
        }
        // the kernel holds the eventfd now and needed the file's descriptor only for the write
        Libc.close(tfd);
        tfd = -1;
        return addFd(efd, EPOLLIN, true, target);
      } catch (LastErrorException e) {
        CgroupFsException failure = fail(target, args, e);
        closeQuietly(failure, efd, tfd);
        throw failure;
      } catch (IOException | RuntimeException e) {
        closeQuietly(e, efd, tfd);
        throw e;
      }
    }
  }

  /**
   * A PSI trigger: the trigger written to an O_RDWR descriptor of the pressure file, then POLLPRI.
   */
  @Override
  public CgroupWatch pressureTrigger(Hierarchy h, CgroupPath path, String file, String trigger)
      throws IOException {
    String target = h.display(path, file);
    synchronized (lock) {
      requireOpen(target);
      int fd = -1;
      try {
        fd = openFile(target, Libc.O_RDWR | Libc.O_NONBLOCK, trigger);
        byte[] bytes = trigger.getBytes(StandardCharsets.US_ASCII);
        try {
          Libc.write(fd, bytes, bytes.length);
        } catch (LastErrorException e) {
          throw fail(target, trigger, e);
        }
        return addFd(fd, EPOLLPRI, false, target);
      } catch (IOException | RuntimeException e) {
        closeQuietly(e, fd);
        throw e;
      }
    }
  }

  private FdWatch addFd(int fd, int eventMask, boolean drain, String target)
      throws CgroupFsException {
    long token = nextToken++;
    epoll.add(fd, eventMask, token, target);
    FdWatch w = new FdWatch(token, fd, drain, target);
    fdWatches.put(token, w);
    return w;
  }

  private void requireOpen(String what) throws CgroupFsException {
    if (closed) {
      throw new CgroupFsException(
          Operation.WATCH, what, null, Errno.EBADF, "the watcher is closed");
    }
  }

  // ---- waiting

  @Override
  public List<CgroupWatch> await(Duration timeout) throws IOException {
    long millis = Math.max(0, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
    synchronized (lock) {
      if (closed) {
        return List.of();
      }
      if (!ready.isEmpty()) {
        return drain();
      }
      if (!polled.isEmpty()) {
        long untilPoll = nextPoll - System.nanoTime();
        millis = Math.min(millis, Math.max(0, (untilPoll + 999_999) / 1_000_000));
      }
      awaiting = true;
    }
    int n = 0;
    LastErrorException failure = null;
    try {
      n = epoll.await((int) millis);
    } catch (LastErrorException e) {
      if (e.getErrorCode() != Errno.EINTR.number()) {
        failure = e;
      }
    }
    synchronized (lock) {
      awaiting = false;
      if (closed) {
        release();
        return List.of();
      }
      if (failure != null) {
        throw fail("epoll_wait", null, failure);
      }
      for (int i = 0; i < n; i++) {
        int mask = epoll.mask(i);
        long token = epoll.token(i);
        if (token == EpollSet.WAKE) {
          epoll.drainWakeup();
        } else if (token == INOTIFY) {
          inotify.readAll(this::inotifyEvent);
        } else {
          FdWatch w = fdWatches.get(token);
          if (w != null) {
            w.signalled(mask);
          }
        }
      }
      if (!polled.isEmpty() && System.nanoTime() - nextPoll >= 0) {
        ready.addAll(polled);
        nextPoll = System.nanoTime() + POLL_INTERVAL.toNanos();
      }
      return drain();
    }
  }

  private List<CgroupWatch> drain() {
    List<CgroupWatch> out = new ArrayList<>(ready);
    ready.clear();
    return out;
  }

  private void inotifyEvent(int wd, int mask, String name) {
    if ((mask & IN_Q_OVERFLOW) != 0) { // events were lost: every file watch reads again
      for (Dir d : dirs.values()) {
        d.byName.values().forEach(ready::addAll);
      }
      return;
    }
    Dir d = dirs.get(wd);
    if (d == null) {
      return; // a watch removed since
    }
    if ((mask & IN_IGNORED) != 0) { // the kernel dropped the watch: its directory went away
      dirs.remove(wd);
      d.gone = true;
      d.byName.values().forEach(ready::addAll);
      return;
    }
    List<FileWatch> named = name == null ? null : d.byName.get(name);
    if (named == null) {
      return;
    }
    for (FileWatch w : named) {
      if (w.own == d ? (mask & IN_MODIFY) != 0 : (mask & IN_DELETE) != 0) {
        ready.add(w);
      }
    }
  }

  @Override
  public void wakeup() {
    synchronized (lock) {
      if (!released) {
        epoll.wakeup();
      }
    }
  }

  // ---- closing

  /** Ends one watch: its names, its inotify users or its descriptor. */
  private void close(Watch w) throws CgroupFsException {
    synchronized (lock) {
      if (w.closed) {
        return;
      }
      w.closed = true;
      ready.remove(w);
      if (closed) {
        return; // the watcher's release takes everything
      }
      if (w instanceof FileWatch f) {
        CgroupFsException failure = null;
        for (String file : f.files) {
          removeName(f.own, file, f);
        }
        if (f.parent != null) {
          removeName(f.parent, f.name, f);
        }
        for (Dir d : new Dir[] {f.own, f.parent}) {
          try {
            if (d != null) {
              unref(d);
            }
          } catch (CgroupFsException e) {
            failure = Errors.keepFirst(failure, e);
          }
        }
        if (failure != null) {
          throw failure;
        }
      } else if (w instanceof FdWatch f) {
        fdWatches.remove(f.token);
        try {
          Libc.close(f.fd); // also leaves the epoll set; a stale event carries a token nobody has
        } catch (LastErrorException e) {
          throw fail(f.target, null, e);
        }
      } else {
        polled.remove(w);
      }
    }
  }

  private static void removeName(Dir d, String name, FileWatch w) {
    List<FileWatch> list = d.byName.get(name);
    if (list != null) {
      list.remove(w);
      if (list.isEmpty()) {
        d.byName.remove(name);
      }
    }
  }

  @Override
  public void close() throws IOException {
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      if (awaiting) {
        epoll.wakeup(); // the waiting thread releases everything once it is out
        return;
      }
      release();
    }
  }

  /** Called with the lock held, once no thread waits. */
  private void release() throws CgroupFsException {
    if (released) {
      return;
    }
    released = true;
    List<Integer> fds = new ArrayList<>();
    for (FdWatch w : fdWatches.values()) {
      w.closed = true;
      fds.add(w.fd);
    }
    fdWatches.clear();
    dirs.clear();
    polled.clear();
    ready.clear();
    CgroupFsException failure = null;
    for (int fd : fds) {
      failure = EpollSet.close(failure, fd);
    }
    failure = inotify.close(failure);
    failure = epoll.close(failure);
    if (failure != null) {
      throw failure;
    }
  }

  /** A directory with an inotify watch, and the watches that care about names in it. */
  private static final class Dir {
    final int wd;
    final String path;

    /**
     * By name: the watches of this directory that care about a file of that name changing, and the
     * watches of the child cgroup of that name (for its removal); names in one directory are
     * unique.
     */
    final Map<String, List<FileWatch>> byName = new HashMap<>();

    int refs;
    boolean gone;

    Dir(int wd, String path) {
      this.wd = wd;
      this.path = path;
    }
  }

  /** A watch; a plain one is polled. */
  private class Watch implements CgroupWatch {
    boolean closed;

    @Override
    public void close() throws IOException {
      KernelWatches.this.close(this);
    }
  }

  /**
   * inotify: {@code files} changing in the own directory, {@code name} removed from the parent's.
   */
  private final class FileWatch extends Watch {
    final Dir own;
    final Dir parent;
    final String name;
    final Set<String> files;

    FileWatch(Dir own, Dir parent, String name, Set<String> files) {
      this.own = own;
      this.parent = parent;
      this.name = name;
      this.files = files;
    }
  }

  /** An eventfd or a PSI trigger's descriptor in the epoll set. */
  private final class FdWatch extends Watch {
    final long token;
    final int fd;
    final boolean drain;
    final String target;

    FdWatch(long token, int fd, boolean drain, String target) {
      this.token = token;
      this.fd = fd;
      this.drain = drain;
      this.target = target;
    }

    /** Called with the lock held. */
    void signalled(int mask) {
      ready.add(this);
      if (drain) {
        epoll.drainCounter(fd);
      }
      if ((mask & (EPOLLERR | EPOLLHUP)) != 0) {
        // PSI: the cgroup went away; a level-triggered error would wake every epoll_wait from now
        // on
        epoll.remove(fd);
      }
    }
  }
}
