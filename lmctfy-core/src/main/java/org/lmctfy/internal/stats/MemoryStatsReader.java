package org.lmctfy.internal.stats;

import java.util.LinkedHashMap;
import java.util.Map;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerStats.MemoryStats;

/** The memory section of the stats (see {@link StatsReader} for the files). */
final class MemoryStatsReader {
  /** What v1 prints for no limit (the largest page-aligned signed value). */
  private static final long V1_UNLIMITED = Long.MAX_VALUE / 4096 * 4096;

  private MemoryStatsReader() {}

  static MemoryStats read(StatFiles f, Hierarchy h, boolean full) {
    if (h == null) {
      return null;
    }
    return h.version() == CgroupVersion.V2 ? v2(f, h, full) : v1(f, h, full);
  }

  private static MemoryStats v1(StatFiles f, Hierarchy h, boolean full) {
    Long usage = f.number(h, "memory.usage_in_bytes");
    if (usage == null) {
      return null;
    }
    Map<String, Long> stat = f.keyed(h, "memory.stat");
    Long effective = stat == null ? null : unlimited(stat.get("hierarchical_memory_limit"));
    Long workingSet = stat == null || !stat.containsKey("total_inactive_file") ? null
        : Math.max(0, usage - stat.get("total_inactive_file"));
    Map<String, Long> oomControl = f.keyed(h, "memory.oom_control");
    Map<String, Long> own = null;
    Map<String, Long> hierarchical = null;
    if (full && stat != null) {
      own = new LinkedHashMap<>();
      hierarchical = new LinkedHashMap<>();
      for (Map.Entry<String, Long> e : stat.entrySet()) {
        if (e.getKey().startsWith("total_")) {
          hierarchical.put(e.getKey().substring("total_".length()), e.getValue());
        } else if (!e.getKey().startsWith("hierarchical_")) {
          own.put(e.getKey(), e.getValue());
        }
      }
    }
    return new MemoryStats(usage, f.number(h, "memory.max_usage_in_bytes"),
        unlimited(f.number(h, "memory.limit_in_bytes")), effective, f.number(h, "memory.failcnt"), workingSet,
        null, oomControl == null ? null : oomControl.get("oom_kill"), own, hierarchical);
  }

  private static MemoryStats v2(StatFiles f, Hierarchy h, boolean full) {
    Long usage = f.number(h, "memory.current");
    if (usage == null) {
      return null;
    }
    Map<String, Long> stat = f.keyed(h, "memory.stat");
    Map<String, Long> events = f.keyed(h, "memory.events");
    Long limit = f.number(h, "memory.max");
    Long workingSet = stat == null || !stat.containsKey("inactive_file") ? null
        : Math.max(0, usage - stat.get("inactive_file"));
    return new MemoryStats(usage, f.number(h, "memory.peak"), limit, effectiveV2(f, h, limit),
        events == null ? null : events.get("max"), workingSet, events == null ? null : events.get("oom"),
        events == null ? null : events.get("oom_kill"), null, full ? stat : null);
  }

  /** The lowest memory.max of the container and its ancestors below the hierarchy's root. */
  private static Long effectiveV2(StatFiles f, Hierarchy h, Long own) {
    long lowest = own == null ? -1 : own;
    for (CgroupPath p = f.path().parent(); !p.isRoot(); p = p.parent()) {
      String text = f.read(h, p, "memory.max");
      if (text != null && !text.strip().equals("max")) {
        long v = StatFiles.parse(text.strip(), "memory.max");
        lowest = lowest < 0 ? v : Math.min(lowest, v);
      }
    }
    return lowest;
  }

  private static Long unlimited(Long v) {
    return v == null ? null : v >= V1_UNLIMITED ? -1L : v;
  }
}
