package org.lmctfy.yarn;

import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.Resource;
import org.jspecify.annotations.Nullable;
import org.lmctfy.ApiOptions;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.cgroupfs.CgroupPath;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.CpuSpec;
import org.lmctfy.spec.MemorySpec;
import org.lmctfy.spec.PidsSpec;

/**
 * The {@code lmctfy.yarn.*} settings of a NodeManager's {@code yarn-site.xml} (docs/yarn.md
 * describes each), read once, and the one rule that turns a YARN allocation into a container spec.
 *
 * @param containerRoot the lmctfy container that holds YARN's containers, each at {@code
 *     containerRoot/<container id>}
 * @param apiOptions how the executor opens lmctfy: the driver, the cgroup root, the systemd unit
 * @param strictCpu whether a container's CPU is capped at its share of the node (YARN's
 *     strict-resource-usage), on top of the weight it always gets
 * @param softLimitPercent the soft memory limit as a percentage of the allocation, or null for none
 * @param pidsLimit the most tasks a container may have, or null for no limit
 */
record Settings(
    String containerRoot,
    ApiOptions apiOptions,
    boolean strictCpu,
    @Nullable Integer softLimitPercent,
    @Nullable Long pidsLimit) {

  static final String PREFIX = "lmctfy.yarn.";
  static final String CONTAINER_ROOT = PREFIX + "container-root";
  static final String DRIVER = PREFIX + "driver";
  static final String CGROUP_ROOT = PREFIX + "cgroup-root";
  static final String SYSTEMD_UNIT = PREFIX + "systemd-unit";
  static final String CPU_STRICT = PREFIX + "cpu.strict";
  static final String SOFT_LIMIT_PERCENT = PREFIX + "memory.soft-limit-percent";
  static final String PIDS_LIMIT = PREFIX + "pids.limit";

  /** YARN's own switch for CPU caps, the default of {@link #CPU_STRICT}. */
  static final String YARN_STRICT =
      "yarn.nodemanager.linux-container-executor.cgroups.strict-resource-usage";

  static final String DEFAULT_CONTAINER_ROOT = "/hadoop-yarn";

  /**
   * Reads the settings.
   *
   * @throws LmctfyException INVALID_ARGUMENT naming the setting and its value
   */
  static Settings from(Configuration conf) {
    ApiOptions.Builder options = ApiOptions.builder();
    String driver = conf.getTrimmed(DRIVER, "AUTO");
    try {
      options.driver(ApiOptions.Driver.valueOf(driver.toUpperCase(Locale.ROOT)));
    } catch (IllegalArgumentException e) {
      throw invalid(DRIVER, driver, "must be AUTO, SYSTEMD or CGROUPFS");
    }
    String root = conf.getTrimmed(CGROUP_ROOT);
    if (root != null && !root.isEmpty()) {
      if (!root.startsWith("/")) {
        throw invalid(CGROUP_ROOT, root, "must be an absolute cgroup path such as /hadoop");
      }
      options.root(CgroupPath.of(root));
    }
    String unit = conf.getTrimmed(SYSTEMD_UNIT);
    if (unit != null && !unit.isEmpty()) {
      options.systemdUnit(unit);
    }
    String containerRoot = conf.getTrimmed(CONTAINER_ROOT, DEFAULT_CONTAINER_ROOT);
    if (!containerRoot.startsWith("/") || containerRoot.equals("/")) {
      throw invalid(
          CONTAINER_ROOT,
          containerRoot,
          "must be an absolute container name below /, such as /yarn");
    }
    Integer soft = intOrNull(conf, SOFT_LIMIT_PERCENT);
    if (soft != null && (soft < 1 || soft > 100)) {
      throw invalid(SOFT_LIMIT_PERCENT, soft, "must be a percentage of the allocation, 1..100");
    }
    Integer pids = intOrNull(conf, PIDS_LIMIT);
    if (pids != null && pids < 1) {
      throw invalid(PIDS_LIMIT, pids, "must be at least 1 (leave it unset for no limit)");
    }
    return new Settings(
        containerRoot,
        options.build(),
        conf.getBoolean(CPU_STRICT, conf.getBoolean(YARN_STRICT, false)),
        soft,
        pids == null ? null : pids.longValue());
  }

  /** The lmctfy container of the YARN container {@code containerId}. */
  String nameOf(String containerId) {
    return containerRoot + "/" + containerId;
  }

  /**
   * The spec of a container allocated {@code resource} on a node that gives its containers {@code
   * containersCpus} CPUs as {@code nodeVcores} vcores: memory limited to the allocation (and a soft
   * limit below it if set); a CPU weight of 1024 shares a vcore, as YARN's cgroups handler gives
   * ({@code cpu.limit} is milli-CPUs, 1000 of which are 1024 shares); in strict mode a cap of the
   * container's share of the node's CPUs, as YARN computes it (none for a container given every
   * vcore); a pids limit if set.
   */
  ContainerSpec specFor(Resource resource, float containersCpus, int nodeVcores) {
    long limit = resource.getMemorySize() << 20;
    MemorySpec.Builder memory = MemorySpec.builder().limit(limit);
    if (softLimitPercent != null && softLimitPercent < 100) {
      memory.reservation(limit / 100 * softLimitPercent);
    }
    int vcores = resource.getVirtualCores();
    CpuSpec.Builder cpu = CpuSpec.builder().limit(vcores * 1000L);
    if (strictCpu && vcores != nodeVcores && nodeVcores > 0) {
      // the kernel's smallest quota is 1 ms a period: 10 milli-CPUs of the default 100 ms
      cpu.maxLimit(Math.max(10L, Math.round(vcores * 1000.0 * containersCpus / nodeVcores)));
    }
    return ContainerSpec.builder()
        .memory(memory.build())
        .cpu(cpu.build())
        .pids(pidsLimit == null ? null : new PidsSpec(pidsLimit))
        .build();
  }

  private static @Nullable Integer intOrNull(Configuration conf, String key) {
    String value = conf.getTrimmed(key);
    if (value == null || value.isEmpty()) {
      return null;
    }
    try {
      return Integer.valueOf(value);
    } catch (NumberFormatException e) {
      throw invalid(key, value, "must be a whole number");
    }
  }

  private static LmctfyException invalid(String key, Object value, String why) {
    return new LmctfyException(
        ErrorCode.INVALID_ARGUMENT, "yarn-site.xml: " + key + " " + why + ", not " + value);
  }
}
