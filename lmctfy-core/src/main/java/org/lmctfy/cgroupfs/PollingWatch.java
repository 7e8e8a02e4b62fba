package org.lmctfy.cgroupfs;

import java.time.Duration;
import java.util.Objects;

/** {@link CgroupWatch#polling}: signals every interval until closed. */
final class PollingWatch implements CgroupWatch {
  private final long intervalNanos;
  private boolean closed;

  PollingWatch(Duration interval) {
    Objects.requireNonNull(interval, "interval");
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("polling interval must be > 0, got " + interval);
    }
    this.intervalNanos = interval.toNanos();
  }

  @Override
  public synchronized boolean await() throws InterruptedException {
    long deadline = System.nanoTime() + intervalNanos;
    for (long left = intervalNanos; !closed && left > 0; left = deadline - System.nanoTime()) {
      wait(left / 1_000_000, (int) (left % 1_000_000));
    }
    return !closed;
  }

  @Override
  public synchronized void close() {
    closed = true;
    notifyAll();
  }
}
