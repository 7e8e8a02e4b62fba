package org.lmctfy.internal.resources;

import static org.lmctfy.internal.resources.CpuWeight.DEFAULT_SHARES;
import static org.lmctfy.internal.resources.CpuWeight.MAX_SHARES;
import static org.lmctfy.internal.resources.CpuWeight.limitOfShares;
import static org.lmctfy.internal.resources.CpuWeight.limitOfWeight;
import static org.lmctfy.internal.resources.CpuWeight.shares;
import static org.lmctfy.internal.resources.CpuWeight.weight;

import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.lmctfy.cgroupfs.Hierarchy;
import org.lmctfy.internal.codec.CpuLists;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.CpuSpec;

/**
 * cpu: {@code limit} (milli-CPUs) becomes a weight, {@code max_limit} (milli-CPUs, -1 = no cap)
 * over {@code period_us} a CFS quota, {@code burst_us} and {@code idle} the v2 files of the same
 * names, {@code mask} and {@code memory_nodes} the cpuset.
 *
 * <p>{@code limit} becomes {@code cpu.shares} on v1, {@code cpu.weight} on v2 ({@link CpuWeight}
 * converts). The quota is {@code max_limit * period / 1000} µs over a period of {@code period_us}
 * (default {@value #PERIOD_US}; a DIFF without it keeps the container's), at least 1000 µs; v2
 * writes {@code cpu.max = "quota period"}. {@code mask}, {@code memory_nodes} and {@code
 * partition}: see {@link Cpuset}.
 *
 * <p>{@code uclamp_min}/{@code uclamp_max} are {@code cpu.uclamp.min}/{@code .max} on v1 and v2
 * (percent with two decimals; 100 is written and read as {@code max}; REPLACE resets 0 and {@code
 * max}); a kernel built without them is FAILED_PRECONDITION.
 */
final class CpuHandler implements ResourceHandler {
  static final long PERIOD_US = 100_000;

  private static final List<Field> FIELDS =
      List.of(
          new Field(
              "cpu.limit",
              "cpu",
              List.of("cpu.shares"),
              List.of("cpu.weight"),
              s -> cpu(s, CpuSpec::limit)),
          new Field(
              "cpu.max_limit",
              "cpu",
              List.of("cpu.cfs_period_us", "cpu.cfs_quota_us"),
              List.of("cpu.max"),
              s -> cpu(s, CpuSpec::maxLimit)),
          new Field(
              "cpu.mask",
              "cpuset",
              List.of("cpuset.cpus"),
              List.of("cpuset.cpus"),
              s -> cpu(s, CpuSpec::mask)),
          new Field(
              "cpu.memory_nodes",
              "cpuset",
              List.of("cpuset.mems"),
              List.of("cpuset.mems"),
              s -> cpu(s, CpuSpec::memoryNodes)),
          new Field(
              "cpu.period_us",
              "cpu",
              List.of("cpu.cfs_period_us", "cpu.cfs_quota_us"),
              List.of("cpu.max"),
              s -> cpu(s, CpuSpec::periodUs)),
          new Field(
              "cpu.burst_us",
              "cpu",
              List.of(),
              List.of("cpu.max.burst"),
              s -> cpu(s, CpuSpec::burstUs)),
          new Field("cpu.idle", "cpu", List.of(), List.of("cpu.idle"), s -> cpu(s, CpuSpec::idle)),
          new Field(
              "cpu.uclamp_min",
              "cpu",
              List.of("cpu.uclamp.min"),
              List.of("cpu.uclamp.min"),
              s -> cpu(s, CpuSpec::uclampMin)),
          new Field(
              "cpu.uclamp_max",
              "cpu",
              List.of("cpu.uclamp.max"),
              List.of("cpu.uclamp.max"),
              s -> cpu(s, CpuSpec::uclampMax)),
          new Field(
              "cpu.partition",
              "cpuset",
              List.of(),
              List.of("cpuset.cpus.partition"),
              s -> cpu(s, CpuSpec::partition)));

  @Override
  public List<Field> fields() {
    return FIELDS;
  }

  private static Object cpu(ContainerSpec s, Function<CpuSpec, Object> field) {
    return s.cpu() == null ? null : field.apply(s.cpu());
  }

  /** {@code scheduling_latency}: the kernel has no cpu.lat (a Google kernel patch). */
  @Override
  public List<String> refused() {
    return List.of("cpu.scheduling_latency");
  }

  @Override
  public void plan(ContainerSpec spec, Mode mode, ContainerView view, Planning planning) {
    if (spec.cpu() != null) {
      validate(spec.cpu());
    }
    List<FileWrite> out = planning.writes;
    CpuSpec c = spec.cpu() == null ? CpuSpec.builder().build() : spec.cpu();
    boolean replace = mode == Mode.REPLACE && view.has("cpu");
    if (c.schedulingLatency() != null) {
      Hierarchy h = view.require("cpu", "cpu.scheduling_latency");
      throw ContainerView.notOn(
          h, "cpu.scheduling_latency", "the kernel has no cpu.lat (a Google kernel patch)");
    }
    Hierarchy h =
        c.limit() != null
                || c.maxLimit() != null
                || c.burstUs() != null
                || c.idle() != null
                || replace
            ? view.require("cpu", "cpu")
            : null;
    if (h != null && !ContainerView.isV2(h)) {
      if (c.burstUs() != null) {
        throw ContainerView.notOn(h, "cpu.burst_us", "lmctfy sets cpu.max.burst on v2 only");
      }
      if (c.idle() != null) {
        throw ContainerView.notOn(h, "cpu.idle", "lmctfy sets cpu.idle on v2 only");
      }
    }
    boolean v2 = h != null && ContainerView.isV2(h);
    String idle =
        c.idle() != null
            ? (c.idle() ? "1" : "0")
            : replace && v2 && view.selfHas(h, "cpu.idle") ? "0" : null;
    if (c.limit() != null
        && idle == null
        && mode == Mode.DIFF
        && v2
        && view.selfHas(h, "cpu.idle")
        && Units.number(view.readSelf(h, "cpu.idle"), "cpu.idle") == 1) {
      throw Units.invalid(
          "cpu.limit",
          c.limit(),
          "cannot be set while the container is idle (cpu.idle 1): give " + "idle: false with it");
    }
    if ("0".equals(idle)) {
      out.add(
          new FileWrite(h, "cpu.idle", "0", "cpu.idle")); // the kernel refuses a weight while idle
    }
    if (c.limit() != null || replace && !"1".equals(idle)) {
      long shares = c.limit() == null ? DEFAULT_SHARES : shares(c.limit());
      out.add(
          v2
              ? new FileWrite(h, "cpu.weight", Long.toString(weight(shares)), "cpu.limit")
              : new FileWrite(h, "cpu.shares", Long.toString(shares), "cpu.limit"));
    }
    planMax(c, mode, replace, view, h, out);
    if ("1".equals(idle)) {
      out.add(new FileWrite(h, "cpu.idle", "1", "cpu.idle"));
    }
    planUclamp(c, mode, replace, view, out);
    Cpuset.plan(c, mode, view, out);
  }

  @Override
  public void read(ContainerView view, Set<String> fields, ContainerSpec.Builder out) {
    out.cpu(anyOf(fields) ? read(view, fields) : null);
  }

  @Override
  public void normalise(
      ContainerSpec spec, Set<String> given, ContainerView view, ContainerSpec.Builder out) {
    out.cpu(anyOf(given) ? normalise(spec.cpu(), view) : null);
  }

  private static final String NO_UCLAMP = "built without CONFIG_UCLAMP_TASK_GROUP";

  /**
   * cpu.uclamp.max, then cpu.uclamp.min; the request is checked against the other one the container
   * keeps.
   */
  private static void planUclamp(
      CpuSpec c, Mode mode, boolean replace, ContainerView view, List<FileWrite> out) {
    boolean given = c.uclampMin() != null || c.uclampMax() != null;
    if (!given && !replace) {
      return;
    }
    Hierarchy h = view.require("cpu", c.uclampMin() != null ? "cpu.uclamp_min" : "cpu.uclamp_max");
    if (!given && !view.selfHas(h, "cpu.uclamp.min")) {
      return; // REPLACE on a kernel without uclamp: nothing to reset
    }
    String file = c.uclampMin() != null ? "cpu.uclamp.min" : "cpu.uclamp.max";
    if (given
        && (mode == Mode.CREATE
            ? view.lacks(h, ContainerView.isV2(h) ? "cpu.weight" : "cpu.shares", file)
            : !view.selfHas(h, file))) {
      throw ContainerView.notOn(
          h,
          c.uclampMin() != null ? "cpu.uclamp_min" : "cpu.uclamp_max",
          "this kernel has no " + file + " (" + NO_UCLAMP + ")");
    }
    Double min = c.uclampMin() != null ? c.uclampMin() : replace ? Double.valueOf(0) : null;
    Double max = c.uclampMax() != null ? c.uclampMax() : replace ? Double.valueOf(100) : null;
    if (mode == Mode.DIFF && (min == null) != (max == null)) {
      double other = percent(view.readSelf(h, min == null ? "cpu.uclamp.min" : "cpu.uclamp.max"));
      if (min != null && min > other || max != null && max < other) {
        throw Units.invalid(
            min != null ? "cpu.uclamp_min" : "cpu.uclamp_max",
            min != null ? min : max,
            "is "
                + (min != null
                    ? "above the container's cpu.uclamp_max "
                    : "below the container's cpu.uclamp_min ")
                + other
                + ": give both");
      }
    }
    if (max != null) {
      out.add(new FileWrite(h, "cpu.uclamp.max", percent(max), "cpu.uclamp_max", NO_UCLAMP));
    }
    if (min != null) {
      out.add(new FileWrite(h, "cpu.uclamp.min", percent(min), "cpu.uclamp_min", NO_UCLAMP));
    }
  }

  /** A percentage as cpu.uclamp.* takes it: two decimals, 100 as max. */
  static String percent(double value) {
    return value >= 100 ? "max" : String.format(java.util.Locale.ROOT, "%.2f", value);
  }

  /** cpu.uclamp.* as a percentage: {@code max} is 100. */
  static double percent(String kernel) {
    try {
      return kernel.equals("max") ? 100 : Double.parseDouble(kernel);
    } catch (NumberFormatException e) {
      throw new org.lmctfy.LmctfyException(
          org.lmctfy.ErrorCode.INTERNAL, "unexpected cpu.uclamp value \"" + kernel + "\"", e);
    }
  }

  /** cpu.max (or the v1 quota and period) and cpu.max.burst, in an order the kernel accepts. */
  private static void planMax(
      CpuSpec c, Mode mode, boolean replace, ContainerView view, Hierarchy h, List<FileWrite> out) {
    boolean v2 = h != null && ContainerView.isV2(h);
    boolean writesBurst =
        v2 && (c.burstUs() != null || replace && view.selfHas(h, "cpu.max.burst"));
    if (c.maxLimit() == null && !replace && !writesBurst) {
      return;
    }
    boolean existing = mode != Mode.CREATE;
    long[] now = existing && h != null ? currentQuotaPeriod(view, h) : new long[] {-1, PERIOD_US};
    long burstNow =
        existing && v2 && view.selfHas(h, "cpu.max.burst")
            ? Units.number(view.readSelf(h, "cpu.max.burst"), "cpu.max.burst")
            : 0;
    FileWrite max = null;
    long quota = now[0];
    if (c.maxLimit() != null || replace) {
      long period = c.periodUs() != null ? c.periodUs() : mode == Mode.DIFF ? now[1] : PERIOD_US;
      quota = quota(c.maxLimit() == null ? -1 : c.maxLimit(), period);
      if (quota >= 0 && quota < 1000) {
        throw Units.invalid(
            "cpu.max_limit",
            c.maxLimit(),
            "is below the kernel's smallest quota of 1000 µs per "
                + period
                + " µs period ("
                + (1_000_000 + period - 1) / period
                + " milli-CPUs at this period)");
      }
      checkParentQuota(view, h, quota, period);
      if (v2) {
        max =
            new FileWrite(
                h,
                "cpu.max",
                (quota < 0 ? "max" : Long.toString(quota)) + " " + period,
                "cpu.max_limit");
      } else {
        out.add(new FileWrite(h, "cpu.cfs_period_us", Long.toString(period), "cpu.max_limit"));
        out.add(new FileWrite(h, "cpu.cfs_quota_us", Long.toString(quota), "cpu.max_limit"));
      }
    }
    FileWrite burst = null;
    long burstAfter = burstNow;
    if (writesBurst) {
      burstAfter = c.burstUs() == null ? 0 : c.burstUs();
      burst = new FileWrite(h, "cpu.max.burst", Long.toString(burstAfter), "cpu.burst_us");
    }
    if (quota >= 0 && burstAfter > quota) {
      throw c.burstUs() != null
          ? Units.invalid(
              "cpu.burst_us", c.burstUs(), "is above the quota of " + quota + " µs (cpu.max_limit)")
          : Units.invalid(
              "cpu.max_limit",
              c.maxLimit(),
              "gives a quota of "
                  + quota
                  + " µs, below the container's "
                  + "cpu.max.burst of "
                  + burstNow
                  + " µs: lower cpu.burst_us with it");
    }
    // the kernel keeps burst <= quota after each write: a burst that fits the old quota goes first
    if (burst != null && (now[0] < 0 || burstAfter <= now[0])) {
      out.add(burst);
      burst = null;
    }
    if (max != null) {
      out.add(max);
    }
    if (burst != null) {
      out.add(burst);
    }
  }

  /** The container's quota (-1 for none) and period now. */
  private static long[] currentQuotaPeriod(ContainerView view, Hierarchy h) {
    if (!view.selfHas(h, ContainerView.isV2(h) ? "cpu.max" : "cpu.cfs_quota_us")) {
      return new long[] {-1, PERIOD_US};
    }
    String[] qp =
        ContainerView.isV2(h)
            ? view.readSelf(h, "cpu.max").split(" ")
            : new String[] {
              view.readSelf(h, "cpu.cfs_quota_us"), view.readSelf(h, "cpu.cfs_period_us")
            };
    return new long[] {
      qp[0].equals("max") ? -1 : Units.number(qp[0], "cpu quota"), Units.number(qp[1], "cpu period")
    };
  }

  static long quota(long maxLimit, long period) {
    return maxLimit < 0 ? -1 : maxLimit * period / 1000;
  }

  static void validate(CpuSpec c) {
    if (c.limit() != null && shares(c.limit()) > MAX_SHARES) {
      throw Units.invalid(
          "cpu.limit",
          c.limit(),
          "is above the kernel's maximum of 256000 milli-CPUs (262144 shares)");
    }
  }

  /** v1 refuses a child quota above its parent's (EINVAL); say so before writing anything. */
  private static void checkParentQuota(ContainerView view, Hierarchy h, long quota, long period) {
    if (ContainerView.isV2(h) || quota < 0) {
      return; // an uncapped child of a capped parent runs under the parent's cap
    }
    long parentQuota = Units.number(view.readParent(h, "cpu.cfs_quota_us"), "cpu.cfs_quota_us");
    if (parentQuota < 0) {
      return;
    }
    long parentPeriod = Units.number(view.readParent(h, "cpu.cfs_period_us"), "cpu.cfs_period_us");
    if (quota * parentPeriod > parentQuota * period) {
      throw Units.invalid(
          "cpu.max_limit",
          quota * 1000 / period,
          "is above the parent's cap of " + parentQuota * 1000 / parentPeriod + " milli-CPUs");
    }
  }

  /** The fields of {@code fields} as the kernel has them now. */
  static CpuSpec read(ContainerView view, Set<String> fields) {
    Long limit = null;
    Long maxLimit = null;
    Long period = null;
    if (fields.contains("cpu.limit")) {
      Hierarchy h = view.require("cpu", "cpu.limit");
      limit =
          ContainerView.isV2(h)
              ? limitOfWeight(Units.number(view.readSelf(h, "cpu.weight"), "cpu.weight"))
              : limitOfShares(Units.number(view.readSelf(h, "cpu.shares"), "cpu.shares"));
    }
    if (fields.contains("cpu.max_limit") || fields.contains("cpu.period_us")) {
      long[] qp = currentQuotaPeriod(view, view.require("cpu", "cpu.max_limit"));
      maxLimit = qp[0] < 0 ? -1 : qp[0] * 1000 / qp[1];
      period = fields.contains("cpu.period_us") ? qp[1] : null;
    }
    Long burst =
        fields.contains("cpu.burst_us")
            ? Units.number(
                view.readSelf(view.require("cpu", "cpu.burst_us"), "cpu.max.burst"),
                "cpu.max.burst")
            : null;
    Boolean idle =
        fields.contains("cpu.idle")
            ? Units.number(view.readSelf(view.require("cpu", "cpu.idle"), "cpu.idle"), "cpu.idle")
                == 1
            : null;
    if (Boolean.TRUE.equals(idle)) {
      limit = null; // an idle cgroup has no weight of its own
    }
    String mask =
        fields.contains("cpu.mask")
            ? list(view.readSelf(view.require("cpuset", "cpu.mask"), "cpuset.cpus"))
            : null;
    String nodes =
        fields.contains("cpu.memory_nodes")
            ? list(view.readSelf(view.require("cpuset", "cpu.memory_nodes"), "cpuset.mems"))
            : null;
    Double uclampMin =
        fields.contains("cpu.uclamp_min")
            ? percent(view.readSelf(view.require("cpu", "cpu.uclamp_min"), "cpu.uclamp.min"))
            : null;
    Double uclampMax =
        fields.contains("cpu.uclamp_max")
            ? percent(view.readSelf(view.require("cpu", "cpu.uclamp_max"), "cpu.uclamp.max"))
            : null;
    CpuSpec.Partition partition = null;
    if (fields.contains(
        "cpu.partition")) { // the type asked for; an invalid one reads as it ("root invalid (..)")
      String p =
          view.readSelf(view.require("cpuset", "cpu.partition"), Cpuset.PARTITION).split(" ")[0];
      partition = CpuSpec.Partition.valueOf(p.toUpperCase(java.util.Locale.ROOT));
    }
    return new CpuSpec(
        limit, maxLimit, mask, nodes, null, period, burst, idle, uclampMin, uclampMax, partition);
  }

  /** A cpu or node list as the spec writes it; null for an empty one (the spec has no "none"). */
  private static String list(String kernel) {
    String formatted = CpuLists.format(CpuLists.parse(kernel, "the kernel's list"));
    return formatted.isEmpty() ? null : formatted;
  }

  /** What {@link #read} returns after a create with {@code c}. */
  static CpuSpec normalise(CpuSpec c, ContainerView view) {
    Long limit = c.limit();
    if (limit != null) {
      boolean v2 = view.find("cpu").map(ContainerView::isV2).orElse(false);
      limit = v2 ? limitOfWeight(weight(shares(limit))) : limitOfShares(shares(limit));
    }
    Long maxLimit = c.maxLimit();
    if (maxLimit != null && maxLimit >= 0) {
      long period = c.periodUs() == null ? PERIOD_US : c.periodUs();
      maxLimit = quota(maxLimit, period) * 1000 / period;
    }
    return new CpuSpec(
        limit,
        maxLimit,
        CpuLists.normalize(c.mask(), "cpu.mask"),
        CpuLists.normalize(c.memoryNodes(), "cpu.memory_nodes"),
        c.schedulingLatency(),
        c.periodUs(),
        c.burstUs(),
        c.idle(),
        c.uclampMin(),
        c.uclampMax(),
        c.partition());
  }
}
