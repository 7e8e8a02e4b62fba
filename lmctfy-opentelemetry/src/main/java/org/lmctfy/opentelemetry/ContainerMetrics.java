package org.lmctfy.opentelemetry;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.BatchCallback;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.metrics.ObservableDoubleMeasurement;
import io.opentelemetry.api.metrics.ObservableLongMeasurement;
import io.opentelemetry.api.metrics.ObservableMeasurement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.lmctfy.ContainerApi;
import org.lmctfy.LmctfyException;
import org.lmctfy.metrics.ContainerSelection;
import org.lmctfy.metrics.internal.Collector;
import org.lmctfy.metrics.internal.Figure;
import org.lmctfy.metrics.internal.Scrape;

/**
 * Containers' CPU time, memory, tasks, limits and pressure stalls as OpenTelemetry instruments,
 * observed at each collection, named after OpenTelemetry's {@code container.*} semantic
 * conventions: {@code container.cpu.time} (a counter in {@code s}), {@code container.memory.usage},
 * {@code .working_set}, {@code .available} and {@code .limit} (up-down counters in {@code By}),
 * {@code container.task.count} and {@code .limit} ({@code {task}}), {@code
 * container.cpu.linux.pressure.total}, {@code container.memory.linux.pressure.total} and {@code
 * container.io.linux.pressure.total} (counters in {@code s} with the attribute {@code
 * system.linux.pressure.stall_type} {@code some} or {@code full}, after the semantic conventions'
 * PSI proposal), and {@code lmctfy.container.count}, the containers read. docs/metrics.md has the
 * table and where each figure comes from.
 *
 * <p>Which containers, and which series they make, is a {@link ContainerSelection}: a fixed set, or
 * the children of a parent listed again at each collection, so that a destroyed container's points
 * stop and a new one's start; one series for all by default, a series per container (attribute
 * {@code container.name}) or per label (attribute {@code lmctfy.container.label}) where asked for.
 *
 * <p>One batch callback observes every instrument: each collection reads every container in one
 * {@link ContainerApi#stats} call (SUMMARY). A value the kernel lacks (pressure on cgroup v1, a
 * limit that is "none") has no point; neither has a series whose container cannot be read, nor a
 * collection whose children cannot be listed, and the failure is logged at WARN once, until it
 * recovers; a container destroyed between listing and reading is left out.
 * <!-- snippet: lmctfy-opentelemetry/src/test/java/org/lmctfy/opentelemetry/ContainerMetricsTest.java -->
 *
 * <pre>{@code
 * ContainerSelection web = ContainerSelection.containers(List.of("/web", "/db")).withContainerNameTag();
 * ContainerMetrics metrics = ContainerMetrics.builder(api, web, openTelemetry).build();
 * // observed at each collection until metrics.close(); api stays open until then
 * }</pre>
 *
 * <p>Thread-safe. Close it to stop observing.
 *
 * @since 0.2
 */
public final class ContainerMetrics implements AutoCloseable {
  /** The instrumentation scope of the instruments. */
  public static final String SCOPE = "org.lmctfy.opentelemetry";

  private static final AttributeKey<String> STALL_TYPE = AttributeKey.stringKey(Figure.STALL_TYPE);

  private final Collector collector;
  private final Attributes attributes;
  private final ObservableLongMeasurement count;

  /** Each figure's instrument (the pressure figures of one resource share theirs). */
  private final Map<Figure, ObservableMeasurement> instruments = new LinkedHashMap<>();

  private final BatchCallback callback;

  private ContainerMetrics(Collector collector, Attributes attributes, OpenTelemetry otel) {
    this.collector = collector;
    this.attributes = attributes;
    Meter meter = otel.meterBuilder(SCOPE).build();
    count =
        meter
            .upDownCounterBuilder(Figure.CONTAINER_COUNT)
            .setDescription(Figure.CONTAINER_COUNT_DESCRIPTION)
            .setUnit(Figure.Unit.CONTAINERS.ucum())
            .buildObserver();
    Map<String, ObservableMeasurement> byName = new LinkedHashMap<>();
    for (Figure f : Figure.values()) {
      instruments.put(f, byName.computeIfAbsent(f.otelName(), name -> instrument(meter, f)));
    }
    callback =
        meter.batchCallback(
            this::observe, count, byName.values().toArray(ObservableMeasurement[]::new));
  }

  private static ObservableMeasurement instrument(Meter meter, Figure f) {
    if (f.kind() == Figure.Kind.COUNTER) {
      return meter
          .counterBuilder(f.otelName())
          .ofDoubles()
          .setDescription(f.description())
          .setUnit(f.unit().ucum())
          .buildObserver();
    }
    return meter
        .upDownCounterBuilder(f.otelName())
        .setDescription(f.description())
        .setUnit(f.unit().ucum())
        .buildObserver();
  }

  /**
   * A builder of the instruments of {@code containers}, read through {@code api}, made by {@code
   * openTelemetry}'s meter provider.
   *
   * @param api the API the stats are read through
   * @param containers which containers, and how their series are told apart
   * @param openTelemetry the OpenTelemetry whose meter provider makes the instruments
   */
  public static Builder builder(
      ContainerApi api, ContainerSelection containers, OpenTelemetry openTelemetry) {
    return new Builder(
        Objects.requireNonNull(api, "api"),
        Objects.requireNonNull(containers, "containers"),
        Objects.requireNonNull(openTelemetry, "openTelemetry"));
  }

  /** One collection: reads the containers and records each value present. */
  private void observe() {
    Scrape scrape = collector.collect();
    if (scrape.failed()) {
      return;
    }
    count.record((long) scrape.containers(), attributes);
    String tag = collector.selection().tag();
    for (String series : scrape.series()) {
      Attributes base = tag == null ? attributes : attributes.toBuilder().put(tag, series).build();
      for (Map.Entry<Figure, ObservableMeasurement> e : instruments.entrySet()) {
        Figure f = e.getKey();
        double value = scrape.value(series, f);
        if (Double.isNaN(value)) {
          continue;
        }
        Attributes a =
            f.stallType() == null ? base : base.toBuilder().put(STALL_TYPE, f.stallType()).build();
        if (f.kind() == Figure.Kind.COUNTER) { // a double counter (the SDK's measurements are both)
          ((ObservableDoubleMeasurement) e.getValue()).record(value, a);
        } else {
          ((ObservableLongMeasurement) e.getValue()).record((long) value, a);
        }
      }
    }
  }

  /** Stops observing: the instruments report nothing more. */
  @Override
  public void close() {
    callback.close();
  }

  /**
   * The options of {@link ContainerMetrics} besides its selection: the attributes every point
   * carries. Not thread-safe.
   *
   * @since 0.2
   */
  public static final class Builder {
    private final ContainerApi api;
    private final ContainerSelection containers;
    private final OpenTelemetry openTelemetry;
    private Attributes attributes = Attributes.empty();

    private Builder(ContainerApi api, ContainerSelection containers, OpenTelemetry openTelemetry) {
      this.api = api;
      this.containers = containers;
      this.openTelemetry = openTelemetry;
    }

    /**
     * Attributes every point carries.
     *
     * @param attributes the attributes
     */
    public Builder attributes(Attributes attributes) {
      this.attributes = Objects.requireNonNull(attributes, "attributes");
      return this;
    }

    /**
     * Makes the instruments and starts observing them.
     *
     * @throws LmctfyException INVALID_ARGUMENT for a container's name the API cannot take
     */
    public ContainerMetrics build() {
      return new ContainerMetrics(new Collector(api, containers), attributes, openTelemetry);
    }
  }
}
