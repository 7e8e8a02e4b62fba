package org.lmctfy.testing.internal.fake;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.lmctfy.cgroupfs.CgroupWatch;

/**
 * The waiting place of one {@code FakeCgroupFs} watcher, as an epoll set is for the kernel's:
 * {@link #signal} adds a watch to the ready set, {@link #take} waits for it. Its monitor is taken
 * inside the fake's lock, never the other way round.
 */
public final class WatchQueue {
  private final Set<CgroupWatch> ready = new LinkedHashSet<>();
  private boolean woken;
  private boolean closed;

  synchronized void signal(Watches.FakeWatch w) {
    if (!closed && !w.closed) {
      ready.add(w);
      notifyAll();
    }
  }

  /** Closes {@code w}: no await that begins after this returns sees it. */
  synchronized void forget(Watches.FakeWatch w) {
    w.closed = true;
    ready.remove(w);
  }

  /** The watches signalled since the last call, waiting up to {@code nanos} for one. */
  public synchronized List<CgroupWatch> take(long nanos) throws InterruptedException {
    long deadline = System.nanoTime() + nanos;
    for (long left = nanos;
        ready.isEmpty() && !woken && !closed && left > 0;
        left = deadline - System.nanoTime()) {
      wait(left / 1_000_000, (int) (left % 1_000_000));
    }
    woken = false;
    if (closed) {
      return List.of();
    }
    List<CgroupWatch> out = new ArrayList<>(ready);
    ready.clear();
    return out;
  }

  public synchronized void wakeup() {
    woken = true;
    notifyAll();
  }

  public synchronized void close() {
    closed = true;
    ready.clear();
    notifyAll();
  }

  synchronized boolean isClosed() {
    return closed;
  }
}
