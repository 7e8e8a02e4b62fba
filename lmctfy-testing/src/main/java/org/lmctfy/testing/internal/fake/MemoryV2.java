package org.lmctfy.testing.internal.fake;

import static org.lmctfy.testing.internal.fake.FileSpec.ro;
import static org.lmctfy.testing.internal.fake.FileSpec.rw;
import static org.lmctfy.testing.internal.fake.FileSpec.wo;

import java.util.List;
import org.lmctfy.cgroupfs.Errno;

/**
 * The v2 memory controller, from Documentation/admin-guide/cgroup-v2.rst: limits are "max" or bytes
 * (memparse suffixes), rounded down to the page; memory.oom.group 0/1; memory.reclaim takes the
 * amount off memory.current (all of it reclaimable here), or all there is and then fails EAGAIN
 * when it cannot reclaim as much as asked; the peaks reset to the current usage on write. Counters
 * (memory.current, memory.events...) change only through setKernelValue.
 */
final class MemoryV2 extends Controller {
  private static final String MAX = "max\n";
  private static final String EVENTS =
      "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\noom_group_kill 0\n";
  private static final String STAT =
      String.join(
              " 0\n",
              "anon",
              "file",
              "kernel",
              "kernel_stack",
              "pagetables",
              "sec_pagetables",
              "percpu",
              "sock",
              "vmalloc",
              "shmem",
              "file_mapped",
              "file_dirty",
              "file_writeback",
              "swapcached",
              "anon_thp",
              "inactive_anon",
              "active_anon",
              "inactive_file",
              "active_file",
              "unevictable",
              "slab_reclaimable",
              "slab_unreclaimable",
              "slab",
              "pgscan",
              "pgsteal",
              "pgrefill",
              "pgfault",
              "pgmajfault",
              "oom_kill")
          + " 0\n";

  private static final List<FileSpec> FILES =
      List.of(
          ro("memory.current", "0\n").childOnly(),
          ro("memory.events", EVENTS).childOnly(),
          ro("memory.events.local", EVENTS).childOnly(),
          rw("memory.high", MAX).childOnly(),
          rw("memory.low", "0\n").childOnly(),
          rw("memory.max", MAX).childOnly(),
          rw("memory.min", "0\n").childOnly(),
          ro("memory.numa_stat", "anon N0=0\nfile N0=0\nkernel_stack N0=0\nshmem N0=0\n"),
          rw("memory.oom.group", "0\n").childOnly(),
          rw("memory.peak", "0\n").childOnly(),
          wo("memory.reclaim"),
          ro("memory.stat", STAT),
          ro("memory.swap.current", "0\n").childOnly(),
          ro("memory.swap.events", "high 0\nmax 0\nfail 0\n").childOnly(),
          rw("memory.swap.high", MAX).childOnly(),
          rw("memory.swap.max", MAX).childOnly(),
          rw("memory.swap.peak", "0\n").childOnly(),
          ro("memory.zswap.current", "0\n").childOnly(),
          rw("memory.zswap.max", MAX).childOnly());

  static final MemoryV2 INSTANCE = new MemoryV2();

  private MemoryV2() {
    super("memory", FILES);
  }

  @Override
  public void write(Node node, FileSpec file, String value) {
    String name = file.name();
    switch (name) {
      case "memory.oom.group" -> {
        int v = Numbers.kstrtoint(value);
        if (v != 0 && v != 1) {
          throw KernelError.of(Errno.EINVAL);
        }
        node.put(name, v + "\n");
      }
      case "memory.reclaim" -> {
        long wanted = Numbers.memparse(Numbers.strip(value));
        long current = current(node, "memory.current");
        if (Long.compareUnsigned(wanted, current) > 0) {
          node.put("memory.current", "0\n"); // it reclaims what it can, then says EAGAIN
          throw KernelError.of(Errno.EAGAIN);
        }
        node.put("memory.current", (current - wanted) + "\n");
      }
      case "memory.peak" -> node.put(name, current(node, "memory.current") + "\n");
      case "memory.swap.peak" -> node.put(name, current(node, "memory.swap.current") + "\n");
      default -> node.put(name, Numbers.printMax(Numbers.maxOrBytes(value)));
    }
  }

  private static long current(Node node, String file) {
    String v = node.value(file);
    return v == null ? 0 : Numbers.stored(v);
  }
}
