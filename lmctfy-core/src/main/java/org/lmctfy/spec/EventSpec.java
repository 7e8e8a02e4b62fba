package org.lmctfy.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.lmctfy.internal.codec.SpecCodec;

/**
 * An event to be notified of ({@link org.lmctfy.Container#registerNotification}): lmctfy's {@code
 * EventSpec}. Exactly one field is set; use the static factories.
 *
 * <pre>{@code
 * job.registerNotification(EventSpec.memoryThreshold(100L << 20), listener);
 * EventSpec oom = EventSpec.parse("oom {}");
 * }</pre>
 *
 * <p>Immutable and thread-safe.
 *
 * <p>The components {@code oomEvent}, {@code containerEmptyEvent}, {@code containerDestroyedEvent}
 * and {@code memoryHighEvent} carry an {@code Event} suffix because {@link #oom()}, {@link
 * #containerEmpty()}, {@link #containerDestroyed()} and {@link #memoryHigh()} are the factories.
 *
 * @param oomEvent {@code oom}: the container hit an out-of-memory condition
 * @param memoryThreshold {@code memory_threshold}: memory usage crossed a number of bytes
 * @param containerEmptyEvent {@code container_empty}: the last process of the container exited
 * @param containerDestroyedEvent {@code container_destroyed}: the container went away
 * @param pressure {@code pressure}: a PSI stall threshold was crossed (v2)
 * @param memoryHighEvent {@code memory_high}: the kernel throttled the container at its {@code
 *     memory.high} (v2)
 * @since 0.1
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EventSpec(
    @JsonProperty("oom") @Nullable OomEvent oomEvent,
    @JsonProperty("memory_threshold") @Nullable MemoryThreshold memoryThreshold,
    @JsonProperty("container_empty") @Nullable ContainerEmpty containerEmptyEvent,
    @JsonProperty("container_destroyed") @Nullable ContainerDestroyed containerDestroyedEvent,
    @JsonProperty("pressure") @Nullable PressureTrigger pressure,
    @JsonProperty("memory_high") @Nullable MemoryHigh memoryHighEvent) {

  /** Checks that exactly one event is set. */
  public EventSpec {
    List<String> set = new ArrayList<>();
    if (oomEvent != null) {
      set.add("oom");
    }
    if (memoryThreshold != null) {
      set.add("memory_threshold");
    }
    if (containerEmptyEvent != null) {
      set.add("container_empty");
    }
    if (containerDestroyedEvent != null) {
      set.add("container_destroyed");
    }
    if (pressure != null) {
      set.add("pressure");
    }
    if (memoryHighEvent != null) {
      set.add("memory_high");
    }
    if (set.size() != 1) {
      throw Checks.problem(
          "event",
          "exactly one of oom, memory_threshold, container_empty, "
              + "container_destroyed, pressure, memory_high must be set, got "
              + (set.isEmpty() ? "none" : set));
    }
  }

  /**
   * The constructor of 0.1, without {@code memoryHighEvent}: kept so that code compiled against 0.1
   * links.
   *
   * @deprecated use the factories ({@link #oom()}, ...) or the canonical constructor
   */
  @Deprecated(since = "0.2")
  public EventSpec(
      @Nullable OomEvent oomEvent,
      @Nullable MemoryThreshold memoryThreshold,
      @Nullable ContainerEmpty containerEmptyEvent,
      @Nullable ContainerDestroyed containerDestroyedEvent,
      @Nullable PressureTrigger pressure) {
    this(oomEvent, memoryThreshold, containerEmptyEvent, containerDestroyedEvent, pressure, null);
  }

  /** Out-of-memory in the container. */
  public static EventSpec oom() {
    return new EventSpec(new OomEvent(), null, null, null, null, null);
  }

  /**
   * Memory usage (bytes, {@code > 0}) crossed, either way. See {@link MemoryThreshold} for how each
   * kernel tells.
   *
   * @param usageBytes the usage in bytes
   */
  public static EventSpec memoryThreshold(long usageBytes) {
    return new EventSpec(null, new MemoryThreshold(usageBytes), null, null, null, null);
  }

  /** The container has no processes left. */
  public static EventSpec containerEmpty() {
    return new EventSpec(null, null, new ContainerEmpty(), null, null, null);
  }

  /** The container was destroyed. */
  public static EventSpec containerDestroyed() {
    return new EventSpec(null, null, null, new ContainerDestroyed(), null, null);
  }

  /** A pressure stall trigger; see {@link PressureTrigger} for units and ranges. */
  public static EventSpec pressure(
      PressureTrigger.Resource resource,
      PressureTrigger.Kind kind,
      long thresholdUs,
      long windowUs) {
    return new EventSpec(
        null, null, null, null, new PressureTrigger(resource, kind, thresholdUs, windowUs), null);
  }

  /**
   * The kernel throttled the container at its {@code memory.high} (cgroup v2 only): the {@code
   * high} counter of its {@code memory.events} grew. See {@link MemoryHigh}.
   */
  public static EventSpec memoryHigh() {
    return new EventSpec(null, null, null, null, null, new MemoryHigh());
  }

  /**
   * Reads an event spec from text format ({@code memory_threshold { usage: 1048576 }}) or JSON.
   *
   * @throws org.lmctfy.LmctfyException INVALID_ARGUMENT naming the field and the bad value
   */
  public static EventSpec parse(String text) {
    return SpecCodec.parse(text, EventSpec.class, "event spec");
  }

  /** This event spec as compact JSON. */
  public String toJson() {
    return SpecCodec.toJson(this);
  }

  /** This event spec in text format. */
  public String toText() {
    return SpecCodec.toText(this);
  }

  /** lmctfy's {@code oom {}}: no parameters. */
  public record OomEvent() {}

  /** lmctfy's {@code container_empty {}}: no parameters. */
  public record ContainerEmpty() {}

  /** {@code container_destroyed {}}: no parameters. */
  public record ContainerDestroyed() {}

  /**
   * {@code memory_high {}}: an event each time the {@code high} counter of the container's {@code
   * memory.events} grows, that is, each time the kernel found the container (or a subcontainer)
   * above its {@code memory.high} and throttled it, reclaiming its memory and delaying its
   * allocations: memory pressure that comes before an out-of-memory kill, what Kubernetes' KEP-5986
   * evicts a container on. The notification's detail gives the counter and its growth ({@code "high
   * 7 (+2)"}: one wake-up may stand for several). cgroup v2 only (v1 has no {@code memory.high}):
   * registering it on v1 is FAILED_PRECONDITION. Seen by inotify on {@code memory.events}, as v2's
   * {@code oom}; no parameters.
   */
  public record MemoryHigh() {}

  /**
   * lmctfy's {@code memory_threshold}: an event each time memory usage crosses {@code usage}, up or
   * down (not for the side usage is on when registering).
   *
   * <p>cgroup v1: an eventfd registered in {@code cgroup.event_control} on {@code
   * memory.usage_in_bytes}; the kernel signals each crossing. cgroup v2 has no usage notification,
   * so the library's watch thread reads {@code memory.current} every 100 ms ({@link
   * org.lmctfy.cgroupfs.CgroupWatcher#POLL_INTERVAL}) and reports a crossing within about that
   * time; a crossing and its return within one interval go unseen. The two kernel mechanisms v2
   * offers instead were rejected: {@code memory.events} {@code high} fires only past {@code
   * memory.high}, which the library would have to set to the threshold, throttling the container at
   * it; and PSI ({@link #pressure}) measures time stalled, not bytes used (register it where stalls
   * are what matters). Cost on v2: one read of one file per registration every 100 ms.
   *
   * @param usage {@code usage}: the threshold in bytes, {@code > 0}; required
   */
  public record MemoryThreshold(@JsonProperty("usage") @JsonSetter(nulls = Nulls.FAIL) long usage) {
    /** Validates the threshold. */
    public MemoryThreshold {
      if (usage <= 0) {
        throw Checks.invalid("memory_threshold.usage", usage, "must be > 0 bytes");
      }
    }
  }

  /**
   * A PSI trigger, written to {@code cpu.pressure}, {@code memory.pressure} or {@code io.pressure}
   * as {@code "<some|full> <threshold_us> <window_us>"}.
   *
   * @param resource {@code resource}: CPU, MEMORY or IO; required
   * @param kind {@code kind}: SOME (some tasks stalled) or FULL (all stalled); required
   * @param thresholdUs {@code threshold_us}: stall time in microseconds within a window that fires
   *     the event, {@code > 0} and {@code <= window_us}; required
   * @param windowUs {@code window_us}: window length in microseconds, 500000..10000000; required
   */
  public record PressureTrigger(
      @JsonProperty("resource") Resource resource,
      @JsonProperty("kind") Kind kind,
      @JsonProperty("threshold_us") @JsonSetter(nulls = Nulls.FAIL) long thresholdUs,
      @JsonProperty("window_us") @JsonSetter(nulls = Nulls.FAIL) long windowUs) {

    /** The resource whose pressure is watched. */
    public enum Resource {
      /** {@code cpu.pressure}. */
      CPU,
      /** {@code memory.pressure}. */
      MEMORY,
      /** {@code io.pressure}. */
      IO
    }

    /** Which PSI line: some tasks stalled, or all of them. */
    public enum Kind {
      /** Some tasks stalled. */
      SOME,
      /** All non-idle tasks stalled at once. */
      FULL
    }

    /** Validates the resource, kind, window and threshold. */
    public PressureTrigger {
      Checks.required(resource, "pressure.resource");
      Checks.required(kind, "pressure.kind");
      if (windowUs < 500_000 || windowUs > 10_000_000) {
        throw Checks.invalid(
            "pressure.window_us", windowUs, "must be in 500000..10000000 microseconds");
      }
      if (thresholdUs <= 0 || thresholdUs > windowUs) {
        throw Checks.invalid(
            "pressure.threshold_us",
            thresholdUs,
            "must be > 0 and <= pressure.window_us (" + windowUs + ")");
      }
    }

    /** The trigger line the kernel takes: {@code "some 150000 1000000"}. */
    public String kernelTrigger() {
      return kind.name().toLowerCase(java.util.Locale.ROOT) + " " + thresholdUs + " " + windowUs;
    }
  }
}
