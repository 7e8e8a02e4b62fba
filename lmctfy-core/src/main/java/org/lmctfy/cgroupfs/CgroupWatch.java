package org.lmctfy.cgroupfs;

import java.io.IOException;
import java.time.Duration;

/**
 * A wake-up from the kernel about one cgroup, opened by {@link CgroupFs#watch}, {@link
 * CgroupFs#eventControl} or {@link CgroupFs#pressureTrigger}. A signal means "something may have
 * changed: read the files again"; kernels coalesce signals, so one signal may stand for several
 * events, and a watch may wake when nothing the caller cares about changed. A watch also wakes when
 * its cgroup is removed; the caller finds that out by reading.
 *
 * <p>One thread calls {@link #await()} at a time; {@link #close()} may be called from any thread,
 * any number of times, and wakes that thread.
 *
 * <pre>{@code
 * try (CgroupWatch w = fs.watch(unified, job, Set.of("cgroup.events"))) {
 *   while (w.await()) {
 *     if (fs.read(unified, job, "cgroup.events").contains("populated 0")) {
 *       break;
 *     }
 *   }
 * }
 * }</pre>
 *
 * @since 0.1
 */
public interface CgroupWatch extends AutoCloseable {

  /**
   * Blocks until the kernel signals or the watch is closed.
   *
   * @return true after a signal (read again), false once {@link #close()} was called
   * @throws IOException if the kernel reported an error on the watch; the watch is then useless
   * @throws InterruptedException if the waiting thread was interrupted
   */
  boolean await() throws IOException, InterruptedException;

  /** Ends the watch and releases what it holds; a thread in {@link #await()} returns false. */
  @Override
  void close() throws IOException;

  /**
   * A watch that signals every {@code interval}, for files the kernel does not notify about
   * ({@code memory.current}, v1 {@code cgroup.procs}): the caller polls them.
   *
   * @param interval the interval
   * @return a watch that signals every {@code interval}, for files the kernel does not notify about ({@code memory.current}, v1 {@code cgroup.procs}): the caller polls them
   */
  static CgroupWatch polling(Duration interval) {
    return new PollingWatch(interval);
  }
}
