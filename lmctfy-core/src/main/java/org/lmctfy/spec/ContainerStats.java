package org.lmctfy.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import org.lmctfy.internal.codec.SpecCodec;

/**
 * Usage of a container, from {@link org.lmctfy.Container#stats}: lmctfy's {@code ContainerStats},
 * for now a summary. Each section is {@code null} when the container does not isolate that
 * resource. Field names say their units ({@code _ns} nanoseconds; memory values are bytes).
 *
 * <pre>{@code
 * ContainerStats stats = job.stats(StatsType.SUMMARY);
 * long bytes = stats.memory().usage();
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param cpu {@code cpu}: CPU time used
 * @param memory {@code memory}: memory used
 * @param pids {@code pids}: tasks running
 * @since 0.1
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ContainerStats(
    @JsonProperty("cpu") CpuStats cpu,
    @JsonProperty("memory") MemoryStats memory,
    @JsonProperty("pids") PidsStats pids) {

  /** These stats as compact JSON with snake_case names. */
  public String toJson() {
    return SpecCodec.toJson(this);
  }

  /** These stats in lmctfy's text format. */
  public String toText() {
    return SpecCodec.toText(this);
  }

  /**
   * CPU time.
   *
   * @param totalNs {@code total_ns}: CPU time used by all tasks, nanoseconds
   * @param perCpuNs {@code per_cpu_ns}: CPU time per CPU, nanoseconds, index = CPU number; never
   *     null, empty when unknown
   * @param userNs {@code user_ns}: time in user mode, nanoseconds, when known
   * @param systemNs {@code system_ns}: time in kernel mode, nanoseconds, when known
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record CpuStats(
      @JsonProperty("total_ns") long totalNs,
      @JsonProperty("per_cpu_ns") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Long> perCpuNs,
      @JsonProperty("user_ns") Long userNs,
      @JsonProperty("system_ns") Long systemNs) {
    /** Copies the per-CPU list. */
    public CpuStats {
      perCpuNs = perCpuNs == null ? List.of() : List.copyOf(perCpuNs);
    }
  }

  /**
   * Memory use, all in bytes.
   *
   * @param usage {@code usage}: bytes charged now
   * @param maxUsage {@code max_usage}: peak bytes charged, when known
   * @param limit {@code limit}: the hard limit in bytes ({@code -1} unlimited), when known
   * @param failCount {@code fail_count}: times the limit was hit (a count, not bytes), when known
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record MemoryStats(
      @JsonProperty("usage") long usage,
      @JsonProperty("max_usage") Long maxUsage,
      @JsonProperty("limit") Long limit,
      @JsonProperty("fail_count") Long failCount) {}

  /**
   * Task counts.
   *
   * @param current {@code current}: tasks (processes and threads) now
   * @param limit {@code limit}: the task limit, {@code -1} unlimited, when known
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record PidsStats(
      @JsonProperty("current") long current,
      @JsonProperty("limit") Long limit) {}
}
