package org.lmctfy.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * lmctfy's {@code monitoring} section. Its presence alone ({@code monitoring {}}) gives the
 * container its own {@code perf_event} cgroup, so perf can count its events.
 *
 * <pre>{@code
 * ContainerSpec spec = ContainerSpec.builder().monitoring(new MonitoringSpec(null)).build();
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * @param enablePerfCounters {@code enable_perf_counters}: lmctfy's flag, kept for compatibility;
 *     it changes nothing beyond the section's presence
 * @since 0.1
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MonitoringSpec(@JsonProperty("enable_perf_counters") Boolean enablePerfCounters) {}
