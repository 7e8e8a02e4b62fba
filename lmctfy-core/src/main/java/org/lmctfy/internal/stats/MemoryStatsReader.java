package org.lmctfy.internal.stats;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.cgroupfs.CgroupVersion;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.ContainerStats.MemoryStats;

/** The memory section of the stats (see {@link StatsReader} for the files), for one batch. */
final class MemoryStatsReader {
  /** What v1 prints for no limit (the largest page-aligned signed value). */
  static final long V1_UNLIMITED = Long.MAX_VALUE / 4096 * 4096;

  private static final byte[][] V1_STAT =
      StatFiles.keys("hierarchical_memory_limit", "total_inactive_file");
  private static final byte[][] OOM_KILL = StatFiles.keys("oom_kill");
  private static final byte[][] V2_STAT = StatFiles.keys("inactive_file");
  private static final byte[][] V2_EVENTS =
      StatFiles.keys("max", "oom", "oom_kill", "high", "low", "oom_group_kill");

  private final StatFiles f;
  private final Hierarchy h;
  private final long[] two = new long[2];
  private final long[] one = new long[1];
  private final long[] events = new long[V2_EVENTS.length];

  /**
   * v2: the lowest memory.max of each ancestor and its own ancestors (-1 none), read once per
   * batch.
   */
  private final Map<CgroupPath, Long> ancestorLimits = new HashMap<>();

  MemoryStatsReader(StatFiles f, Hierarchy h) {
    this.f = f;
    this.h = h;
  }

  MemoryStats read(boolean full) {
    if (h == null) {
      return null;
    }
    return h.version() == CgroupVersion.V2 ? v2(full) : v1(full);
  }

  private MemoryStats v1(boolean full) {
    long usage = f.number(h, "memory.usage_in_bytes");
    if (usage == StatFiles.ABSENT) {
      return null;
    }
    Long maxUsage = StatFiles.boxed(f.number(h, "memory.max_usage_in_bytes"));
    Long limit = unlimited(f.number(h, "memory.limit_in_bytes"));
    Long failCount = StatFiles.boxed(f.number(h, "memory.failcnt"));
    Long effective = null;
    Long workingSet = null;
    Map<String, Long> own = null;
    Map<String, Long> hierarchical = null;
    if (f.load(h, "memory.stat")) {
      f.keyed(V1_STAT, two);
      effective = unlimited(two[0]);
      workingSet = two[1] == StatFiles.ABSENT ? null : Math.max(0, usage - two[1]);
      if (full) {
        own = new LinkedHashMap<>();
        hierarchical = new LinkedHashMap<>();
        for (Map.Entry<String, Long> e : f.map().entrySet()) {
          if (e.getKey().startsWith("total_")) {
            hierarchical.put(e.getKey().substring("total_".length()), e.getValue());
          } else if (!e.getKey().startsWith("hierarchical_")) {
            own.put(e.getKey(), e.getValue());
          }
        }
      }
    }
    Long oomKills = null;
    if (f.load(h, "memory.oom_control")) {
      f.keyed(OOM_KILL, one);
      oomKills = StatFiles.boxed(one[0]);
    }
    Long swap = null;
    if (full) {
      long both = f.number(h, "memory.memsw.usage_in_bytes"); // where swap is accounted
      swap = both == StatFiles.ABSENT ? null : Math.max(0, both - usage);
    }
    return new MemoryStats(
        usage,
        maxUsage,
        limit,
        effective,
        failCount,
        workingSet,
        null,
        oomKills,
        null,
        null,
        null,
        swap,
        own,
        hierarchical);
  }

  private MemoryStats v2(boolean full) {
    long usage = f.number(h, "memory.current");
    if (usage == StatFiles.ABSENT) {
      return null;
    }
    Long peak = StatFiles.boxed(f.number(h, "memory.peak"));
    long limit = f.number(h, "memory.max");
    Long workingSet = null;
    Map<String, Long> stat = null;
    if (f.load(h, "memory.stat")) {
      f.keyed(V2_STAT, one);
      workingSet = one[0] == StatFiles.ABSENT ? null : Math.max(0, usage - one[0]);
      stat = full ? f.map() : null;
    }
    java.util.Arrays.fill(events, StatFiles.ABSENT);
    if (f.load(h, "memory.events")) {
      f.keyed(V2_EVENTS, events);
    }
    Long swap = full ? StatFiles.boxed(f.number(h, "memory.swap.current")) : null;
    return new MemoryStats(
        usage,
        peak,
        StatFiles.boxed(limit),
        lowest(limit == StatFiles.ABSENT ? -1 : limit, ancestorLimit(f.path().parent())),
        StatFiles.boxed(events[0]),
        workingSet,
        StatFiles.boxed(events[1]),
        StatFiles.boxed(events[2]),
        StatFiles.boxed(events[3]),
        StatFiles.boxed(events[4]),
        StatFiles.boxed(events[5]),
        swap,
        null,
        stat);
  }

  /**
   * The lowest memory.max of {@code p} and its ancestors below the hierarchy's root, -1 for none.
   */
  private long ancestorLimit(CgroupPath p) {
    if (p.isRoot()) {
      return -1;
    }
    Long known = ancestorLimits.get(p);
    if (known != null) {
      return known;
    }
    long own = f.load(h, p, "memory.max") ? f.number() : -1;
    long lowest = lowest(own, ancestorLimit(p.parent()));
    ancestorLimits.put(p, lowest);
    return lowest;
  }

  private static long lowest(long a, long b) {
    return a < 0 ? b : b < 0 ? a : Math.min(a, b);
  }

  private static Long unlimited(long v) {
    return v == StatFiles.ABSENT ? null : v >= V1_UNLIMITED ? -1L : v;
  }
}
