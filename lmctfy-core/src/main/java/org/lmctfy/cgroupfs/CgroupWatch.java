package org.lmctfy.cgroupfs;

import java.io.IOException;

/**
 * One thing a {@link CgroupWatcher} waits for about one cgroup, opened by {@link
 * CgroupWatcher#watch}, {@link CgroupWatcher#eventControl} or {@link
 * CgroupWatcher#pressureTrigger}. A signal, the watch coming back from {@link CgroupWatcher#await},
 * means "something may have changed: read the files again"; kernels coalesce signals, so one signal
 * may stand for several events, and a watch may signal when nothing the caller cares about changed.
 * A watch also signals when its cgroup is removed; the caller finds that out by reading.
 *
 * <p>{@link #close()} may be called from any thread, any number of times. Compare watches by
 * identity: the watcher returns the very objects it handed out.
 *
 * @since 0.1
 */
public interface CgroupWatch extends AutoCloseable {

  /**
   * Ends the watch and releases what it holds (a file descriptor, an inotify watch); an {@link
   * CgroupWatcher#await} that begins after this returns does not return it.
   */
  @Override
  void close() throws IOException;
}
