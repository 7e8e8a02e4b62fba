package org.lmctfy.micrometer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.LmctfyException;
import org.lmctfy.metrics.ContainerSelection;
import org.lmctfy.metrics.internal.Collector;
import org.lmctfy.metrics.internal.Figure;
import org.lmctfy.metrics.internal.Scrape;

/**
 * Containers' CPU time, memory, tasks, limits and pressure stalls as Micrometer meters, named after
 * OpenTelemetry's {@code container.*} semantic conventions: {@code container.cpu.time} (a {@link
 * FunctionCounter} in seconds), {@code container.memory.usage} (a {@link Gauge} in bytes), {@code
 * container.memory.working_set}, {@code .available}, {@code .limit}, {@code container.task.count},
 * {@code .limit}, and {@code container.cpu.linux.pressure}, {@code
 * container.memory.linux.pressure}, {@code container.io.linux.pressure} (counters in seconds,
 * tagged {@code system.linux.pressure.stall_type} {@code some} or {@code full}), with {@code
 * lmctfy.container.count}, the containers read. docs/metrics.md has the table and where each figure
 * comes from.
 *
 * <p>Which containers, and which series they make, is a {@link ContainerSelection}: a fixed set, or
 * the children of a parent listed again at each collection, so that a new container's meters appear
 * and a destroyed one's are removed; one series for all by default, a series per container (tag
 * {@code container.name}) or per label (tag {@code lmctfy.container.label}) where asked for.
 *
 * <p>Cost: the first meter polled reads every container in one {@link ContainerApi#stats} call
 * (SUMMARY); the others reuse that read for {@link Builder#cacheFor} (1 s), so a scrape reads each
 * container once. A meter exists while its value does: a figure the kernel lacks (pressure on
 * cgroup v1, a limit that is "none") has no meter. Where a container cannot be read, or the
 * children not listed, its meters report NaN (Micrometer's convention for no value) and the failure
 * is logged at WARN once, until it recovers; a container destroyed between listing and reading is
 * left out.
 * <!-- snippet: examples/src/main/java/org/lmctfy/examples/ContainerMeters.java -->
 *
 * <pre>{@code
 * ContainerMetrics.builder(api, ContainerSelection.childrenOf(parent).withContainerNameTag())
 *     .build() // api: a ContainerApi, open while the registry polls the meters
 *     .bindTo(registry);
 * }</pre>
 *
 * <p>Thread-safe; it may be bound to several registries.
 *
 * @since 0.2
 */
public final class ContainerMetrics implements MeterBinder {
  private final Collector collector;
  private final Tags tags;
  private final long cacheNanos;

  /**
   * The last collection and when it was made (by the polling registry's clock); guarded by this.
   */
  private @Nullable Scrape last;

  private long lastAt;

  private ContainerMetrics(Collector collector, Tags tags, Duration cacheFor) {
    this.collector = collector;
    this.tags = tags;
    this.cacheNanos = cacheFor.toNanos();
  }

  /**
   * A builder of the meters of {@code containers}, read through {@code api}.
   *
   * @param api the API the stats are read through
   * @param containers which containers, and how their series are told apart
   */
  public static Builder builder(ContainerApi api, ContainerSelection containers) {
    return new Builder(
        Objects.requireNonNull(api, "api"), Objects.requireNonNull(containers, "containers"));
  }

  /**
   * Registers {@code lmctfy.container.count} and the meters of the containers there are now (their
   * first read); later collections add and remove meters as containers come and go.
   */
  @Override
  public void bindTo(MeterRegistry registry) {
    new Binding(Objects.requireNonNull(registry, "registry")).start();
  }

  private synchronized Scrape current(long now) {
    if (last == null || now - lastAt >= cacheNanos) {
      last = collector.collect();
      lastAt = now;
    }
    return last;
  }

  /** The meters of one registry, made and removed as the collections say. */
  private final class Binding {
    private final MeterRegistry registry;

    /** Per series, its meters; guarded by this. */
    private final Map<String, Map<Figure, Meter>> meters = new HashMap<>();

    private @Nullable Scrape reconciled;

    Binding(MeterRegistry registry) {
      this.registry = registry;
    }

    void start() {
      Gauge.builder(Figure.CONTAINER_COUNT, this, b -> b.read().containers())
          .description(Figure.CONTAINER_COUNT_DESCRIPTION)
          .baseUnit(Figure.Unit.CONTAINERS.baseUnit())
          .tags(tags)
          .strongReference(true)
          .register(registry);
      read();
    }

    /** The current collection; the meters made to match it first. */
    Scrape read() {
      Scrape scrape = current(registry.config().clock().monotonicTime());
      synchronized (this) {
        if (scrape != reconciled) {
          reconcile(scrape);
          reconciled = scrape;
        }
      }
      return scrape;
    }

    double value(String series, Figure figure) {
      return read().value(series, figure);
    }

    /**
     * Removes the meters of series that are gone and of values that are absent, adds those of
     * values that are present; a failed collection, or a series whose container could not be read,
     * changes nothing (its meters report NaN).
     */
    private void reconcile(Scrape scrape) {
      if (scrape.failed()) {
        return;
      }
      for (Iterator<Map.Entry<String, Map<Figure, Meter>>> it = meters.entrySet().iterator();
          it.hasNext(); ) {
        Map.Entry<String, Map<Figure, Meter>> e = it.next();
        boolean gone = !scrape.series().contains(e.getKey());
        if (!gone && !scrape.complete(e.getKey())) {
          continue;
        }
        e.getValue()
            .entrySet()
            .removeIf(
                m -> {
                  boolean remove = gone || Double.isNaN(scrape.value(e.getKey(), m.getKey()));
                  if (remove) {
                    registry.remove(m.getValue());
                  }
                  return remove;
                });
        if (e.getValue().isEmpty()) {
          it.remove();
        }
      }
      for (String series : scrape.series()) {
        if (!scrape.complete(series)) {
          continue;
        }
        Map<Figure, Meter> have = meters.computeIfAbsent(series, k -> new EnumMap<>(Figure.class));
        for (Figure f : Figure.values()) {
          if (!have.containsKey(f) && !Double.isNaN(scrape.value(series, f))) {
            have.put(f, register(series, f));
          }
        }
      }
    }

    private Meter register(String series, Figure f) {
      List<Tag> all = new ArrayList<>();
      tags.forEach(all::add);
      String tag = collector.selection().tag();
      if (tag != null) {
        all.add(Tag.of(tag, series));
      }
      if (f.stallType() != null) {
        all.add(Tag.of(Figure.STALL_TYPE, f.stallType()));
      }
      if (f.kind() == Figure.Kind.COUNTER) {
        return FunctionCounter.builder(f.micrometerName(), this, b -> b.value(series, f))
            .description(f.description())
            .baseUnit(f.unit().baseUnit())
            .tags(all)
            .register(registry);
      }
      return Gauge.builder(f.micrometerName(), this, b -> b.value(series, f))
          .description(f.description())
          .baseUnit(f.unit().baseUnit())
          .tags(all)
          .strongReference(true)
          .register(registry);
    }
  }

  /**
   * The options of {@link ContainerMetrics} besides its selection: tags every meter carries, how
   * long a collection is reused. Not thread-safe.
   *
   * @since 0.2
   */
  public static final class Builder {
    private final ContainerApi api;
    private final ContainerSelection containers;
    private Tags tags = Tags.empty();
    private Duration cacheFor = Duration.ofSeconds(1);

    private Builder(ContainerApi api, ContainerSelection containers) {
      this.api = api;
      this.containers = containers;
    }

    /**
     * Tags every meter carries.
     *
     * @param tags the tags
     */
    public Builder tags(Iterable<Tag> tags) {
      this.tags = Tags.of(Objects.requireNonNull(tags, "tags"));
      return this;
    }

    /**
     * How long one read of the containers serves the meters polled after it (1 s): a scrape polls
     * every meter within it.
     *
     * @param cacheFor a positive duration
     */
    public Builder cacheFor(Duration cacheFor) {
      this.cacheFor = Objects.requireNonNull(cacheFor, "cacheFor");
      return this;
    }

    /**
     * The binder.
     *
     * @throws LmctfyException INVALID_ARGUMENT for a cacheFor that is not positive, or a
     *     container's name the API cannot take
     */
    public ContainerMetrics build() {
      if (cacheFor.isNegative() || cacheFor.isZero()) {
        throw new LmctfyException(
            ErrorCode.INVALID_ARGUMENT,
            "ContainerMetrics.cacheFor must be a positive duration, not " + cacheFor);
      }
      return new ContainerMetrics(new Collector(api, containers), tags, cacheFor);
    }
  }
}
