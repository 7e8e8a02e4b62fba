package org.lmctfy.internal.stats;

import java.util.ArrayList;
import java.util.List;
import org.lmctfy.StatsType;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.codec.CpuLists;
import org.lmctfy.spec.ContainerStats;
import org.lmctfy.spec.ContainerStats.CpuStats;
import org.lmctfy.spec.ContainerStats.DeviceIo;
import org.lmctfy.spec.ContainerStats.HugetlbStats;
import org.lmctfy.spec.ContainerStats.PidsStats;
import org.lmctfy.spec.ContainerStats.PressureStats;
import org.lmctfy.spec.ContainerStats.Throttling;

/**
 * Reads {@link ContainerStats} from a container's cgroups, each file once, into one buffer per
 * {@link Batch} (a stats call of one or of many containers). Where each figure comes from:
 *
 * <ul>
 *   <li>cpu: v1 {@code cpuacct.usage}, {@code cpuacct.usage_percpu}, {@code cpuacct.usage_user},
 *       {@code cpuacct.usage_sys} (all ns); else the unified {@code cpu.stat} {@code usage_usec},
 *       {@code user_usec}, {@code system_usec} (times 1000; v2 has no per-CPU figures, so {@code
 *       per_cpu_ns} is empty). Throttling (FULL): {@code cpu.stat} {@code nr_periods}, {@code
 *       nr_throttled}, {@code throttled_time} (v1, ns) or {@code throttled_usec} (v2), and the
 *       bursts, {@code nr_bursts} and {@code burst_time} (v1, ns) or {@code burst_usec} (v2), from
 *       the same read of {@code cpu.stat} on v2.
 *   <li>memory v1: {@code memory.usage_in_bytes}, {@code max_usage_in_bytes}, {@code
 *       limit_in_bytes}, {@code failcnt}, {@code memory.stat} ({@code hierarchical_memory_limit},
 *       {@code total_inactive_file} for the working set, the breakdowns in FULL), {@code
 *       memory.oom_control} ({@code oom_kill}). v2: {@code memory.current}, {@code memory.peak},
 *       {@code memory.max} (and the ancestors', read once per batch, for the effective limit),
 *       {@code memory.events} ({@code max}, {@code oom}, {@code oom_kill}, {@code high}, {@code
 *       low}, {@code oom_group_kill}), {@code memory.stat} ({@code inactive_file}; the whole file,
 *       which v2 counts with descendants, as {@code hierarchical_data} in FULL). Swap (FULL): v2
 *       {@code memory.swap.current}, v1 {@code memory.memsw.usage_in_bytes} less the usage.
 *   <li>pids: {@code pids.current}, {@code pids.max}. blockio: v1 {@code
 *       blkio.throttle.io_service_bytes} and {@code io_serviced} ({@code Read}, {@code Write},
 *       {@code Discard}); v2 {@code io.stat} ({@code rbytes wbytes rios wios dbytes dios}).
 *   <li>hugetlb (FULL), per page size the kernel has: v2 {@code hugetlb.<size>.current}, {@code
 *       .max}, {@code .events} ({@code max}), {@code .rsvd.current}; v1 {@code .usage_in_bytes},
 *       {@code .max_usage_in_bytes}, {@code .limit_in_bytes}, {@code .failcnt}, {@code
 *       .rsvd.usage_in_bytes}. The sizes are found once, then only those are read.
 *   <li>pressure: the unified hierarchy's {@code cpu.pressure}, {@code memory.pressure}, {@code
 *       io.pressure}.
 * </ul>
 */
public final class StatsReader {
  private static final byte[][] CPU_STAT =
      StatFiles.keys(
          "usage_usec",
          "user_usec",
          "system_usec",
          "nr_periods",
          "nr_throttled",
          "throttled_usec",
          "throttled_time",
          "nr_bursts",
          "burst_usec",
          "burst_time");

  /** Huge page sizes as hugetlb file names spell them, probed until the kernel shows some. */
  private static final List<String> HUGE_PAGE_SIZES =
      List.of("64KB", "2MB", "32MB", "512MB", "1GB", "16GB");

  private static final byte[][] HUGETLB_EVENTS = StatFiles.keys("max");

  private final CgroupFs fs;
  private final Hierarchy cpuacct;
  private final Hierarchy cpu;
  private final Hierarchy memory;
  private final Hierarchy pids;
  private final Hierarchy io;
  private final Hierarchy unified;
  private final Hierarchy hugetlb;
  private final Hierarchy cpuset;

  /**
   * The huge page sizes found in a container's files (machine-wide, so found once); empty until
   * then.
   */
  private volatile List<String> hugeSizes = List.of();

  public StatsReader(CgroupFs fs, List<Hierarchy> managed) {
    this.fs = fs;
    this.cpuacct = find(managed, "cpuacct");
    this.unified =
        managed.stream().filter(h -> h.version() == CgroupVersion.V2).findFirst().orElse(null);
    this.cpu = find(managed, "cpu");
    this.memory = find(managed, "memory");
    this.pids = find(managed, "pids");
    this.io = find(managed, "blkio") != null ? find(managed, "blkio") : find(managed, "io");
    this.hugetlb = find(managed, "hugetlb");
    this.cpuset = find(managed, "cpuset");
  }

  private static Hierarchy find(List<Hierarchy> hs, String controller) {
    return hs.stream().filter(h -> h.has(controller)).findFirst().orElse(null);
  }

  /** The stats of the container {@code name} at {@code path}. */
  public ContainerStats read(String name, CgroupPath path, StatsType type) {
    return batch().read(name, path, type);
  }

  /**
   * The limits a program in the container {@code name} at {@code path} lives under: its and its
   * ancestors' (the hierarchy's root excluded, which no quota or limit applies to).
   */
  public EffectiveLimits effectiveLimits(String name, CgroupPath path) {
    return batch().effectiveLimits(name, path);
  }

  /**
   * A reader for one stats call over many containers: its buffers and ancestor limits are shared.
   */
  public Batch batch() {
    return new Batch();
  }

  /** A limit file's value in a cgroup, -1 for none. */
  private interface Limit {
    double of(Hierarchy h, CgroupPath p);
  }

  /** One stats call's buffers. Not thread-safe. */
  public final class Batch {
    private final StatFiles f = new StatFiles(fs);
    private final long[] cpuStat = new long[CPU_STAT.length];
    private final long[] one = new long[1];
    private final MemoryStatsReader memoryReader = new MemoryStatsReader(f, memory);

    private Batch() {}

    /** The stats of the container {@code name} at {@code path}. */
    public ContainerStats read(String name, CgroupPath path, StatsType type) {
      f.at(name, path);
      boolean full = type == StatsType.FULL;
      return new ContainerStats(
          cpu(full),
          memoryReader.read(full),
          pids(),
          blockio(),
          pressure(),
          full ? hugetlb() : List.of());
    }

    EffectiveLimits effectiveLimits(String name, CgroupPath path) {
      f.at(name, path);
      double cpus = lowest(cpu, path, this::quota);
      double bytes = lowest(memory, path, this::memoryLimit);
      return new EffectiveLimits(
          cpus < 0 ? null : cpus, cpusetCpus(), bytes < 0 ? null : (long) bytes);
    }

    /**
     * The lowest positive value {@code limit} reads from {@code p} and its ancestors in {@code h}
     * (whether or not the controller is enabled in {@code p}: a JDK in a cgroup without the memory
     * controller is still held by its parent's limit), -1 for none.
     */
    private double lowest(Hierarchy h, CgroupPath p, Limit limit) {
      double lowest = -1;
      for (CgroupPath at = p; h != null && !at.isRoot(); at = at.parent()) {
        double v = limit.of(h, at);
        if (v > 0 && (lowest < 0 || v < lowest)) {
          lowest = v;
        }
      }
      return lowest;
    }

    /** The CPU quota of {@code p} in CPUs; -1 where it has none. */
    private double quota(Hierarchy h, CgroupPath p) {
      if (h.version() == CgroupVersion.V2) {
        if (!f.load(h, p, "cpu.max")) {
          return -1;
        }
        long quota = f.number(); // "max 100000" or "50000 100000"
        if (quota < 0) {
          return -1;
        }
        f.skipSpaces();
        return (double) quota / f.parseLong();
      }
      long quota = f.load(h, p, "cpu.cfs_quota_us") ? f.number() : -1;
      long period = quota > 0 && f.load(h, p, "cpu.cfs_period_us") ? f.number() : -1;
      return period > 0 ? (double) quota / period : -1;
    }

    /** The memory limit of {@code p} in bytes; -1 where it has none. */
    private double memoryLimit(Hierarchy h, CgroupPath p) {
      boolean v2 = h.version() == CgroupVersion.V2;
      if (!f.load(h, p, v2 ? "memory.max" : "memory.limit_in_bytes")) {
        return -1;
      }
      long bytes = f.number();
      return bytes >= MemoryStatsReader.V1_UNLIMITED ? -1 : bytes;
    }

    /** How many CPUs the container's cpuset allows; null where no cpuset is managed. */
    private Integer cpusetCpus() {
      if (cpuset == null) {
        return null;
      }
      String file =
          cpuset.version() == CgroupVersion.V2 ? "cpuset.cpus.effective" : "cpuset.effective_cpus";
      if (!f.load(cpuset, file)) {
        return null;
      }
      String list = f.text().strip();
      return list.isEmpty() ? null : CpuLists.parse(list, file).cardinality();
    }

    private CpuStats cpu(boolean full) {
      CpuStats base = null;
      boolean statRead = false;
      if (cpuacct != null) {
        long total = f.number(cpuacct, "cpuacct.usage");
        if (total != StatFiles.ABSENT) {
          base =
              new CpuStats(
                  total,
                  perCpu(),
                  StatFiles.boxed(f.number(cpuacct, "cpuacct.usage_user")),
                  StatFiles.boxed(f.number(cpuacct, "cpuacct.usage_sys")),
                  null);
        }
      }
      if (base == null && unified != null && f.load(unified, "cpu.stat")) {
        f.keyed(CPU_STAT, cpuStat);
        statRead = cpu != null && cpu.equals(unified);
        if (cpuStat[0] != StatFiles.ABSENT) {
          base =
              new CpuStats(
                  cpuStat[0] * 1000, List.of(), times1000(cpuStat[1]), times1000(cpuStat[2]), null);
        }
      }
      if (base == null || !full || cpu == null) {
        return base;
      }
      if (!statRead) {
        if (!f.load(cpu, "cpu.stat")) {
          return base;
        }
        f.keyed(CPU_STAT, cpuStat);
      }
      if (cpuStat[3] == StatFiles.ABSENT) {
        return base;
      }
      long throttledNs =
          cpuStat[6] != StatFiles.ABSENT
              ? cpuStat[6]
              : cpuStat[5] == StatFiles.ABSENT ? 0 : cpuStat[5] * 1000;
      long throttled = cpuStat[4] == StatFiles.ABSENT ? 0 : cpuStat[4];
      Long burstNs =
          cpuStat[8] != StatFiles.ABSENT
              ? Long.valueOf(cpuStat[8] * 1000)
              : StatFiles.boxed(cpuStat[9]);
      return new CpuStats(
          base.totalNs(),
          base.perCpuNs(),
          base.userNs(),
          base.systemNs(),
          new Throttling(cpuStat[3], throttled, throttledNs, StatFiles.boxed(cpuStat[7]), burstNs));
    }

    /** {@code cpuacct.usage_percpu}: numbers separated by spaces. */
    private List<Long> perCpu() {
      if (!f.load(cpuacct, "cpuacct.usage_percpu")) {
        return List.of();
      }
      List<Long> out = new ArrayList<>(Runtime.getRuntime().availableProcessors());
      f.pos = 0;
      while (true) {
        f.skipSpaces();
        if (f.pos >= f.length() || f.at(f.pos) == '\n') {
          return out;
        }
        out.add(f.parseLong());
      }
    }

    private PidsStats pids() {
      if (pids == null) {
        return null;
      }
      long current = f.number(pids, "pids.current");
      return current == StatFiles.ABSENT
          ? null
          : new PidsStats(current, StatFiles.boxed(f.number(pids, "pids.max")));
    }

    private List<DeviceIo> blockio() {
      if (io == null) {
        return List.of();
      }
      // {major, minor, read bytes, write bytes, read ops, write ops, discard bytes, discard ops}
      List<long[]> devices = new ArrayList<>(2);
      if (io.version() == CgroupVersion.V2) {
        if (f.load(io, "io.stat")) {
          ioStat(devices);
        }
      } else {
        v1Io("blkio.throttle.io_service_bytes", 2, 3, 6, devices);
        v1Io("blkio.throttle.io_serviced", 4, 5, 7, devices);
      }
      if (devices.isEmpty()) {
        return List.of();
      }
      List<DeviceIo> out = new ArrayList<>(devices.size());
      for (long[] d : devices) {
        out.add(
            new DeviceIo(
                d[0], d[1], d[2], d[3], d[4], d[5], StatFiles.boxed(d[6]), StatFiles.boxed(d[7])));
      }
      return out;
    }

    /**
     * v2 lines {@code "8:0 rbytes=1 wbytes=2 rios=3 wios=4 dbytes=0 dios=0"} (iocost adds {@code
     * cost.*} keys).
     */
    private void ioStat(List<long[]> devices) {
      f.pos = 0;
      while (f.pos < f.length()) {
        long[] d = device(devices);
        while (d != null && f.pos < f.length() && f.at(f.pos) != '\n') {
          f.skipSpaces();
          int key = f.pos;
          if (!f.skipPast((byte) '=')) {
            break;
          }
          int at = column(key, f.pos - 1);
          long v = f.parseLong();
          if (at >= 0) {
            d[at] = v;
          }
        }
        f.nextLine();
      }
    }

    private int column(int from, int to) {
      if (f.matches(RBYTES, from, to)) {
        return 2;
      }
      if (f.matches(WBYTES, from, to)) {
        return 3;
      }
      if (f.matches(RIOS, from, to)) {
        return 4;
      }
      if (f.matches(WIOS, from, to)) {
        return 5;
      }
      if (f.matches(DBYTES, from, to)) {
        return 6;
      }
      return f.matches(DIOS, from, to) ? 7 : -1;
    }

    /** v1 lines {@code "8:0 Read 4096"}: the columns that Read, Write and Discard go to. */
    private void v1Io(String file, int read, int write, int discard, List<long[]> devices) {
      if (!f.load(io, file)) {
        return;
      }
      f.pos = 0;
      while (f.pos < f.length()) {
        long[] d = device(devices);
        if (d != null) {
          f.skipSpaces();
          int word = f.pos;
          int end = f.wordEnd();
          int column =
              f.matches(READ, word, end)
                  ? read
                  : f.matches(WRITE, word, end)
                      ? write
                      : f.matches(DISCARD, word, end) ? discard : -1;
          if (column >= 0) {
            f.pos = end;
            f.skipSpaces();
            d[column] = f.parseLong();
          }
        }
        f.nextLine();
      }
    }

    /**
     * The device of the line at {@code pos} ({@code major:minor}, then a space), found or added,
     * with {@code pos} past it; null for a line without one ({@code Total 0}).
     */
    private long[] device(List<long[]> devices) {
      int start = f.pos;
      if (start >= f.length() || f.at(start) < '0' || f.at(start) > '9') {
        return null;
      }
      long major = f.parseLong();
      if (f.pos >= f.length() || f.at(f.pos) != ':') {
        f.pos = start;
        return null;
      }
      f.pos++;
      long minor = f.parseLong();
      for (long[] d : devices) {
        if (d[0] == major && d[1] == minor) {
          return d;
        }
      }
      long[] d = {major, minor, 0, 0, 0, 0, StatFiles.ABSENT, StatFiles.ABSENT};
      devices.add(d);
      return d;
    }

    /** Huge page usage per size: the sizes found before, or each known size until some are. */
    private List<HugetlbStats> hugetlb() {
      if (hugetlb == null) {
        return List.of();
      }
      boolean v2 = hugetlb.version() == CgroupVersion.V2;
      List<String> sizes = hugeSizes;
      boolean probing = sizes.isEmpty();
      List<HugetlbStats> out = new ArrayList<>(2);
      for (String size : probing ? HUGE_PAGE_SIZES : sizes) {
        String p = "hugetlb." + size + ".";
        long usage = f.number(hugetlb, p + (v2 ? "current" : "usage_in_bytes"));
        if (usage == StatFiles.ABSENT) {
          continue;
        }
        Long max = v2 ? null : StatFiles.boxed(f.number(hugetlb, p + "max_usage_in_bytes"));
        long limit = f.number(hugetlb, p + (v2 ? "max" : "limit_in_bytes"));
        Long failed;
        if (v2) {
          failed = null;
          if (f.load(hugetlb, p + "events")) {
            f.keyed(HUGETLB_EVENTS, one);
            failed = StatFiles.boxed(one[0]);
          }
        } else {
          failed = StatFiles.boxed(f.number(hugetlb, p + "failcnt"));
        }
        Long reserved =
            StatFiles.boxed(f.number(hugetlb, p + (v2 ? "rsvd.current" : "rsvd.usage_in_bytes")));
        out.add(
            new HugetlbStats(
                size,
                usage,
                max,
                limit == StatFiles.ABSENT ? null : limit >= HUGE_UNLIMITED ? -1L : limit,
                failed,
                reserved));
      }
      if (probing && !out.isEmpty()) {
        hugeSizes = out.stream().map(HugetlbStats::pageSize).toList();
      }
      return out;
    }

    private PressureStats pressure() {
      if (unified == null) {
        return null;
      }
      PressureStats p =
          new PressureStats(
              Psi.read(f, unified, "cpu.pressure"),
              Psi.read(f, unified, "memory.pressure"),
              Psi.read(f, unified, "io.pressure"));
      return p.cpu() == null && p.memory() == null && p.io() == null ? null : p;
    }
  }

  private static final byte[] RBYTES = StatFiles.keys("rbytes")[0];
  private static final byte[] WBYTES = StatFiles.keys("wbytes")[0];
  private static final byte[] RIOS = StatFiles.keys("rios")[0];
  private static final byte[] WIOS = StatFiles.keys("wios")[0];
  private static final byte[] DBYTES = StatFiles.keys("dbytes")[0];
  private static final byte[] DIOS = StatFiles.keys("dios")[0];
  private static final byte[] READ = StatFiles.keys("Read")[0];
  private static final byte[] WRITE = StatFiles.keys("Write")[0];
  private static final byte[] DISCARD = StatFiles.keys("Discard")[0];

  /**
   * At or above this, a v1 hugetlb limit is "none": v1 prints the largest value rounded down to a
   * whole huge page (9223372036852678656 for 2MB pages), which no machine's memory comes near.
   */
  private static final long HUGE_UNLIMITED = 1L << 62;

  private static Long times1000(long usec) {
    return usec == StatFiles.ABSENT ? null : usec * 1000;
  }
}
