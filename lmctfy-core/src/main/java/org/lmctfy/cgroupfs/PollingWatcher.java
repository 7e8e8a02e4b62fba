package org.lmctfy.cgroupfs;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/** {@link CgroupWatcher#polling}: every watch signals every interval until closed. */
final class PollingWatcher implements CgroupWatcher {
  private final CgroupFs fs;
  private final long intervalNanos;
  private final Set<CgroupWatch> watches = new LinkedHashSet<>();
  private long nextTick;
  private boolean woken;
  private boolean closed;

  PollingWatcher(CgroupFs fs, Duration interval) {
    this.fs = Objects.requireNonNull(fs, "fs");
    Objects.requireNonNull(interval, "interval");
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("polling interval must be > 0, got " + interval);
    }
    this.intervalNanos = interval.toNanos();
    this.nextTick = System.nanoTime() + intervalNanos;
  }

  @Override
  public CgroupWatch watch(Hierarchy h, CgroupPath path, Set<String> files) throws IOException {
    if (!fs.exists(h, path)) {
      throw new CgroupFsException(
          CgroupFsException.Operation.WATCH, h.display(path, null), null, Errno.ENOENT);
    }
    CgroupWatch w =
        new CgroupWatch() {
          @Override
          public void close() {
            remove(this);
          }
        };
    synchronized (this) {
      if (closed) {
        throw new CgroupFsException(
            CgroupFsException.Operation.WATCH,
            h.display(path, null),
            null,
            Errno.EBADF,
            "the watcher is closed");
      }
      watches.add(w);
    }
    return w;
  }

  private synchronized void remove(CgroupWatch w) {
    watches.remove(w);
  }

  @Override
  public synchronized List<CgroupWatch> await(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + Math.max(0, timeout.toNanos());
    while (!closed && !woken) {
      long now = System.nanoTime();
      if (now - nextTick >= 0) {
        nextTick = now + intervalNanos;
        return new ArrayList<>(watches);
      }
      long left = Math.min(nextTick - now, deadline - now);
      if (left <= 0) {
        break;
      }
      wait(left / 1_000_000, (int) (left % 1_000_000));
    }
    woken = false;
    return List.of();
  }

  @Override
  public synchronized void wakeup() {
    woken = true;
    notifyAll();
  }

  @Override
  public synchronized void close() {
    closed = true;
    watches.clear();
    notifyAll();
  }
}
