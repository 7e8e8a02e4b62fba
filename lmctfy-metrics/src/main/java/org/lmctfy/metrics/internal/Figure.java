package org.lmctfy.metrics.internal;

import java.util.function.ToDoubleFunction;
import org.jspecify.annotations.Nullable;
import org.lmctfy.spec.ContainerStats;
import org.lmctfy.spec.ContainerStats.Pressure;
import org.lmctfy.spec.ContainerStats.PressureStats;
import org.lmctfy.spec.ContainerStats.Stall;

/**
 * The figures of a container's SUMMARY stats that both bindings publish: the one table of their
 * names, kinds, units and sources. Names are OpenTelemetry's {@code container.*} semantic
 * conventions where they have one ({@code container.cpu.time}, {@code container.memory.usage},
 * {@code .working_set}, {@code .available}); the limits and the task count follow their pattern;
 * the pressure stall totals follow the PSI proposal for the semantic conventions
 * (open-telemetry/semantic-conventions#2995, pull request #3528: {@code
 * system.<resource>.linux.pressure.total} in seconds with {@code system.linux.pressure.stall_type}
 * {@code some} or {@code full}), with {@code container.} for {@code system.}. A figure a container
 * lacks (a field the stats leave null, a limit that is "none") is NaN: absent, never 0.
 */
public enum Figure {
  CPU_TIME(
      "container.cpu.time",
      Kind.COUNTER,
      Unit.SECONDS,
      null,
      "CPU time consumed by the container's tasks, its descendants' included",
      s -> s.cpu() == null ? Double.NaN : s.cpu().totalNs() / 1e9),
  MEMORY_USAGE(
      "container.memory.usage",
      Kind.GAUGE,
      Unit.BYTES,
      null,
      "Memory charged to the container and its descendants now, page cache included",
      s -> s.memory() == null ? Double.NaN : s.memory().usage()),
  MEMORY_WORKING_SET(
      "container.memory.working_set",
      Kind.GAUGE,
      Unit.BYTES,
      null,
      "Memory usage less the inactive file cache",
      s -> s.memory() == null ? Double.NaN : orNaN(s.memory().workingSet())),
  MEMORY_AVAILABLE(
      "container.memory.available",
      Kind.GAUGE,
      Unit.BYTES,
      null,
      "The effective memory limit less the working set (none without a limit)",
      Figure::available),
  MEMORY_LIMIT(
      "container.memory.limit",
      Kind.GAUGE,
      Unit.BYTES,
      null,
      "The lowest hard memory limit of the container and its ancestors (none without one)",
      s -> s.memory() == null ? Double.NaN : limit(s.memory().effectiveLimit())),
  TASK_COUNT(
      "container.task.count",
      Kind.GAUGE,
      Unit.TASKS,
      null,
      "Tasks (processes and threads) in the container and its descendants",
      s -> s.pids() == null ? Double.NaN : s.pids().current()),
  TASK_LIMIT(
      "container.task.limit",
      Kind.GAUGE,
      Unit.TASKS,
      null,
      "The container's own task limit, pids.max (none without one)",
      s -> s.pids() == null ? Double.NaN : limit(s.pids().limit())),
  CPU_PRESSURE_SOME("cpu", "some", s -> s.cpu()),
  CPU_PRESSURE_FULL("cpu", "full", s -> s.cpu()),
  MEMORY_PRESSURE_SOME("memory", "some", s -> s.memory()),
  MEMORY_PRESSURE_FULL("memory", "full", s -> s.memory()),
  IO_PRESSURE_SOME("io", "some", s -> s.io()),
  IO_PRESSURE_FULL("io", "full", s -> s.io());

  /** The attribute (tag) of the pressure figures: {@code some} or {@code full}. */
  public static final String STALL_TYPE = "system.linux.pressure.stall_type";

  /** The name of the one figure that is not a container's: how many containers were read. */
  public static final String CONTAINER_COUNT = "lmctfy.container.count";

  /** Its description. */
  public static final String CONTAINER_COUNT_DESCRIPTION =
      "Containers the binding reads at each collection";

  /** How a figure changes, and so which instrument carries it. */
  public enum Kind {
    /** Only grows (a sum since the container began): Micrometer FunctionCounter, OTel counter. */
    COUNTER,
    /** A value now: Micrometer Gauge, OTel up-down counter (as the conventions name usage). */
    GAUGE
  }

  /**
   * A figure's unit in each binding's spelling: UCUM for OpenTelemetry, a base unit for Micrometer.
   */
  public enum Unit {
    SECONDS("s", "seconds"),
    BYTES("By", "bytes"),
    TASKS("{task}", "tasks"),
    CONTAINERS("{container}", "containers");

    private final String ucum;
    private final String baseUnit;

    Unit(String ucum, String baseUnit) {
      this.ucum = ucum;
      this.baseUnit = baseUnit;
    }

    /** OpenTelemetry's unit. */
    public String ucum() {
      return ucum;
    }

    /** Micrometer's base unit. */
    public String baseUnit() {
      return baseUnit;
    }
  }

  private final String name;
  private final Kind kind;
  private final Unit unit;
  private final @Nullable String stallType;
  private final String description;
  private final ToDoubleFunction<ContainerStats> source;

  Figure(
      String name,
      Kind kind,
      Unit unit,
      @Nullable String stallType,
      String description,
      ToDoubleFunction<ContainerStats> source) {
    this.name = name;
    this.kind = kind;
    this.unit = unit;
    this.stallType = stallType;
    this.description = description;
    this.source = source;
  }

  /** A pressure stall total of {@code resource}: {@code some} or {@code full} tasks stalled. */
  Figure(
      String resource,
      String stallType,
      java.util.function.Function<PressureStats, @Nullable Pressure> pressure) {
    this(
        "container." + resource + ".linux.pressure",
        Kind.COUNTER,
        Unit.SECONDS,
        stallType,
        "Time in which some (stall type some) or all (full) of the container's tasks were"
            + " stalled waiting for "
            + resource
            + " (PSI)",
        s -> stall(s, pressure, stallType));
  }

  /**
   * The name in OpenTelemetry: the pressure totals end in {@code .total}, as the PSI proposal has
   * them beside its averages.
   */
  public String otelName() {
    return stallType == null ? name : name + ".total";
  }

  /**
   * The name in Micrometer: a counter's carries no {@code .total}, which registries add their way.
   */
  public String micrometerName() {
    return name;
  }

  public Kind kind() {
    return kind;
  }

  public Unit unit() {
    return unit;
  }

  /** {@code some} or {@code full} for a pressure total (the {@link #STALL_TYPE} tag), else null. */
  public @Nullable String stallType() {
    return stallType;
  }

  public String description() {
    return description;
  }

  /** This figure of one container's stats; NaN where the stats lack it. */
  public double of(ContainerStats stats) {
    return source.applyAsDouble(stats);
  }

  private static double orNaN(@Nullable Long value) {
    return value == null ? Double.NaN : value;
  }

  /** A limit as the stats give it (-1 or null for none): none is NaN. */
  private static double limit(@Nullable Long value) {
    return value == null || value < 0 ? Double.NaN : value;
  }

  private static double available(ContainerStats s) {
    if (s.memory() == null) {
      return Double.NaN;
    }
    double limit = limit(s.memory().effectiveLimit());
    double workingSet = orNaN(s.memory().workingSet());
    return Math.max(0, limit - workingSet); // NaN stays NaN
  }

  private static double stall(
      ContainerStats s,
      java.util.function.Function<PressureStats, @Nullable Pressure> resource,
      String stallType) {
    Pressure p = s.pressure() == null ? null : resource.apply(s.pressure());
    Stall stall = p == null ? null : "some".equals(stallType) ? p.some() : p.full();
    return stall == null ? Double.NaN : stall.totalNs() / 1e9;
  }
}
