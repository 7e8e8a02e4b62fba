package org.lmctfy.internal.stats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.lmctfy.StatsType;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerStats;
import org.lmctfy.spec.ContainerStats.CpuStats;
import org.lmctfy.spec.ContainerStats.DeviceIo;
import org.lmctfy.spec.ContainerStats.MemoryStats;
import org.lmctfy.spec.ContainerStats.PidsStats;
import org.lmctfy.spec.ContainerStats.PressureStats;
import org.lmctfy.spec.ContainerStats.Throttling;

/**
 * Reads {@link ContainerStats} from a container's cgroups. Where each figure comes from:
 *
 * <ul>
 *   <li>cpu: v1 {@code cpuacct.usage}, {@code cpuacct.usage_percpu}, {@code cpuacct.usage_user},
 *       {@code cpuacct.usage_sys} (all ns); else the unified {@code cpu.stat} {@code usage_usec},
 *       {@code user_usec}, {@code system_usec} (times 1000). Throttling (FULL): {@code cpu.stat}
 *       {@code nr_periods}, {@code nr_throttled}, {@code throttled_time} (v1, ns) or {@code
 *       throttled_usec} (v2).
 *   <li>memory v1: {@code memory.usage_in_bytes}, {@code max_usage_in_bytes}, {@code
 *       limit_in_bytes}, {@code failcnt}, {@code memory.stat} ({@code hierarchical_memory_limit},
 *       {@code total_inactive_file} for the working set, the breakdowns in FULL), {@code
 *       memory.oom_control} ({@code oom_kill}). v2: {@code memory.current}, {@code memory.peak},
 *       {@code memory.max} (and the ancestors' for the effective limit), {@code memory.events}
 *       ({@code max}, {@code oom}, {@code oom_kill}), {@code memory.stat}.
 *   <li>pids: {@code pids.current}, {@code pids.max}. blockio: v1 {@code
 *       blkio.throttle.io_service_bytes} and {@code io_serviced}; v2 {@code io.stat}.
 *   <li>pressure: the unified hierarchy's {@code cpu.pressure}, {@code memory.pressure}, {@code
 *       io.pressure}.
 * </ul>
 */
public final class StatsReader {
  private final CgroupFs fs;
  private final Hierarchy cpuacct;
  private final Hierarchy cpu;
  private final Hierarchy memory;
  private final Hierarchy pids;
  private final Hierarchy io;
  private final Hierarchy unified;

  public StatsReader(CgroupFs fs, List<Hierarchy> managed) {
    this.fs = fs;
    this.cpuacct = find(managed, "cpuacct");
    this.unified = managed.stream().filter(h -> h.version() == CgroupVersion.V2).findFirst().orElse(null);
    this.cpu = find(managed, "cpu");
    this.memory = find(managed, "memory");
    this.pids = find(managed, "pids");
    this.io = find(managed, "blkio") != null ? find(managed, "blkio") : find(managed, "io");
  }

  private static Hierarchy find(List<Hierarchy> hs, String controller) {
    return hs.stream().filter(h -> h.has(controller)).findFirst().orElse(null);
  }

  /** The stats of the container {@code name} at {@code path}. */
  public ContainerStats read(String name, CgroupPath path, StatsType type) {
    StatFiles files = new StatFiles(fs, name, path);
    boolean full = type == StatsType.FULL;
    return new ContainerStats(cpu(files, full), MemoryStatsReader.read(files, memory, full), pids(files),
        blockio(files), pressure(files));
  }

  private CpuStats cpu(StatFiles f, boolean full) {
    CpuStats base = null;
    if (cpuacct != null) {
      Long total = f.number(cpuacct, "cpuacct.usage");
      if (total != null) {
        String percpu = f.read(cpuacct, "cpuacct.usage_percpu");
        List<Long> perCpu = new ArrayList<>();
        if (percpu != null) {
          for (String v : percpu.strip().split("\\s+")) {
            if (!v.isEmpty()) {
              perCpu.add(StatFiles.parse(v, "cpuacct.usage_percpu"));
            }
          }
        }
        base = new CpuStats(total, perCpu, f.number(cpuacct, "cpuacct.usage_user"), f.number(cpuacct,
            "cpuacct.usage_sys"), null);
      }
    }
    Map<String, Long> stat = null;
    if (base == null && unified != null) {
      stat = f.keyed(unified, "cpu.stat");
      if (stat != null && stat.containsKey("usage_usec")) {
        base = new CpuStats(stat.get("usage_usec") * 1000, List.of(), times1000(stat.get("user_usec")),
            times1000(stat.get("system_usec")), null);
      }
    }
    if (base == null || !full || cpu == null) {
      return base;
    }
    Map<String, Long> cpuStat = cpu.equals(unified) && stat != null ? stat : f.keyed(cpu, "cpu.stat");
    if (cpuStat == null || !cpuStat.containsKey("nr_periods")) {
      return base;
    }
    long throttledNs = cpuStat.containsKey("throttled_time") ? cpuStat.get("throttled_time")
        : cpuStat.getOrDefault("throttled_usec", 0L) * 1000;
    return new CpuStats(base.totalNs(), base.perCpuNs(), base.userNs(), base.systemNs(),
        new Throttling(cpuStat.get("nr_periods"), cpuStat.getOrDefault("nr_throttled", 0L), throttledNs));
  }

  private static Long times1000(Long usec) {
    return usec == null ? null : usec * 1000;
  }

  private PidsStats pids(StatFiles f) {
    if (pids == null) {
      return null;
    }
    Long current = f.number(pids, "pids.current");
    return current == null ? null : new PidsStats(current, f.number(pids, "pids.max"));
  }

  private List<DeviceIo> blockio(StatFiles f) {
    if (io == null) {
      return List.of();
    }
    Map<String, long[]> byDevice = new LinkedHashMap<>();
    if (io.version() == CgroupVersion.V2) {
      String stat = f.read(io, "io.stat");
      for (String line : stat == null ? new String[0] : stat.split("\n")) {
        String[] parts = line.strip().split("\\s+");
        if (parts.length < 2) {
          continue;
        }
        long[] v = byDevice.computeIfAbsent(parts[0], k -> new long[4]);
        for (int i = 1; i < parts.length; i++) {
          String[] kv = parts[i].split("=");
          int at = List.of("rbytes", "wbytes", "rios", "wios").indexOf(kv[0]);
          if (at >= 0) {
            v[at] = StatFiles.parse(kv[1], "io.stat");
          }
        }
      }
    } else {
      v1Io(f, "blkio.throttle.io_service_bytes", 0, byDevice);
      v1Io(f, "blkio.throttle.io_serviced", 2, byDevice);
    }
    List<DeviceIo> out = new ArrayList<>();
    byDevice.forEach((dev, v) -> {
      String[] mm = dev.split(":");
      out.add(new DeviceIo(Long.parseLong(mm[0]), Long.parseLong(mm[1]), v[0], v[1], v[2], v[3]));
    });
    return out;
  }

  /** Lines {@code "8:0 Read 4096"}; {@code offset} 0 for bytes, 2 for operations. */
  private void v1Io(StatFiles f, String file, int offset, Map<String, long[]> byDevice) {
    String text = f.read(io, file);
    for (String line : text == null ? new String[0] : text.split("\n")) {
      String[] parts = line.strip().split("\\s+");
      if (parts.length == 3 && parts[0].contains(":")) {
        int at = parts[1].equals("Read") ? 0 : parts[1].equals("Write") ? 1 : -1;
        if (at >= 0) {
          byDevice.computeIfAbsent(parts[0], k -> new long[4])[offset + at] = StatFiles.parse(parts[2], file);
        }
      }
    }
  }

  private PressureStats pressure(StatFiles f) {
    if (unified == null) {
      return null;
    }
    PressureStats p = new PressureStats(Psi.parse(f.read(unified, "cpu.pressure")),
        Psi.parse(f.read(unified, "memory.pressure")), Psi.parse(f.read(unified, "io.pressure")));
    return p.cpu() == null && p.memory() == null && p.io() == null ? null : p;
  }
}
