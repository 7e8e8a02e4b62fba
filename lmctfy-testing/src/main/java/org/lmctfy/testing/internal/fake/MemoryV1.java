package org.lmctfy.testing.internal.fake;

import static org.lmctfy.testing.internal.fake.FileSpec.ro;
import static org.lmctfy.testing.internal.fake.FileSpec.rw;
import static org.lmctfy.testing.internal.fake.FileSpec.wo;

import java.util.List;
import org.lmctfy.cgroupfs.Errno;

/** The v1 memory controller, file set and rules as on this machine's kernel (6.18). */
final class MemoryV1 extends Controller {
  private static final String MAX = Numbers.PAGE_COUNTER_MAX + "\n";
  private static final String LIMIT = "memory.limit_in_bytes";
  private static final String MEMSW = "memory.memsw.limit_in_bytes";
  private static final String STAT_TEMPLATE =
      String.join(
              "\n",
              "cache 0",
              "rss 0",
              "rss_huge 0",
              "shmem 0",
              "mapped_file 0",
              "dirty 0",
              "writeback 0",
              "workingset_refault_anon 0",
              "workingset_refault_file 0",
              "swap 0",
              "swapcached 0",
              "pgpgin 0",
              "pgpgout 0",
              "pgfault 0",
              "pgmajfault 0",
              "inactive_anon 0",
              "active_anon 0",
              "inactive_file 0",
              "active_file 0",
              "unevictable 0",
              "hierarchical_memory_limit %d",
              "hierarchical_memsw_limit %d",
              "total_cache 0",
              "total_rss 0",
              "total_rss_huge 0",
              "total_shmem 0",
              "total_mapped_file 0",
              "total_dirty 0",
              "total_writeback 0",
              "total_workingset_refault_anon 0",
              "total_workingset_refault_file 0",
              "total_swap 0",
              "total_swapcached 0",
              "total_pgpgin 0",
              "total_pgpgout 0",
              "total_pgfault 0",
              "total_pgmajfault 0",
              "total_inactive_anon 0",
              "total_active_anon 0",
              "total_inactive_file 0",
              "total_active_file 0",
              "total_unevictable 0")
          + "\n";
  private static final String NUMA_STAT =
      "total=0 N0=0\nfile=0 N0=0\nanon=0 N0=0\n"
          + "unevictable=0 N0=0\nhierarchical_total=0 N0=0\nhierarchical_file=0 N0=0\n"
          + "hierarchical_anon=0 N0=0\nhierarchical_unevictable=0 N0=0\n";

  private static final List<FileSpec> FILES =
      List.of(
          wo("cgroup.event_control"),
          rw("memory.failcnt", "0\n"),
          wo("memory.force_empty"),
          rw("memory.kmem.failcnt", "0\n"),
          rw("memory.kmem.limit_in_bytes", MAX),
          rw("memory.kmem.max_usage_in_bytes", "0\n"),
          ro("memory.kmem.slabinfo", ""),
          rw("memory.kmem.tcp.failcnt", "0\n"),
          rw("memory.kmem.tcp.limit_in_bytes", MAX),
          rw("memory.kmem.tcp.max_usage_in_bytes", "0\n"),
          ro("memory.kmem.tcp.usage_in_bytes", "0\n"),
          ro("memory.kmem.usage_in_bytes", "0\n"),
          rw(LIMIT, MAX),
          rw("memory.max_usage_in_bytes", "0\n"),
          rw("memory.memsw.failcnt", "0\n"),
          rw(MEMSW, MAX),
          rw("memory.memsw.max_usage_in_bytes", "0\n"),
          ro("memory.memsw.usage_in_bytes", "0\n"),
          rw("memory.move_charge_at_immigrate", "0\n"),
          ro("memory.numa_stat", NUMA_STAT),
          rw("memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 0\n"),
          // Mode 444 but both reading and writing it are EINVAL (checked): an event_control target.
          wo("memory.pressure_level"),
          // A child-only file of this kernel build (checked: absent at the root, page-rounded
          // bytes).
          rw("memory.shown_ram_in_bytes", "0\n").childOnly(),
          rw("memory.soft_limit_in_bytes", MAX),
          ro("memory.stat", null),
          rw("memory.swappiness", "60\n"),
          ro("memory.usage_in_bytes", "0\n"),
          rw("memory.use_hierarchy", "1\n"));

  static final MemoryV1 INSTANCE = new MemoryV1();

  private MemoryV1() {
    super("memory", FILES);
  }

  @Override
  public String read(Node node, FileSpec file) {
    if (file.name().equals("memory.stat") && node.value("memory.stat") == null) {
      return String.format(STAT_TEMPLATE, hierarchical(node, LIMIT), hierarchical(node, MEMSW));
    }
    return super.read(node, file);
  }

  /** The smallest limit on the way to the root (checked: a child shows its parent's 1G). */
  private long hierarchical(Node node, String file) {
    long min = Numbers.PAGE_COUNTER_MAX;
    for (Node n = node; n != null; n = n.parent) {
      min = Math.min(min, bytes(n, file));
    }
    return min;
  }

  private long bytes(Node node, String file) {
    String v = node.value(file);
    return v == null
        ? (file.endsWith("usage_in_bytes") ? 0 : Numbers.PAGE_COUNTER_MAX)
        : Numbers.stored(v);
  }

  @Override
  public void write(Node node, FileSpec file, String value) {
    String name = file.name();
    switch (name) {
      case LIMIT, MEMSW -> writeLimit(node, name, value);
      // Accepted and ignored since kmem limits were deprecated (checked: stays at max).
      case "memory.kmem.limit_in_bytes" -> limitBytes(value);
      case "memory.kmem.tcp.limit_in_bytes", "memory.soft_limit_in_bytes" ->
          node.put(name, limitBytes(value) + "\n");
      // Plain memparse, page-rounded; "-1" and "abc" are EINVAL (checked).
      case "memory.shown_ram_in_bytes" ->
          node.put(name, Numbers.pageRound(Numbers.memparse(Numbers.strip(value))) + "\n");
      // Any write resets a watermark (checked: "abc" is accepted) to the current usage.
      case "memory.max_usage_in_bytes",
          "memory.memsw.max_usage_in_bytes",
          "memory.kmem.max_usage_in_bytes",
          "memory.kmem.tcp.max_usage_in_bytes" ->
          node.put(name, super.read(node, usageFileOf(node, name)));
      case "memory.failcnt",
          "memory.memsw.failcnt",
          "memory.kmem.failcnt",
          "memory.kmem.tcp.failcnt" ->
          node.put(name, "0\n");
      case "memory.force_empty" -> {}
      case "memory.swappiness" -> {
        // u64 up to 200 (checked: 200 ok, -1 EINVAL).
        if (Long.compareUnsigned(Numbers.kstrtoull(value), 200) > 0) {
          throw KernelError.of(Errno.EINVAL);
        }
        node.put(name, Numbers.kstrtoull(value) + "\n");
      }
      // Non-hierarchical mode is gone: only 1 is accepted (checked: 0 and 2 are EINVAL).
      case "memory.use_hierarchy" -> requireExactly(value, 1);
      // Charge moving is gone: only 0 is accepted (checked: 1, 3, 4 are EINVAL).
      case "memory.move_charge_at_immigrate" -> requireExactly(value, 0);
      case "memory.oom_control" -> writeOomControl(node, value);
      // Writing cgroup.event_control needs an eventfd: the fake takes registrations through
      // CgroupFs.eventControl only, and refuses a plain write like a bad one (checked: "1" EINVAL).
      default -> throw KernelError.of(Errno.EINVAL);
    }
  }

  private static FileSpec usageFileOf(Node node, String maxFile) {
    String usage = maxFile.replace("max_usage_in_bytes", "usage_in_bytes");
    return node.hier.files(node).get(usage).spec();
  }

  private static void requireExactly(String value, long only) {
    if (Numbers.kstrtoull(value) != only) {
      throw KernelError.of(Errno.EINVAL);
    }
  }

  /**
   * "-1" is unlimited, else memparse with K/M/G suffixes and 0x/0 prefixes, rounded down to the
   * page and capped (checked: 100000 reads 98304, 1K reads 0, 0x1000 reads 4096, "-2" and "4096x"
   * EINVAL).
   */
  private static long limitBytes(String value) {
    String s = Numbers.strip(value);
    return s.equals("-1") ? Numbers.PAGE_COUNTER_MAX : Numbers.pageRound(Numbers.memparse(s));
  }

  /**
   * Checked: memsw below the memory limit is EINVAL and so is a memory limit above memsw; the limit
   * cannot be set on the root (kernel source). Modelled: a limit below current usage is EBUSY (the
   * kernel gives up reclaiming; usage is what the test put in *usage_in_bytes).
   */
  private void writeLimit(Node node, String name, String value) {
    long bytes = limitBytes(value);
    if (node.isRoot()) {
      throw KernelError.of(Errno.EINVAL);
    }
    boolean memsw = name.equals(MEMSW);
    if (memsw ? bytes < bytes(node, LIMIT) : bytes > bytes(node, MEMSW)) {
      throw KernelError.of(Errno.EINVAL);
    }
    long usage = bytes(node, memsw ? "memory.memsw.usage_in_bytes" : "memory.usage_in_bytes");
    if (bytes < usage) {
      throw KernelError.of(Errno.EBUSY);
    }
    node.put(name, bytes + "\n");
  }

  /** 0 or 1 (checked: 2 and "abc" are EINVAL); not on the root (kernel source). */
  private void writeOomControl(Node node, String value) {
    long v = Numbers.kstrtoull(value);
    if (node.isRoot() || (v != 0 && v != 1)) {
      throw KernelError.of(Errno.EINVAL);
    }
    String[] lines =
        super.read(node, node.hier.files(node).get("memory.oom_control").spec()).split("\n");
    lines[0] = "oom_kill_disable " + v;
    node.put("memory.oom_control", String.join("\n", lines) + "\n");
  }
}
