package org.lmctfy.metrics.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.lmctfy.ContainerApi;
import org.lmctfy.ErrorCode;
import org.lmctfy.ListPolicy;
import org.lmctfy.LmctfyException;
import org.lmctfy.StatsType;
import org.lmctfy.metrics.ContainerSelection;
import org.lmctfy.spec.ContainerStats;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the selected containers' stats and sums them into their series: one collection of both
 * bindings. Thread-safe: collections run one at a time.
 *
 * <ul>
 *   <li>One {@link ContainerApi#stats(java.util.Collection, StatsType)} call (SUMMARY) reads every
 *       container. Where it fails (a container was destroyed since it was listed, or one cannot be
 *       read) each container is read alone: one that is gone is left out (DEBUG, once), one that
 *       cannot be read makes its series' values NaN (WARN, once, until it can be read again). A
 *       listing that fails makes the whole collection's values NaN (WARN, once likewise).
 *   <li>A series' gauge is the sum of its containers' values, absent (NaN) if any of them lacks it.
 *       A series' counter never goes down: a container that leaves the series (destroyed, or made
 *       again under its name, which its counter going back shows) keeps what it had counted in it,
 *       for as long as the series has containers.
 * </ul>
 */
public final class Collector {
  private static final Figure[] FIGURES = Figure.values();

  private final ContainerApi api;
  private final ContainerSelection selection;
  private final Logger log;

  /** Per series, per counter figure (by ordinal), what its containers have counted. */
  private final Map<String, Tally[]> tallies = new HashMap<>();

  /** What failed at the last collection (a container's name, or "" for the listing). */
  private Set<String> failing = Set.of();

  /** The containers found gone at the last collection. */
  private Set<String> gone = Set.of();

  /**
   * A collector of {@code selection} read through {@code api}.
   *
   * @throws LmctfyException INVALID_ARGUMENT for a container's name the API cannot take
   */
  public Collector(ContainerApi api, ContainerSelection selection) {
    this(api, selection, LoggerFactory.getLogger(Collector.class));
  }

  /** A collector that logs to {@code log} (a test's). */
  Collector(ContainerApi api, ContainerSelection selection, Logger log) {
    this.api = Objects.requireNonNull(api, "api");
    this.selection = Objects.requireNonNull(selection, "selection");
    this.log = log;
    String parent = selection.parent();
    for (String name : parent == null ? selection.names() : List.of(parent)) {
      api.exists(name); // INVALID_ARGUMENT for a name the API cannot take
    }
  }

  public ContainerSelection selection() {
    return selection;
  }

  /** Reads the containers now. */
  public synchronized Scrape collect() {
    Set<String> nowFailing = new HashSet<>();
    Set<String> nowGone = new HashSet<>();
    String parent = selection.parent();
    List<String> names = selection.names();
    if (parent != null) {
      try {
        names = api.get(parent).listSubcontainers(ListPolicy.SELF);
      } catch (LmctfyException e) {
        if (e.code() != ErrorCode.NOT_FOUND) {
          failed(nowFailing, "", "cannot list the children of " + parent, e);
          failing = nowFailing;
          return Scrape.unlisted();
        }
        names = List.of(); // no parent yet, or no longer: no children to read
        nowGone.add(parent);
        if (!gone.contains(parent)) {
          log.info("container metrics: no containers to read: {}", e.getMessage());
        }
      }
    }
    Map<String, List<String>> members = new LinkedHashMap<>();
    for (String name : names) {
      String series = selection.seriesOf(name);
      if (series != null) {
        members.computeIfAbsent(series, k -> new ArrayList<>()).add(name);
      }
    }
    Map<String, ContainerStats> stats = read(members, nowFailing, nowGone);
    Map<String, double[]> values = new HashMap<>();
    Set<String> incomplete = new HashSet<>();
    int containers = 0;
    for (Map.Entry<String, List<String>> e : members.entrySet()) {
      List<String> present = new ArrayList<>();
      int there = 0;
      for (String name : e.getValue()) {
        if (stats.containsKey(name)) {
          present.add(name);
        }
        if (!nowGone.contains(name)) {
          there++; // read, or there but unreadable
        }
      }
      if (there == 0) {
        continue; // every container of the series is gone
      }
      containers += there;
      if (present.size() < there) { // one could not be read
        incomplete.add(e.getKey());
        double[] none = new double[FIGURES.length];
        Arrays.fill(none, Double.NaN);
        values.put(e.getKey(), none);
        continue;
      }
      values.put(e.getKey(), sum(e.getKey(), present, stats));
    }
    tallies.keySet().retainAll(values.keySet()); // a series without containers starts afresh
    failing = nowFailing;
    gone = nowGone;
    return new Scrape(values, incomplete, containers);
  }

  /** The stats of every member, in one call where it can; failures and departures noted. */
  private Map<String, ContainerStats> read(
      Map<String, List<String>> members, Set<String> nowFailing, Set<String> nowGone) {
    List<String> names = new ArrayList<>();
    members.values().forEach(names::addAll);
    Map<String, ContainerStats> out = new HashMap<>();
    if (names.isEmpty()) {
      return out;
    }
    try {
      Map<String, ContainerStats> all = api.stats(names, StatsType.SUMMARY);
      if (all.size() == names.size()) { // in the order given; a name spelt twice is read alone
        Iterator<ContainerStats> it = all.values().iterator();
        names.forEach(n -> out.put(n, it.next()));
        return out;
      }
    } catch (LmctfyException e) {
      log.debug(
          "container metrics: reading {} containers at once failed, each alone: {}",
          names.size(),
          e.toString());
    }
    for (String name : names) {
      try {
        out.put(name, api.stats(List.of(name), StatsType.SUMMARY).values().iterator().next());
      } catch (LmctfyException e) {
        if (e.code() == ErrorCode.NOT_FOUND) {
          note(nowGone, name, e);
        } else {
          failed(nowFailing, name, "cannot read the stats of " + name, e);
        }
      }
    }
    return out;
  }

  private double[] sum(String series, List<String> present, Map<String, ContainerStats> stats) {
    double[] values = new double[FIGURES.length];
    Tally[] counted = tallies.computeIfAbsent(series, k -> new Tally[FIGURES.length]);
    for (Figure f : FIGURES) {
      Map<String, Double> each = new HashMap<>();
      double total = 0;
      for (String name : present) {
        double v = f.of(stats.get(name));
        each.put(name, v);
        total += v; // NaN if any is
      }
      if (f.kind() == Figure.Kind.COUNTER) {
        if (counted[f.ordinal()] == null) {
          counted[f.ordinal()] = new Tally();
        }
        total = counted[f.ordinal()].count(each);
      }
      values[f.ordinal()] = total;
    }
    return values;
  }

  /** A container found gone: DEBUG, the first time. */
  private void note(Set<String> nowGone, String name, LmctfyException e) {
    nowGone.add(name);
    if (!gone.contains(name)) {
      log.debug("container metrics: {} is gone, left out: {}", name, e.getMessage());
    }
  }

  /** A real failure: WARN the first time, DEBUG while it lasts. */
  private void failed(Set<String> nowFailing, String key, String what, LmctfyException e) {
    nowFailing.add(key);
    if (failing.contains(key)) {
      log.debug("container metrics: still {}: {}", what, e.toString());
    } else {
      log.warn(
          "container metrics: {}; its values are NaN (Micrometer) or left out (OpenTelemetry)"
              + " until it can; said once: {}",
          what,
          e.toString(),
          e);
    }
  }

  /** What one series' containers have counted of one counter figure. */
  private static final class Tally {
    /** What containers that left the series had counted. */
    private double left;

    /** Each present container's last value. */
    private final Map<String, Double> last = new HashMap<>();

    /** The series' counter now, from each present container's value; NaN if any lacks it. */
    double count(Map<String, Double> now) {
      for (Iterator<Map.Entry<String, Double>> it = last.entrySet().iterator(); it.hasNext(); ) {
        Map.Entry<String, Double> e = it.next();
        Double v = now.get(e.getKey());
        if (v == null || v < e.getValue()) { // left, or made again (its counter went back)
          left += e.getValue();
          it.remove();
        }
      }
      double total = left;
      for (Map.Entry<String, Double> e : now.entrySet()) {
        if (!Double.isNaN(e.getValue())) {
          last.put(e.getKey(), e.getValue());
        }
        total += e.getValue();
      }
      return total;
    }
  }
}
