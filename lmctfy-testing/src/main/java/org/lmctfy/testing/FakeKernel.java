package org.lmctfy.testing;

import org.jspecify.annotations.Nullable;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.testing.internal.fake.Kernel;

/**
 * What the kernel of a {@link FakeCgroupFs} does on its own, as a test makes it happen: counters
 * that move, out-of-memory kills and pressure stalls. Each change is delivered at once to the
 * fake's watches ({@link FakeCgroupFs#watcher()}); none is a recorded mutation, and no fault
 * applies to it.
 *
 * <p>Thread-safe: every method holds the fake's lock.
 *
 * <pre>{@code
 * fs.kernel().setValue(memory, CgroupPath.of("/job"), "memory.current", "1048576");
 * fs.kernel().raiseOom(memory, CgroupPath.of("/job"));
 * }</pre>
 *
 * @since 0.2
 */
public final class FakeKernel {
  private final Object lock;
  private final Kernel kernel;

  FakeKernel(Object lock, Kernel kernel) {
    this.lock = lock;
    this.kernel = kernel;
  }

  /**
   * Changes a file as the kernel would on its own (usage counters, memory.events, under_oom...),
   * with no validation. On v1, a usage file that crosses an eventfd threshold ({@code
   * memory.usage_in_bytes}, {@code memory.memsw.usage_in_bytes}) signals it.
   *
   * @param h the hierarchy
   * @param path the cgroup's path in the hierarchy
   * @param file the interface file's name ({@code null} for the cgroup's directory where allowed)
   * @param content the new content
   * @throws IllegalArgumentException if there is no such cgroup or file
   */
  public void setValue(Hierarchy h, CgroupPath path, @Nullable String file, String content) {
    synchronized (lock) {
      kernel.setKernelValue(h, path, file, content);
      kernel.changed();
    }
  }

  /**
   * An out-of-memory in the cgroup, as the kernel reports it after an OOM kill: on v1, {@code
   * oom_kill} grows in {@code memory.oom_control} and the cgroup's OOM eventfds are signalled; on
   * v2, {@code oom} and {@code oom_kill} grow in {@code memory.events} of the cgroup and its
   * ancestors (and in its {@code memory.events.local}), which wakes their watches.
   *
   * @param h the hierarchy
   * @param path the cgroup's path in the hierarchy
   * @throws IllegalArgumentException if there is no such cgroup or it has no memory controller
   */
  public void raiseOom(Hierarchy h, CgroupPath path) {
    synchronized (lock) {
      kernel.raiseOom(h, path);
    }
  }

  /**
   * Fires the PSI triggers written to the pressure file {@code file} ({@code "cpu.pressure"},
   * {@code "memory.pressure"}, {@code "io.pressure"}) of a v2 cgroup, as the kernel does when the
   * stall crosses a trigger's threshold.
   *
   * @param h the hierarchy
   * @param path the cgroup's path in the hierarchy
   * @param file the pressure file's name
   * @throws IllegalArgumentException if there is no such cgroup or file
   */
  public void raisePressure(Hierarchy h, CgroupPath path, String file) {
    synchronized (lock) {
      kernel.raisePressure(h, path, file);
    }
  }
}
