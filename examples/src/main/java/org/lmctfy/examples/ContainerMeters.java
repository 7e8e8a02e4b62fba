package org.lmctfy.examples;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintStream;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.lmctfy.Container;
import org.lmctfy.ContainerApi;
import org.lmctfy.ListPolicy;
import org.lmctfy.ResourceHandle;
import org.lmctfy.StatsType;
import org.lmctfy.metrics.ContainerSelection;
import org.lmctfy.micrometer.ContainerMetrics;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.ContainerStats;
import org.lmctfy.spec.ContainerStats.Stall;
import org.lmctfy.spec.RunSpec;

/**
 * Prints the Micrometer meters of a parent's children beside what {@code api.stats()} says of them:
 * {@code java -cp "examples/target/classes:$(cat examples/target/test-classpath.txt)"
 * org.lmctfy.examples.ContainerMeters <parent>} (as root, after {@code mvn -B verify}: the tool's
 * jar carries no Micrometer). {@code --demo} makes a parent, {@code /lmctfy-metrics-demo-<pid>},
 * with a web container (a sleeping process, limits) and a job that used some CPU, prints its
 * children's meters and destroys it.
 */
public final class ContainerMeters {
  private ContainerMeters() {}

  /** What each meter is of the stats: the field and its value (docs/metrics.md has the table). */
  private static final Map<String, Function<ContainerStats, Object>> FIELDS =
      Map.ofEntries(
          Map.entry("container.cpu.time", s -> "cpu.total_ns " + s.cpu().totalNs()),
          Map.entry("container.memory.usage", s -> "memory.usage " + s.memory().usage()),
          Map.entry(
              "container.memory.working_set", s -> "memory.working_set " + s.memory().workingSet()),
          Map.entry(
              "container.memory.limit",
              s -> "memory.effective_limit " + s.memory().effectiveLimit()),
          Map.entry(
              "container.memory.available",
              s ->
                  "effective_limit - working_set "
                      + (s.memory().effectiveLimit() - s.memory().workingSet())),
          Map.entry("container.task.count", s -> "pids.current " + s.pids().current()),
          Map.entry("container.task.limit", s -> "pids.limit " + s.pids().limit()),
          Map.entry(
              "container.cpu.linux.pressure{some}",
              s -> stall("cpu.some", s.pressure().cpu().some())),
          Map.entry(
              "container.cpu.linux.pressure{full}",
              s -> stall("cpu.full", s.pressure().cpu().full())),
          Map.entry(
              "container.memory.linux.pressure{some}",
              s -> stall("memory.some", s.pressure().memory().some())),
          Map.entry(
              "container.memory.linux.pressure{full}",
              s -> stall("memory.full", s.pressure().memory().full())),
          Map.entry(
              "container.io.linux.pressure{some}", s -> stall("io.some", s.pressure().io().some())),
          Map.entry(
              "container.io.linux.pressure{full}",
              s -> stall("io.full", s.pressure().io().full())));

  public static void main(String[] args) {
    ExampleMain.run(
        "ContainerMeters <parent> | --demo   (as root)",
        1,
        args,
        () -> {
          try (ContainerApi api = ContainerApi.open()) {
            if (args[0].equals("--demo")) {
              demo(api, System.out);
            } else {
              print(api, args[0], System.out);
            }
            return 0;
          }
        });
  }

  /**
   * Makes {@code /lmctfy-metrics-demo-<pid>} with {@code web} (a sleeping process, 64 MiB, 32
   * tasks) and {@code job} (a loop that ended, half a CPU), prints its meters, destroys it.
   */
  public static void demo(ContainerApi api, PrintStream out) throws InterruptedException {
    String parent = "/lmctfy-metrics-demo-" + ProcessHandle.current().pid();
    try (ResourceHandle<Container> demo = api.createHandle(parent, ContainerSpec.empty())) {
      Container web =
          api.create(
              parent + "/web", ContainerSpec.parse("memory { limit: 64M } pids { limit: 32 }"));
      Container job =
          api.create(
              parent + "/job", ContainerSpec.parse("cpu { max_limit: 500 } memory { limit: -1 }"));
      web.run(List.of("/bin/sh", "-c", "exec sleep 60"), RunSpec.detached()); // ended by destroy
      job.run(
              List.of("/bin/sh", "-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"),
              RunSpec.detached())
          .waitFor();
      print(api, parent, out);
    } // destroys the parent, its children and the sleeping process
  }

  /** Prints each child's meters of {@code parent} and, beside each, the figure of its stats. */
  public static void print(ContainerApi api, String parent, PrintStream out) {
    MeterRegistry registry = new SimpleMeterRegistry();
    ContainerMetrics.builder(api, ContainerSelection.childrenOf(parent).withContainerNameTag())
        .build() // api: a ContainerApi, open while the registry polls the meters
        .bindTo(registry);

    List<String> children = api.get(parent).listSubcontainers(ListPolicy.SELF);
    Map<String, ContainerStats> stats = api.stats(children, StatsType.SUMMARY);
    Map<String, List<Meter>> byContainer = new TreeMap<>();
    for (Meter m : registry.getMeters()) {
      String name = m.getId().getTag(ContainerSelection.CONTAINER_NAME);
      if (name != null) {
        byContainer.computeIfAbsent(name, k -> new java.util.ArrayList<>()).add(m);
      }
    }
    out.printf(
        "lmctfy.container.count = %s%n", value(registry.get("lmctfy.container.count").meter()));
    for (Map.Entry<String, List<Meter>> e : byContainer.entrySet()) {
      out.println(e.getKey());
      e.getValue().sort(Comparator.comparing(ContainerMeters::label));
      for (Meter m : e.getValue()) {
        out.printf(
            "  %-44s %16s %-8s  %s%n",
            label(m),
            value(m),
            m.getId().getBaseUnit(),
            FIELDS.get(label(m)).apply(stats.get(e.getKey())));
      }
    }
  }

  private static String label(Meter m) {
    String stall = m.getId().getTag("system.linux.pressure.stall_type");
    return m.getId().getName() + (stall == null ? "" : "{" + stall + "}");
  }

  private static String value(Meter m) {
    double v = m.measure().iterator().next().getValue();
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
  }

  private static String stall(String which, Stall stall) {
    return "pressure." + which + ".total_ns " + stall.totalNs();
  }
}
