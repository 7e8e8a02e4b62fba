package org.lmctfy.testing.internal.fake;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.lmctfy.cgroupfs.CgroupFsException;
import org.lmctfy.cgroupfs.CgroupFsException.Operation;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.CgroupWatch;
import org.lmctfy.cgroupfs.Errno;

/**
 * The fake's kernel wake-ups, signalled as the kernel would and at once, on the caller's thread: a
 * file watch after every change to the fake (spurious wake-ups are allowed: the caller re-reads), a
 * v1 threshold eventfd when usage crosses its threshold either way, a v1 OOM eventfd and a PSI
 * trigger when the test raises them, and every watch once when its cgroup is removed. A signal puts
 * the watch in its {@link WatchQueue}'s ready set and wakes the thread waiting there. Not
 * thread-safe: the fake's lock is held; a queue's own monitor guards its ready set.
 */
final class Watches {
  private final List<FakeWatch> all = new ArrayList<>();

  enum Kind {
    FILES,
    OOM,
    THRESHOLD,
    PRESSURE
  }

  CgroupWatch files(WatchQueue watcher, Node node) {
    return add(new FakeWatch(watcher, node, Kind.FILES, null, 0));
  }

  /**
   * cgroup.event_control on v1 memory (memcg_write_event_control): {@code memory.oom_control}, or a
   * usage file with a threshold; anything else is EINVAL ({@code memory.pressure_level} is not
   * modelled).
   */
  CgroupWatch eventControl(WatchQueue watcher, Node node, String file, String args)
      throws CgroupFsException {
    String display = node.hier.hierarchy.display(node.path, file);
    if (!node.hier.files(node).containsKey(file)) {
      throw new CgroupFsException(Operation.WATCH, display, args, Errno.ENOENT);
    }
    if (file.equals("memory.oom_control")) {
      return add(new FakeWatch(watcher, node, Kind.OOM, file, 0));
    }
    if (file.equals("memory.usage_in_bytes") || file.equals("memory.memsw.usage_in_bytes")) {
      long threshold;
      try {
        threshold = Numbers.memparse(Numbers.strip(args == null ? "" : args));
      } catch (KernelError e) {
        throw new CgroupFsException(Operation.WATCH, display, args, e.errno());
      }
      FakeWatch w = new FakeWatch(watcher, node, Kind.THRESHOLD, file, threshold);
      w.above = usage(node, file) >= threshold;
      return add(w);
    }
    throw new CgroupFsException(
        Operation.WATCH,
        display,
        args,
        Errno.EINVAL,
        "the fake registers eventfds for memory.oom_control and memory.*usage_in_bytes only");
  }

  /** A PSI trigger ({@code "some|full <threshold_us> <window_us>"}) on a v2 pressure file. */
  CgroupWatch pressure(WatchQueue watcher, Node node, String file, String trigger)
      throws CgroupFsException {
    String display = node.hier.hierarchy.display(node.path, file);
    if (node.hier.hierarchy.version() != CgroupVersion.V2
        || !file.endsWith(".pressure")
        || !node.hier.files(node).containsKey(file)) {
      throw new CgroupFsException(Operation.WATCH, display, trigger, Errno.ENOENT);
    }
    String[] w = trigger.strip().split(" ");
    boolean valid = w.length == 3 && (w[0].equals("some") || w[0].equals("full"));
    if (valid) {
      try {
        long threshold = Long.parseLong(w[1]);
        long window = Long.parseLong(w[2]);
        valid = window >= 500_000 && window <= 10_000_000 && threshold > 0 && threshold <= window;
      } catch (NumberFormatException e) {
        valid = false;
      }
    }
    if (!valid) {
      throw new CgroupFsException(Operation.WATCH, display, trigger, Errno.EINVAL);
    }
    return add(new FakeWatch(watcher, node, Kind.PRESSURE, file, 0));
  }

  private CgroupWatch add(FakeWatch w) {
    all.add(w);
    return w;
  }

  /**
   * After any change: file watches wake, thresholds crossed wake, watches of removed cgroups wake.
   */
  void changed() {
    if (all.isEmpty()) {
      return;
    }
    for (Iterator<FakeWatch> it = all.iterator(); it.hasNext(); ) {
      FakeWatch w = it.next();
      if (w.isClosed()) {
        it.remove();
        continue;
      }
      if (w.node.hier.find(w.node.path) != w.node) {
        // removed: eventfds are signalled, inotify sees IN_DELETE on the parent, PSI polls POLLERR
        w.signal();
        it.remove();
        continue;
      }
      if (w.kind == Kind.FILES) {
        w.signal();
      } else if (w.kind == Kind.THRESHOLD) {
        boolean above = usage(w.node, w.file) >= w.threshold;
        if (above != w.above) {
          w.above = above;
          w.signal();
        }
      }
    }
  }

  /** Wakes the {@code kind} watches of {@code node} (on {@code file}, if given). */
  void raise(Node node, Kind kind, String file) {
    for (FakeWatch w : all) {
      if (w.node == node
          && w.kind == kind
          && (file == null || file.equals(w.file))
          && !w.isClosed()) {
        w.signal();
      }
    }
  }

  private static long usage(Node node, String file) {
    Hier.Binding b = node.hier.files(node).get(file);
    return Numbers.stored(b.controller().read(node, b.spec()));
  }

  static final class FakeWatch implements CgroupWatch {
    final WatchQueue watcher;
    final Node node;
    final Kind kind;
    final String file;
    final long threshold;
    boolean above;

    /** Guarded by the watcher's monitor; volatile for {@link #isClosed}. */
    volatile boolean closed;

    FakeWatch(WatchQueue watcher, Node node, Kind kind, String file, long threshold) {
      this.watcher = watcher;
      this.node = node;
      this.kind = kind;
      this.file = file;
      this.threshold = threshold;
    }

    void signal() {
      watcher.signal(this);
    }

    boolean isClosed() {
      return closed || watcher.isClosed();
    }

    @Override
    public void close() {
      watcher.forget(this);
    }
  }
}
