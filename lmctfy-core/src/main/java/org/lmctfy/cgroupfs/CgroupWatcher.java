package org.lmctfy.cgroupfs;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * One place to wait for many {@link CgroupWatch}es at once: a thread calls {@link #await} and gets
 * back the watches that signalled, whatever their kind. Opened by {@link CgroupFs#watcher()}. The
 * kernel backend's watcher is one epoll set holding one inotify instance (every file and removal
 * watch), each v1 eventfd and each PSI trigger's descriptor, and one eventfd for {@link #wakeup}:
 * ten thousand watches cost three descriptors plus one per eventfd or PSI trigger, and no thread.
 *
 * <p>Not for: waiting on one file once; read it in a loop instead. Thread-safety: one thread calls
 * {@link #await} at a time; every other method may be called from any thread, including while a
 * thread waits.
 *
 * <p>A refusal of the cgroup filesystem is a {@link CgroupFsException} naming the file, the value
 * and the errno, as everywhere in {@link CgroupFs}.
 *
 * <pre>{@code
 * try (CgroupWatcher watcher = fs.watcher()) {
 *   watcher.watch(unified, job, Set.of("cgroup.events"));
 *   while (!fs.read(unified, job, "cgroup.events").contains("populated 0")) {
 *     watcher.await(Duration.ofSeconds(10));
 *   }
 * }
 * }</pre>
 *
 * @since 0.1
 */
public interface CgroupWatcher extends AutoCloseable {
  /** How often watches of files no kernel notifies signal: they are polled. */
  Duration POLL_INTERVAL = Duration.ofMillis(100);

  /**
   * A watch that signals when one of {@code files} of the cgroup may have changed, or when the
   * cgroup is removed; an empty {@code files} signals only on removal. ENOENT if the cgroup does
   * not exist.
   *
   * <p>The kernel backend uses inotify where the kernel notifies: on the cgroup's directory for v2
   * {@code *.events} files ({@code cgroup.events}, {@code memory.events}), on its parent for the
   * removal (kernfs tells a removed directory's own watch nothing); it signals every {@link
   * #POLL_INTERVAL} for other files. The polling watcher signals every interval for any file.
   *
   * @param h the hierarchy
   * @param path the cgroup's path in the hierarchy
   * @param files the interface files to watch
   * @return the watch, open until closed or the watcher closes
   */
  CgroupWatch watch(Hierarchy h, CgroupPath path, Set<String> files) throws IOException;

  /**
   * Registers for a v1 memory event: an eventfd written to the cgroup's {@code
   * cgroup.event_control} as {@code "<eventfd> <fd of file> <args>"}. The watch signals when the
   * kernel signals the eventfd: {@code memory.oom_control} (no args) on an out-of-memory in the
   * cgroup; {@code memory.usage_in_bytes} (args: a byte threshold) when usage crosses the threshold
   * either way; and on the cgroup's removal. The kernel's errno if it refuses (EINVAL for a bad
   * file or threshold). This default fails with EOPNOTSUPP.
   *
   * @param h the hierarchy
   * @param path the cgroup's path in the hierarchy
   * @param file the file the event is of ({@code memory.oom_control}, {@code
   *     memory.usage_in_bytes})
   * @param args what follows the file descriptors (a threshold, or nothing)
   * @return the watch
   */
  default CgroupWatch eventControl(Hierarchy h, CgroupPath path, String file, String args)
      throws IOException {
    throw new CgroupFsException(
        CgroupFsException.Operation.WATCH,
        h.display(path, file),
        args,
        Errno.EOPNOTSUPP,
        "this backend has no cgroup v1 event registration");
  }

  /**
   * Writes the PSI trigger {@code trigger} ({@code "some 150000 2000000"}) to the pressure file
   * {@code file} ({@code cpu.pressure}, {@code memory.pressure}, {@code io.pressure}) of a v2
   * cgroup; the watch signals each time the stall crosses the threshold within the window (at most
   * once per window), and when the cgroup is removed. The kernel's errno if it refuses: EINVAL for
   * a bad trigger, and for a window that is not a multiple of 2 s without {@code CAP_SYS_RESOURCE}.
   * This default fails with EOPNOTSUPP.
   *
   * @param h the hierarchy
   * @param path the cgroup's path in the hierarchy
   * @param file the pressure file
   * @param trigger the PSI trigger
   * @return the watch
   */
  default CgroupWatch pressureTrigger(Hierarchy h, CgroupPath path, String file, String trigger)
      throws IOException {
    throw new CgroupFsException(
        CgroupFsException.Operation.WATCH,
        h.display(path, file),
        trigger,
        Errno.EOPNOTSUPP,
        "this backend has no PSI triggers");
  }

  /**
   * Blocks until at least one watch signalled, {@code timeout} passed, {@link #wakeup()} was
   * called, or the watcher was closed.
   *
   * @param timeout how long to wait at most
   * @return the watches that signalled since the last call, each once (empty after a timeout, a
   *     wake-up, or once closed)
   * @throws IOException if the kernel reported an error on the watcher itself; it is then useless
   * @throws InterruptedException if the waiting thread was interrupted
   */
  List<CgroupWatch> await(Duration timeout) throws IOException, InterruptedException;

  /** Makes a thread in {@link #await} (or the next one to call it) return at once. */
  void wakeup();

  /** Closes every watch and releases the watcher; a thread in {@link #await} returns. */
  @Override
  void close() throws IOException;

  /**
   * A watcher that signals each of its watches every {@code interval}, for backends without kernel
   * notifications; {@link #eventControl} and {@link #pressureTrigger} are EOPNOTSUPP.
   *
   * @param fs the backend whose cgroups are watched
   * @param interval how often each watch signals
   * @return a new polling watcher
   */
  static CgroupWatcher polling(CgroupFs fs, Duration interval) {
    return new PollingWatcher(fs, interval);
  }
}
