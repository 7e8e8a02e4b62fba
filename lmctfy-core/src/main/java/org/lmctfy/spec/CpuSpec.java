package org.lmctfy.spec;

import static org.lmctfy.internal.codec.Checks.atLeast;
import static org.lmctfy.internal.codec.Checks.unlimitedOrAtLeast;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.lmctfy.internal.codec.Checks;
import org.lmctfy.internal.codec.CpuLists;
import org.lmctfy.internal.codec.CpuMask;

/**
 * CPU isolation of a container: lmctfy's {@code cpu} section. Every field is optional; an absent
 * field leaves the kernel's value alone (or its default on create).
 *
 * <pre>{@code
 * CpuSpec cpu = new CpuSpec(500L, 2000L, "0-3", null, CpuSpec.SchedulingLatency.NORMAL);
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param limit {@code limit}: guaranteed share in milli-CPUs (1000 = one CPU), {@code >= 0};
 *     becomes {@code cpu.shares} (v1) or {@code cpu.weight} (v2)
 * @param maxLimit {@code max_limit}: hard cap in milli-CPUs, {@code >= 1}, or {@code -1} for no
 *     cap (so a cap can be removed again); becomes the CFS quota
 * @param mask {@code mask}: the CPUs the container may run on, in the kernel's list format
 *     {@code "0-3,6"} (kept sorted with ranges merged). Text and JSON input also accept lmctfy's
 *     bitmask form {@code mask { data: 5 data: 0 }} (64-bit words; bit j of word i is CPU 64*i+j)
 * @param memoryNodes {@code memory_nodes}: NUMA memory nodes in the same list format, as {@code
 *     "0"}; becomes {@code cpuset.mems}
 * @param schedulingLatency {@code scheduling_latency}: lmctfy's latency class; fixed at create
 * @param periodUs {@code period_us}: the CFS period that {@code max_limit} is enforced over, in
 *     µs, 1000..1000000 (default 100000); {@code cpu.max}'s second number (v2), {@code
 *     cpu.cfs_period_us} (v1); given only together with {@code max_limit}
 * @param burstUs {@code burst_us}: quota a container may bank from idle periods and spend in a
 *     burst, in µs, {@code >= 0} and not above the quota ({@code cpu.max.burst}, v2 only)
 * @param idle {@code idle}: run only when nothing else in the parent wants the CPU ({@code
 *     cpu.idle}, v2 only); cannot be given with {@code limit}, as an idle cgroup has the
 *     scheduler's smallest weight
 * @since 0.1
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CpuSpec(
    @JsonProperty("limit") Long limit,
    @JsonProperty("max_limit") Long maxLimit,
    @JsonProperty("mask") @CpuMask.Input String mask,
    @JsonProperty("memory_nodes") String memoryNodes,
    @JsonProperty("scheduling_latency") SchedulingLatency schedulingLatency,
    @JsonProperty("period_us") Long periodUs,
    @JsonProperty("burst_us") Long burstUs,
    @JsonProperty("idle") Boolean idle) {

  /** lmctfy's scheduling latency classes, from the most to the least latency-sensitive. */
  public enum SchedulingLatency {
    /** Latency-critical (lmctfy wrote {@code cpu.lat} 25). */
    PREMIER,
    /** lmctfy's default class (50). */
    PRIORITY,
    /** Batch-friendly (100); top-level containers of this class lived under {@code /batch}. */
    NORMAL,
    /** Runs only on spare cycles; also placed under {@code /batch}. */
    BEST_EFFORT
  }

  /**
   * Validates every field; see the component docs for the ranges.
   *
   * @param limit the limit
   * @param maxLimit the max limit
   * @param mask the mask
   * @param memoryNodes the memory nodes
   * @param schedulingLatency the scheduling latency
   * @param periodUs the period of {@code max_limit} in microseconds
   * @param burstUs the burst in microseconds ({@code cpu.max.burst})
   * @param idle whether the cgroup is idle ({@code cpu.idle})
   */
  @JsonCreator
  public CpuSpec {
    atLeast(limit, 0, "cpu.limit");
    if (periodUs != null && (periodUs < 1000 || periodUs > 1_000_000)) {
      throw Checks.invalid("cpu.period_us", periodUs, "must be in 1000..1000000");
    }
    if (periodUs != null && maxLimit == null) {
      throw Checks.problem("cpu.period_us", "needs cpu.max_limit in the same spec (the cap is max_limit "
          + "milli-CPUs over the period)");
    }
    atLeast(burstUs, 0, "cpu.burst_us");
    if (Boolean.TRUE.equals(idle) && limit != null) {
      throw Checks.problem("cpu.idle", "cannot be given with cpu.limit: an idle cgroup has the scheduler's "
          + "smallest weight, and the kernel refuses a weight for it");
    }
    unlimitedOrAtLeast(maxLimit, 1, "cpu.max_limit");
    mask = CpuLists.normalize(mask, "cpu.mask");
    memoryNodes = CpuLists.normalize(memoryNodes, "cpu.memory_nodes");
  }

  /**
   * The fields of lmctfy's {@code cpu} section, without the v2 settings.
   *
   * @param limit the limit
   * @param maxLimit the max limit
   * @param mask the mask
   * @param memoryNodes the memory nodes
   * @param schedulingLatency the scheduling latency
   */
  public CpuSpec(Long limit, Long maxLimit, String mask, String memoryNodes, SchedulingLatency schedulingLatency) {
    this(limit, maxLimit, mask, memoryNodes, schedulingLatency, null, null, null);
  }

  /**
   * A spec with only a share: {@code cpu { limit: milliCpus }}.
   *
   * @param milliCpus the milli cpus
   * @return a spec with only a share: {@code cpu { limit: milliCpus }}
   */
  public static CpuSpec ofLimit(long milliCpus) {
    return new CpuSpec(milliCpus, null, null, null, null);
  }
}
