package org.lmctfy.spec;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * The rules for the names of a spec's {@code unified} files: a v2 interface file name ({@code
 * controller.file}), not one that a typed field models (that field is the one way to set it, so
 * that {@code spec()} has one answer), not one that lmctfy itself manages, and a setting: a file
 * that can be written and read back, not a write-only operation ({@code memory.reclaim}: {@code
 * Container.reclaim}) or a read-only statistic ({@code memory.current}, {@code io.stat}...: {@code
 * stats()}). The value written must also be the one the kernel shows, which the write checks.
 */
final class UnifiedFiles {
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*(\\.[a-z0-9_]+)+");
  private static final Pattern HUGETLB = Pattern.compile("hugetlb\\.[0-9]+[KMG]B\\.(rsvd\\.)?max");

  /** Files a typed field writes, with the field. */
  private static final Map<String, String> MODELLED =
      Map.ofEntries(
          Map.entry("cpu.weight", "cpu.limit"),
          Map.entry("cpu.weight.nice", "cpu.limit"),
          Map.entry("cpu.max", "cpu.max_limit and cpu.period_us"),
          Map.entry("cpu.max.burst", "cpu.burst_us"),
          Map.entry("cpu.idle", "cpu.idle"),
          Map.entry("cpuset.cpus", "cpu.mask"),
          Map.entry("cpuset.mems", "cpu.memory_nodes"),
          Map.entry("memory.max", "memory.limit"),
          Map.entry("memory.swap.max", "memory.swap_limit"),
          Map.entry("memory.low", "memory.reservation"),
          Map.entry("memory.high", "memory.high"),
          Map.entry("memory.min", "memory.min"),
          Map.entry("memory.oom.group", "memory.oom_group"),
          Map.entry("memory.zswap.max", "memory.zswap_limit"),
          Map.entry("pids.max", "pids.limit"),
          Map.entry("io.weight", "blockio.weight and blockio.device_weights"),
          Map.entry("io.bfq.weight", "blockio.weight"),
          Map.entry("io.max", "blockio.device_limits"),
          Map.entry("io.latency", "blockio.latency_targets"),
          Map.entry("misc.max", "misc.limits"),
          Map.entry("cgroup.max.descendants", "children_limit"),
          Map.entry("cpu.uclamp.min", "cpu.uclamp_min"),
          Map.entry("cpu.uclamp.max", "cpu.uclamp_max"),
          Map.entry("cpuset.cpus.partition", "cpu.partition"),
          Map.entry("rdma.max", "rdma.limits"));

  /** Write-only files: operations, with what does them. */
  private static final Map<String, String> OPERATIONS =
      Map.of(
          "memory.reclaim",
              "an operation, not a setting: it reads back nothing (EINVAL); use Container.reclaim(bytes)",
          "memory.peak",
              "a statistic (writing it resets the peak, an operation): read it with stats()",
          "memory.swap.peak",
              "a statistic (writing it resets the peak, an operation): read it with stats()");

  /**
   * The endings of read-only statistics files (cgroup-v2.rst): {@code memory.current}, {@code
   * io.stat}, {@code cpuset.cpus.effective}.
   */
  private static final Pattern STATISTIC =
      Pattern.compile(
          ".*\\.(current|stat|stat\\.local|events|events\\.local|numa_stat|effective|capacity|peak)|cpuset\\.cpus\\.isolated");

  private UnifiedFiles() {}

  /**
   * Refuses (INVALID_ARGUMENT naming {@code unified."name"}) a name or value that may not be given.
   */
  static void check(String name, String value) {
    String field = "unified.\"" + name + "\"";
    if (HUGETLB.matcher(name).matches()) { // before the name rule: its size is upper case
      throw Checks.problem(field, "is set by hugetlb.limits: give it there");
    }
    if (!NAME.matcher(name).matches()) {
      throw Checks.invalid(
          "unified",
          name,
          "is not a cgroup v2 interface file name " + "(controller.file, lower case, no '/')");
    }
    String modelled = MODELLED.get(name);
    if (modelled != null) {
      throw Checks.problem(field, "is set by " + modelled + ": give it there");
    }
    if (name.startsWith("cgroup.") || name.endsWith(".pressure")) {
      throw Checks.problem(
          field,
          "is managed by lmctfy itself (membership, controllers, freezing, "
              + "killing, notifications), not a resource setting");
    }
    String operation = OPERATIONS.get(name);
    if (operation != null) {
      throw Checks.problem(field, "is " + operation);
    }
    if (STATISTIC.matcher(name).matches()) {
      throw Checks.problem(field, "is a read-only statistic, not a setting: read it with stats()");
    }
    if (value == null || value.indexOf('\n') >= 0 || value.isBlank()) {
      throw Checks.invalid(field, value, "must be one line of text");
    }
  }
}
