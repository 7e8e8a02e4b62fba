package org.lmctfy.spec;

import static org.lmctfy.spec.Checks.atLeast;
import static org.lmctfy.spec.Checks.unlimitedOrAtLeast;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import org.lmctfy.internal.codec.CpuLists;

/**
 * CPU isolation of a container: lmctfy's {@code cpu} section. Every field is optional; an absent
 * field leaves the kernel's value alone (or its default on create).
 *
 * <pre>{@code
 * CpuSpec cpu = CpuSpec.builder()
 *     .limit(500L)
 *     .maxLimit(2000L)
 *     .mask("0-3")
 *     .schedulingLatency(CpuSpec.SchedulingLatency.NORMAL)
 *     .build();
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param limit {@code limit}: guaranteed share in milli-CPUs (1000 = one CPU), {@code >= 0};
 *     becomes {@code cpu.shares} (v1) or {@code cpu.weight} (v2)
 * @param maxLimit {@code max_limit}: hard cap in milli-CPUs, {@code >= 1}, or {@code -1} for no cap
 *     (so a cap can be removed again); becomes the CFS quota
 * @param mask {@code mask}: the CPUs the container may run on, in the kernel's list format {@code
 *     "0-3,6"} (kept sorted with ranges merged). Text and JSON input also accept lmctfy's bitmask
 *     form {@code mask { data: 5 data: 0 }} (64-bit words; bit j of word i is CPU 64*i+j)
 * @param memoryNodes {@code memory_nodes}: NUMA memory nodes in the same list format, as {@code
 *     "0"}; becomes {@code cpuset.mems}
 * @param schedulingLatency {@code scheduling_latency}: lmctfy's latency class; fixed at create
 * @param periodUs {@code period_us}: the CFS period that {@code max_limit} is enforced over, in µs,
 *     1000..1000000 (default 100000); {@code cpu.max}'s second number (v2), {@code
 *     cpu.cfs_period_us} (v1); given only together with {@code max_limit}
 * @param burstUs {@code burst_us}: quota a container may bank from idle periods and spend in a
 *     burst, in µs, {@code >= 0} and not above the quota ({@code cpu.max.burst}, v2 only)
 * @param idle {@code idle}: run only when nothing else in the parent wants the CPU ({@code
 *     cpu.idle}, v2 only); cannot be given with {@code limit}, as an idle cgroup has the
 *     scheduler's smallest weight
 * @param uclampMin {@code uclamp_min}: utilization clamp floor, a percentage of a CPU's capacity,
 *     0..100 with at most two decimals ({@code cpu.uclamp.min}; the scheduler treats the tasks as
 *     at least this busy when it picks a frequency and a CPU); needs a kernel built with {@code
 *     CONFIG_UCLAMP_TASK_GROUP}
 * @param uclampMax {@code uclamp_max}: utilization clamp ceiling in the same units ({@code
 *     cpu.uclamp.max}; 100 is no ceiling, read back as 100); not below {@code uclamp_min}
 * @param partition {@code partition}: the cpuset partition type ({@code cpuset.cpus.partition}, v2
 *     only): {@code ROOT} or {@code ISOLATED} give the container its {@code mask} exclusively
 *     (taken from the parent partition's CPUs, {@code ISOLATED} also out of the scheduler's load
 *     balancing); needs a {@code mask}, and a parent that is a partition root (the machine's root
 *     cgroup is one), else FAILED_PRECONDITION with the kernel's reason
 * @since 0.1
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CpuSpec(
    @JsonProperty("limit") @Nullable Long limit,
    @JsonProperty("max_limit") @Nullable Long maxLimit,
    @JsonProperty("mask") @Inputs.CpuMask @Nullable String mask,
    @JsonProperty("memory_nodes") @Nullable String memoryNodes,
    @JsonProperty("scheduling_latency") @Nullable SchedulingLatency schedulingLatency,
    @JsonProperty("period_us") @Nullable Long periodUs,
    @JsonProperty("burst_us") @Nullable Long burstUs,
    @JsonProperty("idle") @Nullable Boolean idle,
    @JsonProperty("uclamp_min") @Nullable Double uclampMin,
    @JsonProperty("uclamp_max") @Nullable Double uclampMax,
    @JsonProperty("partition") @Nullable Partition partition) {

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

  /** cgroup v2 cpuset partition types ({@code cpuset.cpus.partition}). */
  public enum Partition {
    /** An ordinary cpuset, sharing the parent partition's CPUs (the kernel's default). */
    MEMBER,
    /** A partition root: its CPUs are its own, taken from the parent partition. */
    ROOT,
    /** A partition root whose CPUs are also out of the scheduler's load balancing. */
    ISOLATED
  }

  /** Validates every field; see the component docs for the ranges. */
  @JsonCreator
  public CpuSpec {
    percent(uclampMin, "cpu.uclamp_min");
    percent(uclampMax, "cpu.uclamp_max");
    if (uclampMin != null && uclampMax != null && uclampMin > uclampMax) {
      throw Checks.invalid(
          "cpu.uclamp_min", uclampMin, "is above cpu.uclamp_max (" + uclampMax + ")");
    }
    if (partition != null && partition != Partition.MEMBER && mask == null) {
      throw Checks.problem(
          "cpu.partition",
          "needs cpu.mask in the same spec: a partition's CPUs are its mask, "
              + "which it takes exclusively");
    }
    atLeast(limit, 0, "cpu.limit");
    if (periodUs != null && (periodUs < 1000 || periodUs > 1_000_000)) {
      throw Checks.invalid("cpu.period_us", periodUs, "must be in 1000..1000000");
    }
    if (periodUs != null && maxLimit == null) {
      throw Checks.problem(
          "cpu.period_us",
          "needs cpu.max_limit in the same spec (the cap is max_limit "
              + "milli-CPUs over the period)");
    }
    atLeast(burstUs, 0, "cpu.burst_us");
    if (Boolean.TRUE.equals(idle) && limit != null) {
      throw Checks.problem(
          "cpu.idle",
          "cannot be given with cpu.limit: an idle cgroup has the scheduler's "
              + "smallest weight, and the kernel refuses a weight for it");
    }
    unlimitedOrAtLeast(maxLimit, 1, "cpu.max_limit");
    mask = CpuLists.normalize(mask, "cpu.mask");
    memoryNodes = CpuLists.normalize(memoryNodes, "cpu.memory_nodes");
  }

  private static void percent(Double value, String field) {
    if (value != null
        && (!(value >= 0 && value <= 100)
            || Math.abs(value * 100 - Math.rint(value * 100)) > 1e-6)) {
      throw Checks.invalid(field, value, "must be a percentage, 0..100, with at most two decimals");
    }
  }

  /** A builder with every field absent. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this section's fields, to derive a changed copy. */
  public Builder toBuilder() {
    return new Builder()
        .limit(limit)
        .maxLimit(maxLimit)
        .mask(mask)
        .memoryNodes(memoryNodes)
        .schedulingLatency(schedulingLatency)
        .periodUs(periodUs)
        .burstUs(burstUs)
        .idle(idle)
        .uclampMin(uclampMin)
        .uclampMax(uclampMax)
        .partition(partition);
  }

  /**
   * Builds a {@link CpuSpec}: a setter given {@code null} clears its field, {@link #build()}
   * validates. Not thread-safe.
   */
  public static final class Builder {
    private @Nullable Long limit;
    private @Nullable Long maxLimit;
    private @Nullable String mask;
    private @Nullable String memoryNodes;
    private @Nullable SchedulingLatency schedulingLatency;
    private @Nullable Long periodUs;
    private @Nullable Long burstUs;
    private @Nullable Boolean idle;
    private @Nullable Double uclampMin;
    private @Nullable Double uclampMax;
    private @Nullable Partition partition;

    private Builder() {}

    /** Sets {@code limit}. */
    public Builder limit(@Nullable Long limit) {
      this.limit = limit;
      return this;
    }

    /** Sets {@code max_limit}. */
    public Builder maxLimit(@Nullable Long maxLimit) {
      this.maxLimit = maxLimit;
      return this;
    }

    /** Sets {@code mask}. */
    public Builder mask(@Nullable String mask) {
      this.mask = mask;
      return this;
    }

    /** Sets {@code memory_nodes}. */
    public Builder memoryNodes(@Nullable String memoryNodes) {
      this.memoryNodes = memoryNodes;
      return this;
    }

    /** Sets {@code scheduling_latency}. */
    public Builder schedulingLatency(@Nullable SchedulingLatency schedulingLatency) {
      this.schedulingLatency = schedulingLatency;
      return this;
    }

    /** Sets {@code period_us}. */
    public Builder periodUs(@Nullable Long periodUs) {
      this.periodUs = periodUs;
      return this;
    }

    /** Sets {@code burst_us}. */
    public Builder burstUs(@Nullable Long burstUs) {
      this.burstUs = burstUs;
      return this;
    }

    /** Sets {@code idle}. */
    public Builder idle(@Nullable Boolean idle) {
      this.idle = idle;
      return this;
    }

    /** Sets {@code uclamp_min}. */
    public Builder uclampMin(@Nullable Double uclampMin) {
      this.uclampMin = uclampMin;
      return this;
    }

    /** Sets {@code uclamp_max}. */
    public Builder uclampMax(@Nullable Double uclampMax) {
      this.uclampMax = uclampMax;
      return this;
    }

    /** Sets {@code partition}. */
    public Builder partition(@Nullable Partition partition) {
      this.partition = partition;
      return this;
    }

    /** The section; validates it as the record's constructor does. */
    public CpuSpec build() {
      return new CpuSpec(
          limit,
          maxLimit,
          mask,
          memoryNodes,
          schedulingLatency,
          periodUs,
          burstUs,
          idle,
          uclampMin,
          uclampMax,
          partition);
    }
  }

  /** A spec with only a share: {@code cpu { limit: milliCpus }}. */
  public static CpuSpec ofLimit(long milliCpus) {
    return builder().limit(milliCpus).build();
  }
}
