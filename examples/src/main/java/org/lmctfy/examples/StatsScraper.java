package org.lmctfy.examples;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.lmctfy.ContainerApi;
import org.lmctfy.ListPolicy;
import org.lmctfy.StatsType;
import org.lmctfy.spec.ContainerStats;

/**
 * Prints one table row per container (CPU seconds, memory use and limit, tasks), read in one {@link
 * ContainerApi#stats} call, as a monitoring agent would: {@code java -cp examples/target/lmctfy.jar
 * org.lmctfy.examples.StatsScraper} (as root).
 */
public final class StatsScraper {
  private StatsScraper() {}

  public static void main(String[] args) {
    ExampleMain.run(
        "StatsScraper   (as root)",
        0,
        args,
        () -> {
          try (ContainerApi api = ContainerApi.open()) {
            printTable(api, System.out);
            return 0;
          }
        });
  }

  /** Prints the table of every container below the root; {@code -} where a value is absent. */
  public static void printTable(ContainerApi api, PrintStream out) {
    List<String> names = new ArrayList<>(api.get("/").listSubcontainers(ListPolicy.RECURSIVE));
    Map<String, ContainerStats> stats = api.stats(names, StatsType.SUMMARY);
    out.printf("%-30s %10s %14s %14s %6s%n", "container", "cpu_s", "memory", "limit", "tasks");
    for (Map.Entry<String, ContainerStats> e : stats.entrySet()) {
      ContainerStats s = e.getValue();
      out.printf(
          "%-30s %10s %14s %14s %6s%n",
          e.getKey(),
          s.cpu() == null ? "-" : String.format("%.3f", s.cpu().totalNs() / 1e9),
          s.memory() == null ? "-" : s.memory().usage(),
          s.memory() == null || s.memory().limit() == null ? "-" : s.memory().limit(),
          s.pids() == null ? "-" : s.pids().current());
    }
  }
}
