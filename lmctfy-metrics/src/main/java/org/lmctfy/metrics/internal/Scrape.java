package org.lmctfy.metrics.internal;

import java.util.Map;
import java.util.Set;

/**
 * One collection's figures, per series: what a binding publishes until the next. Immutable.
 *
 * <p>A value is NaN where it is absent: a figure the containers lack, a series whose container
 * could not be read ({@link #complete} false), or every value of a collection whose listing failed
 * ({@link #failed}). Micrometer's gauges and counters report NaN then, by its convention;
 * OpenTelemetry gets no point.
 */
public final class Scrape {
  private final Map<String, double[]> series;
  private final Set<String> incomplete;
  private final double containers;

  Scrape(Map<String, double[]> series, Set<String> incomplete, double containers) {
    this.series = Map.copyOf(series);
    this.incomplete = Set.copyOf(incomplete);
    this.containers = containers;
  }

  /** A collection whose containers could not be listed: every value is NaN. */
  static Scrape unlisted() {
    return new Scrape(Map.of(), Set.of(), Double.NaN);
  }

  /** Whether the containers could not be listed; no series is known then. */
  public boolean failed() {
    return Double.isNaN(containers);
  }

  /** The series' keys: the values of the selection's tag ({@code ""} for the one series). */
  public Set<String> series() {
    return series.keySet();
  }

  /**
   * Whether every container of {@code series} was read: where one could not be, the series' values
   * are NaN for this collection, which says nothing of whether a figure exists.
   */
  public boolean complete(String series) {
    return this.series.containsKey(series) && !incomplete.contains(series);
  }

  /** {@code figure} of {@code series}; NaN where absent. */
  public double value(String series, Figure figure) {
    double[] values = this.series.get(series);
    return values == null ? Double.NaN : values[figure.ordinal()];
  }

  /** How many containers the series hold; NaN if they could not be listed. */
  public double containers() {
    return containers;
  }
}
