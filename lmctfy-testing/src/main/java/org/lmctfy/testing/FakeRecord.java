package org.lmctfy.testing;

import java.util.List;

/**
 * The record of a {@link FakeCgroupFs}'s mutating operations (making and removing cgroups, writes,
 * markers, owners, device filters, mounts, kills), in order, failed ones too, as MockWebServer
 * records its requests. What systemd and the test's own controls do is not recorded.
 *
 * <p>Thread-safe: every method holds the fake's lock.
 *
 * <pre>{@code
 * fs.record().clear();
 * container.update(spec, UpdatePolicy.DIFF);
 * assertThat(fs.record().mutations()).extracting(FakeOperation::file).containsExactly("memory.max");
 * }</pre>
 *
 * @since 0.2
 */
public final class FakeRecord {
  private final Object lock;
  private final Recorder recorder;

  FakeRecord(Object lock, Recorder recorder) {
    this.lock = lock;
    this.recorder = recorder;
  }

  /**
   * Every mutating operation attempted since the fake's creation or {@link #clear()}.
   *
   * @return the operations, in order, failed ones too
   */
  public List<FakeOperation> mutations() {
    synchronized (lock) {
      return recorder.mutations();
    }
  }

  /**
   * How many mutating operations were attempted since the fake's creation or {@link #clear()}.
   *
   * @return the count, failed ones too
   */
  public int count() {
    synchronized (lock) {
      return recorder.mutationCount();
    }
  }

  /**
   * Forgets the record (it grows by a few bytes per mutation: a fake that lives for millions of
   * operations, as in a benchmark, should be cleared now and then). Pending {@link
   * FakeFaults#failAt} and {@link FakeFaults#crashAt} points count from their own call and stay.
   */
  public void clear() {
    synchronized (lock) {
      recorder.clearRecord();
    }
  }
}
