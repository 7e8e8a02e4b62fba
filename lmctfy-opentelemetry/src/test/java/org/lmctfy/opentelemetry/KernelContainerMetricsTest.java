package org.lmctfy.opentelemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.DoublePointData;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.PointData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.lmctfy.ContainerApi;
import org.lmctfy.ContainerProcess;
import org.lmctfy.StatsType;
import org.lmctfy.cgroupfs.CgroupFs;
import org.lmctfy.metrics.ContainerSelection;
import org.lmctfy.spec.ContainerSpec;
import org.lmctfy.spec.ContainerStats;
import org.lmctfy.spec.RunSpec;
import org.lmctfy.testing.junit.ScratchCgroups;

/**
 * The instruments of real containers on this machine's kernel, below a scratch parent: each point
 * equals its figure of {@code api.stats()}, and a destroyed container's points stop.
 */
@Tag("kernel")
@Tag("needs-controllers") // its containers have limits: not on v2-bare, where the API refuses them
class KernelContainerMetricsTest {

  /**
   * Each meter's figure of the stats, as docs/metrics.md has it; absent where the stats lack it.
   */
  private static Map<String, Double> figures(ContainerStats s) {
    Map<String, Double> out = new HashMap<>();
    out.put("container.cpu.time", s.cpu().totalNs() / 1e9);
    out.put("container.memory.usage", (double) s.memory().usage());
    out.put("container.memory.working_set", (double) s.memory().workingSet());
    if (s.memory().effectiveLimit() >= 0) {
      out.put("container.memory.limit", (double) s.memory().effectiveLimit());
      out.put(
          "container.memory.available",
          Math.max(0.0, s.memory().effectiveLimit() - s.memory().workingSet()));
    }
    out.put("container.task.count", (double) s.pids().current());
    if (s.pids().limit() >= 0) {
      out.put("container.task.limit", (double) s.pids().limit());
    }
    if (s.pressure() != null) { // the unified hierarchy's PSI files, where the kernel has them
      for (var r :
          Map.of(
                  "cpu",
                  s.pressure().cpu(),
                  "memory",
                  s.pressure().memory(),
                  "io",
                  s.pressure().io())
              .entrySet()) {
        if (r.getValue() != null && r.getValue().some() != null) {
          out.put(
              "container." + r.getKey() + ".linux.pressure some",
              r.getValue().some().totalNs() / 1e9);
        }
        if (r.getValue() != null && r.getValue().full() != null) {
          out.put(
              "container." + r.getKey() + ".linux.pressure full",
              r.getValue().full().totalNs() / 1e9);
        }
      }
    }
    return out;
  }

  /** One collection's points of one container, keyed as {@link #figures} keys them. */
  private static Map<String, Double> points(Collection<MetricData> metrics, String container) {
    Map<String, Double> out = new HashMap<>();
    for (MetricData m : metrics) {
      for (PointData p : m.getData().getPoints()) {
        if (!container.equals(
            p.getAttributes().get(AttributeKey.stringKey(ContainerSelection.CONTAINER_NAME)))) {
          continue;
        }
        String stall =
            p.getAttributes().get(AttributeKey.stringKey("system.linux.pressure.stall_type"));
        out.put(
            m.getName().replaceFirst("\\.total$", "") + (stall == null ? "" : " " + stall),
            p instanceof DoublePointData d
                ? d.getValue()
                : (double) ((LongPointData) p).getValue());
      }
    }
    return out;
  }

  @Test
  void eachPointEqualsItsFigureOfApiStatsAndADestroyedContainersPointsStop() throws Exception {
    CgroupFs fs = ScratchCgroups.requireHost();
    try (ScratchCgroups scratch = ScratchCgroups.on(fs);
        ContainerApi api = ContainerApi.open(fs, scratch.path())) {
      api.create("/batch", ContainerSpec.empty());
      api.create("/batch/web", ContainerSpec.parse("memory { limit: 64M } pids { limit: 32 }"));
      api.create("/batch/job", ContainerSpec.parse("cpu { max_limit: 500 } memory { limit: -1 }"));
      ContainerProcess sleeper =
          api.get("/batch/web").run(List.of("/bin/sh", "-c", "exec sleep 300"), RunSpec.detached());
      try {
        ContainerProcess work =
            api.get("/batch/job")
                .run(
                    List.of("/bin/sh", "-c", "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done"),
                    RunSpec.detached());
        assertThat(work.waitFor()).isZero();
        InMemoryMetricReader reader = InMemoryMetricReader.create();
        try (SdkMeterProvider provider =
            SdkMeterProvider.builder().registerMetricReader(reader).build()) {
          ContainerMetrics.builder(
                  api,
                  ContainerSelection.childrenOf("/batch").withContainerNameTag(),
                  OpenTelemetrySdk.builder().setMeterProvider(provider).build())
              .build();

          for (String c : List.of("/batch/web", "/batch/job")) {
            // the containers are still (a sleeping process, an ended one): stats before and
            // after the collection agree, or the test collects again
            Map<String, Double> before = null;
            Map<String, Double> points = null;
            Map<String, Double> after = null;
            for (int attempt = 0;
                attempt < 5 && (before == null || !before.equals(after));
                attempt++) {
              before = figures(api.stats(List.of(c), StatsType.SUMMARY).get(c));
              points = points(reader.collectAllMetrics(), c);
              after = figures(api.stats(List.of(c), StatsType.SUMMARY).get(c));
            }
            assertThat(points).as(c).isEqualTo(after);
          }
          Collection<MetricData> metrics = reader.collectAllMetrics();
          assertThat(points(metrics, "/batch/job").get("container.cpu.time")).isPositive();
          assertThat(points(metrics, "/batch/web").get("container.task.count")).isEqualTo(1.0);

          api.destroy("/batch/job");
          metrics = reader.collectAllMetrics();
          assertThat(points(metrics, "/batch/job")).isEmpty();
          assertThat(points(metrics, "/batch/web")).containsKey("container.memory.usage");
        }
      } finally {
        api.destroy("/batch"); // kills the sleeper
        sleeper.waitFor();
      }
    }
  }
}
