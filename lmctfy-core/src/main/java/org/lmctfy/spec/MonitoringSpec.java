package org.lmctfy.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;

/**
 * lmctfy's {@code monitoring} section. Its presence alone ({@code monitoring {}}) gives the
 * container its own {@code perf_event} cgroup, so perf can count its events.
 *
 * <pre>{@code
 * ContainerSpec spec = ContainerSpec.builder().monitoring(MonitoringSpec.builder().build()).build();
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param enablePerfCounters {@code enable_perf_counters}: lmctfy's flag, kept for compatibility; it
 *     changes nothing beyond the section's presence
 * @since 0.1
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MonitoringSpec(
    @JsonProperty("enable_perf_counters") @Nullable Boolean enablePerfCounters) {

  /** A builder with every field absent. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this section's fields, to derive a changed copy. */
  public Builder toBuilder() {
    return new Builder().enablePerfCounters(enablePerfCounters);
  }

  /**
   * Builds a {@link MonitoringSpec}: a setter given {@code null} clears its field, {@link #build()}
   * validates. Not thread-safe.
   */
  public static final class Builder {
    private @Nullable Boolean enablePerfCounters;

    private Builder() {}

    /** Sets {@code enable_perf_counters}. */
    public Builder enablePerfCounters(@Nullable Boolean enablePerfCounters) {
      this.enablePerfCounters = enablePerfCounters;
      return this;
    }

    /** The section; validates it as the record's constructor does. */
    public MonitoringSpec build() {
      return new MonitoringSpec(enablePerfCounters);
    }
  }
}
