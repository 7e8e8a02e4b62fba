package org.lmctfy.internal.resources;

import java.util.ArrayList;
import java.util.List;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.spec.CpuSpec;

/**
 * cpu: {@code limit} (milli-CPUs) becomes a weight, {@code max_limit} (milli-CPUs) a CFS quota.
 *
 * <p>Conversions: v1 {@code cpu.shares = max(2, limit * 1024 / 1000)}; v2 {@code cpu.weight = 1 +
 * (shares - 2) * 9999 / 262142} (the shares-to-weight mapping runc and systemd use). The quota
 * runs over a period of {@value #PERIOD_US} µs: {@code quota = max_limit * PERIOD_US / 1000}, at
 * least 1000 µs, so {@code max_limit} is -1 (no cap) or at least 4.
 */
final class CpuHandler {
  static final long PERIOD_US = 100_000;
  static final long MAX_SHARES = 262_144;

  private CpuHandler() {}

  static List<FileWrite> plan(CpuSpec cpu, Host host) {
    List<FileWrite> out = new ArrayList<>();
    for (String[] unsupported : new String[][] {{"mask", cpu.mask()}, {"memory_nodes", cpu.memoryNodes()},
        {"scheduling_latency", cpu.schedulingLatency() == null ? null : cpu.schedulingLatency().name()}}) {
      if (unsupported[1] != null) {
        throw new LmctfyException(ErrorCode.UNIMPLEMENTED, "cpu." + unsupported[0] + " is not supported yet");
      }
    }
    if (cpu.limit() == null && cpu.maxLimit() == null) {
      return out;
    }
    Hierarchy h = host.require("cpu", "cpu");
    if (cpu.limit() != null) {
      long shares = Math.max(2, cpu.limit() * 1024 / 1000);
      if (shares > MAX_SHARES) {
        throw new LmctfyException(ErrorCode.INVALID_ARGUMENT, "cpu.limit " + cpu.limit()
            + " is above the kernel's maximum of 256000 milli-CPUs (262144 shares)");
      }
      out.add(Host.isV2(h)
          ? new FileWrite(h, "cpu.weight", Long.toString(1 + (shares - 2) * 9999 / 262_142), "cpu.limit")
          : new FileWrite(h, "cpu.shares", Long.toString(shares), "cpu.limit"));
    }
    if (cpu.maxLimit() != null) {
      long quota = cpu.maxLimit() == -1 ? -1 : cpu.maxLimit() * PERIOD_US / 1000;
      if (quota != -1 && quota < 1000) {
        throw new LmctfyException(ErrorCode.INVALID_ARGUMENT, "cpu.max_limit " + cpu.maxLimit()
            + " is below 4 milli-CPUs: the kernel's smallest quota is 1000 µs per " + PERIOD_US + " µs");
      }
      checkParentQuota(host, h, quota);
      if (Host.isV2(h)) {
        out.add(new FileWrite(h, "cpu.max", (quota == -1 ? "max" : Long.toString(quota)) + " " + PERIOD_US,
            "cpu.max_limit"));
      } else {
        out.add(new FileWrite(h, "cpu.cfs_period_us", Long.toString(PERIOD_US), "cpu.max_limit"));
        out.add(new FileWrite(h, "cpu.cfs_quota_us", Long.toString(quota), "cpu.max_limit"));
      }
    }
    return out;
  }

  /** v1 refuses a child quota above its parent's (EINVAL); say so before writing anything. */
  private static void checkParentQuota(Host host, Hierarchy h, long quota) {
    if (Host.isV2(h)) {
      return;
    }
    long parentQuota = Long.parseLong(host.readParent(h, "cpu.cfs_quota_us"));
    if (parentQuota < 0 || quota == -1) {
      return; // an uncapped child of a capped parent runs under the parent's cap
    }
    long parentPeriod = Long.parseLong(host.readParent(h, "cpu.cfs_period_us"));
    if (quota * parentPeriod > parentQuota * PERIOD_US) {
      throw new LmctfyException(ErrorCode.INVALID_ARGUMENT, "cpu.max_limit " + quota * 1000 / PERIOD_US
          + " is above the parent's cap of " + parentQuota * 1000 / parentPeriod + " milli-CPUs");
    }
  }
}
