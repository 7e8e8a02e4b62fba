package org.lmctfy.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.lmctfy.internal.codec.SpecCodec;

/**
 * What a container uses, from {@link org.lmctfy.Container#stats}. A section, or a field, is {@code
 * null} when this host does not offer it (a missing optional kernel file leaves that field absent,
 * it never fails the call). Units are in the names: {@code _ns} nanoseconds everywhere for time,
 * bytes for memory and I/O sizes, plain counts otherwise. {@code FULL} adds CPU throttling and
 * bursts, swap usage, huge page usage and the {@code memory.stat} breakdowns to what {@code
 * SUMMARY} reads.
 *
 * <pre>{@code
 * ContainerStats stats = job.stats(StatsType.SUMMARY);
 * long bytes = stats.memory().usage();
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param cpu CPU time used
 * @param memory memory used
 * @param pids tasks running
 * @param blockio bytes and operations per block device
 * @param pressure pressure stall information (PSI), where the kernel offers it
 * @param hugetlb {@code hugetlb} (FULL): huge pages used, one entry per page size the kernel has;
 *     empty where the container has no hugetlb controller
 * @since 0.1
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ContainerStats(
    @JsonProperty("cpu") @Nullable CpuStats cpu,
    @JsonProperty("memory") @Nullable MemoryStats memory,
    @JsonProperty("pids") @Nullable PidsStats pids,
    @JsonProperty("blockio") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<DeviceIo> blockio,
    @JsonProperty("pressure") @Nullable PressureStats pressure,
    @JsonProperty("hugetlb") @JsonInclude(JsonInclude.Include.NON_EMPTY)
        List<HugetlbStats> hugetlb) {

  /** Validates and copies. */
  public ContainerStats {
    blockio = blockio == null ? List.of() : List.copyOf(blockio);
    hugetlb = hugetlb == null ? List.of() : List.copyOf(hugetlb);
  }

  /** These stats as compact JSON with snake_case names. */
  public String toJson() {
    return SpecCodec.toJson(this);
  }

  /** These stats in lmctfy's text format. */
  public String toText() {
    return SpecCodec.toText(this);
  }

  /**
   * CPU time, nanoseconds.
   *
   * @param totalNs {@code total_ns}: CPU time used by all tasks
   * @param perCpuNs {@code per_cpu_ns}: CPU time per CPU, index = CPU number; empty when unknown
   * @param userNs {@code user_ns}: time in user mode
   * @param systemNs {@code system_ns}: time in kernel mode
   * @param throttling {@code throttling} (FULL): CFS quota enforcement
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record CpuStats(
      @JsonProperty("total_ns") long totalNs,
      @JsonProperty("per_cpu_ns") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Long> perCpuNs,
      @JsonProperty("user_ns") @Nullable Long userNs,
      @JsonProperty("system_ns") @Nullable Long systemNs,
      @JsonProperty("throttling") @Nullable Throttling throttling) {
    /** Validates and copies. */
    public CpuStats {
      perCpuNs = perCpuNs == null ? List.of() : List.copyOf(perCpuNs);
    }
  }

  /**
   * CFS throttling and bursts ({@code cpu.stat}).
   *
   * @param periods {@code periods}: enforcement periods that have elapsed
   * @param throttledPeriods {@code throttled_periods}: periods in which the quota ran out
   * @param throttledNs {@code throttled_ns}: total time throttled, nanoseconds
   * @param bursts {@code bursts}: periods in which the container ran past its quota on banked burst
   *     time ({@code nr_bursts}; null on kernels before 5.14)
   * @param burstNs {@code burst_ns}: time run on banked burst, nanoseconds ({@code burst_usec} on
   *     v2, {@code burst_time} on v1; null on kernels before 5.14)
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Throttling(
      @JsonProperty("periods") long periods,
      @JsonProperty("throttled_periods") long throttledPeriods,
      @JsonProperty("throttled_ns") long throttledNs,
      @JsonProperty("bursts") @Nullable Long bursts,
      @JsonProperty("burst_ns") @Nullable Long burstNs) {}

  /**
   * Memory, bytes unless said otherwise.
   *
   * @param usage {@code usage}: bytes charged now
   * @param maxUsage {@code max_usage}: peak bytes charged
   * @param limit {@code limit}: this container's hard limit, -1 unlimited
   * @param effectiveLimit {@code effective_limit}: the lowest hard limit of it and its ancestors,
   *     -1 none
   * @param failCount {@code fail_count}: times usage hit the limit (a count)
   * @param workingSet {@code working_set}: usage less inactive file cache, at least 0
   * @param oomEvents {@code oom_events}: times the container was out of memory (a count; v2)
   * @param oomKills {@code oom_kills}: processes the OOM killer killed in it (a count)
   * @param highEvents {@code high_events}: times usage went over {@code memory.high} and the
   *     container was throttled and reclaimed from ({@code memory.events} {@code high}; v2)
   * @param lowEvents {@code low_events}: times memory was reclaimed from it although it was under
   *     its {@code reservation} ({@code memory.events} {@code low}; v2)
   * @param oomGroupKills {@code oom_group_kills}: times the whole container was OOM-killed as a
   *     group ({@code oom_group}; {@code memory.events} {@code oom_group_kill}; v2, 5.16+)
   * @param swapUsage {@code swap_usage} (FULL): bytes of the container's memory in swap (v2 {@code
   *     memory.swap.current}; v1 {@code memory.memsw.usage_in_bytes} less the usage, where swap is
   *     accounted)
   * @param containerData {@code container_data} (FULL): {@code memory.stat} of the container alone
   *     (v1)
   * @param hierarchicalData {@code hierarchical_data} (FULL): {@code memory.stat} with descendants
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record MemoryStats(
      @JsonProperty("usage") long usage,
      @JsonProperty("max_usage") @Nullable Long maxUsage,
      @JsonProperty("limit") @Nullable Long limit,
      @JsonProperty("effective_limit") @Nullable Long effectiveLimit,
      @JsonProperty("fail_count") @Nullable Long failCount,
      @JsonProperty("working_set") @Nullable Long workingSet,
      @JsonProperty("oom_events") @Nullable Long oomEvents,
      @JsonProperty("oom_kills") @Nullable Long oomKills,
      @JsonProperty("high_events") @Nullable Long highEvents,
      @JsonProperty("low_events") @Nullable Long lowEvents,
      @JsonProperty("oom_group_kills") @Nullable Long oomGroupKills,
      @JsonProperty("swap_usage") @Nullable Long swapUsage,
      @JsonProperty("container_data") @Nullable Map<String, Long> containerData,
      @JsonProperty("hierarchical_data") @Nullable Map<String, Long> hierarchicalData) {
    /** Validates and copies. */
    public MemoryStats {
      containerData = containerData == null ? null : Map.copyOf(containerData);
      hierarchicalData = hierarchicalData == null ? null : Map.copyOf(hierarchicalData);
    }
  }

  /**
   * Task counts.
   *
   * @param current {@code current}: tasks (processes and threads) now
   * @param limit {@code limit}: the task limit, -1 unlimited
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record PidsStats(
      @JsonProperty("current") long current, @JsonProperty("limit") @Nullable Long limit) {}

  /**
   * I/O done on one block device.
   *
   * @param readBytes {@code read_bytes}, {@code writeBytes} {@code write_bytes}: bytes
   * @param readOps {@code read_ops}, {@code writeOps} {@code write_ops}: operations (counts)
   * @param discardBytes {@code discard_bytes}: bytes discarded (v2 {@code dbytes}, v1 {@code
   *     Discard}); null where the kernel does not count discards
   * @param discardOps {@code discard_ops}: discard operations (v2 {@code dios}); null likewise
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record DeviceIo(
      @JsonProperty("major") long major,
      @JsonProperty("minor") long minor,
      @JsonProperty("read_bytes") long readBytes,
      @JsonProperty("write_bytes") long writeBytes,
      @JsonProperty("read_ops") long readOps,
      @JsonProperty("write_ops") long writeOps,
      @JsonProperty("discard_bytes") @Nullable Long discardBytes,
      @JsonProperty("discard_ops") @Nullable Long discardOps) {}

  /**
   * Huge pages of one size used by the container (the {@code hugetlb} controller).
   *
   * @param pageSize {@code page_size}: as the kernel names it, {@code "2MB"}
   * @param usage {@code usage}: bytes of huge pages charged now (v2 {@code hugetlb.<size>.current},
   *     v1 {@code .usage_in_bytes})
   * @param maxUsage {@code max_usage}: peak bytes (v1 {@code .max_usage_in_bytes}; null on v2)
   * @param limit {@code limit}: the limit, -1 unlimited
   * @param failCount {@code fail_count}: allocations refused at the limit (v2 {@code .events}
   *     {@code max}, v1 {@code .failcnt})
   * @param reservedUsage {@code reserved_usage}: bytes reserved (at mmap, before any fault) now (v2
   *     {@code .rsvd.current}, v1 {@code .rsvd.usage_in_bytes}; null before 5.7)
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record HugetlbStats(
      @JsonProperty("page_size") String pageSize,
      @JsonProperty("usage") long usage,
      @JsonProperty("max_usage") @Nullable Long maxUsage,
      @JsonProperty("limit") @Nullable Long limit,
      @JsonProperty("fail_count") @Nullable Long failCount,
      @JsonProperty("reserved_usage") @Nullable Long reservedUsage) {}

  /** Pressure stall information per resource; each is null where the kernel has no such file. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record PressureStats(
      @JsonProperty("cpu") @Nullable Pressure cpu,
      @JsonProperty("memory") @Nullable Pressure memory,
      @JsonProperty("io") @Nullable Pressure io) {}

  /**
   * One resource's pressure.
   *
   * @param some {@code some}: some tasks stalled; {@code full} all tasks stalled (null where
   *     absent)
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Pressure(
      @JsonProperty("some") @Nullable Stall some, @JsonProperty("full") @Nullable Stall full) {}

  /**
   * Stall shares and total.
   *
   * @param avg10 {@code avg10}: percent of the last 10 s stalled; likewise {@code avg60}, {@code
   *     avg300}
   * @param totalNs {@code total_ns}: total stall time, nanoseconds
   */
  public record Stall(
      @JsonProperty("avg10") double avg10,
      @JsonProperty("avg60") double avg60,
      @JsonProperty("avg300") double avg300,
      @JsonProperty("total_ns") long totalNs) {}
}
