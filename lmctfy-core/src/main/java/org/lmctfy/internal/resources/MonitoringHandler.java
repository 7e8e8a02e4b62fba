package org.lmctfy.internal.resources;

import java.util.List;
import java.util.Set;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.MonitoringSpec;

/**
 * monitoring: the container's perf_event cgroup (the section needs that hierarchy); {@code
 * enable_perf_counters} has no kernel switch and is refused.
 */
final class MonitoringHandler implements ResourceHandler {
  static final String MONITORING = "monitoring";

  private static final List<Field> FIELDS =
      List.of(new Field(MONITORING, null, List.of(), List.of(), ContainerSpec::monitoring));

  @Override
  public List<Field> fields() {
    return FIELDS;
  }

  @Override
  public List<String> refused() {
    return List.of("monitoring.enable_perf_counters");
  }

  @Override
  public void plan(ContainerSpec s, Mode mode, ContainerView view, Planning out) {
    MonitoringSpec spec = s.monitoring();
    if (spec == null) {
      return;
    }
    view.require("perf_event", MONITORING);
    if (spec.enablePerfCounters() != null) {
      throw new LmctfyException(
          ErrorCode.UNIMPLEMENTED,
          "monitoring.enable_perf_counters has no kernel switch: the "
              + "container's perf_event cgroup is there; count it with perf -G");
    }
  }

  @Override
  public void read(ContainerView view, Set<String> fields, ContainerSpec.Builder out) {
    out.monitoring(fields.contains(MONITORING) ? new MonitoringSpec(null) : null);
  }

  @Override
  public void normalise(
      ContainerSpec spec, Set<String> given, ContainerView view, ContainerSpec.Builder out) {
    out.monitoring(spec.monitoring());
  }
}
