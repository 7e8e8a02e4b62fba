package org.lmctfy.internal.resources;

import java.util.List;
import java.util.Set;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.codec.CpuLists;
import org.lmctfy.spec.CpuSpec;

/**
 * cpu: {@code limit} (milli-CPUs) becomes a weight, {@code max_limit} (milli-CPUs, -1 = no cap) a
 * CFS quota, {@code mask} and {@code memory_nodes} the cpuset.
 *
 * <p>Conversions: v1 {@code cpu.shares = max(2, limit * 1024 / 1000)}, read back as {@code
 * ceil(shares * 1000 / 1024)}; v2 {@code cpu.weight = 1 + (shares - 2) * 9999 / 262142} (the
 * mapping runc and systemd use), read back through {@code shares = 2 + ceil((weight - 1) * 262142 /
 * 9999)}. The quota runs over a period of {@value #PERIOD_US} µs: {@code quota = max_limit * 100}
 * µs, at least 1000, so {@code max_limit} is -1 or at least 10. A new v1 cpuset gets its parent's
 * cpus and memory nodes unless the spec gives them (an empty cpuset cannot hold a process).
 */
final class CpuHandler {
  static final long PERIOD_US = 100_000;
  static final long MAX_SHARES = 262_144;
  static final long DEFAULT_SHARES = 1024;

  private CpuHandler() {}

  static void plan(CpuSpec cpu, Mode mode, Host host, List<FileWrite> out) {
    CpuSpec c = cpu == null ? new CpuSpec(null, null, null, null, null) : cpu;
    boolean replace = mode == Mode.REPLACE;
    if (c.schedulingLatency() != null) {
      Hierarchy h = host.require("cpu", "cpu.scheduling_latency");
      throw Host.notOn(h, "cpu.scheduling_latency", "the kernel has no cpu.lat (a Google kernel patch)");
    }
    if (c.limit() != null || replace && host.find("cpu").isPresent()) {
      Hierarchy h = host.require("cpu", "cpu.limit");
      long shares = c.limit() == null ? DEFAULT_SHARES : shares(c.limit());
      out.add(Host.isV2(h)
          ? new FileWrite(h, "cpu.weight", Long.toString(weight(shares)), "cpu.limit")
          : new FileWrite(h, "cpu.shares", Long.toString(shares), "cpu.limit"));
    }
    if (c.maxLimit() != null || replace && host.find("cpu").isPresent()) {
      Hierarchy h = host.require("cpu", "cpu.max_limit");
      long quota = quota(c.maxLimit() == null ? -1 : c.maxLimit());
      checkParentQuota(host, h, quota);
      if (Host.isV2(h)) {
        out.add(new FileWrite(h, "cpu.max", (quota < 0 ? "max" : Long.toString(quota)) + " " + PERIOD_US, "cpu.max_limit"));
      } else {
        out.add(new FileWrite(h, "cpu.cfs_period_us", Long.toString(PERIOD_US), "cpu.max_limit"));
        out.add(new FileWrite(h, "cpu.cfs_quota_us", Long.toString(quota), "cpu.max_limit"));
      }
    }
    planCpuset(c, mode, host, out);
  }

  private static void planCpuset(CpuSpec c, Mode mode, Host host, List<FileWrite> out) {
    boolean needed = c.mask() != null || c.memoryNodes() != null;
    Hierarchy h = needed ? host.require("cpuset", c.mask() != null ? "cpu.mask" : "cpu.memory_nodes")
        : host.find("cpuset").orElse(null);
    if (h == null) {
      return;
    }
    boolean copyParent = mode == Mode.REPLACE || mode == Mode.CREATE && !Host.isV2(h);
    String[][] files = {{"cpuset.cpus", c.mask(), "cpu.mask"}, {"cpuset.mems", c.memoryNodes(), "cpu.memory_nodes"}};
    for (String[] f : files) {
      if (f[1] == null && !copyParent) {
        continue;
      }
      if (f[1] == null && Host.isV2(h)) {
        if (host.selfHas(h, f[0])) {
          out.add(new FileWrite(h, f[0], "", f[2])); // "" gives the container its parent's again
        }
        continue;
      }
      String parentList = host.readParent(h, Host.isV2(h) ? f[0] + ".effective" : f[0]);
      if (f[1] != null) {
        if (!CpuLists.within(f[1], parentList, f[2])) {
          throw Kernel.invalid(f[2], "\"" + f[1] + "\"", "is not within the parent's " + f[0] + " \"" + parentList + "\"");
        }
        out.add(new FileWrite(h, f[0], f[1], f[2]));
      } else if (!parentList.isEmpty()) {
        out.add(new FileWrite(h, f[0], parentList, f[2])); // v1: an empty cpuset refuses tasks (ENOSPC)
      }
    }
  }

  static long shares(long limit) {
    return Math.max(2, limit * 1024 / 1000);
  }

  static long limitOfShares(long shares) {
    return (shares * 1000 + 1023) / 1024;
  }

  static long weight(long shares) {
    return 1 + (shares - 2) * 9999 / 262_142;
  }

  static long sharesOfWeight(long weight) {
    return 2 + ((weight - 1) * 262_142 + 9998) / 9999;
  }

  static long quota(long maxLimit) {
    return maxLimit < 0 ? -1 : maxLimit * PERIOD_US / 1000;
  }

  static void validate(CpuSpec c) {
    if (c.limit() != null && shares(c.limit()) > MAX_SHARES) {
      throw Kernel.invalid("cpu.limit", c.limit(), "is above the kernel's maximum of 256000 milli-CPUs (262144 shares)");
    }
    if (c.maxLimit() != null && c.maxLimit() >= 0 && quota(c.maxLimit()) < 1000) {
      throw Kernel.invalid("cpu.max_limit", c.maxLimit(), "is below 10 milli-CPUs: the kernel's smallest quota is "
          + "1000 µs per " + PERIOD_US + " µs");
    }
  }

  /** v1 refuses a child quota above its parent's (EINVAL); say so before writing anything. */
  private static void checkParentQuota(Host host, Hierarchy h, long quota) {
    if (Host.isV2(h) || quota < 0) {
      return; // an uncapped child of a capped parent runs under the parent's cap
    }
    long parentQuota = Kernel.number(host.readParent(h, "cpu.cfs_quota_us"), "cpu.cfs_quota_us");
    if (parentQuota < 0) {
      return;
    }
    long parentPeriod = Kernel.number(host.readParent(h, "cpu.cfs_period_us"), "cpu.cfs_period_us");
    if (quota * parentPeriod > parentQuota * PERIOD_US) {
      throw Kernel.invalid("cpu.max_limit", quota * 1000 / PERIOD_US, "is above the parent's cap of "
          + parentQuota * 1000 / parentPeriod + " milli-CPUs");
    }
  }

  /** The fields of {@code fields} as the kernel has them now. */
  static CpuSpec read(Host host, Set<String> fields) {
    Long limit = null;
    Long maxLimit = null;
    String mask = null;
    String nodes = null;
    if (fields.contains("cpu.limit")) {
      Hierarchy h = host.require("cpu", "cpu.limit");
      limit = Host.isV2(h) ? limitOfShares(sharesOfWeight(Kernel.number(host.readSelf(h, "cpu.weight"), "cpu.weight")))
          : limitOfShares(Kernel.number(host.readSelf(h, "cpu.shares"), "cpu.shares"));
    }
    if (fields.contains("cpu.max_limit")) {
      Hierarchy h = host.require("cpu", "cpu.max_limit");
      String[] qp = Host.isV2(h) ? host.readSelf(h, "cpu.max").split(" ")
          : new String[] {host.readSelf(h, "cpu.cfs_quota_us"), host.readSelf(h, "cpu.cfs_period_us")};
      long quota = qp[0].equals("max") ? -1 : Kernel.number(qp[0], "cpu quota");
      maxLimit = quota < 0 ? -1 : quota * 1000 / Kernel.number(qp[1], "cpu period");
    }
    if (fields.contains("cpu.mask")) {
      mask = list(host.readSelf(host.require("cpuset", "cpu.mask"), "cpuset.cpus"));
    }
    if (fields.contains("cpu.memory_nodes")) {
      nodes = list(host.readSelf(host.require("cpuset", "cpu.memory_nodes"), "cpuset.mems"));
    }
    return new CpuSpec(limit, maxLimit, mask, nodes, null);
  }

  /** A cpu or node list as the spec writes it; null for an empty one (the spec has no "none"). */
  private static String list(String kernel) {
    String formatted = CpuLists.format(CpuLists.parse(kernel, "the kernel's list"));
    return formatted.isEmpty() ? null : formatted;
  }

  /** What {@link #read} returns after a create with {@code c}. */
  static CpuSpec normalise(CpuSpec c, Host host) {
    Long limit = c.limit();
    if (limit != null) {
      boolean v2 = host.find("cpu").map(Host::isV2).orElse(false);
      long shares = shares(limit);
      limit = v2 ? limitOfShares(sharesOfWeight(weight(shares))) : limitOfShares(shares);
    }
    return new CpuSpec(limit, c.maxLimit(), CpuLists.normalize(c.mask(), "cpu.mask"),
        CpuLists.normalize(c.memoryNodes(), "cpu.memory_nodes"), c.schedulingLatency());
  }
}
