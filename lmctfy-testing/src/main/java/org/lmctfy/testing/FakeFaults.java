package org.lmctfy.testing;

import java.util.Objects;
import java.util.function.Predicate;
import org.lmctfy.cgroupfs.Errno;

/**
 * The faults a test injects into a {@link FakeCgroupFs}: a mutation that fails with an errno and
 * changes nothing, and a crash point after which every operation throws {@link FakeCrash}, as
 * MockWebServer's socket policies fail a connection. Only the mutating {@code CgroupFs} operations
 * (the ones {@link FakeRecord} records) count and fail; the test's own controls never do.
 *
 * <p>Thread-safe: every method holds the fake's lock.
 *
 * <pre>{@code
 * fs.faults().failAt(2, Errno.EINVAL);    // the second mutation of the code under test fails
 * fs.faults().failWhen(op -> "memory.max".equals(op.file()), Errno.EBUSY);
 * }</pre>
 *
 * @since 0.2
 */
public final class FakeFaults {
  private final Object lock;
  private final Recorder recorder;

  FakeFaults(Object lock, Recorder recorder) {
    this.lock = lock;
    this.recorder = recorder;
  }

  /**
   * Makes the {@code n}-th mutating operation from now fail with {@code errno}, once, changing
   * nothing.
   *
   * @param n which operation from now (1 = the next)
   * @param errno the errno
   */
  public void failAt(int n, Errno errno) {
    synchronized (lock) {
      recorder.failMutation(n, Objects.requireNonNull(errno, "errno"));
    }
  }

  /**
   * Makes the next mutating operation that {@code matcher} accepts fail with {@code errno}, once,
   * changing nothing.
   *
   * @param matcher which operation fails
   * @param errno the errno
   */
  public void failWhen(Predicate<FakeOperation> matcher, Errno errno) {
    synchronized (lock) {
      recorder.failWhen(
          Objects.requireNonNull(matcher, "matcher"), Objects.requireNonNull(errno, "errno"));
    }
  }

  /**
   * From the {@code n}-th mutating operation from now on, every operation of the fake, reads too,
   * throws {@link FakeCrash} until {@link #recover()}. The {@code n}-th operation does not happen
   * and is not recorded.
   *
   * @param n which operation from now (1 = the next)
   */
  public void crashAt(int n) {
    synchronized (lock) {
      recorder.crashAt(n);
    }
  }

  /** A new process over the same state: no crash, no pending faults. The record is kept. */
  public void recover() {
    synchronized (lock) {
      recorder.recover();
    }
  }

  /**
   * Whether {@link #crashAt} has struck and {@link #recover()} has not been called since.
   *
   * @return whether the fake is crashed
   */
  public boolean crashed() {
    synchronized (lock) {
      return recorder.crashed();
    }
  }
}
